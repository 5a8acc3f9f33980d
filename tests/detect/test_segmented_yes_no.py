"""A segmented yes/no question is an ordinary :class:`DeclaredRequest` that says how it was read
(``yes_or_no``), not an object of a private class that compares unequal to the request of its
text."""

from __future__ import annotations

from harness.detect.missed import DeclaredRequest, check_turns, missed_requests
from harness.detect.transcript import Message, Transcript

ASKED = "Has UA 15 boarded yet? And what gate does UA 15 leave from?"


def _turn(text: str, *said: str) -> Transcript:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=text)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    return Transcript(conversation="c", messages=messages)


def test_a_segmented_yes_no_question_equals_the_declared_request_of_its_text() -> None:
    [turn] = check_turns(_turn(ASKED, "It leaves from gate B12."))
    texts = [r.text for r in turn.requests]
    assert turn.requests == [DeclaredRequest(text=t) for t in texts]
    assert [r.yes_or_no for r in turn.requests] == [True, False]
    assert len({*turn.requests, *(DeclaredRequest(text=t) for t in texts)}) == len(texts)


def test_the_yes_no_reading_still_makes_a_question_ask_for_an_answer() -> None:
    # "Has UA 15 boarded yet": the needs model never saw the id, the yes/no reading asks for it.
    found = missed_requests(_turn(ASKED, "It leaves from gate B12."))
    assert [f.evidence.split('"')[1] for f in found] == ["Has UA 15 boarded yet"]
    assert not missed_requests(_turn(ASKED, "Yes, it has boarded.", "It leaves from gate B12."))


def test_a_turn_copied_with_replace_keeps_the_reading() -> None:
    [turn] = check_turns(_turn(ASKED, "Yes, it has boarded.", "It leaves from gate B12."))
    cut = turn._replace(said=turn.said[1:])
    assert [r.yes_or_no for r in cut.requests] == [True, False]
    found = missed_requests(_turn(ASKED, "It leaves from gate B12."), turns=[cut])
    assert [f.evidence.split('"')[1] for f in found] == ["Has UA 15 boarded yet"]

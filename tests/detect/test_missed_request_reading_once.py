"""The missed-request check reads a text once where it can, with the same results (issue 24).

The check segments every user turn of a conversation before it matches any, and the matching
reads the needs model again on the requests it segmented: the model's readings must still be
remembered then, however long the conversation. A yes/no question's first word is read before
the rest of the piece (:func:`~harness.detect._asked.polar_question`); the property test holds
that cheap test to the full reading on generated pieces. Texts written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.detect import _needs
from harness.detect._asked import _MODALS, _NOUN_OPENERS, _PERSONAL, _POLAR, polar_question
from harness.detect.missed import DeclaredRequest, _segmented, check_turns
from harness.detect.requests import NeedsModel, needs_answer, segment_requests
from harness.detect.transcript import Message, Transcript
from harness.text._shapes import WORD

# Request texts as many as the segmented requests of a conversation of about 100,000 messages
# (27,500 distinct ones in the real-text benchmark): more than the former cache kept.
_LONG = 30_000


def test_the_needs_models_readings_of_a_long_conversation_are_made_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every request text read while segmenting, then all of them again while matching: the
    model reads each once."""
    reads: list[str] = []
    plain = NeedsModel.probability

    def counted(self: NeedsModel, text: str) -> float:
        reads.append(text)
        return plain(self, text)

    monkeypatch.setattr(NeedsModel, "probability", counted)
    _needs.needs_answer.cache_clear()
    _needs.needs_probability.cache_clear()
    texts = [f"can you check order {n} for me" for n in range(_LONG)]
    first = [needs_answer(t) for t in texts]  # segmenting every turn
    again = [needs_answer(t) for t in texts]  # matching every turn
    assert again == first
    assert len(reads) == _LONG


def _polar_question_in_full(text: str) -> bool:
    """:func:`polar_question` as it read every piece before its first-word test (the reference
    the cheap test must agree with)."""
    toks = WORD.findall(text[:80])
    if len(toks) < 3:
        return False
    first, second = toks[0].lower(), toks[1]
    low = second.lower()
    if first not in _POLAR and first not in _MODALS:
        return False
    if first in ("have", "has", "had") and second.isdigit():
        return False
    if first == "have" and low == "it":
        return False
    named = low not in _PERSONAL and (second[0].isupper() or any(map(str.isdigit, second)))
    if first in _POLAR:
        third = toks[2]
        id_after = any(map(str.isdigit, third)) or (len(third) > 1 and third.isupper())
        return low in _NOUN_OPENERS or low in _PERSONAL or named or id_after
    return low in _NOUN_OPENERS


_WORDS = [
    *sorted(_POLAR | _MODALS),
    "Is",
    "WILL",
    "Has",
    "the",
    "it",
    "you",
    "UA",
    "15",
    "INV-2231",
    "have",
    "do",
    "book",
    "table",
    "isn't",
    "can't",
    "$40",
    "Leeds",
]
_GAPS = st.sampled_from([" ", "  ", ", ", "? ", ". ", "-", "'", " " * 30])


@st.composite
def _pieces(draw: st.DrawFn) -> str:
    """A piece of a message: words that open yes/no questions and others, with gaps of spaces
    and marks (long ones too, so that the 80 characters read may cut a word)."""
    words = draw(st.lists(st.sampled_from(_WORDS), max_size=8))
    gaps = draw(st.lists(_GAPS, min_size=len(words) + 1, max_size=len(words) + 1))
    return gaps[0] + "".join(w + g for w, g in zip(words, gaps[1:], strict=True))


@settings(max_examples=400, deadline=None)
@given(_pieces())
def test_the_first_word_test_reads_as_the_full_reading(piece: str) -> None:
    assert polar_question(piece) == _polar_question_in_full(piece)


@pytest.mark.parametrize(
    "piece",
    [
        "Will the 7:45 train stop at Leeds",
        "Has UA 15 boarded yet",
        "Could the room be ready by noon",
        "can you make it 9:30",
        " " * 78 + "is it open today",
        "x" * 76 + " is it",
        "",
        "is it",
    ],
)
def test_examples_read_as_the_full_reading(piece: str) -> None:
    assert polar_question(piece) == _polar_question_in_full(piece)


def _message(n: int, turn: int, role: str, text: str) -> Message:
    return Message(id=f"m{n}", turn=turn, role=role, sender=role, text=text)


@pytest.mark.parametrize("ran_to_end", [False, True])
def test_every_message_cut_ahead_is_read_as_cut_alone(ran_to_end: bool) -> None:
    """The turns' messages are cut into pieces in one pass before they are read further: each
    turn's requests are those of its message segmented alone, for turns declared, turns the
    bot left unanswered before its last reply, and turns after it (judged only when the
    conversation ran to its end)."""
    users = {
        1: "What time does the pool open, and can I book a massage for 4 pm?",
        2: "Is breakfast included and where do I park?",
        3: "How much is the late checkout",
        4: "Thanks! Also, could you call me a taxi for 7 am tomorrow?",
        5: "And what is the wifi password, and is the gym open all night?",
    }
    said = {1: ["The pool opens at 7 am."], 2: ["Breakfast is included."], 4: ["Booked."]}
    messages = []
    for turn, text in users.items():
        messages.append(_message(len(messages), turn, "user", text))
        messages += [_message(len(messages), turn, "bot", t) for t in said.get(turn, [])]
    declared = {2: [DeclaredRequest(text="is breakfast included")]}
    turns = check_turns(Transcript(messages=messages), declared=declared, ran_to_end=ran_to_end)
    judged = [1, 2, 3, 4, 5] if ran_to_end else [1, 2, 3, 4]
    assert [t.turn for t in turns] == judged
    for t in turns:
        if t.turn in declared:
            assert t.requests == declared[t.turn]
            continue
        alone = _segmented(users[t.turn], prompts=said.get(t.turn - 1, []))
        assert [r.text for r in t.requests] == [r.text for r in alone]
        assert len(t.requests) >= 1
    assert any(len(t.requests) > 1 for t in turns)


def test_pieces_given_are_read_as_those_cut_here() -> None:
    text = "Could housekeeping bring two towels, and a late checkout at 1pm please?"
    assert _segmented(text, pieces=segment_requests(text)) == _segmented(text)

"""One sentence answering two requests, one clause each, where the matcher reads both clauses as
the first request's (``harness.detect._units.clause_answer``)."""

from __future__ import annotations

from harness.detect._reply_parts import part_clauses, reply_parts
from harness.detect.missed import missed_requests
from harness.detect.transcript import Message, Transcript

ASKED = "Which airport does it leave from, and where does it land?"
BOTH = "It leaves from Logan International Airport, and arrives at Midway International Airport."


def _flagged(user: str, *said: str) -> list[str]:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=user)]
    messages += [
        Message(id=f"b{n}", turn=1, role="bot", sender="bot", text=text)
        for n, text in enumerate(said)
    ]
    found = missed_requests(Transcript(conversation="c", messages=messages))
    return [f.evidence.split('"')[1] for f in found]


def test_a_second_clause_answers_the_request_its_words_did_not_name() -> None:
    """Both clauses share "airport" with the first request and none of the second's words; the
    second clause, read without the first request, answers "where does it land" (flagged
    before: the matching gave the first request one clause and left the other unused)."""
    assert _flagged(ASKED, BOTH) == []


def test_the_first_clause_alone_still_leaves_the_landing_unanswered() -> None:
    """The drop: one clause answers one request, and nothing is left to read again."""
    assert _flagged(ASKED, "It leaves from Logan International Airport.") == ["where does it land"]


def test_parts_know_their_sentence_and_clause() -> None:
    """A sentence cut at ", and" into two claims stays one sentence with two clauses; a value
    cut from a clause stays in its clause; the numbering runs across messages and lines up
    with the parts the check matches."""
    said = [BOTH, "Booking a table for 2 at Kirin in Mountain View. Enjoy the meal."]
    parts = [text for text, _, _, _ in reply_parts(said)]
    clauses = part_clauses(said)
    assert len(clauses) == len(parts)
    by_part = dict(zip(parts, clauses, strict=True))
    first, second = (
        by_part["It leaves from Logan International Airport"],
        by_part["arrives at Midway International Airport."],
    )
    assert first[0] == second[0] and first[1] != second[1]
    table, place = by_part["Booking a table for 2"], by_part["at Kirin in Mountain View."]
    assert table == place
    assert table[0] not in (first[0], by_part["Enjoy the meal."][0])

"""A refusal is no answer: the missed-request check reads "I can't help with that" (and the
runtime's own ``I can't help with "..." here.``) as declining the request, not addressing it."""

from __future__ import annotations

import pytest

from harness.detect._declines import declines
from harness.detect.missed import missed_requests
from harness.detect.transcript import Message, Transcript


def _missed(asked: str, *said: str) -> list[tuple[str, str | None]]:
    """The requests of ``asked`` the check reports, with each finding's cause hint."""
    messages = [Message(id="u", turn=1, role="user", sender="user", text=asked)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    found = missed_requests(Transcript(conversation="c", messages=messages))
    return [(f.evidence.split('"')[1], f.cause) for f in found]


@pytest.mark.parametrize(
    "part",
    [
        "Sorry, I can't help with that.",
        'I can\'t help with "where is the cloakroom" here.',
        "I'm afraid we are unable to assist with group bookings",
        "That's not something I can help with.",
        "Unfortunately I’m not able to answer that",
        "Sorry, I'm not sure how to help with that.",
    ],
)
def test_a_refusal_of_service_declines(part: str) -> None:
    assert declines(part)


@pytest.mark.parametrize(
    "part",
    [
        "I couldn't find any rooms for the 12th.",  # a result: the search ran
        "Sorry, the deposit cannot be returned.",  # a no, not a refusal
        "The upgrade failed.",
        "I can help with that.",
        "We can't do Tuesday, but Wednesday at 3 pm is free.",
        "So I can't help you with anything else today?",  # a closer offering more
    ],
)
def test_a_reported_result_does_not_decline(part: str) -> None:
    assert not declines(part)


def test_we_dont_handle_it_is_a_no_to_a_yes_no_question() -> None:
    assert declines("We don't handle airport transfers.")
    assert not declines("We don't handle airport transfers.", polar=True)
    assert _missed("Do you handle airport transfers?", "We don't handle airport transfers.") == []


@pytest.mark.parametrize(
    "said",
    [
        ("Sorry, I can't help with that.",),
        ('I can\'t help with "Where is the nearest cash machine?" here.',),
        ("That's not something I can help with. Could you rephrase?",),
        ("I'm not able to help with it, sorry.",),
    ],
)
def test_one_request_answered_only_by_a_refusal_is_missed(said: tuple[str, ...]) -> None:
    """Named or not ("that", "it"), a refusal of the only request leaves it unanswered."""
    assert _missed("Where is the nearest cash machine?", *said) == [
        ("Where is the nearest cash machine", "the bot declined it")
    ]


def test_a_refusal_with_an_answer_beside_it_answers() -> None:
    """ "I can't help with that, but ..." goes on to answer: the request is addressed. A reported
    failure still counts as an answer to a yes/no question."""
    said = "I can't help with that here, but there is a cash machine inside the station."
    assert _missed("Where is the nearest cash machine?", said) == []
    assert _missed("Where is the nearest cash machine?", "Sorry, I can't help with that.") != []
    assert _missed("Is the deposit refundable?", "Sorry, the deposit cannot be returned.") == []


def test_a_refusal_quoting_the_request_does_not_answer_it_among_two() -> None:
    """The runtime's own fallback quotes the request; its words are no answer."""
    asked = "What time does the sauna open and where can I leave my bike?"
    opens = "The sauna opens at 9 am."
    declined = 'I can\'t help with "where can I leave my bike" here.'
    assert _missed(asked, opens, declined) == [("where can I leave my bike", "the bot declined it")]
    assert _missed(asked, opens, "Bikes go in the shed behind reception.") == []


def test_a_refusal_that_names_nothing_answers_neither_request() -> None:
    asked = "Book me a massage for Friday and what's the wifi password?"
    said = ("The wifi password is harbour42.", "Sorry, I'm unable to assist with spa bookings.")
    assert _missed(asked, *said) == [("Book me a massage for Friday", "the bot declined it")]


def test_a_statement_beside_a_refused_question_does_not_answer_it() -> None:
    """A part that asks for no answer ("Next bus to the airport please") takes the answer given
    to it, and the refusal of the other request leaves that one missed."""
    asked = "Next bus to the airport please, and can I pay the fare by card?"
    said = (
        "The next airport bus leaves at 10:40 from stop C.",
        "Sorry, I'm not able to help with paying fares by card.",
    )
    assert _missed(asked, *said) == [("can I pay the fare by card", "the bot declined it")]

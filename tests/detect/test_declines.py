"""A refusal is no answer: the missed-request check reads "I can't help with that" (and the
runtime's own ``I can't help with "..." here.``) as declining the request, not addressing it."""

from __future__ import annotations

import pytest

from harness.detect._declines import OF_THE_BOT, YES_NO, decline_clause, declines
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
    assert not declines("We don't handle airport transfers.", polar=OF_THE_BOT)
    assert _missed("Do you handle airport transfers?", "We don't handle airport transfers.") == []


def test_a_no_answers_any_yes_no_question_a_refusal_alone_only_one_about_the_bot() -> None:
    # After an explicit "no", a refusal answers a yes/no question about anything ...
    assert not declines("No, sorry, we can't handle pet bookings.", polar=YES_NO)
    assert (
        _missed("Can I book a room with my cat?", "No, sorry, we can't handle pet bookings.") == []
    )
    assert _missed("Is parking free?", "No, I'm not able to help with free parking.") == []
    # ... without one, only a question about what the bot does reads it as a no.
    assert declines("I don't handle ferry timetables.", polar=YES_NO)
    assert _missed("Is the ferry running today?", "I don't handle ferry timetables.") == [
        ("Is the ferry running today", "the bot declined it")
    ]
    assert _missed("Do you handle ferry timetables?", "I don't handle ferry timetables.") == []


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


def test_a_refusal_of_something_else_is_not_the_cause() -> None:
    """The refusal names spa bookings, not the massage: the massage is missed, and its cause is
    not that the bot declined it (the words of the decline do not name it)."""
    asked = "Book me a massage for Friday and what's the wifi password?"
    said = ("The wifi password is harbour42.", "Sorry, I'm unable to assist with spa bookings.")
    assert _missed(asked, *said) == [("Book me a massage for Friday", None)]


def test_a_statement_beside_a_refused_question_does_not_answer_it() -> None:
    """A part that asks for no answer ("Next bus to the airport please") takes the answer given
    to it, and the refusal of the other request leaves that one missed."""
    asked = "Next bus to the airport please, and can I pay the fare by card?"
    said = (
        "The next airport bus leaves at 10:40 from stop C.",
        "Sorry, I'm not able to help with paying fares by card.",
    )
    assert _missed(asked, *said) == [("can I pay the fare by card", "the bot declined it")]


# The neighbours of a refusal (s61-mend-refuse): each of these reads as an answer, or keeps its
# finding with the right cause.


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        (
            "How much is a day pass for the pool?",
            "I can't help with gym memberships, a day pass is £6.",
        ),
        (
            "When does the library shut?",
            "We can't deal with renewals here - the library shuts at 8.",
        ),
        (
            "When is the surgery open on Friday?",
            "I'm unable to help with bookings: it's open 9 to 5.",
        ),
        (
            "Is the 9:40 to Bristol running?",
            "Sorry, I can't help with that because it's cancelled.",
        ),
    ],
)
def test_a_refusal_covers_only_its_own_clause(asked: str, said: str) -> None:
    """Cut at a comma, dash, colon or "because", the rest of the sentence still answers."""
    assert _missed(asked, said) == []


def test_the_rest_of_a_refused_sentence_answers_among_two() -> None:
    asked = "What time does the museum open and how much is a ticket?"
    said = "We can't handle group tours, the museum opens at 10 am and a ticket is £9."
    assert _missed(asked, said) == []


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("Do you repair carbon frames?", "No, we can't handle carbon frames."),
        ("Do you take groups of twenty?", "We can't deal with groups that large."),
        ("Do you do gift wrapping?", "Sorry, we can't handle gift wrapping."),
    ],
)
def test_a_no_to_a_yes_no_question_about_the_bot_answers(asked: str, said: str) -> None:
    assert _missed(asked, said) == []


def test_a_no_answers_beside_another_answer() -> None:
    asked = "Do you price match and what are your opening hours?"
    assert _missed(asked, "We're open 8 to 6.", "No, we can't help with price matching.") == []


@pytest.mark.parametrize(
    "said",
    [
        "Sorry, I couldn't do that.",
        "Sorry, but I was unable to do that.",
        "Sorry, I could not help with that: Thursday is fully booked.",
    ],
)
def test_a_failure_notice_is_the_reply(said: str) -> None:
    """A past failure is a result (docs item 4), not a refusal."""
    assert not declines(said)
    assert _missed("Move my appointment to Thursday", said) == []


@pytest.mark.parametrize(
    "said",
    [
        ("I can't help with that without your booking reference.",),
        ("I can't help with that until I have your member number.",),
        ("I'm not able to help with that unless you verify your identity.",),
        ("Sorry, I can't deal with that yet.", "Which card number is it on?"),
    ],
)
def test_a_condition_or_a_question_back_is_no_refusal(said: tuple[str, ...]) -> None:
    assert _missed("Cancel my gym membership please", *said) == []


@pytest.mark.parametrize(
    "said",
    ["I can't help recommending Catbells.", "I can't help but suggest Catbells."],
)
def test_cant_help_with_a_verb_in_ing_is_the_idiom(said: str) -> None:
    assert not declines(said)
    assert _missed("Which hike should I do near Keswick?", said) == []


def test_the_runtime_fallback_with_its_handoff_line_is_a_refusal() -> None:
    """The documented ``handoff`` line after the runtime's quoted refusal says where to go, it
    answers nothing."""
    said = (
        'I can\'t help with "Is my kayak allowed on the ferry" here. For anything else, call'
        " FerryLine on 0800 555 0199."
    )
    assert _missed("Is my kayak allowed on the ferry?", said) == [
        ("Is my kayak allowed on the ferry", "the bot declined it")
    ]


@pytest.mark.parametrize(
    "footer", ["Please note I can't help with refunds.", "Sorry, I can't help with that."]
)
def test_a_decline_is_the_cause_only_of_the_request_it_names(footer: str) -> None:
    asked = "When is the next bus to Ripon and how much is a single?"
    said = ("The next bus to Ripon leaves at 11:05.", footer)
    assert _missed(asked, *said) == [("how much is a single", None)]
    named = "Sorry, I can't help with single fares."
    assert _missed(asked, said[0], named) == [("how much is a single", "the bot declined it")]


def test_anything_else_is_a_closer_only_when_asked() -> None:
    assert declines("Sorry, I can't help with anything else today.")
    assert declines("So I can't help you with anything else today? Sorry, I can't help with it.")
    assert not declines("So I can't help you with anything else today?")


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("Which lounge can I use?", "I'm afraid I can't help with first-class lounge access."),
        ("Can I upgrade my seat?", "Sorry, I can't help with first-class upgrades."),
        ("Which wetsuit suits me?", "I'm afraid I can't deal with so-called fitting advice."),
        ("Do the jeans run small?", "Sorry, I can't help with plus-size ranges or tailoring."),
    ],
)
def test_a_word_of_a_hyphened_compound_neither_cuts_nor_conditions(asked: str, said: str) -> None:
    """ "first-class" is no condition, "so-called" ends no clause and "plus-size" joins nothing:
    the one request is declined."""
    assert _missed(asked, said) == [(asked.rstrip("?"), "the bot declined it")]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("What time is checkout?", "I can't help with taxis and checkout is at 11 am."),
        ("How much is a day ticket?", "I can't help with season tickets so a day ticket costs £6."),
        (
            "What's the bus fare?",
            "I can't help with bus passes since the single fare costs £2 anyway.",
        ),
        (
            "How do I replace my card?",
            "I'm afraid I can't handle card orders so just ring 0800 123 4567.",
        ),
        ("Can you move my appointment?", "I can't help with rebooking yet for Thursday slots."),
        (
            "Can you move my appointment?",
            "Sorry, I'm unable to deal with appointment changes yet on this line.",
        ),
    ],
)
def test_what_follows_a_refusal_in_its_sentence_is_not_declined_with_it(
    asked: str, said: str
) -> None:
    """After "and", "so" or "since" an answer or a redirect goes on (the reply's parts and the
    refusal's clause are cut there), and "yet" after what it qualifies is a condition: no
    finding. A refusal's clause is not told from a noun phrase here ("plumbing and heating
    jobs" is cut as well: docs/journal/simulate.md, s62)."""
    assert _missed(asked, said) == []


@pytest.mark.parametrize(
    "said",
    [
        "Sorry, I can't help with the transfer yet.",
        "I can't deal with that first, your card has to be verified.",
        "We can't handle it yet we need the deposit.",
    ],
)
def test_first_and_yet_after_what_they_qualify_are_a_condition(said: str) -> None:
    assert decline_clause(said) is None

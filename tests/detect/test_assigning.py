"""Which part of a reply in several messages goes with which request
(``harness.detect._assigning``): the rest of a sentence that answers a message's own request is
not another request's answer."""

from __future__ import annotations

import pytest

from harness.detect.missed import DeclaredRequest, check_turns, judge, missed_requests
from harness.detect.transcript import Message, Transcript


def _missing(requests: list[str], said: list[str]) -> set[str]:
    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}


# Each: the requests, the message answering the first (one sentence, cut at its values), the
# answer to the second (dropped below), the answer to the third.
ERRANDS = [
    (
        ["I need bus tickets to Boston", "book me a hotel room", "set an alarm for 7"],
        "2 bus tickets leaving at 9 am from Albany to Boston on April 4th.",
        "Your hotel room is booked.",
        "Your alarm is set for 7 am.",
    ),
    (
        ["I want to rent a car", "which holiday comes next", "add milk to my list"],
        'About "rent a small car in Tucson for April 3rd through 6th, Friday and Saturday": '
        "here is what I found.",
        "The next holiday is Memorial Day.",
        "Milk is on your list.",
    ),
    (
        ["find me a bus to Tampa", "open my savings account", "what's the time in Rome"],
        "I found 6 buses, one leaving at 7:15 am with 1 stop for $27",
        "Your savings account is open.",
        "It is 4 pm in Rome.",
    ),
]


@pytest.mark.parametrize(("requests", "first", "second", "third"), ERRANDS)
def test_the_rest_of_a_sentence_that_answers_its_request_answers_no_other(
    requests: list[str], first: str, second: str, third: str
) -> None:
    """A part cut from the sentence that answers the message's own request ("on April 4th",
    "for $27") sharing no word with any request does not stand for the answer to a request
    nothing answered (each drop was hidden before), and the fully answered turn stays clean
    whichever order the messages come in."""
    assert _missing(requests, [first, third]) == {requests[1]}
    assert _missing(requests, [first, second, third]) == set()
    assert _missing(requests, [third, second, first]) == set()


def test_a_value_of_the_kind_another_request_asks_for_still_answers_it() -> None:
    """A part of that sentence that gives what another request asks for (a time for "what
    time", an amount for "how much") keeps its own reading."""
    requests = ["book a table for two at Nonna's", "what time does the show begin", "order a cake"]
    said = [
        "Your table for two at Nonna's is booked for 6 pm, curtain at 7:30 pm.",
        "Cake ordered.",
    ]
    assert _missing(requests, said) == set()


# A clause after "and" with a subject and verb of its own answers the request it answers, even
# when it shares no word with it (the rule holds back value phrases only: "for 8 pm", "$27").
OWN_CLAUSES = [
    (
        ["what's my balance", "tell me about my next paycheck", "book a table for two"],
        [
            "Your balance is $40 and $1,250 in wages arrives Friday.",
            "Your table for two is booked.",
        ],
    ),
    (
        ["reserve a court for Saturday", "invite Sam", "what's the weather"],
        [
            "Court 4 is reserved for Saturday at 10 am and an invitation went to him.",
            "It is sunny and 20 degrees.",
        ],
    ),
    (
        ["rent a car in Austin", "get me travel insurance", "play some jazz"],
        [
            "Your car in Austin is rented for 3 days and a cover plan was added to the trip.",
            "Playing jazz now.",
        ],
    ),
]


@pytest.mark.parametrize(("requests", "said"), OWN_CLAUSES)
def test_a_clause_of_its_own_after_and_keeps_its_reading(
    requests: list[str], said: list[str]
) -> None:
    assert _missing(requests, said) == set()
    assert _missing(requests, said[::-1]) == set()


def _transcript(user: str, said: list[str]) -> Transcript:
    messages = [Message(id="u1", turn=1, role="user", sender="user", text=user)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=text)
        for i, text in enumerate(said)
    ]
    messages.append(Message(id="end", turn=2, role="bot", sender="bot", text="Bye."))
    return Transcript(conversation="c", messages=messages)


def test_a_turn_copied_with_replace_is_matched_again() -> None:
    """A checked turn copied with ``_replace`` carries no stored matching: it is matched again
    (on its new text), not read as an error."""
    user = "renew my gym pass and which pool opens first on Monday"
    full = ["Your gym pass is renewed until June.", "The Oak Road pool opens at 6 am."]
    (turn,) = check_turns(_transcript(user, full))
    cut = turn._replace(said=full[:1])
    transcript = _transcript(user, full[:1])
    assert missed_requests(transcript, turns=[cut]) == missed_requests(transcript)
    assert missed_requests(transcript)  # the cut turn drops the pool's answer


@pytest.mark.parametrize("again", ["Your current balance: $40.", "My balance lookup says $40 too."])
def test_the_rest_keeps_its_reading_when_another_message_answers_the_request_too(
    again: str,
) -> None:
    """When another message answers the same request, what this message shares with it may be
    chance: the rest of its sentence keeps its own reading."""
    requests = ["what's my balance", "tell me about my next paycheck", "book a table for two"]
    said = ["Your balance is $40 with $1,250 in wages arriving Friday.", "Your table is booked."]
    assert _missing(requests, [*said, again]) == set()


@pytest.mark.xfail(
    strict=True,
    reason="a true drop the check misses (a newcomer's transcript, 2026-12-04): a place phrase "
    "hung on another request's answer ('14 units at the Leeds warehouse') is taken as the answer "
    "to a 'where' question, in one message or two; the rest-of-sentence rule holds such parts "
    "only in a turn of several messages where no other message answers the same request",
)
def test_a_place_in_another_answer_does_not_answer_a_where_question() -> None:
    requests = ["Where is my order 5521", "do you have the blue kettle in stock"]
    said = [
        "The blue kettle (SKU K-220) is in stock: 14 units at the Leeds warehouse.",
        "Good news: the blue kettle (SKU K-220) is in stock, with 14 units at the Leeds "
        "warehouse. Anything else?",
    ]
    assert _missing(requests, said) == {"Where is my order 5521"}
    # The same reply without the place phrase is flagged today:
    assert _missing(requests, [s.replace(" at the Leeds warehouse", "") for s in said]) == {
        "Where is my order 5521"
    }


# Each: the requests and one message per request; the first message's question back after its
# own question ("Who should receive it?") stood for the answer to the last request, dropped.
GOING_ON = [
    (
        ["send 50 dollars to my sister", "find me a dentist", "turn on the porch light"],
        [
            "Which account should the 50 dollars come from? Who should receive it?",
            "Where would you like me to look?",
            "The porch light is on.",
        ],
    ),
    (
        [
            "I want tickets for the Lakers game",
            "find me a dog groomer",
            "what's the rate for euros",
        ],
        [
            "How many Lakers tickets would you like? Which section?",
            "What area should I search?",
            "One euro is 1.08 dollars.",
        ],
    ),
]


@pytest.mark.parametrize(("requests", "said"), GOING_ON)
def test_a_question_back_after_its_messages_own_question_goes_on_about_that_request(
    requests: list[str], said: list[str]
) -> None:
    """A question back sharing no word with any request, after a part of its message that very
    likely answers one request in its words, asks about that request: it does not stand in for
    the answer to a request the bot dropped (hidden before), and the fully answered turn and
    every other drop read as they did."""
    assert _missing(requests, said[:2]) == {requests[2]}
    assert _missing(requests, said) == set()
    assert _missing(requests, said[1:]) == {requests[0]}
    assert _missing(requests, [said[0], said[2]]) == {requests[1]}


def test_a_question_back_that_opens_its_message_keeps_its_reading() -> None:
    """A question back before any part about a request, or in a single message holding every
    answer, is left to the matcher: "Who should receive it?" first, or composed into one reply
    with another agent's answer, may be about any request."""
    requests = ["send 50 dollars to my sister", "find me a dentist"]
    assert (
        _missing(requests, ["Who should receive it? Which account?", "Where should I look?"])
        == set()
    )
    composed = "Which account should the 50 dollars come from? Where should I look for a dentist?"
    assert _missing(requests, [composed]) == set()

"""The check's segmenter on a participle's phrase that leads into a request ("Counting the
weekend, ..."), two days of one date ("the ninth and the tenth of May"), a greeting with the
bot's name standing alone ("hello, bot, ...") and a part after a comma that takes no frame
("find me a dentist, my tooth hurts") (``harness.detect._leads``, ``harness.detect._joining``,
``harness.detect._together``, ``harness.detect.requests``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    "message",
    [
        "Counting the weekend, how many days is my trip to Bergen",
        "Looking at last March, show me what I spent on fuel",
        "Leaving out the bonus, how much did I earn this year",
        "Paying for lunch at the deli, my card was refused",
        # a request verb's participle before a preposition, or before a part that asks nothing
        "Paying for parking downtown, how much is the fee per hour",
        "Buying a gift for my sister, my card got declined twice",
    ],
)
def test_a_participles_phrase_leads_into_the_request_after_its_comma(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a participle of seeking asks for something itself
        (
            "Looking for a cheap hostel, can you check the weather in Porto",
            ["Looking for a cheap hostel", "can you check the weather in Porto"],
        ),
        # the clause it leads into was said before the comma
        (
            "Driving to Leeds do I need a permit, what is my balance",
            ["Driving to Leeds do I need a permit", "what is my balance"],
        ),
        # a noun in -ing is no participle
        (
            "Something is wrong with the heater, what is my balance",
            ["Something is wrong with the heater", "what is my balance"],
        ),
        # a request said in -ing before a request of its own
        (
            "Requesting a refund for order 554, what is my balance",
            ["Requesting a refund for order 554", "what is my balance"],
        ),
        (
            "Booking a table for four at eight, what is the weather tomorrow",
            ["Booking a table for four at eight", "what is the weather tomorrow"],
        ),
        (
            "Looking up the weather in Paris, book me a hotel too",
            ["Looking up the weather in Paris", "book me a hotel too"],
        ),
        (
            "Cancelling my gym membership, whats the weather in Rome",
            ["Cancelling my gym membership", "whats the weather in Rome"],
        ),
        (
            "Making a reservation for six, I need a cab to the airport",
            ["Making a reservation for six", "I need a cab to the airport"],
        ),
    ],
)
def test_a_phrase_that_is_no_lead_in_stays_apart(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "book a desk for the third and the fourth of June",
        "take me off the rota on the 12th and 13th",
        "am I free on thursday or friday",
        "log a day off for October 2nd and 3rd",
    ],
)
def test_two_days_of_one_date_are_one_request(message: str) -> None:
    assert texts(message) == [message]


def test_a_day_and_a_question_after_and_are_two_requests() -> None:
    assert texts("set a reminder for the 3rd and what is the weather in Ghent") == [
        "set a reminder for the 3rd",
        "what is the weather in Ghent",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("hello, bot, how far is Lyon from Paris", ["how far is Lyon from Paris"]),
        (
            "good evening assistant, play some blues, and what is my balance",
            ["play some blues", "what is my balance"],
        ),
    ],
)
def test_a_greeting_with_the_bots_name_is_no_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "send me a plumber, the pipe under the sink is dripping",
        "find me a locksmith, my front door won't open",
        "I want to hear a song, a song by Nina Simone",
        # a pro-form after the comma refines the request
        "find me a hotel in rome, a cheap one",
        "add milk to my list, the organic one",
        "find me a dentist, the one near my office",
        "get me a taxi, a big one for six people",
    ],
)
def test_the_last_part_after_a_comma_takes_no_frame(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("turn off the lights, the heater", ["turn off the lights", "turn off the heater"]),
        (
            "cancel my gym class, my dentist appointment",
            ["cancel my gym class", "cancel my dentist appointment"],
        ),
        ("lock the front door, the garage door", ["lock the front door", "lock the garage door"]),
        ("play the first song, the second song", ["play the first song", "play the second song"]),
        (
            "show me my last payslip, my tax form",
            ["show me my last payslip", "show me my tax form"],
        ),
        (
            "what is the weather in Oslo, the time in Tokyo",
            ["what is the weather in Oslo", "what is the time in Tokyo"],
        ),
    ],
)
def test_a_second_object_listed_after_a_comma_takes_the_frame(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_a_part_after_a_comma_that_asks_is_a_request_without_the_frame() -> None:
    # before, the frame garbled it: "can you cancel any storm warnings for Bergen"
    assert texts("can you cancel my gym class, any storm warnings for Bergen") == [
        "can you cancel my gym class",
        "any storm warnings for Bergen",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("what colour is the sofa / how much?", ["what colour is the sofa", "how much"]),
        (
            "renew my gym pass / see if the pool is open on sunday",
            ["renew my gym pass", "see if the pool is open on sunday"],
        ),
    ],
)
def test_a_question_word_or_see_if_after_a_slash_opens_a_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests

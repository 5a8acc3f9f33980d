"""The check's segmenter on "also" before an imperative (not in a relative clause nor after a
question's subject), a dash between words (before a part that asks on its own only), a
subordinate clause already followed by its main clause (not a list of subjects), a noun phrase
after "plus" or "as well as", a
greeting inside a run-on, a request for help with nothing named, and a statement with the
request that passes it on or goes on with it, and ", and" before a part that goes on with the
clause before it (``harness.detect.requests``,
``harness.detect._together``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is on my agenda for monday also cancel my dentist visit",
            ["what is on my agenda for monday", "cancel my dentist visit"],
        ),
        (
            "can you book a table for six also please order some flowers",
            ["can you book a table for six", "please order some flowers"],
        ),
        (
            "pay my water bill also send the receipt to my email",
            ["pay my water bill", "send the receipt to my email"],
        ),
    ],
)
def test_also_before_an_imperative_opens_a_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "can you also cancel my dentist visit",  # after the subject: no new request
        "I would like to also book a table for six",  # after "to"
        "I also need to renew my passport",
        # a relative clause: "that", "which", "who", "whose ..." before "also"
        "show me credit cards that also pay cash back on groceries",
        "find me a bar that also play live jazz on fridays",
        "find hotels that also book airport shuttles",
        "show me phones that also play music offline",
        "find a hotel whose staff also book tours",
        # the subject of a question before "also": the verb is still to come
        "which banks also send paper statements every month",
        "how many airlines also fly direct to Lima",
        "can my wife also use my card at the airport lounge",
        "do any of your branches also send statements by mail",
    ],
)
def test_also_inside_a_request_opens_nothing(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # "that" is what was cancelled or done, not a relative word
        (
            "cancel that also book a cab to the station",
            ["cancel that", "book a cab to the station"],
        ),
        ("can you do that also remind me at noon", ["can you do that", "remind me at noon"]),
        # a question with its verb said ("is", "what about") before "also"
        (
            "is the weather nice today also book a table for two",
            ["is the weather nice today", "book a table for two"],
        ),
        (
            "what about the weather in Rome also book a taxi",
            ["what about the weather in Rome", "book a taxi"],
        ),
    ],
)
def test_also_after_a_whole_clause_opens_a_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "order a new charger for my laptop - what time does the library open",
            ["order a new charger for my laptop", "what time does the library open"],
        ),
        (
            "is the pool open today - I want to book a massage",
            ["is the pool open today", "I want to book a massage"],
        ),
    ],
)
def test_a_dash_standing_alone_between_words_joins_two_requests(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "find me a room for 2 - 3 nights in Lisbon",  # a range of numbers
        "book the Paris - Berlin train for Friday",  # what follows opens no request
    ],
)
def test_a_dash_inside_a_request_cuts_nothing(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    "message",
    [
        # a statement after the dash: it says why or when, it asks nothing (review finding 2)
        "call my landlord - it is urgent",
        "set an alarm for 7 am - I have a flight at 10",
        "book a cab to the station - it's raining hard",
        "book a cab to the station - it looks like rain",
        "water my plants on friday - that would be great",
        # an imperative after the dash that points back to what the request names
        "reserve a table for four - make it at 8 pm",
        "move my dentist appointment to Thursday - put it after lunch",
        # a statement before the dash is the request's context, as before a comma
        "I am out of cash - can you transfer 500 to checking",
        "we just moved to Leeds - can you find us a dentist",
    ],
)
def test_a_dash_before_a_part_that_asks_nothing_of_its_own_cuts_nothing(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a statement that asks on its own (the needs model), an imperative, a question
        (
            "pay the phone bill - my debit card was declined at the store",
            ["pay the phone bill", "my debit card was declined at the store"],
        ),
        (
            "email the dentist - cancel my cleaning on tuesday",
            ["email the dentist", "cancel my cleaning on tuesday"],
        ),
        (
            "renew my gym pass - how much is a yearly one",
            ["renew my gym pass", "how much is a yearly one"],
        ),
    ],
)
def test_a_dash_before_a_part_that_asks_on_its_own_cuts(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # the clause the subordinate phrase leads into was said: the next part asks again
        (
            "on my shopping list, add eggs, remind me to call the vet",
            ["on my shopping list, add eggs", "remind me to call the vet"],
        ),
        (
            "when I land in Oslo, I need a taxi, what is the weather there",
            ["when I land in Oslo, I need a taxi", "what is the weather there"],
        ),
        # a slash, a semicolon or a dash joins two parts after a subordinate phrase too
        (
            "before my trip to Rome I should renew my passport / what is my card's limit",
            ["before my trip to Rome I should renew my passport", "what is my card's limit"],
        ),
    ],
)
def test_a_subordinate_phrase_leads_into_one_clause_only(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "if I fly to Lima, do I need a visa",
        "if I fly to Lima, Quito, do I need a visa",  # a list inside the subordinate clause
        # a list of subjects: "I" or "we" after the comma opens no clause
        "if you, I and Tom fly to Rome on Friday, do we need visas",
        "when Anna, I and the kids arrive in Oslo, where should we eat",
        "if Tom, we and the twins fly on Friday, can we sit together",
        "after Maria, I, and Lee finish the hike, what bus goes back",
    ],
)
def test_a_subordinate_clause_and_its_question_are_one_request(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "the elevator is broken again, plus any news on my parking permit",
            ["the elevator is broken again", "any news on my parking permit"],
        ),
        (
            "my heater stopped working, as well as any updates on my refund",
            ["my heater stopped working", "any updates on my refund"],
        ),
    ],
)
def test_a_noun_phrase_after_plus_or_as_well_as_is_a_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_a_noun_phrase_after_and_with_no_frame_stays_in_its_request() -> None:
    assert len(segment_requests("my heater stopped working and any news on my refund")) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is my gym's address and hello I need a locksmith for my door",
            ["what is my gym's address", "hello I need a locksmith for my door"],
        ),
        (
            "hi there can you renew my library card can you tell me the opening hours",
            ["hi there can you renew my library card", "can you tell me the opening hours"],
        ),
        (
            "hey there two things how do I renew my passport what is the fee",
            ["how do I renew my passport", "what is the fee"],
        ),
    ],
)
def test_a_greeting_inside_or_before_a_run_on_is_read_past(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("Can you help me out? Where is the nearest bakery?", ["Where is the nearest bakery"]),
        ("hello, I need some help. Renew my parking permit.", ["Renew my parking permit"]),
        (
            "Could you help me with something? Book a yoga class for Tuesday.",
            ["Book a yoga class for Tuesday"],
        ),
    ],
)
def test_a_request_for_help_with_nothing_named_is_no_request_of_its_own(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_a_request_for_help_alone_is_kept() -> None:
    assert texts("Can you help me out?") == ["Can you help me out"]


@pytest.mark.parametrize(
    "message",
    [
        "my phone screen cracked, can you tell the insurer to send a new one",
        "the lock on my locker is broken, let the front desk know",
        "I dropped my badge in the lake, could you report it to security",
        "we ran out of printer paper, please order new ones",
    ],
)
def test_a_statement_and_the_request_that_passes_it_on_are_one_request(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    "message",
    [
        # what is told names what the statement names, or refers back to it
        "the kitchen tap is leaking, tell the landlord that the tap needs fixing",
        "my card snapped, tell my bank to send a replacement",
        "my bike got stolen, notify the police about the stolen bike",
    ],
)
def test_a_statement_and_a_telling_about_it_are_one_request(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a telling of something else: the statement is a request of its own (review finding 4)
        (
            "I lost my credit card, remind my wife to buy milk tomorrow",
            ["I lost my credit card", "remind my wife to buy milk tomorrow"],
        ),
        (
            "my car broke down, remind Sarah to call the dentist on Monday",
            ["my car broke down", "remind Sarah to call the dentist on Monday"],
        ),
        (
            "the heater broke, remind my son to walk the dog",
            ["the heater broke", "remind my son to walk the dog"],
        ),
        (
            "my order never arrived, let my sister know dinner is at eight",
            ["my order never arrived", "let my sister know dinner is at eight"],
        ),
    ],
)
def test_a_statement_and_a_telling_of_something_else_stay_apart(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # telling the speaker, or asking something else, is a request of its own
        (
            "my phone screen cracked, can you tell me the weather in Porto",
            ["my phone screen cracked", "can you tell me the weather in Porto"],
        ),
        (
            "my phone screen cracked, what is my account balance",
            ["my phone screen cracked", "what is my account balance"],
        ),
    ],
)
def test_a_statement_before_another_request_stays_apart(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "I was paying for groceries at the market and my debit card got rejected",
        "I landed at Heathrow an hour ago and my suitcase is nowhere to be found",
    ],
)
def test_a_statement_and_the_statement_it_leads_to_are_one_request(message: str) -> None:
    assert len(segment_requests(message)) == 1


def test_a_statement_before_a_question_after_and_stays_apart() -> None:
    assert texts("I was paying for groceries and where is the closest ATM") == [
        "I was paying for groceries",
        "where is the closest ATM",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "when does the pharmacy close, and opening hours of the post office",
            ["when does the pharmacy close", "opening hours of the post office"],
        ),
        (
            "my flight lands at noon, and a taxi from the airport to my hotel",
            ["my flight lands at noon", "a taxi from the airport to my hotel"],
        ),
    ],
)
def test_a_part_after_comma_and_with_no_frame_is_a_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "pack my bag with socks, shirts, and two pairs of shoes",  # the end of a list
        "book a table near the river, with a view, and outdoor seating for four",
        "I'm flying to Denver on Monday, and need a rental car there",  # a want going on
        # a participle, an adverb or "back"/"home" going on with the clause before
        "I am moving to Miami next month, and staying there for three years",
        "my brother is visiting next week, and staying with us until Sunday",
        "I'm flying to Denver on Monday, and coming back on Thursday evening",
        "the package arrived yesterday, and damaged on one side",
        "my order was shipped on Tuesday, and delivered to the wrong address",
        "I'll be in London on Monday, and back home on Friday night",
        "I'm at the office today, and home after six",
        "My son is turning five tomorrow, and really excited about the party",
        "book a table for two, and preferably near the window please",
        "set the thermostat to 70 tonight, and ideally a bit warmer in the morning",
        "order a large pizza, and hopefully delivered before eight",
        # the rest of what was asked
        "Transfer 50 dollars to savings, and the rest to my checking account",
    ],
)
def test_comma_and_inside_a_request_cuts_nothing(message: str) -> None:
    assert len(segment_requests(message)) == 1


def test_a_noun_after_comma_and_opens_a_request_where_a_participle_would_not() -> None:
    # "parking" before a noun is a noun's modifier, not a participle going on
    assert texts("my flight lands at noon, and parking rates at the airport") == [
        "my flight lands at noon",
        "parking rates at the airport",
    ]

"""The check's segmenter on a wish and the polite request that acts on it, a list of people
before "and I", a gapped second part ("and the rest to ..."), "also" after a question, an
auxiliary after "and", a run-on imperative after a question, a statement of the speaker's own
things before a request, a telling after a note, more request verbs, an announcement of
"these" before a colon, and a subordinate phrase after "and" that leads into the request after
its comma (``harness.detect.requests``, ``harness.detect._together``,
``harness.detect._run_ons``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    "message",
    [
        "I want a quiet hotel near the harbour, could you find me one",
        "we need to see a dentist on Friday, can you search for a dentist near the office",
        "I'd like to watch a thriller tonight, please look for some good options",
        "I am looking for a cheap gym, can you help me find something",
    ],
)
def test_a_wish_and_the_request_that_acts_on_it_are_one(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "I want to see a film tonight, can you check my savings balance",
            ["I want to see a film tonight", "can you check my savings balance"],
        ),
        (
            "I need to renew my passport, could you order a pizza",
            ["I need to renew my passport", "could you order a pizza"],
        ),
        # no polite opening: an imperative of its own
        (
            "I need a quiet hotel, cancel my gym class",
            ["I need a quiet hotel", "cancel my gym class"],
        ),
    ],
)
def test_a_wish_and_a_request_for_something_else_stay_apart(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "my husband and I need a table for two at eight",
        "when my brother, my dad and I arrive in Lisbon, what will the weather be",
        "if our kids and we fly to Cairo, do we need visas",
        "my parents and I are looking for a cabin by the lake",
    ],
)
def test_a_list_of_people_before_and_i_is_one_subject(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("book a table and I need a taxi", ["book a table", "I need a taxi"]),
        (
            "my boss and I need to leave at five, cancel my meeting",
            ["my boss and I need to leave at five", "cancel my meeting"],
        ),
    ],
)
def test_and_i_after_no_list_of_people_opens_a_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "pay 300 toward my phone bill, and the remainder to my electric bill",
        "please send half the pie to my neighbour and the other half to my sister",
    ],
)
def test_a_gapped_second_part_is_no_garbled_request(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "where is my parcel also cancel my subscription",
            ["where is my parcel", "cancel my subscription"],
        ),
        (
            "how late is the pharmacy open also check the transfer",
            ["how late is the pharmacy open", "check the transfer"],
        ),
    ],
)
def test_also_before_an_imperative_with_a_noun_after_my_opens_a_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_an_auxiliary_after_and_opens_a_question_also_belongs_to() -> None:
    assert texts("how much is in my checking and can my son also use my card") == [
        "how much is in my checking",
        "can my son also use my card",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is my checking balance transfer the rest to savings",
            ["what is my checking balance", "transfer the rest to savings"],
        ),
        (
            "wheres the closest pharmacy book me a cab",
            ["wheres the closest pharmacy", "book me a cab"],
        ),
        (
            "when is the museum open tomorrow find me a parking spot",
            ["when is the museum open tomorrow", "find me a parking spot"],
        ),
    ],
)
def test_an_imperative_runs_on_after_a_whole_question(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        # a do or modal auxiliary: its verb may be the imperative's
        "what does my gym plan give me",
        "where can my uncle find the pharmacy",
        "what is the best way to book a cheap flight",  # after "to"
        "when's the day my boss'll give me a raise",  # a clause of its own after the copula
    ],
)
def test_a_question_s_own_verb_is_no_run_on_imperative(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "my rent is due tomorrow - can you move 800 to checking",
        "our heating broke last night, could you find a plumber",
    ],
)
def test_a_statement_of_the_speaker_s_own_things_is_the_context_of_a_request(
    message: str,
) -> None:
    assert texts(message) == [message]


def test_a_noun_phrase_of_the_speaker_s_own_is_no_statement() -> None:
    assert texts("my next paycheck and I want to know my balance") == [
        "my next paycheck",
        "I want to know my balance",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "note that I will be in Lisbon next week and let my bank know",
        "mark down that we moved house and notify the post office",
    ],
)
def test_a_note_and_the_telling_that_passes_it_on_are_one(message: str) -> None:
    assert texts(message) == [message]


def test_a_note_and_a_telling_of_something_else_stay_apart() -> None:
    assert texts("mark down that we moved house and tell my wife to buy milk") == [
        "mark down that we moved house",
        "tell my wife to buy milk",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is my balance, compare prices for flights to Rome",
            ["what is my balance", "compare prices for flights to Rome"],
        ),
        (
            "book a table for two and purchase tickets for the show",
            ["book a table for two", "purchase tickets for the show"],
        ),
        (
            "how much do I owe, view my last five payments",
            ["how much do I owe", "view my last five payments"],
        ),
    ],
)
def test_more_request_verbs_open_a_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_a_request_verb_used_as_a_noun_opens_nothing() -> None:
    assert texts("find me a hotel room with a view of the sea") == [
        "find me a hotel room with a view of the sea"
    ]


def test_an_announcement_of_these_before_a_colon_is_no_request() -> None:
    assert texts("Please help me with these: when does the bank open? order new checks") == [
        "when does the bank open",
        "order new checks",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is my credit limit and if I travel to Peru, do I need a visa",
            ["what is my credit limit", "if I travel to Peru, do I need a visa"],
        ),
        (
            "book a cab for six, and at noon, remind me to call Sam",
            ["book a cab for six", "at noon, remind me to call Sam"],
        ),
        (
            "how old is my card plus on my shopping list, add eggs",
            ["how old is my card", "on my shopping list, add eggs"],
        ),
    ],
)
def test_a_phrase_after_and_leads_into_the_request_after_its_comma(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_a_phrase_going_on_with_the_one_before_leads_into_nothing() -> None:
    assert texts("what is the weather in Oslo and in Bergen, can you book me a flight") == [
        "what is the weather in Oslo and in Bergen",
        "can you book me a flight",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "I was at the pharmacy trying to pay for vitamins and my card got declined",
        "we moved to Denver last week and our mail is still going to Boston",
    ],
)
def test_a_statement_and_what_happened_to_the_speaker_s_things_are_one(message: str) -> None:
    assert texts(message) == [message]


def test_trying_in_the_present_still_asks() -> None:
    assert texts("I am trying to book a flight and I need a hotel") == [
        "I am trying to book a flight",
        "I need a hotel",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "I want to book a flight to Paris, can you tell me the weather in Paris",
            ["I want to book a flight to Paris", "can you tell me the weather in Paris"],
        ),
        (
            "I'm looking for a cheap flight to Rome, can you check the weather in Rome",
            ["I'm looking for a cheap flight to Rome", "can you check the weather in Rome"],
        ),
        (
            "I want to go to Lisbon, could you find me a hotel in Lisbon",
            ["I want to go to Lisbon", "could you find me a hotel in Lisbon"],
        ),
        (
            "I need a new phone, can you cancel my phone contract",
            ["I need a new phone", "can you cancel my phone contract"],
        ),
        (
            "I'd like to pay my electricity bill, can you show me my bill history",
            ["I'd like to pay my electricity bill", "can you show me my bill history"],
        ),
        # new text of the same shape: a shared place or noun, a verb of telling or another thing
        (
            "we want to drive to Porto, could you tell me the tolls to Porto",
            ["we want to drive to Porto", "could you tell me the tolls to Porto"],
        ),
        (
            "I need a new laptop, can you find me a laptop bag",
            ["I need a new laptop", "can you find me a laptop bag"],
        ),
        (
            "I'd like to visit Kyoto in spring, can you book me a train to Kyoto",
            ["I'd like to visit Kyoto in spring", "can you book me a train to Kyoto"],
        ),
    ],
)
def test_a_wish_and_a_request_sharing_only_a_word_stay_apart(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "I want a table for four, can you book a table for four at Nobu",
        "we need a plumber tomorrow, could you find a plumber located near our flat",
        "I'm looking for a vegan bakery, can you recommend a vegan bakery that opens early",
    ],
)
def test_a_wish_and_a_request_for_its_own_thing_are_one(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is the weather forecast in Oslo for this weekend and in Bergen, "
            "can you book me a flight",
            [
                "what is the weather forecast in Oslo for this weekend and in Bergen",
                "can you book me a flight",
            ],
        ),
        (
            "show me flights on Friday from Leeds to Rome and on Sunday, book the cheapest",
            ["show me flights on Friday from Leeds to Rome and on Sunday", "book the cheapest"],
        ),
        (
            "list the cafes at the station near the north exit and at the airport, "
            "which take cards",
            [
                "list the cafes at the station near the north exit and at the airport",
                "which take cards",
            ],
        ),
    ],
)
def test_a_phrase_going_on_with_one_earlier_in_its_clause_leads_into_nothing(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "how long is the warranty and repair time for this laptop",
        "is the museum open and display hours for the weekend",
        "what are the fees and repair costs for my car",
    ],
)
def test_a_request_verb_that_is_a_noun_too_opens_nothing_without_its_object(
    message: str,
) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is my balance and print my last statement",
            ["what is my balance", "print my last statement"],
        ),
        (
            "where is my order and repair my login please",
            ["where is my order", "repair my login please"],
        ),
    ],
)
def test_a_request_verb_that_is_a_noun_too_opens_a_request_before_its_object(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "my son and I want pizza and my wife and I want sushi",
            ["my son and I want pizza", "my wife and I want sushi"],
        ),
        (
            "my dad and I need a taxi and my aunt and I need a hotel room",
            ["my dad and I need a taxi", "my aunt and I need a hotel room"],
        ),
    ],
)
def test_a_second_list_of_people_before_and_i_opens_a_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests

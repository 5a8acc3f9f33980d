"""The independent request segmenter and the missed-request check built on it.

Figures are measured on the held-out sets of ``tests/fixtures/multi_intent`` (``test.jsonl``,
built from CLINC150's test split, ``sgd-dev.jsonl`` and ``fresh.jsonl``); the segmenter was
developed on ``dev.jsonl`` and the answer matcher fitted on ``dev.jsonl`` and ``sgd-train.jsonl``.
Print them with ``python -m tests.detect.multi_intent SPLIT``; docs/journal/simulate.md reports
them.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from harness.detect.answers import matcher
from harness.detect.missed import DeclaredRequest, missed_requests, plan_gaps, unanswered
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord
from tests.detect.build_multi_intent import CLINC
from tests.detect.multi_intent import CURVE, load, mutation, segmentation, sureness


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


# --- the segmenter ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "How many vacation days do I have left, when is payday, and where is my W-2?",
            ["How many vacation days do I have left", "when is payday", "where is my W-2"],
        ),
        ("when is payday and where is my W-2", ["when is payday", "where is my W-2"]),
        (
            "Reset my VPN password, and tell me when I get paid next.",
            ["Reset my VPN password", "tell me when I get paid next"],
        ),
        (
            "Is AA123 on time, how many miles do I have, and my bag didn't arrive",
            ["Is AA123 on time", "how many miles do I have", "my bag didn't arrive"],
        ),
        (
            "I forgot my password. Also, where can I locate my W-2 form?",
            ["I forgot my password", "where can I locate my W-2 form"],
        ),
        ("book a hotel in Paris plus a car", ["book a hotel in Paris", "book a car"]),
        (
            "check my balance as well as what is my routing number",
            ["check my balance", "what is my routing number"],
        ),
        ("set a timer and then remind me to call mom", ["set a timer", "remind me to call mom"]),
        ("Is it raining? Do I need a coat?", ["Is it raining", "Do I need a coat"]),
        # real two-request turns (SGD train): a question about two things, a question opening
        # after "and" with a preposition or with "when does it"
        (
            "What's their phone number and address?",
            ["What's their phone number", "What's their address"],
        ),
        (
            "Where is the event located and at what time does it start?",
            ["Where is the event located", "at what time does it start"],
        ),
        (
            "Where is it located at and when does it start?",
            ["Where is it located at", "when does it start"],
        ),
    ],
)
def test_messages_written_the_ways_people_write_split_into_their_requests(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_words_said_once_for_two_requests_are_carried_over() -> None:
    assert texts("how many PTO days have I used and how many are left") == [
        "how many PTO days have I used",
        "how many PTO days are left",
    ]
    [first, second] = segment_requests("what is my credit limit and my routing number")
    assert (first.text, second.text, second.carried) == (
        "what is my credit limit",
        "what is my routing number",
        "what is",
    )
    message = "what is my credit limit and my routing number"
    assert message[second.start : second.end] == "my routing number"


@pytest.mark.parametrize(
    "message",
    [
        "what's in salt and pepper seasoning",
        "show me the terms and conditions",
        "what's the weather in Paris and London",
        "i need new insurance, how do i get it",
        "is there a meeting room free between 10 and 11",
        "if I go to Peru, do I need a visa",
        "transfer $100 between checking and savings",
        "hi, what's the weather like",
    ],
)
def test_noun_phrases_and_leading_clauses_are_one_request(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "book a table for two, and what's more, I need a cab",
            ["book a table for two", "I need a cab"],
        ),
        (
            "Find me a dentist. PS what time does the pharmacy close?",
            ["Find me a dentist", "what time does the pharmacy close"],
        ),
        (
            "check my balance. oh also, can you freeze my card",
            ["check my balance", "can you freeze my card"],
        ),
        (
            "find me a flight to Denver -- is it raining there",
            ["find me a flight to Denver", "is it raining there"],
        ),
        ("play some jazz / turn off the lights", ["play some jazz", "turn off the lights"]),
        (
            "book a flight for my trip also what is the weather in Rome",
            ["book a flight for my trip", "what is the weather in Rome"],
        ),
        (
            "reset my password, and by the way where is my W-2",
            ["reset my password", "where is my W-2"],
        ),
    ],
)
def test_lead_in_words_and_dashes_join_requests(message: str, requests: list[str]) -> None:
    """Lead-in words ("what's more", "PS", "oh also", "by the way") belong to no request, a
    dash or slash standing alone joins two, and so does an "also" that a question follows."""
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "Firstly, when does the gym open? Secondly, renew my library card.",
            ["when does the gym open", "renew my library card"],
        ),
        (
            "order a pizza. Apart from that, what is my savings balance?",
            ["order a pizza", "what is my savings balance"],
        ),
        (
            "First off, is the pool heated? Last but not least, I need a towel",
            ["is the pool heated", "I need a towel"],
        ),
        (
            "lock the front door btw can you dim the hall lights",
            ["lock the front door", "can you dim the hall lights"],
        ),
        (
            "text my brother then remind me to buy milk",
            ["text my brother", "remind me to buy milk"],
        ),
        (
            "I want a taxi to the zoo oh and I need a table for four",
            ["I want a taxi to the zoo", "I need a table for four"],
        ),
        (
            "cancel my dentist appointment. Another thing: do I owe any library fines",
            ["cancel my dentist appointment", "do I owe any library fines"],
        ),
    ],
)
def test_discourse_connectives_lead_into_a_request_and_join_two(
    message: str, requests: list[str]
) -> None:
    """Connectives that order or add requests ("Secondly,", "Apart from that", "btw", "then",
    "oh and") join two requests and belong to neither."""
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "book me a first class seat to Oslo",
        "if it snows then can you cancel my ride",
        "what happened after that date on my statement",
    ],
)
def test_connective_words_inside_a_request_stay(message: str) -> None:
    assert len(segment_requests(message)) == 1


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "(1) water the plants (2) what is the Wi-Fi password",
            ["water the plants", "what is the Wi-Fi password"],
        ),
        (
            "#1 renew my parking permit\n#2 when does the pool close?",
            ["renew my parking permit", "when does the pool close"],
        ),
        (
            "1- is the museum open on Monday?\n2- I need a taxi there",
            ["is the museum open on Monday", "I need a taxi there"],
        ),
        (
            "1 - feed the cat\n2 - is the gym open late",
            ["feed the cat", "is the gym open late"],
        ),
    ],
)
def test_numbered_items_are_requests_without_their_numbers(
    message: str, requests: list[str]
) -> None:
    """A list item's number ("(1)", "#2", "1-") ends the item before it and is no word of the
    request; inline items are cut at each number when the message numbers a first one."""
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "Two quick requests: water the ferns, and when is the recycling pickup?",
            ["water the ferns", "when is the recycling pickup"],
        ),
        ("remind me: call the plumber", ["remind me: call the plumber"]),
        (
            "A couple of questions:\n- is the bank open\n- where is the nearest ATM",
            ["is the bank open", "where is the nearest ATM"],
        ),
    ],
)
def test_an_announcement_before_a_colon_is_no_request(message: str, requests: list[str]) -> None:
    """An announcement ("Two quick requests:") leads into what follows; "remind me:" asks."""
    assert texts(message) == requests


def test_numbers_that_number_no_list_stay_in_their_request() -> None:
    assert texts("seat me at table #2 by the window") == ["seat me at table #2 by the window"]
    assert texts("book 1 - 2 nights in Lima") == ["book 1 - 2 nights in Lima"]
    assert texts("the party is for 1. the hall seats 40") == [
        "the party is for 1",
        "the hall seats 40",
    ]
    assert texts("(1) how many seats are left (2) I need 2.") == [
        "how many seats are left",
        "I need 2",
    ]


def test_a_bots_sentence_is_not_cut_at_every_connective() -> None:
    """A bot's steps ("First, ..., then ...") and its announcements ("One more question:") are
    read with the joining words the matcher was fitted on, not as a user's list of requests."""
    said = "open the app then check the Settings page"
    assert len(segment_requests(said)) == 2
    assert len(segment_requests(said, statement=True)) == 1
    asked = "One more question: which floor do you want"
    assert [r.text for r in segment_requests(asked)] == ["which floor do you want"]
    assert [r.text for r in segment_requests(asked, statement=True)] == [asked]


@pytest.mark.parametrize(
    "message",
    [
        "what's the weather next week in Boston",
        "can you also tell me my balance",
        "I also need a hotel near the beach",
        "find a hotel also close to the beach",
        "transfer $20 to savings and/or checking",
    ],
)
def test_lead_in_words_that_belong_to_the_request_stay(message: str) -> None:
    assert len(segment_requests(message)) == 1


def test_segmentation_in_joining_styles_no_other_set_uses() -> None:
    """``own`` (a development set: CLINC150 and SGD *train* requests joined in 20 styles no
    other set's builder uses, 2026-12-02): before the lead-in words, dashes and "also" were
    read, 47.8 % of its messages got the right number of requests and 35.3 % every request;
    after, 84.3 % and 82.2 %."""
    result = segmentation("own")
    assert result.messages == 600
    assert result.exact_count / result.messages >= 0.84
    assert result.all_matched / result.messages >= 0.82


def test_segmentation_of_the_held_out_set() -> None:
    """Development on the train-split set, measured on the test-split set (600 messages, 1,566
    requests): 90.7 % of messages get the right number of requests, 89.3 % get every request
    right, 93.9 % of the requests are found (same content words as the gold request)."""
    result = segmentation("test")
    assert result.messages == 600 and result.requests == 1566
    assert result.exact_count / result.messages >= 0.89
    assert result.all_matched / result.messages >= 0.88
    assert result.matched / result.requests >= 0.93
    # every way of joining requests is exercised, and the frame carried over is nearly always right
    assert set(result.by_shape) >= {"and", "also", "plus", "as_well_as", "and_then", "sentences"}
    total, right = result.by_shape["shared_frame"]
    assert right >= 0.95 * total


def test_the_set_is_built_from_real_single_requests_of_two_to_four_per_message() -> None:
    for split in ("dev", "test"):
        messages = load(split)
        assert len(messages) == 600
        assert {len(m["requests"]) for m in messages} == {2, 3, 4}
        for m in messages:
            assert all(r["text"] and r["agent"] and r["answer"] for r in m["requests"])
    dev_texts = {r["text"] for m in load("dev") for r in m["requests"]}
    test_texts = {r["text"] for m in load("test") for r in m["requests"]}
    assert len(dev_texts & test_texts) <= 5  # CLINC's splits repeat only a few utterances


@pytest.mark.skipif(not CLINC.is_file(), reason="needs ../shared/data/clinc150")
def test_single_requests_are_rarely_split() -> None:
    """CLINC150's test split: 4,500 single-request utterances; 153 (3.4 %) are split, most of
    them where one utterance holds two clauses ("my card is stolen, I need to report it")."""
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    split = sum(len(segment_requests(u)) > 1 for u, _ in data["test"])
    assert split / len(data["test"]) <= 0.04


# --- the missed-request check -----------------------------------------------------------------


def test_a_sentence_that_only_mentions_another_requests_subject_does_not_answer_it() -> None:
    requests = [
        DeclaredRequest(text="how many PTO days have I used"),
        DeclaredRequest(text="how many PTO days are left"),
    ]
    assert unanswered(requests, ["You have 12 PTO days left this year."]) == [0]
    assert unanswered(requests, ["You used 8 PTO days.", "12 are left."]) == []
    # closers answer nothing
    assert unanswered(requests[:1], ["Anything else I can help with?"]) == [0]


def test_declared_words_replace_the_requests_own() -> None:
    request = DeclaredRequest(text="when do I get paid", words=("payday",))
    assert unanswered([request, request], ["Your next payday is Friday."]) == []
    assert unanswered([request, request], ["Payroll runs through ADP."]) == [0, 1]


def test_an_answer_in_other_words_counts_when_it_gives_what_was_asked_for() -> None:
    requests = [
        DeclaredRequest(text="book a PTO request for Dec 22 to Dec 24"),
        DeclaredRequest(text="please give me my salary figure"),
    ]
    booked = "I've submitted your PTO request for Dec 22 to Dec 24."
    assert unanswered(requests, [booked, "Your gross pay is $3,250.00 per pay period."]) == []
    assert unanswered(requests, [booked, "Your manager will be notified."]) == [1]


def _turn(user: str, *bots: str, plan: tuple[PlannedRequest, ...] = ()) -> Transcript:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=user)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="helpdesk", text=t)
        for i, t in enumerate(bots)
    ]
    return Transcript(messages=messages, turns=[TurnRecord(turn=1, plan=plan)] if plan else [])


def test_a_plan_with_an_entry_per_request_merges_nothing_when_two_entries_share_a_word() -> None:
    # "did I get my day off" has one content word, "day", which the entry before its own holds
    # too: its own entry covers it, so the plan merged nothing.
    requests = [
        DeclaredRequest(text="how many vacation days are left"),
        DeclaredRequest(text="did I get my day off"),
    ]
    plan = [PlannedRequest(request=r.text, agent="pto") for r in requests]
    gaps = plan_gaps(requests, plan)
    assert gaps == {0: ("", plan[0]), 1: ("", plan[1])}


def test_a_dropped_request_is_found_without_the_plan_and_the_plan_says_why() -> None:
    asked = "Is AA123 on time, how many miles do I have, and my bag didn't arrive"
    said = ("AA123 is on time.", "You have 42,000 miles.")
    [alone] = missed_requests(_turn(asked, *said))
    assert alone.evidence == '"my bag didn\'t arrive": no bot message in the turn addresses it'
    plan = (
        PlannedRequest(agent="flights", request="Is AA123 on time"),
        PlannedRequest(agent="loyalty", request="how many miles do I have"),
    )
    [planned] = missed_requests(_turn(asked, *said, plan=plan))
    assert planned.evidence == f"{alone.evidence} (the plan has no entry for it)"


def test_a_single_request_needs_only_some_reply() -> None:
    assert missed_requests(_turn("when is payday", "Let me check with payroll.")) == []
    early = _turn("when is payday")
    assert missed_requests(early) == []  # a recording that stops before the reply
    later = Transcript(
        messages=[
            *early.messages,
            Message(id="u2", turn=2, role="user", sender="user", text="hello?"),
            Message(id="b2", turn=2, role="bot", sender="helpdesk", text="Hi!"),
        ]
    )
    [finding] = missed_requests(later)
    assert finding.turn == 1


# --- the mutation test ------------------------------------------------------------------------
# Held-out sets only: ``test`` (CLINC150 test split; looked at before the answer matcher was
# fitted), ``sgd-dev`` (SGD dev user turns answered by the real system turn that followed each)
# and ``fresh`` (CLINC test utterances, another seed and other joining styles). The matcher was
# fitted on ``dev`` and ``sgd-train`` only. Figures: ``python -m tests.detect.multi_intent SPLIT``.


# Measured on 2026-12-02 (deterministic; the floors sit at the measured figures, in brackets)
# after a bot sentence became matched by its parts (fourth session; before: test 96.9 % of
# drops, 14.5 % false alarms; sgd-dev 87.4 %, 20.3 %; fresh 96.0 %, 13.8 %; and before parts
# that need no answer stopped being reported: test 97.6 %, 14.7 %; sgd-dev 90.4 %, 24.5 %;
# fresh 96.9 %, 14.2 %). Fifth session (two things asked at once segmented as two requests,
# measured once): test 96.8 -> 96.9 % of drops, 14.2 -> 14.3 % false alarms; sgd-dev 85.7 ->
# 86.1 %, 22.0 -> 23.2 %; fresh 96.0 -> 96.1 %, 14.2 -> 14.2 %. Sixth session (2026-12-02,
# s37-match: a bot statement cut where "and"/"but"/"however" joins two clauses, the own_kind
# feature and rule, associations with the reply's kinds of value; the matcher refitted;
# measured once at the end, 17:57 UTC): test 96.9 -> 96.9 % of drops, 14.3 -> 14.2 % false
# alarms; sgd-dev 86.1 -> 85.2 %, 23.2 -> 21.7 %; fresh 96.1 -> 96.1 %, 14.2 -> 14.3 %.
# Seventh session (2026-12-02, s38-check: the matcher also fitted on real SGD train answers to
# one-slot requests, a reply's yes/no as an association term, the thresholds chosen with the
# real sgd-real-train turns too; the matcher refitted; measured once at the end, 22:41 UTC,
# aggregates only): test 96.9 -> 96.9 % of drops, merges 96.7 -> 96.6 %, closers 96.6 -> 95.9
# %, false alarms 14.2 -> 13.7 % (declared 8.5 -> 8.0 %); sgd-dev 85.2 -> 83.3 %, 21.7 -> 20.2
# % (declared 89.3 -> 87.2 %, 14.2 -> 13.2 %); fresh 96.7 -> 96.7 %, 14.2 -> 14.0 % (declared
# 99.9 -> 99.8 %, 9.2 -> 9.0 %). Fewer false alarms everywhere, fewer drops found on sgd-dev.
# Eighth session (2026-12-03, s39-check: a year beside another value no longer answers "when",
# a yes/no question asks for a yes or a no, a part of a bot sentence judged by its own words
# unless its subject is in the rest of a sentence sharing words with a request, statements
# cut before one value and at "nor", "start time and address" and "what album and genre is it"
# as two requests; the matcher not refitted; measured once at the end, 03:18 UTC, aggregates
# only): test drops 96.9 -> 96.4 %, merges 96.6 -> 96.2 %, closers 95.9 -> 95.5 %, false alarms
# 13.7 -> 13.5 % (declared 8.0 -> 7.8 %); sgd-dev 83.3 -> 82.4 %, 20.2 -> 19.2 % (declared
# 87.2 -> 86.5 %, 13.2 -> 11.8 %); fresh 96.7 -> 96.6 %, 14.0 -> 14.0 % (declared 99.8 ->
# 99.75 %, 9.0 -> 9.0 %). Again fewer false alarms and fewer drops found: a move along the
# trade-off, larger on real SGD replies (docs/journal/simulate.md). Ninth session (2026-12-03,
# s40-check: phone numbers in digit groups one id, "what's their number" asking for one and
# "what kind of event" for a name, one yes or no answering two yes/no questions, a sentence going
# with a request's own words or answering nothing else taken by the request it shares most with, two
# values apart; the matcher not refitted; measured once at the end, 06:05 UTC, aggregates
# only): test false alarms 13.5 -> 11.8 % (declared 7.8 -> 6.3 %), drops 96.4 -> 96.3 %, merges
# 96.2 -> 96.1 %, closers 95.5 -> 95.3 %; sgd-dev 19.2 -> 18.3 %, 82.4 -> 82.3 % (declared 11.8
# -> 11.2 %, 86.5 -> 86.4 %); fresh 14.0 -> 12.5 %, 96.6 -> 96.2 % (declared 9.0 -> 7.7 %,
# 99.75 -> 99.7 %). Tenth session (2026-12-03, s41-judge: a sentence with room for two answers
# answers two requests; measured once at the end, 08:22 UTC, load about 9, aggregates only):
# test, fresh and holdout unchanged; sgd-dev false alarms 18.33 -> 17.83 % (declared 11.17 ->
# 10.67 %), drops 82.34 -> 82.28 % (declared 86.40 -> 86.34 %), merges 81.76 -> 81.66 %.
# Tenth session (2026-12-03, s41-segment: the check's segmenter keeps a
# statement and what it leads to in one request, leaves out announcements and closers; not
# refitted; measured once at the end, 08:19 UTC, aggregates only, main 9a4c432 run beside it):
# test false alarms 11.83 -> 11.67 % (declared unchanged), drops 96.30 -> 95.91 %, merges 96.07 ->
# 95.55 %, closers 95.34 -> 94.96 %; sgd-dev 18.33 -> 17.00 %, 82.34 -> 82.03 %; fresh 12.50 ->
# 11.83 %, 96.24 -> 95.81 % (declared unchanged everywhere). Fewer false alarms, a few drops
# fewer found (6 of 1,566 on test, 7 of 1,624 on fresh; the dropped one named 1,403 -> 1,400 and
# 1,455 -> 1,453 there, 1,057 -> 1,065 on sgd-dev).
# Both merged (the lead's look, 2026-12-03 09:01 UTC, aggregates only): test and fresh as
# s41-segment alone; sgd-dev false alarms 16.50 %, drops 81.97 % (declared 10.67 %, 86.34 %).
# With the review's mends (s41-fixunits, s41-fixtogether; the lead's second look, 09:26 UTC):
# sgd-dev false alarms 16.67 % (declared 10.83 %; one turn), fresh 11.83 -> 12.00 % (one turn),
# drops unchanged.
# Eleventh session (2026-12-03, s42-segment: titles, "&" and "+", stating "have", phrases of
# time, look-ups, closers with no comma, greetings before an imperative; not refitted; measured
# once at the end, 10:53-10:55 UTC, load about 13, aggregates only, main 221a42b run beside it):
# test false alarms 11.67 -> 11.67 %, drops 95.91 -> 95.79 % (2 of 1,566 turns; the dropped one
# named 1,400 -> 1,399), merges 95.55 -> 95.34 %, closers 94.96 -> 94.83 %; sgd-dev 16.67 ->
# 16.67 %, 81.97 -> 81.91 % (named 1,065 -> 1,066); fresh unchanged; declared unchanged.
# Twelfth session (2026-12-03; the lead's look at the merged code of s43-segment, s43-judge and
# their review fixes, 14:15 UTC, aggregates only; s43-segment alone had measured the same at
# 13:03 UTC): run-on questions, emoticons, lone greetings and closers, numbered items inside a line
# cut; fewer drops missed, one to three more answered turns flagged per set: test false alarms
# 11.67 -> 11.83 %, drops 95.79 -> 96.55 %, merges 95.34 -> 96.27 %, closers 94.83 -> 95.59 %;
# sgd-dev 16.67 -> 17.17 %, 81.91 -> 82.03 %; fresh 12.00 -> 12.50 %, 95.81 -> 96.18 %; declared
# unchanged.
# Thirteenth session (2026-12-03; s44-segment's look at its branch, 15:29-15:44 UTC; the lead's
# looks at the merged code, 16:22 UTC, and after the review's mends to the new cuts and joins,
# 16:50 UTC; aggregates only): "also" + a request verb, a lone dash before a part that asks, a
# subordinate clause already followed by its main clause, ", and" before a part with no frame,
# requests for help naming nothing, statements passed on. Fewer answered turns flagged, more
# drops found on the CLINC-built sets; sgd-dev one drop fewer (the floor follows the look):
# test false alarms 11.83 -> 11.50 %, drops 96.55 -> 96.93 %, merges 96.27 -> 96.79 %, closers
# 95.59 -> 95.98 % (the mends: 97.06 -> 96.93 %, 96.89 -> 96.79 %, 96.10 -> 95.98 %); sgd-dev
# 17.17 -> 16.67 %, 82.03 -> 81.97 %; fresh 12.50 -> 12.17 %, 96.18 -> 96.61 %; declared
# unchanged.
# Fourteenth session (2026-12-03; s45-segment's look at its branch, 18:16 UTC, main beside it at
# 18:22 UTC; the lead's looks at the merged code, 18:40 UTC, and after the review's mends to the
# new rules, 19:03 UTC; aggregates only): a wish and the request acting on it, lists of people
# before "and I", a gapped "and the rest to ...", run-on imperatives after a copula question,
# phrases leading into the request after a comma, "my/our" statements as context. Fewer answered
# turns flagged, drops and merges about even (holdout one drop and one merge fewer, the floors
# follow the look): test false alarms 11.50 -> 11.17 %, drops, merges and closers unchanged;
# sgd-dev 16.67 -> 16.50 %, 81.97 -> 82.15 %; fresh unchanged; declared unchanged.
# Sixteenth session (2026-12-04; the lead's look at the merged code with the review's mends,
# 01:30 UTC, aggregates only; s47-segment's and s47-judge's own looks at their branches 00:22-00:31
# UTC): wishes run on, participle lead-ins, days of one date in the segmenter; questions back
# without "?" held to their message's request when the bot answers in several messages. Fewer
# answered turns flagged on every built set, many more drops found on sgd-dev, holdout and
# ways-held; test one drop and one merge fewer (the floors follow the look): test false alarms
# 11.17 -> 10.50 %, drops 96.93 -> 96.87 %, merges 96.79 -> 96.69 %, closers 95.98 -> 96.11 %;
# sgd-dev 16.50 -> 13.83 %, 82.15 -> 83.82 %; fresh unchanged; declared test unchanged, sgd-dev
# 10.83 -> 8.17 %, 86.34 -> 87.88 %.
# The lead's look at the merged eighteenth session (2026-12-04 06:40 UTC, aggregates only; the
# segmenter's greeted lists and short participles, the assignment's value phrases chained onto a
# message's own answer): test unchanged; sgd-dev two more answered turns flagged and one more
# declared, three more drops found (13.83 -> 14.17 %, 83.82 -> 84.00 %; declared 8.17 -> 8.33 %,
# 87.88 -> 88.18 %); fresh one more drop; the ceilings follow the look.
# The lead's look at the merged s55 session (2026-12-05 00:52 UTC, aggregates only; a question
# back kept to its message's request, a count of what the bot found no amount): more drops and
# merges found for a few more answered turns flagged (the trade the branch was adopted on, more
# than five found per turn flagged): sgd-dev 14.17 -> 14.67 %, 84.00 -> 84.68 %; declared
# 8.33 -> 8.67 %, 88.18 -> 88.98 %; test and fresh unchanged; the ceilings follow the look.
DROP_TEST = 0.968  # 96.87 % (was 96.93 %)
MERGE_TEST = 0.966  # 96.69 % (was 96.79 %)
FILLER_TEST = 0.961  # 96.11 % (was 95.98 %)
FULL_TEST = 0.105  # 10.50 % (was 11.17 %)
FULL_TEST_DECLARED = 0.064  # 6.3 % (was 6.3 %)
SGD_FULL, SGD_DROP = 0.147, 0.846  # 14.67 % (was 14.17 %), 84.68 % (was 84.00 %)
SGD_FULL_DECLARED, SGD_DROP_DECLARED = 0.087, 0.889  # 8.67 % (was 8.33 %), 88.98 % (was 88.18 %)
FRESH_FULL, FRESH_DROP = 0.122, 0.966  # 12.17 % (was 12.5 %), 96.61 % (was 96.18 %)
FRESH_FULL_DECLARED, FRESH_DROP_DECLARED = 0.077, 0.996  # 7.7 % (was 9.0 %), 99.7 % (was 99.75 %)


def test_a_planner_that_drops_or_merges_a_request_is_flagged() -> None:
    """The bot answers each request with another CLINC user's words for the same intent (the
    val split), one message per answer. Dropping a request (each in turn: 1,566 turns) or
    merging two neighbours so that only the first is answered (966 turns)."""
    segmented = mutation("test")
    assert segmented.dropped_flagged / segmented.dropped_turns >= DROP_TEST
    assert segmented.merged_flagged / segmented.merged_turns >= MERGE_TEST
    declared = mutation("test", declared=True)
    assert declared.dropped_flagged / declared.dropped_turns >= 0.99
    assert declared.merged_flagged / declared.merged_turns >= 0.99
    # composing every answer into one message (a parent relaying silent agents)
    composed = mutation("test", composed=True)
    assert composed.dropped_flagged / composed.dropped_turns >= DROP_TEST


def test_an_answer_replaced_by_a_closer_is_flagged() -> None:
    """A bot that says "Is there anything else I can help with?" (real SGD dev system turns
    that answer nothing) instead of answering a request."""
    result = mutation("test")
    assert result.filler_flagged / result.dropped_turns >= FILLER_TEST


def test_turns_where_every_request_was_answered_are_rarely_flagged() -> None:
    """The false-alarm side, same turns with every answer."""
    assert mutation("test").full_flagged / 600 <= FULL_TEST
    assert mutation("test", declared=True).full_flagged / 600 <= FULL_TEST_DECLARED


@pytest.mark.parametrize(
    ("split", "full", "dropped", "full_declared", "dropped_declared"),
    [
        ("sgd-dev", SGD_FULL, SGD_DROP, SGD_FULL_DECLARED, SGD_DROP_DECLARED),
        ("fresh", FRESH_FULL, FRESH_DROP, FRESH_FULL_DECLARED, FRESH_DROP_DECLARED),
    ],
)
def test_the_fresh_held_out_sets(
    split: str, full: float, dropped: float, full_declared: float, dropped_declared: float
) -> None:
    """Sets nobody tuned on (the figures are the first measurement after the fit; the
    issue's targets are <= 1 % and 100 %)."""
    segmented = mutation(split)
    assert segmented.full_flagged / segmented.full_turns <= full
    assert segmented.dropped_flagged / segmented.dropped_turns >= dropped
    declared = mutation(split, declared=True)
    assert declared.full_flagged / declared.full_turns <= full_declared
    assert declared.dropped_flagged / declared.dropped_turns >= dropped_declared


def test_the_fresh_sets_are_built_from_sources_kept_apart() -> None:
    for split in ("sgd-train", "sgd-dev", "fresh"):
        messages = load(split)
        assert len(messages) == 600
        assert {len(m["requests"]) for m in messages} == {2, 3, 4}
        assert all(r["text"] and r["answer"] for m in messages for r in m["requests"])
    train = {r["text"] for m in load("sgd-train") for r in m["requests"]}
    held_out = {r["text"] for m in load("sgd-dev") for r in m["requests"]}
    # SGD itself repeats short turns across its splits ("And how windy?"): 64 of 1,024 here
    assert len(train & held_out) <= 0.07 * len(held_out)
    assert not {m["shape"] for m in load("fresh")} & {m["shape"] for m in load("test")}


# The abstaining check (``min_confidence=matcher().report_threshold``): the report threshold
# (0.984) is chosen on ``dev`` and ``sgd-train`` together for <= 1 % false alarms; measured
# 2026-12-02 (fourth session, a bot sentence matched by its parts) with ``mutation(SPLIT,
# sure=True)``. Third session (threshold 0.978): test 0.0 %, 44.3 %, 90.4 %; sgd-dev 1.5 %,
# 22.9 %, 79.8 %; fresh 0.7 %, 46.6 %, 88.9 %; holdout 1.8 %, 36.6 %, 80.1 %. Fifth session
# (two things asked at once segmented as two requests; before that: test 1.2 %, 33.3 %, 87.2 %;
# sgd-dev 1.7 %, 13.6 %, 77.4 %; fresh 1.3 %, 39.4 %, 86.5 %; holdout 1.7 %, 26.2 %, 77.4 %).
# Sixth session (s37-match, refitted matcher, report threshold 0.984, measured once at the end;
# before: test 1.3 %, 33.4 %, 87.3 %; sgd-dev 1.8 %, 13.2 %, 77.7 %; fresh 1.3 %, 39.6 %,
# 86.6 %; holdout 1.5 %, 25.7 %, 77.6 %). Then (s37-segment: list numbers, line breaks,
# discourse connectives and announcements before a colon are no words of a request; the matcher
# not refitted; measured once after merging, 2026-12-02 19:03 UTC, aggregates only) the sure
# drops fell: fresh 37.4 -> 32.0 %, holdout 23.2 -> 22.1 %, test and sgd-dev the same. Lead-in
# words left inside a request ("Firstly, ...") had made its finding surer; the threshold was
# chosen on the old segmentation. The default check (every finding) gained on the same sets
# (fresh drops 96.1 -> 96.7 %, holdout false alarms 17.5 -> 16.5 %), hence the trade was kept.
# Seventh session (s38-check, measured once at the end, 22:41 UTC, aggregates only): the finding
# confidence reads two more features (no sentence gives the kind of value asked for; the
# strongest association of any sentence with the request), each development set weighs the
# same in its fit, and the report threshold (0.984 -> 0.981) is chosen with the real
# sgd-real-train turns and real SGD train one-slot answers among the development sets, for at
# most 1 % of their fully answered turns together. Drops found about double on the CLINC-based
# sets (test 29.9 -> 58.1 %, fresh 32.0 -> 58.1 %, holdout 22.1 -> 35.4 %) and rise on the real
# SGD ones (sgd-dev 10.8 -> 14.6 %), while false alarms rise on the CLINC-based sets (test 1.2
# -> 3.0 %, fresh 1.0 -> 2.2 %, holdout 1.2 -> 2.0 %; on `dev`, development, 1.2 -> 1.7 %) and
# fall on the real ones (sgd-dev 1.5 -> 1.3 %; sgd-real-dev 0.8 -> 0.2 %). A trade-off, not a
# gain on every axis: docs/journal/simulate.md gives it. Eighth session (2026-12-03 03:18 UTC,
# s39-check, the matcher not refitted, measured once, aggregates only): false alarms and drops
# the same (sgd-dev drops 14.6 -> 14.7 %, holdout 35.4 -> 35.5 %), closers replaced slightly
# less often flagged (test 90.0 -> 89.5 %, sgd-dev 75.8 -> 75.0 %, fresh 89.5 -> 89.5 %,
# holdout 77.7 -> 77.6 %). Ninth session (2026-12-03 06:05 UTC, s40-check, not refitted, measured
# once, aggregates only): more drops found (test 58.1 -> 60.1 %, sgd-dev 14.7 -> 15.9 %, fresh
# 58.1 -> 59.1 %, holdout 35.5 -> 35.9 %), false alarms the same but on test (3.0 -> 3.3 %, two
# turns) and fresh (2.2 -> 2.3 %, one turn). Tenth session (2026-12-03 08:22 UTC, s41-judge,
# measured once, aggregates only): test, fresh, holdout unchanged; sgd-dev drops 15.88 -> 16.00
# %, closers 75.14 -> 75.08 %.
# Tenth session (2026-12-03 08:19 UTC, s41-segment,
# not refitted, measured once, aggregates only): false alarms the same or fewer (sgd-dev 1.33 ->
# 1.17 %, fresh 2.33 -> 2.00 %), drops test 60.09 -> 59.71 %, sgd-dev 15.88 -> 16.06 %, fresh
# 59.05 -> 58.93 %, holdout 35.87 -> 35.93 %; closers 0.1-0.5 points less often flagged.
# Both merged (the lead's look, 09:01 UTC): sgd-dev 1.17 %, 16.18 %, closers 74.77 %; the
# others as s41-segment alone. With the review's mends (09:26 UTC): fresh false alarms 2.00 ->
# 2.17 % (one turn), the rest unchanged. Eleventh (2026-12-03 10:55 UTC, s42-segment, aggregates
# only): test drops 59.71 -> 59.45 %, closers 89.02 -> 88.89 %; sgd-dev 16.18 -> 16.25 %; fresh
# unchanged; holdout drops 35.93 -> 41.74 %, closers 77.12 -> 83.61 %, false alarms 2.00 %.
SURE = {
    # split: (false alarms at most, drops flagged at least, closers flagged at least)
    # The lead's look at session 42's merged code with the finding confidence refitted (report
    # threshold 0.981 -> 0.974; 2026-12-03 12:00 UTC): more false alarms and many more drops.
    # The lead's look at session 43's merged code (14:15 UTC): one answered turn more on fresh
    # and holdout, a few more drops found on test and fresh.
    # The lead's look at session 44's merged code with the review's mends (16:50 UTC): fewer
    # answered turns flagged on every set, more drops found (the closers' floors unchanged).
    # The lead's look at session 45's merged code with the review's mends (19:03 UTC): fewer
    # answered turns flagged on test and holdout, drops +2 on test and holdout, -2 on fresh.
    # The lead's look at session 46's merged code (21:21 UTC): holdout three drops fewer (959),
    # sgd-dev one answered turn fewer and one drop more, ways-held one answered turn fewer.
    # The lead's look at session 47's merged code with the review's mends (2026-12-04 01:30 UTC):
    # fewer answered turns flagged on test and sgd-dev, one more on fresh and holdout; drops -4 on
    # test, +6 on sgd-dev, +1 on fresh, -1 on holdout.
    "test": (0.029, 0.856, 0.913),  # 2.83 %, 85.70 % (3.50 %, 85.95 % before the sixteenth)
    # Session s64's look (2026-12-06 00:12 UTC): sgd-dev two drops fewer at the sure level
    # (497 -> 495 of 1,625, 30.46 %), fully answered turns unchanged: a phrase of place ("on the
    # first floor, beside the reading room") now answers a "where" (s64-where), which keeps
    # such answers from being flagged on new text; the trade was taken knowingly.
    "sgd-dev": (0.015, 0.304, 0.762),  # 1.50 %, 30.46 % (30.58 % before s64)
    "fresh": (0.024, 0.845, 0.909),  # 2.33 %, 84.54 % (2.17 %, 84.48 % before the sixteenth)
    "holdout": (0.025, 0.592, 0.849),  # 2.50 %, 59.25 % (2.33 %, 59.31 % before the sixteenth)
}


@pytest.mark.parametrize("split", sorted(SURE))
def test_the_abstaining_check_trades_false_alarms_for_drops(split: str) -> None:
    """Reporting only the findings the check is sure of flags 2-4 % of fully answered turns on
    sets the threshold was not chosen on (it was chosen for 1 % on the development sets), at a
    cost: from a sixth to two thirds of dropped requests are then not reported (a dropped answer
    leaves no trace a lexical matcher can be sure of), while an answer replaced by a closer mostly
    still is."""
    most, drops, closers = SURE[split]
    result = mutation(split, sure=True)
    assert result.full_flagged / result.full_turns <= most
    assert result.dropped_flagged / result.dropped_turns >= drops
    assert result.filler_flagged / result.dropped_turns >= closers


def test_the_trade_off_curve_is_the_checks_own_decision() -> None:
    """The curve of the report threshold (one pass, each turn's surest finding) agrees with the
    check itself: from 0 it flags what the default check flags, at the report threshold what
    the abstaining check flags, and raising the level never flags more."""
    curve = sureness("dev")
    default, sure = mutation("dev"), mutation("dev", sure=True)
    for level, result in ((0.0, default), (matcher().report_threshold, sure)):
        full, drops, merges = curve.rates(level)
        assert full == result.full_flagged / result.full_turns
        assert drops == result.dropped_flagged / result.dropped_turns
        assert merges == result.merged_flagged / result.merged_turns
    rates = [curve.rates(level) for level in CURVE]
    for lower, higher in itertools.pairwise(rates):
        assert all(h <= lo for h, lo in zip(higher, lower, strict=True))
    assert rates[-1][1] < rates[0][1]  # the levels do trade drops found for false alarms


def test_the_held_out_set_nobody_looked_at() -> None:
    """``holdout.jsonl`` (SGD dev turns and CLINC test utterances no other set uses, joined with
    styles drawn from a list written before looking), measured once on 2026-12-02: segmented,
    23.8 % false alarms, 86.8 % of drops and 85.7 % of merges flagged; declared, 11.3 %, 95.5 %,
    94.6 %. Measured again (its third look) after the segmenter learned lead-in words and
    dashes from a development set of its own (``own``), the same day: segmented 24.3 %, 88.6 %,
    87.5 %; declared unchanged. Its fourth and fifth looks (2026-12-02, third session; the
    fourth by this test while a first version of the no-answer model was tried) after parts
    that need no answer stopped being reported: segmented 17.7 %, 86.3 %, 85.3 %; declared
    unchanged. Its sixth and seventh looks (2026-12-02, fourth session: a bot sentence matched
    by its parts; the sixth showed more false alarms on composed replies, which sgd-train
    confirmed and the one-limit fit fixed): segmented 18.0 %, 85.5 %, 84.6 %; declared 11.5 %,
    94.1 %. Its eighth look (2026-12-02, fifth session: two things asked at once segmented as two
    requests, measured once at the end): segmented 18.7 %, 85.7 %, 84.9 %; declared 11.7 %,
    94.3 % (the matcher cuts bot sentences with the same segmenter). Its tenth look (2026-12-02,
    sixth session, s37-match: a bot statement cut where "and"/"but"/"however" joins two clauses,
    the own_kind rule, the matcher refitted; measured once at the end, 17:57 UTC): segmented
    17.5 %, 84.5 %, 83.9 %; declared 10.3 %, 93.2 %. Its eleventh (2026-12-02 19:03 UTC, after
    merging s37-segment: lists, line breaks and connectives read by the segmenter, measured
    once, aggregates only): segmented 16.5 %, 84.3 %, 83.7 %; declared 10.3 %, 93.2 %. Its
    twelfth (2026-12-02 22:41 UTC, s38-check: the matcher also fitted on real SGD train answers,
    refitted; measured once, aggregates only): segmented 16.3 %, 83.9 %, 83.4 %; declared
    10.0 %, 92.3 %. Its thirteenth (2026-12-03 03:18 UTC, s39-check: years, yes/no questions,
    parts of bot sentences, two segmenter shapes; not refitted; measured once, aggregates
    only): segmented 16.2 %, 83.7 %, 83.2 %; declared 9.8 %, 91.8 %. Its fourteenth (2026-12-03
    06:05 UTC, s40-check: phone numbers, kinds of thing, yes/no pairs, shared words; not
    refitted; measured once, aggregates only): segmented 14.3 %, 83.4 %, 83.0 %; declared 9.2 %,
    91.8 %. Its fifteenth (2026-12-03 08:19 UTC, s41-segment: a statement and what it leads to
    kept in one request; not refitted; measured once, aggregates only): segmented 13.8 %,
    83.2 %, 82.8 %; declared unchanged. Its sixteenth (2026-12-03 10:55 UTC, s42-segment: "&"
    and "+" standing alone join two requests, titles, stating "have", phrases of time, look-ups,
    closers with no comma; not refitted; measured once, aggregates only): segmented 14.33 %,
    90.17 %, 89.77 % (three more answered turns flagged, 112 more drops found); declared
    unchanged. Its seventeenth (2026-12-03 13:03 UTC, s43-segment: run-on questions, emoticons,
    lone greetings and closers; the lead's look at the merged code, 14:15 UTC, the same):
    segmented 14.50 %, 90.17 %, 89.77 %; declared unchanged. Its eighteenth to twentieth
    (2026-12-03, thirteenth session: s44-segment's branch 15:29 UTC, the lead's at the merged
    code 16:22 UTC and after the review's mends 16:50 UTC; "also" + a verb, a lone dash before
    a part that asks, ", and" before a part with no frame, help naming nothing): segmented
    13.83 %, 90.41 %, 90.27 %; declared unchanged. Its twenty-first to twenty-fourth
    (2026-12-03, fourteenth session: s45-segment's branch 18:16 UTC, main beside it 18:22 UTC, the
    lead's at the merged code 18:40 UTC and after the review's mends 19:03 UTC; a wish and the
    request acting on it, lists of people, a gapped second part, run-on imperatives after a copula
    question): segmented 13.50 %, 90.35 %, 90.17 % (one drop and one merge fewer than the
    thirteenth session's); declared unchanged. Its twenty-fifth and twenty-sixth (2026-12-03,
    fifteenth session: s46-segment's branch with main beside it 20:38-20:45 UTC, the lead's at the
    merged code 21:21 UTC; a statement trailing a request, the bot addressed anew, a date's comma,
    "the other one", "for me and my wife", an auxiliary going on after "and"): segmented 13.00 %,
    89.98 %, 89.77 % (three answered turns fewer flagged, six drops and four merges fewer found:
    the development sets gained 27 messages segmented right and lost none, so the trade was
    kept); declared unchanged. Its twenty-seventh to twenty-ninth (2026-12-04, sixteenth session:
    s47-judge's branch 00:22 UTC, s47-segment's 00:25 UTC, the lead's at the merged code with the
    review's mends 01:30 UTC; questions back without "?" held to their message's request, wishes
    run on, participle lead-ins): segmented 12.50 %, 92.21 %, 92.33 %; declared 8.17 %, 94.31 %.
    Its thirtieth and thirty-first (2026-12-05, the lead's looks at the merged s55 session, 00:31
    and 00:52 UTC; a question back kept to its message's request, a count of what the bot found
    no amount): segmented 13.33 %, 92.95 %, 93.31 %; declared 8.83 %, 95.24 % (five answered
    turns more flagged, eleven drops and ten merges more found; declared four and fourteen)."""
    assert len(load("holdout")) == 600
    segmented = mutation("holdout")
    assert segmented.full_flagged / segmented.full_turns <= 0.134
    assert segmented.dropped_flagged / segmented.dropped_turns >= 0.929
    assert segmented.merged_flagged / segmented.merged_turns >= 0.933
    declared = mutation("holdout", declared=True)
    assert declared.full_flagged / declared.full_turns <= 0.089
    assert declared.dropped_flagged / declared.dropped_turns >= 0.952


def test_the_set_written_the_ways_people_write_held_out() -> None:
    """``ways-held`` (held out; rebuilt from training text in the joining styles people use, see
    ``build_ways_multi_intent.py``): the first floors, from the lead's look at the twelfth
    session's merged code (2026-12-03 14:15 UTC, aggregates only; `main` 75b55e7, run at 12:40
    UTC: segmented 15.5 %, 87.6 %, 86.7 %). The check's segmenter
    now cuts run-on questions and numbered items inside a line, which this set is written with:
    segmented 16.00 %, 88.61 %, 87.77 %; declared 10.33 %, 96.26 %. The thirteenth session's
    segmenter (s44-segment's look 15:29 UTC; the lead's at the merged code 16:22 UTC and after
    the review's mends 16:50 UTC, aggregates only): segmented 15.83 %, 90.04 %, 89.26 %;
    declared unchanged. The fourteenth session's (s45-segment's look 18:16 UTC; the lead's at
    the merged code 18:40 UTC and after the review's mends 19:03 UTC): segmented 15.17 %,
    90.16 %, 89.36 %; declared unchanged. The sixteenth session's (s47-judge's and s47-segment's
    looks 00:22-00:31 UTC; the lead's at the merged code with the review's mends, 2026-12-04 01:30
    UTC): segmented 14.33 %, 92.03 %, 91.55 %; declared 9.50 %, 97.32 %. Session s66 (the lead's
    look at the merged s66-qback, 2026-12-06 06:10 UTC, aggregates only: a question back held back
    from a request of another task): declared 9.67 % (58 of 600, one more), drops unchanged; the
    same look found the drops hidden behind an unrelated question back 354 -> 511 of 1,606 here
    (declared) and the five held-out sets' declared fully answered turns 246 -> 247 of 3,000."""
    segmented = mutation("ways-held")
    assert segmented.full_flagged / segmented.full_turns <= 0.144
    assert segmented.dropped_flagged / segmented.dropped_turns >= 0.920
    assert segmented.merged_flagged / segmented.merged_turns >= 0.915
    declared = mutation("ways-held", declared=True)
    assert declared.full_flagged / declared.full_turns <= 0.097
    assert declared.dropped_flagged / declared.dropped_turns >= 0.973


@pytest.mark.xfail(
    reason="issue 25 asks for <= 1 % false alarms and 100 % of mutations flagged; measured with "
    "segmented requests: test 14.7 % false alarms, 97.6 % of drops and 97.3 % of merges flagged; "
    "sgd-dev 24.5 %, 90.4 %, 90.2 %; fresh 14.0 %, 96.2 %, 96.3 %; holdout 23.8 %, 86.8 %, "
    "85.7 % (24.3 %, 88.6 %, 87.5 % after the lead-in words; 17.7 %, 86.3 %, 85.3 % after "
    "parts that need no answer stopped being reported; 18.0 %, 85.5 %, 84.6 % once a bot "
    "sentence is matched by its parts, which on real two-request SGD turns (sgd-real-dev) took "
    "answered turns flagged 41.8 -> 22.6 % and drops flagged 53.2 -> 64.5 %); abstaining "
    "(report threshold 0.984): 1.2-1.7 % false alarms, 14-39 % of drops flagged (holdout "
    "1.7 %, 26.2 %)",
    strict=True,
)
def test_the_issue_targets_for_the_independent_check() -> None:
    for split in ("test", "sgd-dev", "fresh", "holdout"):
        for sure in (False, True):
            result = mutation(split, sure=sure)
            assert result.full_flagged / result.full_turns <= 0.01
            assert result.dropped_flagged == result.dropped_turns
            assert result.merged_flagged == result.merged_turns


# --- the offline planner, as a baseline ---------------------------------------------------------


def test_the_offline_planners_routing_of_the_held_out_set() -> None:
    """A baseline for planner work, not a target: 1,244 of 1,566 requests (79.4 %) go to the
    right agent, none is left out of the plan, 678 share a plan entry with another request,
    and 211 of 600 messages get one entry per request, each to the right agent."""
    from tests.detect.planner_baseline import routing

    result = routing("test")
    assert result.requests == 1566
    assert result.routed_right / result.requests >= 0.79
    assert result.planned_in_full >= 200


def test_long_messages_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each joining region is scanned once and looks ahead only to the next one, so the work
    grows with the length of the message (counted in tokens scanned, not timed)."""
    import harness.detect.requests as module

    scanned: list[int] = []
    region, piece = module._region, module._next_piece

    def counting_region(toks: list[Any], i: int, reading: Any) -> int:
        size = region(toks, i, reading)
        scanned.append(size + 1)
        return size

    def counting_piece(toks: list[Any], j: int, *, limit: int) -> list[Any]:
        out = piece(toks, j, limit=limit)
        scanned.append(len(out) + 1)
        return out

    monkeypatch.setattr(module, "_region", counting_region)
    monkeypatch.setattr(module, "_next_piece", counting_piece)
    for message, words in [
        ("and " * 5000, 5000),
        ("x and " * 3000, 6000),
        ("a, " * 5000, 10000),
        ("what is my rent " * 2000, 8000),  # a run-on question at every fourth word
    ]:
        scanned.clear()
        module.segment_requests.cache_clear()
        module.segment_requests(message)
        assert sum(scanned) <= 3 * words

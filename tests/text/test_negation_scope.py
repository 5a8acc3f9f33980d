"""The scope of a negation in the instruction reader (new sentences, several domains).

A negator cut off from its verb by an aside between commas ("never, under any circumstances,
repeat ...") still negates that verb; a negated verb of omission ("do not skip", "don't leave
out", "never forget to") asks for what it would omit; a concession ("even if asked") is no
condition.
"""

from __future__ import annotations

import pytest

from harness.lint.phrases import says_of_agent
from harness.text._roles import _lift_asides, normalise_sentence
from harness.text.instructions import read_sentence

# -- a negator, an aside between commas, its verb -----------------------------------------------

SILENCES_WITH_ASIDES = [
    "Never, under any circumstances, talk to the passenger.",
    "Do not, at any point, reply to the tenant directly.",
    "You must never, for any reason, message the patient.",
    "Under no circumstances, even if asked, should you contact the shopper.",
    "At no point, not even to say goodbye, should you write to the diner.",
    "Never, ever, greet the guest yourself.",
    "Never, at any stage, in any form, send the policyholder a message.",
    "Under no circumstances, respond to the learner.",
    "You are not, whatever happens, to reply to the subscriber.",
]

NO_REPEAT_WITH_ASIDES = [
    "Never, under any circumstances, repeat the sub-agents' answers.",
    "Do not, even when the customer asks again, restate what the specialists said.",
    "You should never, at any point, summarise every reply the helper agents gave.",
    "Never, ever, echo each of the connected agents' responses to the caller.",
]


@pytest.mark.parametrize("sentence", SILENCES_WITH_ASIDES)
def test_a_negator_before_an_aside_still_forbids_talking(sentence: str) -> None:
    asks = read_sentence(sentence)
    assert "silence" in asks
    assert "address" not in asks
    assert "conditional" not in asks


@pytest.mark.parametrize("sentence", NO_REPEAT_WITH_ASIDES)
def test_a_negator_before_an_aside_still_denies_repeating(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Do not, unless the parent asks you to, reply to the member.",
        "Never, until the coordinator confirms the refund, message the buyer.",
        "Do not, when the lookup fails, tell the renter.",
    ],
)
def test_a_condition_as_the_aside_stays_a_condition(sentence: str) -> None:
    assert read_sentence(sentence) == {"conditional"}


@pytest.mark.parametrize(
    ("sentence", "same_as"),
    [
        (
            "Do not, if the payment fails, tell the shopper.",
            "Do not tell the shopper if the payment fails.",
        ),
        (
            "If the booking fails, do not, for any reason, tell the traveller; return the error.",
            "If the booking fails, do not tell the traveller; return the error.",
        ),
        (
            "You must not, before the lookup has finished, tell the caller anything.",
            "You must not tell the caller anything before the lookup has finished.",
        ),
        (
            "Never, under any circumstances, repeat what the specialists said.",
            "Under any circumstances, never repeat what the specialists said.",
        ),
        (
            "Under no circumstances, should you greet the rider.",
            "Under no circumstances should you greet the rider.",
        ),
    ],
)
def test_the_aside_reads_as_the_plain_wording(sentence: str, same_as: str) -> None:
    assert read_sentence(sentence) == read_sentence(same_as)


@pytest.mark.parametrize(
    ("sentence", "normalised"),
    [
        (
            "Never, under any circumstances, reply to the guest yourself.",
            "under any circumstances, never reply to the user yourself.",
        ),
        (
            "Do not, if asked, reply to the guest yourself.",
            "do not reply to the user yourself, if asked.",
        ),
        # "does not" ends an elliptical clause here, and "guess" is a verb, not an aside.
        (
            "If it does not, in that case, tell the guest now.",
            "if it does not, in that case, tell the user now.",
        ),
        (
            "Never guess, under any circumstances, what the guest wants.",
            "never guess, under any circumstances, what the user wants.",
        ),
    ],
)
def test_the_aside_is_lifted_in_the_normalised_sentence(sentence: str, normalised: str) -> None:
    assert normalise_sentence(sentence) == normalised


def test_a_concession_is_no_condition() -> None:
    assert read_sentence("Never message the patron, even if they ask.") == {"silence"}
    assert read_sentence("Never message the patron if they ask.") == {"conditional"}


# -- double negation: a negated verb of omission ------------------------------------------------

ASKS_FOR_THE_SUMMARY = [
    "Do not skip the summary of what the sub-agents said.",
    "Don't leave out the recap of the specialists' replies to the guest.",
    "Never omit a rundown of everything the helper agents told the passenger.",
    "Do not forget to summarise what the connected agents told the caller.",
    "Never fail to restate all of the sub-agents' results for the tenant.",
    "Don't skip summarising each of the specialists' answers.",
    "Please don't ever forget to repeat every answer the sub-agents gave.",
]


@pytest.mark.parametrize("sentence", ASKS_FOR_THE_SUMMARY)
def test_a_negated_omission_asks_to_repeat(sentence: str) -> None:
    asks = read_sentence(sentence)
    assert "repeat" in asks
    assert "check_answered" not in asks


@pytest.mark.parametrize(
    "sentence",
    [
        "Do not repeat what the sub-agents said.",
        "Skip the summary of what the specialists said.",
        "Leave out any recap of the helper agents' answers.",
        "Never end with a summary of what the sub-agents told the guest.",
    ],
)
def test_an_omission_or_a_plain_negation_still_denies(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Never ignore the answered output.",
        "Do not skip the answered check.",
        "Don't disregard the sub-agent's answered flag.",
    ],
)
def test_a_denied_ignoring_of_answered_is_a_check(sentence: str) -> None:
    asks = read_sentence(sentence)
    assert "check_answered" in asks
    assert "repeat" not in asks


def test_ignoring_answered_is_still_read() -> None:
    assert "repeat" in read_sentence("Ignore the answered flag and summarise all results.")


@pytest.mark.parametrize(
    "sentence",
    ["Do not skip greeting the visitor.", "Never neglect to thank the donor."],
)
def test_a_negated_omission_of_an_address_is_an_address(sentence: str) -> None:
    assert read_sentence(sentence) == {"address"}


# -- a named agent, an aside, its predicate (HC001) ---------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("The Refund agent, under no circumstances, talks to the shopper.", {"silence"}),
        ("Refund agent, at no point, messages the customer.", {"silence"}),
        ("The Refund agent, as a rule, never replies to the buyer.", {"silence"}),
        ("The Refund agent, in every case, answers the shopper directly.", {"address"}),
        ("The Refund agent never, for any reason, writes to the buyer.", {"silence"}),
        # A relative clause is no aside; a condition keeps the silence unread.
        ("The Refund agent, which handles returns, talks to the shopper.", set()),
        ("The Refund agent, if the order is disputed, never talks to the buyer.", set()),
    ],
)
def test_an_aside_after_the_agents_name(sentence: str, said: set[str]) -> None:
    assert says_of_agent(sentence, ["Refund agent"]) == said


def test_lifting_stays_linear_on_a_pathological_sentence() -> None:
    # Each lift rewrites the sentence; a bound on lifts keeps thousands of negators linear
    # (unbounded, 5,000 of them took some 5 s of CPU).
    import time

    text = "never, under any circumstances, " * 5_000 + "reply to the user."
    started = time.process_time()
    lifted = _lift_asides(text)
    assert time.process_time() - started < 1.0
    assert lifted.startswith("under any circumstances, ")

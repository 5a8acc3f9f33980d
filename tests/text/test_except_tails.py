"""An exception after a prohibition, and a negated verb of omission before an aside (new sentences).

"Never talk to the user except in an emergency" forbids talking unless there is an emergency: a
conditional rule, read as "unless" is, in whichever place the exception stands (after the verb
phrase, after an adverb such as "yourself", or as an aside right after the negator). An exception
that names the parent ("except through the orchestrator") sets no condition: the agent stays
silent. "Don't forget, however, to greet the user" asks for the greeting.
"""

from __future__ import annotations

import pytest

from harness.lint.phrases import says_of_agent
from harness.text._roles import normalise_sentence
from harness.text.instructions import read_sentence

EXCEPTIONS = [
    "Never talk to the user except in an emergency.",
    "Never, except in an emergency, talk to the user.",
    "Never contact the guest yourself except in an emergency.",
    "Do not message the tenant except when the landlord has approved the repair.",
    "You must not email the policyholder except for a claim update.",
    "Do not reply to the shopper directly except when the payment fails.",
    "Never write to the patient other than to confirm the appointment.",
    "Do not, except to confirm the booking, message the diner.",
    "You should never, except if the flight is cancelled, contact the passenger.",
    "Never personally reach out to the donor excepting a failed payment.",
    "Do not send the learner a message other than when the course starts.",
]


@pytest.mark.parametrize("sentence", EXCEPTIONS)
def test_an_exception_makes_a_prohibition_conditional(sentence: str) -> None:
    assert read_sentence(sentence) == {"conditional"}


@pytest.mark.parametrize(
    ("sentence", "same_as"),
    [
        (
            "Never contact the guest yourself except in an emergency.",
            "Never contact the guest yourself unless there is an emergency.",
        ),
        (
            "Do not, except when asked, reply to the subscriber.",
            "Do not reply to the subscriber unless asked.",
        ),
        (
            "Do not contact the member directly, except when the parent asks.",
            "Do not contact the member directly unless the parent asks.",
        ),
        (
            "Never talk to the renter directly except if the lease ends.",
            "Never talk to the renter if the lease ends.",
        ),
    ],
)
def test_an_exception_reads_as_unless(sentence: str, same_as: str) -> None:
    assert read_sentence(sentence) == read_sentence(same_as) == {"conditional"}


@pytest.mark.parametrize(
    "sentence",
    [
        "Do not send messages except to the parent agent.",
        "Never talk to the tenant other than through the orchestrator.",
        "Never, except through the supervisor, reply to the member.",
        "Do not contact the buyer yourself except via the coordinator.",
        "Do not talk to the rider except by way of the dispatcher.",
    ],
)
def test_an_exception_that_names_the_parent_is_a_silence(sentence: str) -> None:
    assert read_sentence(sentence) == {"silence"}


def test_a_topic_other_than_stays_unread() -> None:
    # A restriction of topic is no condition on talking.
    assert read_sentence("Do not respond to the visitor about topics other than tax.") == set()


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't forget, however, to greet the user.",
        "Do not forget, of course, to thank the rider.",
        "Never fail, even once, to welcome the attendee.",
        "Do not neglect, at any point, to greet the learner.",
        "Don't ever forget, please, to thank the customer.",
        "Never ever forget to welcome the member.",
    ],
)
def test_a_negated_omission_before_an_aside_asks_for_it(sentence: str) -> None:
    assert read_sentence(sentence) == {"address"}


def test_the_omission_is_lifted_with_its_negator() -> None:
    assert normalise_sentence("Don't forget, however, to greet the guest.") == (
        "however, don't forget to greet the user ."
    )


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("The Billing agent never contacts the guest itself except in an emergency.", set()),
        ("The Billing agent must not, except in an emergency, message the buyer.", set()),
        (
            "The Billing agent never messages the buyer except through the orchestrator.",
            {"silence"},
        ),
    ],
)
def test_an_exception_in_a_statement_about_an_agent(sentence: str, said: set[str]) -> None:
    # A silence under a condition is not read of a named agent (as with "unless").
    assert says_of_agent(sentence, ["Billing agent"]) == said

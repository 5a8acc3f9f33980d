"""How the offline planner's split keeps a reaction to what was offered with the request after it
(issue 25, session 47).

On a bot it has never seen, a real turn often opens by taking what the bot offered ("That would
be ideal.", "Sounds like a plan,") and then asks. Planned as a request of its own, the reaction
went to the parent or to an agent by a word of it, and the request was cut over entries. A
reaction has a demonstrative subject (or none before "sounds", "seems", "looks"), a linking verb
and a short predicate that asks nothing. Every message here is new text.
"""

from __future__ import annotations

import pytest

from harness.planning._asking import asks
from harness.planning.split import split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "That would be perfect. Please book two seats on it.",
        "Sounds like a deal, reserve the blue sedan for me.",
        "Those look lovely. Can you order a dozen of them?",
        "This one seems fair. Put it on my calendar for Monday.",
        "That's my pick! Get me a ticket for the late show.",
    ],
)
def test_a_reaction_opens_the_request_after_it(message: str) -> None:
    assert len(split_requests(message, _always)) == 1


@pytest.mark.parametrize(
    "piece",
    [
        "This one is broken",  # a past participle reports a fault
        "That was charged twice",
        "That is not what I ordered",  # a negation
        "That is too much to pay",  # a clause ("to")
        "This is 300 dollars",  # a number
        "That sounds like my card was stolen",  # longer than a reaction, a report
        "Is that right",  # a question
    ],
)
def test_what_only_looks_like_a_reaction_still_asks(piece: str) -> None:
    assert asks(piece)


def test_a_report_after_a_reaction_is_cut_from_the_next_request() -> None:
    assert split_requests("My laptop is broken. Also, when is payday?", _always) == [
        "My laptop is broken",
        "when is payday",
    ]

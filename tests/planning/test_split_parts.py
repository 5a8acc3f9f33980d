"""A quantity named in parts is one request; a part with a verb of its own is still cut (issue 25).

"for 3 adults and 2 children", "2 large and 1 small pizza", "for me and my 3 sisters": each side
of the joining word is a count before a noun phrase with no verb of its own, so the joining word
joins parts of one quantity, not two requests. Before 2026-12-06 (s72-parts) the offline
planner's split cut every one of the joined cases below (0 of 16 whole; the verb was copied onto
the second piece: "book a baby next weekend"); the cut cases were cut before and still are.
The cases are written here, in domains of their own, not taken from any labelled set.
"""

from __future__ import annotations

import pytest

from harness.planning._cuts import names_parts
from harness.planning.split import split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "order 2 large and 1 small pizza for delivery",
        "reserve a table for 3 adults and 2 kids at 7pm",
        "get me zoo tickets for two adults plus one senior",
        "book a cabin for 4 adults and a baby next weekend",
        "rent bikes for 2 grownups and 3 children tomorrow",
        "I need one single and two double rooms for Friday",
        "order 3 lattes and 2 croissants for pickup",
        "buy 5 apples and 6 pears",
        "book a ferry crossing for 2 adults plus 2 dogs",
        "reserve a campsite for me and my 2 kids on Friday",
        "schedule a museum tour for 10 students and 2 teachers on Monday",
        "order 1 vegan and 2 regular meals for tonight",
        "book a minibus for three of us plus an infant on Tuesday",
        "add 2 pounds of rice and a dozen eggs to my shopping list",
        "book a tennis court for me and 3 friends on Sunday",
        "transfer three hundred and forty dollars to savings",
    ],
)
def test_a_quantity_in_parts_is_one_request(message: str) -> None:
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "reserve a table for 4 adults and book 2 taxis for later",
        "order 2 pizzas and play some music",
        "buy 3 tickets and tell me the weather",
        "set 2 alarms and play 3 songs",
        "rent 2 kayaks and how much is a lesson",
        "book a room for 2 adults and a taxi needs to pick us up at 6",
        "transfer 40 dollars to Sam and 2 friends need a ride home",
        "order 3 pizzas plus can you check my balance",
    ],
)
def test_a_part_with_a_verb_of_its_own_is_still_cut(message: str) -> None:
    # Guards: each was cut before the change.
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    "message",
    [
        "order 2 pizzas and a taxi to the station",
        "book 2 rooms and a car for friday",
        "renew 3 books and a DVD",
        "get a quote to ship 4 boxes and a bike to Leeds",
    ],
)
def test_a_thing_after_a_is_no_part_of_a_count(message: str) -> None:
    # "a"/"an" joins a part only before a person or a count ("a baby", "a dozen eggs"): a thing
    # after it may be another agent's request. Each was joined by the first version of the rule.
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    ("before", "cut", "piece", "joined"),
    [
        ("for 3 adults", " and ", "2 children on Saturday", True),
        ("for two of us", " plus ", "a baby", True),
        ("for 2 adults", " and ", "a small child", True),
        ("order 2 pizzas", " and ", "a taxi", False),  # a thing of its own
        ("for me", " and ", "my 3 sisters", True),
        ("for 3 adults", " and then ", "2 children", False),  # an ordering joins requests
        ("book 2 tickets to Rome", " and ", "a hotel room", False),  # a place after the count
        ("take me to 12 Baker Street", " and ", "a table for 2", False),  # an address
        ("book a room", " and ", "2 children", False),  # "a" alone counts no part before
        ("for 3 adults", " and ", "2 children need a cot", False),  # a verb of its own
        ("for 3 adults", " and ", "my order", False),  # no count
    ],
)
def test_names_parts(before: str, cut: str, piece: str, joined: bool) -> None:
    assert names_parts(before, cut, piece) is joined

"""A request that points back to another request of the same message ("..., and how long does it
last?") goes to that request's agent, with what it stands for in brackets; a dummy "it", a "they"
with nothing plural before it, a pronoun whose referent the parent keeps and a piece that routes by
its own words are left as they were.

The requests are new text, written for these tests (a library bot of our own); no labelled set is
read."""

from __future__ import annotations

import pytest

from harness import ChildAgent, Mode, Parent
from harness.models._text import split_commands
from harness.planning import PlanEntry, PlanInput, RulesPlanner
from harness.planning._refer import referred


def catalogue_search() -> str:
    """Whether a book, film or audiobook is in the library's catalogue and on the shelf."""
    return "on the shelf"


def renew_loan() -> str:
    """Renew or extend the loan of a borrowed item."""
    return "renewed"


def list_events() -> str:
    """Talks, reading groups and storytime sessions at the library."""
    return "storytime at 10"


def room_booking() -> str:
    """Book a study room."""
    return "booked"


LIBRARY = Parent(
    name="library",
    model="rules",
    subagents=[
        ChildAgent(
            name="catalogue",
            mode=Mode.DIRECT,
            description="Finds books, films and audiobooks in the catalogue and says whether a "
            "copy is on the shelf.",
            tools=[catalogue_search],
        ),
        ChildAgent(
            name="loans",
            mode=Mode.DIRECT,
            description="Renews loans, says when borrowed items are due back and what fines are "
            "owed.",
            tools=[renew_loan],
        ),
        ChildAgent(
            name="events",
            mode=Mode.DIRECT,
            description="Lists talks, reading groups and storytime sessions and signs people up.",
            tools=[list_events],
        ),
        ChildAgent(
            name="study_rooms",
            mode=Mode.DIRECT,
            description="Books the library's study rooms.",
            tools=[room_booking],
        ),
    ],
).dependencies.cards


async def _plan(message: str) -> list[tuple[str, str]]:
    given = PlanInput(parent="library", message=message, agents=LIBRARY)
    return [(e.agent, e.request) for e in (await RulesPlanner().plan(given)).entries]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Is the new Ishiguro novel on the shelf, and can I take it home today?",
            ("catalogue", "can I take it [the new Ishiguro novel] home today"),
        ),
        (
            "What reading groups meet on Tuesdays, and are they free?",
            ("events", "are they [reading groups] free"),
        ),
        (
            "Is study room B free at noon? Could you hold it for me?",
            ("study_rooms", "Could you hold it [study room B] for me"),
        ),
        (
            "Is there a storytime session on Saturday, and how long does it last?",
            ("events", "how long does it [a storytime session] last"),
        ),
        (
            "Which audiobooks by Le Guin do you have, and can I listen to them on my phone?",
            ("catalogue", "can I listen to them [audiobooks] on my phone"),
        ),
    ],
)
async def test_a_piece_that_points_back_goes_to_its_referents_agent(
    message: str, expected: tuple[str, str]
) -> None:
    plan = await _plan(message)
    assert len(plan) == 2
    assert plan[1] == expected


@pytest.mark.parametrize(
    ("message", "second"),
    [
        # A dummy "it": the weather, the time.
        ("Renew my loan of Dune and is it snowing outside?", "library"),
        ("When is my copy of Dune due back? And what time is it in Lagos?", "library"),
        # "they" with nothing plural before it: the staff, not the study room.
        ("Book a study room for Friday, and are they friendly at the front desk?", "library"),
        # A piece that routes by its own words keeps its route.
        ("Is the Dune film in the catalogue, and can I renew it?", "loans"),
    ],
)
async def test_a_piece_that_does_not_point_back_keeps_its_route(message: str, second: str) -> None:
    plan = await _plan(message)
    assert [agent for agent, _ in plan][-1] == second
    assert "[" not in plan[-1][1]


async def test_a_pronoun_whose_referent_the_parent_keeps_stays_with_the_parent() -> None:
    plan = await _plan(
        "My printer at home is broken, can you fix it? And what talks are on this month?"
    )
    assert plan[0][0] == "library"
    assert plan[0][1] == "My printer at home is broken, can you fix it"


def _entries(*pairs: tuple[str, str]) -> list[PlanEntry]:
    return [PlanEntry(request=text, agent=agent) for agent, text in pairs]


@pytest.mark.parametrize(
    ("earlier", "piece", "expected"),
    [
        # The nearest earlier piece with a phrase that fits; "them" wants a plural.
        (
            "Did my parcels from Berlin arrive",
            "please send them on",
            "please send them [my parcels] on",
        ),
        # "her" wants a name.
        ("Is Dr Osei in on Monday", "can I see her at 4", "can I see her [Dr Osei] at 4"),
        # "one" and "the same" name the kind, without its number or determiner.
        (
            "What season tickets do you sell",
            "can I buy one now",
            "can I buy one [season tickets] now",
        ),
        ("Two tickets for Wicked please", "and one for Alien", "and one [tickets] for Alien"),
        (
            "Reserve a kayak for Sunday",
            "and the same for Monday",
            "and the same [kayak] for Monday",
        ),
        ("Is the green tent in stock", "I'll take that one", "I'll take that one [green tent]"),
        # A verb after a determiner is a noun ("my order").
        ("Where is my order of paint", "can I cancel it", "can I cancel it [my order]"),
        # A word in "-ing" opens no noun phrase, "next" is none of one.
        ("Are you showing Moana 2 next week", "how long is it", "how long is it [Moana 2]"),
        # "will it be" a state, a place or a participle points back.
        ("Is my repair ready", "when will it be fixed", "when will it [my repair] be fixed"),
        ("Book a taxi for 5am", "will it be there on time", "will it [a taxi] be there on time"),
    ],
)
def test_what_a_piece_stands_for_is_named_in_brackets_after_the_pointing_word(
    earlier: str, piece: str, expected: str
) -> None:
    out = referred(_entries(("shop", earlier), ("desk", piece)), "desk")
    assert out[1] == PlanEntry(request=expected, agent="shop")


@pytest.mark.parametrize(
    "piece",
    [
        "can you confirm it by then",
        "please hold it and I will pay on arrival",
        "can I take it out at nine and then bring it back at noon",
    ],
)
def test_the_bracket_stays_in_its_clause_when_a_sub_agent_cuts_the_request(piece: str) -> None:
    # The offline model cuts a request again at "and" and "then" (``split_commands``): the
    # bracket goes with the pointing word's clause, never a piece (a tool argument) of its own.
    out = referred(_entries(("shop", "Is the blue kayak free on Sunday"), ("desk", piece)), "desk")
    assert out[1].agent == "shop"
    pieces = split_commands(out[1].request)
    with_bracket = [p for p in pieces if "[the blue kayak]" in p]
    assert len(with_bracket) == 1
    assert with_bracket[0].startswith(piece.split(" it ")[0])
    assert all(not p.startswith("[") for p in pieces)


@pytest.mark.parametrize(
    ("earlier", "piece"),
    [
        ("Is the kayak free on Sunday", "are they open on bank holidays"),  # nothing plural
        ("Is the kayak free on Sunday", "is it true you close in winter"),  # dummy "it"
        ("Is the kayak free on Sunday", "how far is it from the bus stop"),  # dummy "it"
        ("Is the kayak free on Sunday", "is there parking"),  # "there is" introduces
        ("Is the kayak free on Sunday", "can one person paddle a canoe"),  # "one" a number
        ("Book a kayak", "while you're at it, what's the weather"),  # a connective's "it"
        ("Is the kayak free on Sunday", "I need a life jacket, can you lend me one"),  # own
        # A noun phrase before the pointing word in its own piece, whatever its number.
        ("Book a pilates class", "my knee hurts when I bend it, should I see a doctor"),
        ("Book a deep tissue massage", "my back aches and I think I strained it"),
        # A dummy "it" by shape: "is it a/an ...", "what's it like (there)", "will it be ADJ".
        ("Book a room for Friday", "is it a bank holiday on Monday"),
        ("Is the shuttle free on Sunday", "what's it like there in May"),
        ("Book a taxi for 5am", "will it be dark by then"),
    ],
)
def test_a_piece_that_names_nothing_before_it_is_left_alone(earlier: str, piece: str) -> None:
    entries = _entries(("shop", earlier), ("desk", piece))
    assert referred(entries, "desk") == entries


def test_only_the_parents_pieces_are_read_and_the_first_is_never() -> None:
    entries = _entries(("desk", "can I buy it"), ("shop", "Is the kayak free"), ("rent", "it"))
    assert referred(entries, "desk") == entries

"""A detail the split cut off into a sentence of its own goes with its request (issue 25, s59-route).

The split cuts a message at sentence ends by form; the learnt decision of
``harness.planning._joins`` then weighs each cut between two pieces that go to different places.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from harness.models.base import AgentCard
from harness.planning import PlanInput, RulesPlanner
from harness.planning._joins import JOIN, JOIN_FEATURES, Judged, join_features
from harness.planning.rules import _one_requests

GARDEN = (
    AgentCard(
        name="deliveries",
        description="Arranges home delivery of plants, soil and garden supplies and tracks orders.",
        mode="silent",
        examples=(
            "Can you deliver three bags of compost on Friday?",
            "Where is my order of bulbs?",
        ),
    ),
    AgentCard(
        name="workshops",
        description="Signs people up for gardening classes and pruning workshops.",
        mode="silent",
        examples=("Is there a beginners class on roses?", "Sign me up for the pruning workshop."),
    ),
    AgentCard(
        name="plant_doctor",
        description="Diagnoses sick plants from a description of their leaves and roots.",
        mode="silent",
        examples=("My tomato leaves are turning yellow.", "Why is my fern drooping?"),
    ),
)


async def _plan(message: str) -> list[tuple[str, str]]:
    plan = await RulesPlanner().plan(PlanInput(parent="assistant", message=message, agents=GARDEN))
    return [(e.request, e.agent) for e in plan.entries]


@pytest.mark.parametrize(
    "message",
    [
        "I would like the beginners class. It works for me on Saturday.",
        "I'd like to book the rose workshop. I heard that one is good.",
    ],
)
async def test_a_statement_about_the_request_before_it_goes_with_it(message: str) -> None:
    assert await _plan(message) == [(message, "workshops")]


@pytest.mark.parametrize(
    ("message", "entries"),
    [
        (
            "I would like the beginners class. Where is my order of bulbs?",
            [
                ("I would like the beginners class", "workshops"),
                ("Where is my order of bulbs", "deliveries"),
            ],
        ),
        (
            "I would like the beginners class. My fern is drooping.",
            [
                ("I would like the beginners class", "workshops"),
                ("My fern is drooping.", "plant_doctor"),
            ],
        ),
    ],
)
async def test_two_requests_for_two_agents_stay_two(
    message: str, entries: list[tuple[str, str]]
) -> None:
    assert await _plan(message) == entries


def _judge(agents: dict[str, str | None]) -> Callable[[str], Judged]:
    def judge(text: str) -> Judged:
        agent = agents[text]
        return Judged(agent=agent, probability=0.5 if agent else 0.0, sent=agent is not None)

    return judge


def test_only_pieces_going_to_different_places_are_weighed() -> None:
    weighed: list[tuple[str, str]] = []

    def joins(first: str, second: str, figures: tuple[float, ...]) -> bool:
        weighed.append((first, second))
        return True

    message = "Book the class. It is on Sunday. Then the workshop."
    parts = [("Book the class", "Book the class"), ("It is on Sunday", "It is on Sunday")]
    parts.append(("Then the workshop.", "Then the workshop."))
    same = _judge({p: "workshops" for p, _ in parts})
    assert _one_requests(message, parts, same, joins) == parts
    assert weighed == []
    judge = _judge(
        {
            "Book the class": "workshops",
            "It is on Sunday": None,
            "Book the class. It is on Sunday": "workshops",
            "Then the workshop.": None,
        }
    )
    joined = _one_requests(message, parts, judge, joins)
    # The joined piece is the message's own text, and is weighed again against the next one.
    assert joined == [(message, message)]
    assert weighed == [
        ("Book the class", "It is on Sunday"),
        ("Book the class. It is on Sunday", "Then the workshop."),
    ]


@pytest.mark.parametrize("gap", [": ", "; ", "\n", " and "])
def test_a_cut_at_a_colon_a_line_or_a_connective_is_never_weighed(gap: str) -> None:
    message = f"Book the class{gap}it is on Sunday"
    parts = [("Book the class", "Book the class"), ("it is on Sunday", "it is on Sunday")]
    judge = _judge({"Book the class": "workshops", "it is on Sunday": None})
    assert _one_requests(message, parts, judge, lambda *_: True) == parts


def test_a_piece_planned_with_words_taken_off_is_never_weighed() -> None:
    message = "Book the class. Also, it is on Sunday"
    parts = [("Book the class", "Book the class"), ("it is on Sunday", "it is on Sunday")]
    parts[1] = ("Also, it is on Sunday", "it is on Sunday")
    judge = _judge({"Book the class": "workshops", "it is on Sunday": None})
    assert _one_requests(message, parts, judge, lambda *_: True) == parts


def test_the_model_has_a_coefficient_per_figure() -> None:
    figures = join_features(
        "Book the class",
        "It is on Sunday.",
        ". ",
        Judged(agent="workshops", probability=0.9, sent=True),
        Judged(agent=None, probability=0.0, sent=False),
    )
    assert len(figures) == len(JOIN_FEATURES) == len(JOIN.coefficients)
    assert 0.0 < JOIN.threshold < 1.0

"""``new_bot_eval.stage`` places a request at the first stage of the planner that lost it (the
breakdown of a new bot's misses, ``python -m tests.planning.new_bot_eval --stages``)."""

from __future__ import annotations

import pytest

from harness.models.base import AgentCard
from harness.planning.match import AgentMatcher
from tests.planning.new_bot_eval import STAGES, Staged, stage

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


@pytest.mark.parametrize("concepts", [True, False])
@pytest.mark.parametrize(
    ("text", "gold", "placed"),
    [
        ("Sign me up for the pruning workshop.", "workshops", Staged("right", True)),
        ("Sign me up for the pruning workshop.", "deliveries", Staged("matcher", False)),
        # Planned as two entries, the one holding most of the words for the wrong agent.
        (
            "I would like the beginners class. My fern is drooping.",
            "plant_doctor",
            Staged("split", False),
        ),
        # No agent's word or meaning reaches it.
        ("Tell me a joke about penguins.", "deliveries", Staged("first gate", False)),
    ],
)
def test_each_request_is_placed_at_the_stage_that_lost_it(
    text: str, gold: str, placed: Staged, concepts: bool
) -> None:
    assert stage(GARDEN, concepts, text, gold) == placed


def test_a_request_the_out_of_scope_gate_keeps_is_the_gates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "Sign me up for the pruning workshop."
    monkeypatch.setattr(AgentMatcher, "sent_on", lambda self, text, threshold=None: False)
    # The matcher alone would have it right: the gate lost it.
    assert stage(GARDEN, False, text, "workshops") == Staged("scope gate", True)


def test_the_stages_are_in_the_planners_order() -> None:
    assert STAGES == ("right", "split", "first gate", "scope gate", "matcher")

"""A bot double whose silent agents break their contract (``--bot tests.simulate.contract_bot:make``):
``refunds`` returns no ``findings``, ``loyalty`` claims a silent answer ``answered``."""

from __future__ import annotations

from harness import Parent
from harness.testing import fake_subagent


def make() -> Parent:
    refunds = fake_subagent(
        "refunds",
        mode="silent",
        outputs={"answered": False, "openQuestions": []},
        description="Starts refunds for orders.",
        examples=["i want a refund for my order", "refund order 123"],
    )
    loyalty = fake_subagent(
        "loyalty",
        mode="silent",
        outputs={"answered": True, "findings": "You have 420 points.", "openQuestions": []},
        description="Knows the customer's loyalty points balance.",
        examples=["how many loyalty points do i have", "my points balance"],
    )
    return Parent(name="shop", subagents=[refunds, loyalty], model="rules")

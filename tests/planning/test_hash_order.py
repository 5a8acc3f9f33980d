"""The offline planner's figures and the instruction reader's log-odds are the same to the last
bit in every process: a sum over a set of words is made exactly, or in the text's order, never in
the set's order (which follows the process's string hashing, ``PYTHONHASHSEED``)."""

from __future__ import annotations

import pytest

from tests import hash_seeds

# New texts (written for this test): requests to route, and sentences of a bot's instructions.
_REQUESTS = [
    "can you move my dentist appointment to thursday afternoon and tell me the cost",
    "I want to rent a small car in Denver from the airport next Friday",
    "what time does the bakery on pine street open tomorrow morning",
    "book two tickets for the late showing of the space documentary",
    "how many vacation days do I have left this year before the reset",
    "my credit card was charged twice for the same grocery order last week",
    "please transfer two hundred dollars from checking to my savings account today",
    "is my flight to Lisbon delayed and can I still get a window seat on it",
    "what's my credit score, my credit limit, my interest rate and when is my next payment"
    " due this month",
]
_INSTRUCTIONS = [
    "Always greet the customer by name before answering their question.",
    "Never promise a refund unless the manager has approved it in writing.",
    "If the caller asks about pricing, hand them over to the billing agent.",
    "Keep every answer under three sentences and avoid technical jargon.",
    "Ask for the order number first, then check the shipping status.",
    "When a guest reports a broken heater, log the room number and tell the front desk.",
    "Do not share another patient's appointment times with the person you are talking to.",
    "The booking agent answers questions about seats, and the billing agent handles payments.",
    "Reply in the language the user wrote in, and keep a friendly but brief tone throughout.",
    "You may suggest a nearby branch when the one the customer chose is closed on that day.",
]

_SCRIPT = """
import json, sys
from harness.models.base import AgentCard
from harness.models._choice import agent_router
from harness.planning.match import AgentMatcher
from harness.text._features import sentence_features
from harness.text._learned import reader_model
from tests.detect.planner_baseline import cards

requests, instructions = json.loads(sys.stdin.read())
small = (
    AgentCard(name="travel", description="Business trips, flights and hotels.", mode="silent",
              instructions="You book flights and hotels for staff.",
              examples=("book a hotel in Oslo",)),
    AgentCard(name="payroll", description="Pay and payslips.", mode="silent",
              examples=("when is payday", "where is my payslip", "my salary is wrong")),
    AgentCard(name="calendar_desk", description="Meetings and the calendar.", mode="direct"),
)
hexes = lambda values: [v.hex() for v in values]
out = {"features": [], "scope": [], "router": []}
for bot in (cards(), small):
    matcher, router = AgentMatcher(bot), agent_router(tuple(bot))
    for text in requests:
        out["features"].append([[name, hexes(f)] for name, f in matcher.features(text)])
        out["scope"].append(hexes(matcher.scope_figures(text)))
        out["router"].append([[name, s.hex()] for name, s in router.scores(text)])
model = reader_model()
out["reader"] = [
    {ask: s.hex() for ask, s in model.scores(sentence_features(t)).items()} for t in instructions
]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def by_seed() -> dict[int, dict[str, object]]:
    return hash_seeds.by_seed(_SCRIPT, [_REQUESTS, _INSTRUCTIONS])


@pytest.mark.parametrize("part", ["features", "scope", "router", "reader"])
def test_the_same_texts_give_the_same_floats_whatever_the_string_hashing(
    by_seed: dict[int, dict[str, object]], part: str
) -> None:
    hash_seeds.assert_same(by_seed, part)

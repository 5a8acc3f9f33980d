"""Trust in the concept table per agent, not all or nothing per bot (``concepts.trusted_agents``).

A user's bot often mixes subjects the concept table learnt with one it never saw. Its closeness by
meaning says nothing about such an agent, so the planner neither keeps that agent's requests with
the parent for being far in meaning (for a request whose agent is such an agent, the
out-of-scope model for bots the table does not know decides), nor lets a meaning the table is
unsure of pull a request away from the agent its words pick.
"""

from __future__ import annotations

import pytest

from harness.models import AgentCard
from harness.planning import PlanInput, RulesPlanner
from harness.planning.concepts import (
    ConceptTable,
    agents_left_out,
    leave_one_out,
    trusted_agents,
)
from harness.planning.match import AgentMatcher
from tests.planning.test_concepts import LEAVE, PAY, TOY

# The toy table knows pay and leave; no request it was built from is about a clinic.
CLINIC = AgentCard(
    name="clinic",
    description="Books a visit with a dentist or a doctor.",
    mode="silent",
    examples=("i need to see a dentist", "book a doctor appointment", "find me a dentist nearby"),
)
CARDS = (PAY, LEAVE, CLINIC)


def test_each_agent_s_texts_are_routed_home_by_the_others() -> None:
    a, b = {"x": 1.0}, {"y": 1.0}
    assert agents_left_out([[a, a], [b, b]]) == [(2, 2), (2, 2)]
    # The second agent's texts are closer to the first agent's.
    assert agents_left_out([[a, a, a], [a, b]]) == [(3, 3), (0, 2)]
    assert agents_left_out([[a] * 50, [b] * 50], limit=10) == [(5, 5), (5, 5)]
    assert leave_one_out([[a, a, a], [a, b]]) == 0.6


def test_an_agent_whose_texts_meaning_routes_home_worse_than_their_words_is_not_trusted() -> None:
    pay, leave, other = {0: 1.0}, {1: 1.0}, {2: 1.0}
    # By their words, the first two agents' texts look alike; the third agent's are its own.
    words = [[{"pay": 1.0}] * 3, [{"pay": 1.0}] * 3, [{"dentist": 1.0}] * 3]
    # By meaning, the first two are told apart; the third agent's texts look like the first's.
    meanings = [[pay] * 3, [leave] * 3, [pay, pay, other]]
    assert trusted_agents(meanings, words) == (True, True, False)
    # An agent none of whose texts has a meaning is not trusted either.
    assert trusted_agents([[pay] * 3, [leave] * 3, []], words) == (True, True, False)
    # A table that routes the texts worse than their words do is not used at all.
    assert trusted_agents([[pay] * 3, [pay] * 3, [pay] * 3], words) is None


def test_the_matcher_names_the_agents_whose_subject_the_table_knows() -> None:
    matcher = AgentMatcher(CARDS, concepts=TOY)
    assert matcher.uses_concepts
    assert matcher.known == {"payroll", "pto"}
    assert AgentMatcher(CARDS, concepts=False).known == frozenset()


@pytest.mark.parametrize(
    "message",
    [
        "is there a doctor free on monday",
        "need a doctor tomorrow morning",
        "can i get an appointment on friday",
        "schedule a visit for tuesday",
    ],
)
async def test_a_request_for_an_agent_the_table_does_not_know_is_not_kept_with_the_parent(
    message: str,
) -> None:
    """Far from every agent in meaning (the table knows no clinic), close in words to one."""
    given = PlanInput(parent="desk", message=message, agents=CARDS)
    plan = await RulesPlanner(concepts=TOY).plan(given)
    assert [e.agent for e in plan.entries] == ["clinic"]


@pytest.mark.parametrize(
    "message", ["is a doctor free friday next week", "doctor friday next week"]
)
async def test_an_unsure_meaning_does_not_pull_a_request_from_an_agent_the_table_does_not_know(
    message: str,
) -> None:
    """ "week" means an intent no agent has, a little the leave intent (closeness 0.44, under
    ``MEANING_GATE``); with "friday" from pto's example, the table's matcher picks pto. The
    words pick the clinic, whose subject the table never saw."""
    words = dict(TOY.words)
    words["week"] = ((2, 0.9), (TOY.words["vacation"][0][0], 0.44))
    table = ConceptTable(words=words)
    assert AgentMatcher(CARDS, concepts=table).best(message) == "pto"
    given = PlanInput(parent="desk", message=message, agents=CARDS)
    plan = await RulesPlanner(concepts=table).plan(given)
    assert [e.agent for e in plan.entries] == ["clinic"]


async def test_the_table_still_routes_the_agents_it_knows() -> None:
    given = PlanInput(parent="desk", message="what's my salary", agents=CARDS)
    plan = await RulesPlanner(concepts=TOY).plan(given)
    assert [e.agent for e in plan.entries] == ["payroll"]
    plan = await RulesPlanner(concepts=False).plan(given)
    assert [e.agent for e in plan.entries] == ["desk"]

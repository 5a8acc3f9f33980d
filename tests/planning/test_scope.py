"""The offline planner's out-of-scope decision (``harness.planning.scope``): a request that shares a
word with some agent by chance, but is for none of them, stays with the parent."""

from __future__ import annotations

import pytest

from harness.planning import PlanInput, RulesPlanner
from harness.planning.match import agent_matcher
from harness.planning.scope import CONCEPTS, PLAIN, SCOPE_FEATURES, in_scope_probability
from tests.detect.planner_baseline import PARENT, cards
from tests.planning.fit_scope import fit, probability

ASIDE = "play some jazz while i work"  # "work" is in the agents' texts; music is no agent's
REQUEST = "what is my credit card limit"


async def _agent(text: str, planner: RulesPlanner) -> str:
    plan = await planner.plan(PlanInput(parent=PARENT, message=text, agents=cards()))
    assert len(plan.entries) == 1
    return plan.entries[0].agent


async def test_a_request_for_no_agent_stays_with_the_parent_though_the_router_lets_it_through() -> (
    None
):
    matcher = agent_matcher(cards())
    assert matcher.scope is CONCEPTS  # the concept table knows these agents
    assert matcher.scope_figures(ASIDE)[-1] >= 0.9  # the router alone would send it on
    assert matcher.in_scope(ASIDE) < CONCEPTS.threshold <= matcher.in_scope(REQUEST)
    assert await _agent(ASIDE, RulesPlanner()) == PARENT
    assert await _agent(ASIDE, RulesPlanner(scope_threshold=0.0)) != PARENT
    assert await _agent(REQUEST, RulesPlanner()) == "cards"


async def test_the_decision_applies_with_embeddings_too() -> None:
    class Embedder:
        async def embed(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, float(len(t))] for t in texts]

    assert await _agent(ASIDE, RulesPlanner(embedder=Embedder())) == PARENT


def test_the_probability_rises_with_the_evidence_for_an_agent() -> None:
    figures = list(agent_matcher(cards()).scope_figures(REQUEST))
    assert len(figures) == len(SCOPE_FEATURES)
    weaker = [figures[0] / 2, figures[1] / 2, figures[2] / 2, *figures[3:]]
    for model in (PLAIN, CONCEPTS):
        assert in_scope_probability(weaker, model) < in_scope_probability(figures, model)
        assert in_scope_probability([0.0] * len(SCOPE_FEATURES), model) < model.threshold


def test_a_bot_the_concept_table_does_not_know_keeps_the_plain_model() -> None:
    """Its ``meaning`` figure is always 0, so a model that counts on it would keep in-scope
    requests with the parent; the plain one gives ``meaning`` no weight."""
    matcher = agent_matcher(cards(), concepts=False)
    assert matcher.scope is PLAIN and PLAIN.coefficients[SCOPE_FEATURES.index("meaning")] == 0.0
    assert matcher.scope_figures(REQUEST)[SCOPE_FEATURES.index("meaning")] == 0.0
    assert matcher.in_scope(REQUEST) >= PLAIN.threshold


def test_the_fit_separates_two_clouds_and_reports_raw_coefficients() -> None:
    pytest.importorskip("numpy")
    inside = [(1.0 + i / 10, 0.5, 0.9, 0.5, 0.5, 1.0, 0.6, 3.0 + i / 10) for i in range(10)]
    outside = [(0.1 + i / 100, 0.1, 0.2, 0.1, 0.5, 0.2, 0.2, 1.0 + i / 100) for i in range(10)]
    constants = fit(inside, outside)
    assert all(probability(x, *constants) > 0.5 for x in inside)
    assert all(probability(x, *constants) < 0.5 for x in outside)

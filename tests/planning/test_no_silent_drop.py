"""The offline planner never leaves a part of the user's message out of its plan in silence
(issue 25, "never drops one in silence"; session 47).

Every word of the message but the joining words a cut takes out ("as well as") is in some plan
entry. The split keeps every piece by construction; the planner checks it (``_unplanned``) and
plans any piece the split lost as a request of its own, routed like any other, so a mistake in
the split shows as an entry, not as a silence. Every message here is new text.
"""

from __future__ import annotations

import asyncio

import pytest

from harness.models._text import content_tokens
from harness.models.base import AgentCard
from harness.planning import rules
from harness.planning.base import PlanInput
from harness.planning.rules import RulesPlanner

PARENT = "concierge"
AGENTS = (
    AgentCard(
        name="payroll",
        description="Answers questions about pay days, payslips, tax forms and deductions.",
        mode="silent",
        examples=("when do I get paid", "where is my W-2"),
    ),
    AgentCard(
        name="travel",
        description="Books flights, hotels and rental cars for business trips.",
        mode="silent",
        examples=("book me a flight to Denver", "I need a hotel in Austin"),
    ),
    AgentCard(
        name="it",
        description="Resets passwords, unlocks accounts and fixes laptops and VPN access.",
        mode="silent",
        examples=("reset my VPN password", "my laptop will not start"),
    ),
)


def _plan(message: str) -> list[tuple[str, str]]:
    planned = asyncio.run(
        RulesPlanner().plan(PlanInput(parent=PARENT, message=message, agents=AGENTS))
    )
    return [(e.agent, e.request) for e in planned.entries]


@pytest.mark.parametrize(
    "message",
    [
        "Reset my VPN password as well as tell me when payday falls this month.",
        "Hi there! Quick one, then another: my laptop froze again, and where's my 1099?",
        "I'm flying to Quito next week. Book a hotel near the old town, one with a gym,"
        " plus unlock my account please. Thanks so much, you're great!",
        "1) payslip for May 2) a rental car in Lyon 3) nothing else, really",
        "So, um, btw, the printer on floor 3 jams, whatever, also when do bonuses land?",
        "Lovely weather today. Anyway — fix my Outlook / book Oslo flights / check my tax code.",
        "no, not that one; the other laptop. it's the silver one with the cracked hinge.",
    ],
)
def test_every_word_of_a_message_is_in_some_entry(message: str) -> None:
    planned = {t for _, text in _plan(message) for t in content_tokens(text)}
    said = content_tokens(rules.JOINER.sub(" ", message))
    assert [t for t in said if t not in planned] == []


def test_a_piece_the_split_loses_is_planned_and_routed(monkeypatch: pytest.MonkeyPatch) -> None:
    # A split that loses its last piece: the planner still plans it, routed on its own words.
    real = rules.split_request_parts

    def lossy(message: str, starts_request):  # type: ignore[no-untyped-def]
        return real(message, starts_request)[:-1]

    monkeypatch.setattr(rules, "split_request_parts", lossy)
    plan = _plan("Unlock my laptop account. Also, where is my W-2 form?")
    assert ("it", "Unlock my laptop account") in plan
    assert any(agent == "payroll" and "W-2" in text for agent, text in plan)


def test_a_lost_piece_no_agent_takes_stays_with_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    real = rules.split_request_parts

    def lossy(message: str, starts_request):  # type: ignore[no-untyped-def]
        return real(message, starts_request)[:-1]

    monkeypatch.setattr(rules, "split_request_parts", lossy)
    plan = _plan("Reset my VPN password. Also, tell me a joke about giraffes.")
    assert any(agent == PARENT and "giraffes" in text for agent, text in plan)


def test_nothing_is_added_when_nothing_is_lost() -> None:
    message = "Book a flight to Rome as well as reset my VPN password."
    assert rules._unplanned(message, ["Book a flight to Rome", "reset my VPN password."]) == []
    assert rules._unplanned(message, ["Book a flight to Rome"]) == ["reset my VPN password."]

"""The offline planner never leaves a part of the user's message out of its plan in silence
(issue 25, "never drops one in silence"; session 47).

Every word of the message but the joining words a cut takes out ("as well as") is in some plan
entry. The split keeps every piece by construction; the planner checks it (``_unplanned``) and
plans any piece the split lost as a request of its own, routed like any other, so a mistake in
the split shows as an entry, not as a silence. Only the words lost are planned, where they stand in the message. The
planner reads a message's first ``ANALYSIS_BUDGET`` characters; the turn's plan gives the rest to
the parent (``plan_requests``). Every message here is new text.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from harness.models._text import _SPLIT, content_tokens
from harness.models.base import AgentCard
from harness.planning import rules
from harness.planning.base import PlanInput
from harness.planning.rules import RulesPlanner
from harness.runtime.parts import plan_requests
from harness.text import ANALYSIS_BUDGET

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


def _plan_on_the_floor(message: str, holder: str = "travel") -> list[tuple[str, str]]:
    given = PlanInput(parent=PARENT, message=message, agents=AGENTS, active_agent=holder)
    return [(e.agent, e.request) for e in asyncio.run(RulesPlanner().plan(given)).entries]


@pytest.mark.parametrize(
    "message",
    [
        "The 7:15 one, aisle if you can. Also my VPN drops every hour and where's my payslip?",
        "yes; no, wait, Tuesday. plus reset my password then, and thanks!",
        "Sure: Hilton Garden, 2 nights (check-in 3/14) & my laptop fan is loud as well as hot.",
    ],
)
def test_every_word_is_in_some_entry_while_an_agent_holds_the_floor(message: str) -> None:
    # An agent in a dialogue with the user gets its answers; the rest goes elsewhere, not lost.
    planned = {t for _, text in _plan_on_the_floor(message) for t in content_tokens(text)}
    said = content_tokens(rules.JOINER.sub(" ", message))
    assert [t for t in said if t not in planned] == []


def test_a_piece_the_floor_split_loses_is_planned(monkeypatch: pytest.MonkeyPatch) -> None:
    # With an agent holding the floor the message is cut otherwise (``_parts``); a piece that cut
    # loses is planned too, routed as any part is (the holder's, unless clearly another agent's).
    real = rules._parts
    monkeypatch.setattr(rules, "_parts", lambda text: real(text)[:-1])
    plan = _plan_on_the_floor("The 7:15 flight, window seat. Also, where is my W-2?")
    assert ("travel", "The 7:15 flight, window seat") in plan
    assert any(agent == "payroll" and "W-2" in text for agent, text in plan)
    plan = _plan_on_the_floor("Window seat please. Also, unlock my laptop account, and a limerick.")
    assert ("it", "unlock my laptop account") in plan
    assert any(agent == "travel" and "limerick" in text for agent, text in plan)


def _lose_last_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """A split that loses its last piece."""
    real = rules.split_request_parts

    def lossy(message: str, starts_request):  # type: ignore[no-untyped-def]
        return real(message, starts_request)[:-1]

    monkeypatch.setattr(rules, "split_request_parts", lossy)


def test_a_piece_the_split_loses_is_planned_and_routed(monkeypatch: pytest.MonkeyPatch) -> None:
    # A split that loses its last piece: the planner still plans it, routed on its own words.
    _lose_last_piece(monkeypatch)
    plan = _plan("Unlock my laptop account. Also, where is my W-2 form?")
    assert ("it", "Unlock my laptop account") in plan
    assert any(agent == "payroll" and "W-2" in text for agent, text in plan)


def test_a_lost_piece_no_agent_takes_stays_with_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    _lose_last_piece(monkeypatch)
    plan = _plan("Reset my VPN password. Also, tell me a joke about giraffes.")
    assert any(agent == PARENT and "giraffes" in text for agent, text in plan)


def test_nothing_is_added_when_nothing_is_lost() -> None:
    message = "Book a flight to Rome as well as reset my VPN password."
    parts = [("Book a flight to Rome", "Book a flight to Rome")]
    whole = [*parts, ("reset my VPN password.", "reset my VPN password.")]
    assert rules._unplanned(message, whole) == whole
    assert rules._unplanned(message, parts) == whole


def _texts(message: str, planned: list[str]) -> list[str]:
    return [text for text, _ in rules._unplanned(message, [(t, t) for t in planned])]


def test_only_the_lost_words_are_planned_not_the_whole_piece_again() -> None:
    # A lead-in the split lost: it alone is planned, not the request a second time.
    assert _texts(
        "Frankly, order me a train ticket to Leeds.", ["order me a train ticket to Leeds."]
    ) == [
        "Frankly",
        "order me a train ticket to Leeds.",
    ]


def test_a_lost_piece_is_planned_where_it_stands() -> None:
    message = "Unlock my account. Where is my W-2? Cancel the Oslo hotel."
    assert _texts(message, ["Unlock my account", "Cancel the Oslo hotel."]) == [
        "Unlock my account",
        "Where is my W-2?",
        "Cancel the Oslo hotel.",
    ]


def test_a_request_written_twice_and_planned_once_is_planned_again() -> None:
    message = "Unlock my account. When is payday? Unlock my account and tell me when payday is."
    planned = ["Unlock my account", "When is payday"]
    assert _texts(message, planned) == [*planned, "Unlock my account and tell me when payday is."]


def test_a_text_the_split_wrote_anew_counts_as_planned() -> None:
    # "Book X and Y" joined with a space is no substring of the message; its words are planned.
    message = "The trip is in May.\nBook a flight to Rome."
    planned = ["The trip is in May. Book a flight to Rome."]
    assert _texts(message, planned) == planned


def test_a_long_run_of_spaces_costs_little() -> None:
    # The cut before "and" took the spaces before it in cubic time (92 s at 2,000 spaces).
    message = "Unlock my account." + " " * 3000 + "payday"
    start = time.process_time()
    assert _texts(message, ["Unlock my account."]) == ["Unlock my account.", "payday"]
    assert _SPLIT.split("reset" + " " * 3000 + "x") == ["reset" + " " * 3000 + "x"]
    assert time.process_time() - start < 2


def test_the_end_of_a_message_past_the_budget_is_answered_by_the_parent() -> None:
    # The planner reads the first ``ANALYSIS_BUDGET`` characters; the turn's plan gives the rest
    # to the parent, so a request there is still in the plan.
    message = (
        "We went over the offsite agenda again this morning. " * 220 + "Reset my VPN password."
    )
    assert len(message) > ANALYSIS_BUDGET
    entries = asyncio.run(
        RulesPlanner().plan(PlanInput(parent=PARENT, message=message, agents=AGENTS))
    ).entries
    plan = plan_requests(entries, parent=PARENT, agents=[a.name for a in AGENTS], message=message)
    assert plan[-1].agent == PARENT
    assert plan[-1].request.endswith("Reset my VPN password.")

"""Per-request answers: an agent given several requests in one call answers each
(``answeredRequests``), and the parent composes per request (docs/contract.md, "Several requests in
one call").

The plan is fixed here (``FixedPlanner``), so these tests exercise the contract, the wire and the
composition, not the offline planner's routing.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import pytest
from aiohttp import web

from harness import ConnectedAgent, Parent
from harness.hosting import create_app
from harness.planning import Plan, PlanEntry, PlanInput, Planner
from harness.testing import MockTransport
from harness.transport import InProcessTransport
from subagents import ChildAgent, Mode, ToolContext, ViolationKind, validate_outputs
from tests.hosting._support import running

PAYDAY = "Your next payday is Friday, December 4."
W2 = "Your W-2 is in the payroll portal under Documents."
REQUESTS = ("when is payday", "where is my W-2")


class FixedPlanner(Planner):
    """Plans every message as the same requests, each for its named agent."""

    def __init__(self, *entries: tuple[str, str]) -> None:
        self.entries = tuple(PlanEntry(request=r, agent=a) for r, a in entries)

    async def plan(self, given: PlanInput) -> Plan:
        return Plan(entries=self.entries)


def _plan_both(agent: str = "payroll") -> FixedPlanner:
    return FixedPlanner(*((r, agent) for r in REQUESTS))


def per_request_handler(
    w2_findings: str = "",
) -> Callable[[ToolContext], Awaitable[Mapping[str, Any]]]:
    """A direct agent that knows paydays only: it answers the payday request itself and hands
    the W-2 one back, with ``w2_findings`` for the parent to relay (or none)."""

    async def handler(ctx: ToolContext) -> Mapping[str, Any]:
        items = [
            {
                "request": r,
                "answered": "payday" in r,
                "findings": "" if "payday" in r else w2_findings,
            }
            for r in ctx.requests or (ctx.scoped_request,)
        ]
        return {
            "answered": all(i["answered"] for i in items),
            "interactionSummary": PAYDAY,
            "openQuestions": [],
            "answeredRequests": items,
        }

    return handler


def _payroll(handler: Callable[[ToolContext], Awaitable[Mapping[str, Any]]]) -> ChildAgent:
    return ChildAgent(
        name="payroll",
        mode=Mode.DIRECT,
        description="Pay dates and tax forms.",
        handler=handler,
    )


def _texts(turn: Any) -> list[tuple[str, str]]:
    return [(m.sender, m.text) for m in turn.messages]


# --- the contract ---------------------------------------------------------------------------------


def test_several_requests_without_answered_requests_is_an_advisory_violation() -> None:
    outputs, violations = validate_outputs(
        agent="payroll",
        mode=Mode.DIRECT,
        raw={"answered": True, "interactionSummary": PAYDAY},
        messages_sent=[PAYDAY],
        requests=REQUESTS,
    )
    assert outputs is not None and outputs.answered
    assert [v.kind for v in violations] == [ViolationKind.MISSING_REQUEST_ANSWERS]
    assert all(v.advisory for v in violations)


def test_one_request_needs_no_answered_requests() -> None:
    _, violations = validate_outputs(
        agent="payroll",
        mode=Mode.DIRECT,
        raw={"answered": True, "interactionSummary": PAYDAY},
        messages_sent=[PAYDAY],
        requests=REQUESTS[:1],
    )
    assert violations == ()


def test_one_item_per_request_or_it_is_invalid() -> None:
    _, violations = validate_outputs(
        agent="payroll",
        mode=Mode.DIRECT,
        raw={
            "answered": True,
            "interactionSummary": PAYDAY,
            "answeredRequests": [{"request": REQUESTS[0], "answered": True}],
        },
        messages_sent=[PAYDAY],
        requests=REQUESTS,
    )
    assert [(v.kind, v.output) for v in violations] == [
        (ViolationKind.INVALID_OUTPUT, "answeredRequests")
    ]
    assert not violations[0].advisory


def test_a_silent_agent_answers_no_request_itself() -> None:
    _, violations = validate_outputs(
        agent="payroll",
        mode=Mode.SILENT,
        raw={
            "answered": False,
            "findings": PAYDAY,
            "openQuestions": [],
            "answeredRequests": [
                {"request": REQUESTS[0], "answered": True, "findings": PAYDAY},
                {"request": REQUESTS[1], "answered": False, "findings": W2},
            ],
        },
        requests=REQUESTS,
    )
    assert [v.kind for v in violations] == [ViolationKind.SILENT_ANSWERED]


def test_a_request_claimed_answered_without_a_message_is_a_violation() -> None:
    _, violations = validate_outputs(
        agent="payroll",
        mode=Mode.DIRECT,
        raw={
            "answered": False,
            "interactionSummary": "",
            "answeredRequests": [
                {"request": REQUESTS[0], "answered": True, "findings": ""},
                {"request": REQUESTS[1], "answered": False, "findings": ""},
            ],
        },
        requests=REQUESTS,
    )
    assert ViolationKind.ANSWERED_WITHOUT_MESSAGE in [v.kind for v in violations]


# --- composition per request (direct mode, offline) -----------------------------------------------


async def test_the_parent_apologises_for_the_unanswered_request_only() -> None:
    bot = Parent(
        name="helpdesk",
        subagents=[_payroll(per_request_handler())],
        planner=_plan_both(),
    )
    turn = await bot.conversation().send("when is payday and where is my W-2")
    [result] = turn.results
    assert result.requests == REQUESTS
    assert [a.answered for a in result.request_answers or ()] == [True, False]
    assert result.violations == ()
    # The payday answer reaches the user once (from the agent); the parent speaks only of the W-2.
    assert _texts(turn) == [
        ("payroll", PAYDAY),
        (
            "helpdesk",
            'I can\'t help with "where is my W-2" here.',
        ),
    ]


async def test_the_parent_relays_the_findings_of_the_unanswered_request_only() -> None:
    bot = Parent(
        name="helpdesk",
        subagents=[_payroll(per_request_handler(w2_findings=W2))],
        planner=_plan_both(),
    )
    turn = await bot.conversation().send("when is payday and where is my W-2")
    assert _texts(turn) == [("payroll", PAYDAY), ("helpdesk", W2)]


async def test_an_unanswered_request_goes_to_an_agent_that_can_take_it() -> None:
    tax = ChildAgent(
        name="tax_forms",
        mode=Mode.SILENT,
        description="Tax forms: where to find the W-2 and other tax documents.",
        examples=["where is my w-2", "where can i find my tax form"],
        handler=lambda ctx: _silent(W2),
    )
    bot = Parent(
        name="helpdesk",
        subagents=[_payroll(per_request_handler()), tax],
        planner=_plan_both(),
    )
    turn = await bot.conversation().send("when is payday and where is my W-2")
    assert [r.agent for r in turn.results] == ["payroll", "tax_forms"]
    assert turn.results[1].request == "where is my W-2"
    assert _texts(turn) == [("payroll", PAYDAY), ("helpdesk", W2)]


async def _silent(findings: str) -> Mapping[str, Any]:
    return {"answered": False, "findings": findings, "openQuestions": []}


async def test_a_naive_parent_repeats_and_the_guard_drops_only_the_repeat() -> None:
    """A parent told to summarise repeats the answered request; the guard (``drop``) removes
    that repeat and keeps what the parent says of the unanswered one."""
    bot = Parent(
        name="helpdesk",
        instructions="Always summarise what your sub-agents told the user.",
        generated_instructions=False,
        subagents=[_payroll(per_request_handler(w2_findings=W2))],
        planner=_plan_both(),
        duplicate_guard="drop",
    )
    turn = await bot.conversation().send("when is payday and where is my W-2")
    [agent, parent] = turn.messages
    assert agent.text == PAYDAY
    assert W2 in parent.text
    assert "Friday, December 4" not in parent.text


# --- the offline model answers each request, one tool call per request -----------------------------


def pay_date(request: str) -> str:
    """When the next payday is: the pay date and the pay schedule."""
    return PAYDAY


def tax_form(request: str) -> str:
    """Where to find the W-2 tax form."""
    return W2


@pytest.mark.parametrize("mode", [Mode.DIRECT, Mode.SILENT])
async def test_the_rules_model_answers_each_request_with_its_own_tool_call(mode: Mode) -> None:
    agent = ChildAgent(
        name="payroll",
        mode=mode,
        description="Pay dates.",
        tools=[pay_date],
    )
    requests = (
        "when is payday",
        "when is the payday after the next one",
        "what is my office phone",
    )
    bot = Parent(
        name="helpdesk",
        subagents=[agent],
        planner=FixedPlanner(*((r, "payroll") for r in requests)),
    )
    turn = await bot.conversation().send("; ".join(requests))
    [result] = turn.results
    assert result.tool_calls == ("pay_date", "pay_date")  # one per request it has the tool for
    answers = result.request_answers
    assert answers is not None and [a.request for a in answers] == list(requests)
    if mode is Mode.DIRECT:
        assert [a.answered for a in answers] == [True, True, False]
    else:
        assert [bool(a.findings) for a in answers] == [True, True, False]
        assert not any(a.answered for a in answers)
    phone = 'I can\'t help with "what is my office phone"'
    assert turn.messages[-1].sender == "helpdesk"
    assert turn.messages[-1].text.count(phone) == 1
    if mode is Mode.DIRECT:
        assert PAYDAY not in turn.messages[-1].text  # answered by the agent: not repeated


# --- remote agents --------------------------------------------------------------------------------


def _host() -> Parent:
    return Parent(name="host", subagents=[_payroll(per_request_handler(w2_findings=W2))])


def _remote_payroll(url: str | None = None) -> ConnectedAgent:
    return ConnectedAgent(
        name="payroll",
        mode=Mode.DIRECT,
        description="Pay dates and tax forms.",
        pass_history=False,
        **({"url": url} if url else {}),
    )


async def test_a_remote_agent_answers_each_request_over_http() -> None:
    app = create_app(_host(), expose=True)
    seen: list[dict[str, Any]] = []

    @web.middleware
    async def record(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path.startswith("/agents/"):
            seen.append(json.loads(await request.read()))
        return await handler(request)  # type: ignore[no-any-return]

    app.middlewares.append(record)
    async with running(app) as host:
        bot = Parent(
            name="front",
            subagents=[_remote_payroll(f"{host}/agents/payroll")],
            planner=_plan_both(),
        )
        turn = await bot.conversation().send("when is payday and where is my W-2")
        await bot.aclose()
    [body] = seen
    assert body["requests"] == list(REQUESTS)
    assert body["scopedRequest"] == "(1) when is payday; (2) where is my W-2"
    [result] = turn.results
    assert result.violations == ()
    assert [a.answered for a in result.request_answers or ()] == [True, False]
    assert _texts(turn) == [("payroll", PAYDAY), ("front", W2)]


async def test_an_agent_of_another_parent_in_process_answers_each_request() -> None:
    bot = Parent(
        name="front",
        subagents=[_remote_payroll()],
        planner=_plan_both(),
        transports={"payroll": InProcessTransport(_host())},
    )
    turn = await bot.conversation().send("when is payday and where is my W-2")
    assert [a.answered for a in turn.results[0].request_answers or ()] == [True, False]
    assert _texts(turn) == [("payroll", PAYDAY), ("front", W2)]


@pytest.mark.parametrize("strict", [False, True])
async def test_an_old_remote_agent_with_one_answered_still_works(strict: bool) -> None:
    calls: list[Sequence[str]] = []

    def old_host(call: Any) -> Mapping[str, Any]:
        calls.append(call.requests)
        both = f"{PAYDAY} {W2}"
        return {
            "outputs": {"answered": True, "interactionSummary": both, "openQuestions": []},
            "messages": [both],
        }

    bot = Parent(
        name="front",
        subagents=[_remote_payroll()],
        planner=_plan_both(),
        transports={"payroll": MockTransport(old_host)},
        strict=strict,
    )
    turn = await bot.conversation().send("when is payday and where is my W-2")
    assert calls == [REQUESTS]
    [result] = turn.results
    assert [v.kind for v in result.violations] == [ViolationKind.MISSING_REQUEST_ANSWERS]
    # Read as before: one 'answered' for both, nothing repeated, nothing apologised for.
    assert result.ok and result.answered and result.request_answers is None
    assert _texts(turn) == [("payroll", f"{PAYDAY} {W2}")]
    assert not turn.failed

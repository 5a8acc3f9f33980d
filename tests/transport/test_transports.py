"""Sub-agent transports: a remote agent is tested without a server, and every transport fails alike."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness import ConfigError, ConnectedAgent, Mode, Parent, load_bot
from harness.testing import InProcessTransport, MockTransport
from harness.transport import AgentReply, AgentTransport, Delivery, SubagentCall

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
# A port nothing listens on: a call that reached the network would fail, not answer.
UNREACHABLE = "http://127.0.0.1:9/agents/payroll"


def _payroll(mode: Mode = Mode.DIRECT, **extra: Any) -> ConnectedAgent:
    return ConnectedAgent(
        name="payroll",
        description="Looks up pay dates and paychecks.",
        mode=mode,
        url=UNREACHABLE,
        retries=0,
        examples=("when is payday",),
        **extra,
    )


async def test_a_mock_transport_answers_a_remote_agent_without_a_network() -> None:
    mock = MockTransport(
        lambda call: {
            "outputs": {"answered": True, "interactionSummary": "Payday is Friday."},
            "messages": ["Your next payday is Friday."],
        }
    )
    bot = Parent(name="desk", subagents=[_payroll()], transports={"payroll": mock})
    turn = await bot.conversation().send("when is payday")
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("payroll", "Your next payday is Friday.")
    ]
    assert [r.status for r in turn.results] == ["complete"]
    assert [c.request for c in mock.calls] == ["when is payday"]


async def test_a_mock_answer_goes_through_the_same_checks_as_http() -> None:
    async def leaks(call: SubagentCall) -> dict[str, Any]:
        return {"outputs": {"findings": "Friday"}, "messages": ["Payday is Friday."]}

    bot = Parent(
        name="desk",
        subagents=[_payroll(Mode.SILENT)],
        transports={"payroll": MockTransport(leaks)},
    )
    result = await bot.run_subagent("payroll", "when is payday")
    assert result.status == "failed"
    assert "may not message the user" in (result.error or "")
    assert result.messages == ()


async def test_a_mode_mismatch_and_a_failed_remote_call_are_failures() -> None:
    mismatch = MockTransport(lambda call: {"mode": "silent", "outputs": {"findings": "x"}})
    failing = MockTransport(lambda call: {"status": "failed", "error": "db down", "outputs": None})
    for transport, expected in ((mismatch, "is silent"), (failing, "db down")):
        bot = Parent(name="desk", subagents=[_payroll()], transports={"payroll": transport})
        result = await bot.run_subagent("payroll", "when is payday", send=_ignore)
        assert result.status == "failed"
        assert expected in (result.error or "")


async def _ignore(text: str) -> None:
    return None


async def test_an_in_process_transport_calls_another_parent_as_its_host_would() -> None:
    host = load_bot(HELPDESK)
    expected = await host.run_subagent("payroll", "when is payday")
    assert expected.ok and expected.outputs is not None

    caller = Parent(
        name="desk",
        subagents=[_payroll(Mode.SILENT, pass_history=False)],
        transports={"payroll": InProcessTransport(host)},
    )
    turn = await caller.conversation().send("when is payday")
    [result] = turn.results
    assert result.status == "complete", result.error
    assert result.outputs == expected.outputs
    assert "December 4" in turn.text


async def test_run_subagent_keeps_the_agents_state_and_refuses_unknown_names() -> None:
    host = load_bot(HELPDESK)
    state: dict[str, Any] = {}
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    result = await host.run_subagent(
        "pto", "how many vacation days do i have left", state=state, send=send
    )
    assert result.ok and list(result.messages) == sent and sent
    with pytest.raises(ConfigError, match="no sub-agent named 'nobody'"):
        await host.run_subagent("nobody", "hello")


def test_transports_for_unknown_agents_are_a_config_error() -> None:
    mock = MockTransport(lambda call: {"outputs": {}})
    with pytest.raises(ConfigError, match="unknown sub-agents: pto"):
        Parent(name="desk", subagents=[_payroll()], transports={"pto": mock})


class _Hanging(AgentTransport):
    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        await deliver("Looking that up...")
        await asyncio.Event().wait()  # never answers
        raise AssertionError("unreachable")


class _Crashing(AgentTransport):
    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        raise RuntimeError("connection reset")


async def test_the_runner_owns_the_deadline_and_failures_of_every_transport() -> None:
    agent = _payroll(timeout=0.05)
    hanging = Parent(name="desk", subagents=[agent], transports={"payroll": _Hanging()})
    result = await hanging.run_subagent("payroll", "when is payday", send=_ignore)
    assert result.status == "timed_out"
    assert result.messages == ("Looking that up...",)  # what was delivered stays on the result

    crashing = Parent(name="desk", subagents=[agent], transports={"payroll": _Crashing()})
    result = await crashing.run_subagent("payroll", "when is payday")
    assert result.status == "failed"
    assert result.error == "RuntimeError: connection reset"


def test_a_remote_call_loads_no_hosting_or_simulator_module() -> None:
    script = f"""
import sys
from harness import ConnectedAgent, Parent, run_sync
agent = ConnectedAgent(name="payroll", description="Pay dates.", mode="silent",
                       url={UNREACHABLE!r}, retries=0, examples=("when is payday",))
bot = Parent(name="desk", subagents=[agent])
turn = run_sync(bot.conversation().send("when is payday"))
assert [r.status for r in turn.results] == ["failed"], turn.results
loaded = sorted(m for m in sys.modules if m.startswith(("harness.hosting", "harness.simulate")))
print(loaded)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

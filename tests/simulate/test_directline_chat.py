"""``harness chat --directline``: a Direct Line conversation a turn at a time, with the plan a
served bot sends for ``/plan`` (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from harness.cli import cli
from tests.simulate._directline_fake import FakeDirectLine, in_thread

_SEEN: list[dict[str, Any]] = []


async def _planning_bot(activity: dict[str, Any]) -> list[dict[str, Any]]:
    """Answers each message, and sends the turn's plan as ``harness serve`` does when asked."""
    _SEEN.append(activity)
    text = activity.get("text", "")
    replies: list[dict[str, Any]] = [
        {
            "type": "message",
            "text": f"pto heard: {text}",
            "from": {"id": "bot", "name": "pto"},
            "channelData": {"sender": "pto", "mode": "direct"},
        }
    ]
    if (activity.get("channelData") or {}).get("harness", {}).get("plan") is True:
        replies.append(
            {
                "type": "event",
                "name": "harness.plan",
                "value": {"plan": [{"agent": "pto", "request": text}], "answered_by": ["pto"]},
            }
        )
    return replies


@pytest.mark.parametrize("transport", ["polling", "websocket"])
def test_chat_over_direct_line_shows_replies_and_the_plan(transport: str) -> None:
    _SEEN.clear()
    fake = FakeDirectLine(_planning_bot)
    with in_thread(fake) as base:
        result = CliRunner().invoke(
            cli,
            [
                "chat",
                "--directline",
                base,
                "--directline-secret",
                fake.secret,
                "--transport",
                transport,
                "--quiet-period",
                "0.15",
            ],
            input="how many days off do I have?\n/plan\nand next year?\n",
        )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "pto (direct): pto heard: how many days off do I have?",
        "pto (direct): pto heard: and next year?",
    ]
    assert "pto: how many days off do I have?" in result.stderr  # /plan
    assert "(answered by pto)" in result.stderr
    assert fake.secret not in result.output
    # One conversation for the whole chat: one token, both messages in it.
    assert fake.requests.count("POST /tokens/generate") == 1
    assert len(_SEEN) == 2


def test_chat_needs_exactly_one_bot() -> None:
    both = CliRunner().invoke(cli, ["chat", "bot.yaml", "--endpoint", "http://127.0.0.1:9/x"])
    assert both.exit_code == 2 and "not BOT and --endpoint" in both.stderr
    none = CliRunner().invoke(cli, ["chat"])
    assert none.exit_code == 2 and "give one of BOT, --endpoint URL or --directline URL" in (
        none.stderr
    )
    stray = CliRunner().invoke(
        cli, ["chat", "--directline", "http://127.0.0.1:9/d", "--conversation", "x"]
    )
    assert stray.exit_code == 2 and "--conversation applies to --endpoint only" in stray.stderr


def test_chat_takes_the_same_direct_line_options_as_simulate() -> None:
    """``chat --directline`` is spelt as ``simulate --directline``: the same options, types,
    defaults and environment variables."""
    context = click.Context(cli)

    def directline(name: str) -> dict[str, tuple[object, ...]]:
        command = cli.get_command(context, name)
        assert command is not None
        return {
            p.opts[0]: (tuple(p.opts), repr(p.type), p.default, p.envvar)
            for p in command.params
            if p.opts[0] in ("--directline", "--directline-secret", "--directline-token")
            or p.opts[0] == "--transport"
        }

    chat, simulate = directline("chat"), directline("simulate")
    assert len(chat) == 4
    assert chat == simulate


async def _failing_payroll(activity: dict[str, Any]) -> list[dict[str, Any]]:
    """A served bot whose payroll sub-agent fails on the message about pay: it apologises, and
    its plan event names the failed agent (``failed``), as ``harness serve`` sends it."""
    text = activity.get("text", "")
    agent = "payroll" if "pay" in text else "pto"
    failed = agent == "payroll"
    replies: list[dict[str, Any]] = [
        {
            "type": "message",
            "text": "Sorry, I could not reach payroll." if failed else "You have 12 days left.",
            "from": {"id": "bot", "name": "helpdesk"},
            "channelData": {"sender": "helpdesk"},
        }
    ]
    if (activity.get("channelData") or {}).get("harness", {}).get("plan") is True:
        value = {
            "plan": [{"agent": agent, "request": text}],
            "answered_by": [] if failed else [agent],
            "failed": [agent] if failed else [],
        }
        replies.append({"type": "event", "name": "harness.plan", "value": value})
    return replies


def test_a_served_bots_failed_sub_agent_fails_the_chat_turn_as_in_process() -> None:
    fake = FakeDirectLine(_failing_payroll)
    with in_thread(fake) as base:
        result = CliRunner().invoke(
            cli,
            [
                "chat",
                "--directline",
                base,
                "--directline-secret",
                fake.secret,
                "--transport",
                "polling",
                "--quiet-period",
                "0.15",
            ],
            input="how many days off do I have?\nwhen is payday?\n",
        )
    # As `harness chat bot.yaml` does when a sub-agent call fails: the turn counts as failed,
    # the chat goes on, and it ends with exit 1.
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines() == [
        "helpdesk: You have 12 days left.",
        "helpdesk: Sorry, I could not reach payroll.",
    ]
    assert "(failed: payroll)" in result.stderr
    assert result.stderr.rstrip().endswith("error: 1 of 2 turns failed")


def test_a_served_bots_failed_sub_agent_fails_simulate_as_in_process(tmp_path: Path) -> None:
    """``harness simulate --directline`` counts the plan event's ``failed`` as ``chat`` does."""
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(
        "scenarios:\n  - name: pay\n    turns:\n      - user: when is payday?\n",
        encoding="utf-8",
    )
    fake = FakeDirectLine(_failing_payroll)
    with in_thread(fake) as base:
        result = CliRunner().invoke(
            cli,
            [
                "simulate",
                str(scenarios),
                "--directline",
                base,
                "--directline-secret",
                fake.secret,
                "--transport",
                "polling",
                "--quiet-period",
                "0.15",
                "--format",
                "json",
            ],
        )
    assert result.exit_code == 1, result.output
    assert "error: 1 of 1 scenario(s) ran to the end with a failed call:" in result.stderr
    (record,) = json.loads(result.stdout)["transcripts"]
    assert record["completed"] is True
    assert record["error"] == "turn 1: payroll failed: named as failed in the bot's plan event"


def _chat_limits(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, dict[str, float]]:
    """Run ``harness chat`` up to the point it would talk to the bot; the turn limits its
    target got (``reply_timeout``, ``turn_timeout``)."""
    import harness.cli.remote_chat
    from harness.simulate.directline import DirectLineTarget
    from harness.simulate.endpoint import EndpointTarget

    seen: dict[str, float] = {}
    for kind in (DirectLineTarget, EndpointTarget):
        real = kind.__init__

        def record(self: Any, *a: Any, _real: Any = real, **k: Any) -> None:
            _real(self, *a, **k)
            seen.update(turn_timeout=self.turn_timeout)
            if hasattr(self, "reply_timeout"):
                seen.update(reply_timeout=self.reply_timeout)

        monkeypatch.setattr(kind, "__init__", record)
    monkeypatch.setattr(harness.cli.remote_chat, "chat_remote", lambda *a, **k: 0)
    result = CliRunner().invoke(cli, ["chat", *args])
    return result.exit_code, seen | ({"error": result.stderr} if result.exit_code else {})


def test_chat_and_simulate_give_a_direct_line_turn_the_same_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from harness.simulate.scenarios import DirectLineSpec, TargetSpec

    url = "http://127.0.0.1:9/d"
    for given, turn in (([], 120.0), (["--reply-timeout", "300"], 360.0)):
        code, seen = _chat_limits(monkeypatch, "--directline", url, *given)
        reply = float(given[1]) if given else 60.0
        spec = TargetSpec(directline=DirectLineSpec(url=url), reply_timeout=reply)
        assert code == 0, seen
        assert seen == {"reply_timeout": reply, "turn_timeout": turn} and spec.turn_limit == turn
    code, seen = _chat_limits(monkeypatch, "--directline", url, "--turn-timeout", "400")
    assert (code, seen["turn_timeout"]) == (0, 400.0)
    code, seen = _chat_limits(
        monkeypatch, "--directline", url, "--reply-timeout", "300", "--turn-timeout", "100"
    )
    assert code == 2 and "--turn-timeout (100s) is below --reply-timeout (300s)" in seen["error"]


def test_chat_endpoint_takes_turn_timeout_as_simulate_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "http://127.0.0.1:9/api/messages"
    assert _chat_limits(monkeypatch, "--endpoint", url) == (0, {"turn_timeout": 30.0})
    code, seen = _chat_limits(monkeypatch, "--endpoint", url, "--turn-timeout", "90")
    assert (code, seen) == (0, {"turn_timeout": 90.0})
    code, seen = _chat_limits(monkeypatch, "--endpoint", url, "--reply-timeout", "90")
    assert code == 2
    assert (
        "--reply-timeout does not apply to --endpoint; its turn limit is --turn-timeout"
        in (seen["error"])
    )
    simulated = CliRunner().invoke(
        cli, ["simulate", "x.yaml", "--endpoint", url, "--reply-timeout", "90"]
    )
    assert simulated.exit_code == 2
    assert "--reply-timeout does not apply to --endpoint" in simulated.stderr


@pytest.mark.parametrize("transport", ["polling", "websocket"])
def test_a_late_reply_is_labelled_with_the_message_it_answers(transport: str) -> None:
    """The bot answers the first message again while it answers the second (its ``replyToId``
    names the first): the chat shows it with that question, not as an answer to the second
    (audit s58 finding 15)."""
    from tests.simulate.test_directline_delivery import LATE, _late_to_turn_one

    fake = FakeDirectLine(_late_to_turn_one())
    with in_thread(fake) as base:
        result = CliRunner().invoke(
            cli,
            [
                *("chat", "--directline", base, "--directline-secret", fake.secret),
                *("--transport", transport, "--quiet-period", "0.15"),
            ],
            input="PTO and payday?\nand my W-2?\n",
        )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("helpdesk: First: got 'PTO and payday?'")
    assert lines[1].startswith("helpdesk: First: got 'and my W-2?'")
    assert lines[2] == f'(late, to your message 1: "PTO and payday?") helpdesk: {LATE}'
    assert len(lines) == 3


async def test_chat_directline_takes_this_turns_plan_not_a_late_one() -> None:
    """``chat --directline``: turn 1's plan, arriving late after turn 2's own (its
    ``replyToId`` names the first message), is not taken as turn 2's plan."""
    from harness.cli.remote_chat import _DirectLineBot
    from harness.simulate.directline import DirectLineTarget
    from tests.simulate.test_directline_delivery import FAST

    asked: list[str] = []

    def plan(failed: list[str]) -> dict[str, Any]:
        value = {"plan": [], "answered_by": [], "requests_answered": [], "failed": failed}
        return {"type": "event", "name": "harness.plan", "value": value}

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        asked.append(activity["id"])
        answer = {"type": "message", "text": "got it", "from": {"id": "bot", "name": "helpdesk"}}
        if len(asked) == 2:
            return [answer, plan([]), {**plan(["hr"]), "replyToId": asked[0]}]
        return [answer]

    fake = FakeDirectLine(reply)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,  # type: ignore[arg-type]
        target.conversation("chat") as talk,
    ):
        chat = _DirectLineBot(talk)
        _, first = await chat.send("PTO?")
        _, second = await chat.send("W-2?")
    assert first is None
    assert second is not None and (second.turn, second.failed) == (2, ())

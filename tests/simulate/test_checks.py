"""Per-turn scenario checks: ``expect``, ``not``, ``regex``, ``equals``, ordered and optional bot
messages, and per-request tool checks (``tools`` with ``calls``, ``never_calls``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.detect.checks import (
    MessageCheck,
    TextCheck,
    ToolCheck,
    TurnChecks,
    run_checks,
)
from harness.detect.transcript import AgentToolCalls, Transcript, TurnRecord
from harness.exceptions import ConfigError
from harness.simulate.scenarios import load_scenarios
from tests.simulate._helpers import conversation

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"

PAYDAY = "Your next payday is Friday, December 4."
CLOSER = "Anything else I can help with?"


def _chat(*bots: tuple[str, str], records: tuple[TurnRecord, ...] = ()) -> Transcript:
    return conversation(("When is payday?", list(bots)), records=records)


def _run(transcript: Transcript, **checks: Any) -> list[tuple[str | None, str, str]]:
    """(check, severity, evidence) of each failed check of turn 1."""
    found = run_checks(transcript, {1: TurnChecks(**checks)})
    assert all(f.kind == "failed_check" for f in found)
    return [(f.method, f.severity, f.evidence) for f in found]


def text(kind: str, value: str) -> TextCheck:
    return TextCheck(kind=kind, value=value)  # type: ignore[arg-type]


# --- text checks over the turn ------------------------------------------------------------------


def test_expect_passes_on_any_message_ignoring_case_and_spacing() -> None:
    chat = _chat(("payroll", PAYDAY), ("desk", CLOSER))
    assert _run(chat, texts=(text("expect", "friday,   december 4"),)) == []
    ((check, severity, evidence),) = _run(chat, texts=(text("expect", "Thursday"),))
    assert (check, severity) == ("expect", "error")
    assert 'no bot message passes expect "Thursday"' in evidence and "t1b1" in evidence


def test_not_names_each_message_that_says_it() -> None:
    chat = _chat(("payroll", PAYDAY), ("desk", f"{PAYDAY} {CLOSER}"))
    found = run_checks(chat, {1: TurnChecks(texts=(text("not", "december 4"),))})
    assert [(f.method, f.message_ids, f.senders) for f in found] == [
        ("not", ("t1b1",), ("payroll",)),
        ("not", ("t1b2",), ("desk",)),
    ]
    assert found[1].evidence.startswith("turn 1, bot message 2 (t1b2 from desk): says")
    assert _run(chat, texts=(text("not", "password"),)) == []


def test_regex_searches_each_message_case_sensitively_unless_told() -> None:
    chat = _chat(("payroll", PAYDAY))
    assert _run(chat, texts=(text("regex", r"December \d+"),)) == []
    assert [c for c, _, _ in _run(chat, texts=(text("regex", r"december \d+"),))] == ["regex"]
    assert _run(chat, texts=(text("regex", r"(?i)december \d+"),)) == []


def test_equals_is_the_whole_message() -> None:
    chat = _chat(("payroll", PAYDAY), ("desk", CLOSER))
    assert _run(chat, texts=(text("equals", "anything else I can help with?"),)) == []
    assert [c for c, _, _ in _run(chat, texts=(text("equals", "Anything else"),))] == ["equals"]


# --- the bot: list ------------------------------------------------------------------------------


def _entry(*checks: TextCheck, optional: bool = False) -> MessageCheck:
    return MessageCheck(checks=checks, optional=optional)


def test_bot_messages_are_checked_in_order_and_say_which_message_failed() -> None:
    chat = _chat(("payroll", PAYDAY), ("desk", CLOSER))
    good = (_entry(text("expect", "Friday")), _entry(text("equals", CLOSER)))
    assert _run(chat, bot=good) == []
    swapped = (_entry(text("equals", CLOSER)), _entry(text("expect", "Friday")))
    failures = _run(chat, bot=swapped)
    assert [c for c, _, _ in failures] == ["equals", "expect"]
    assert failures[0][2].startswith("turn 1, bot message 1 (t1b1 from payroll): fails equals")
    assert "(entry 1 of bot:)" in failures[0][2]
    assert failures[1][2].startswith("turn 1, bot message 2 (t1b2 from desk): fails expect")


def test_an_optional_message_may_be_missing_but_a_required_one_may_not() -> None:
    with_closer = _chat(("payroll", PAYDAY), ("desk", CLOSER))
    without = _chat(("payroll", PAYDAY))
    entries = (_entry(text("expect", "Friday")), _entry(text("equals", CLOSER), optional=True))
    assert _run(with_closer, bot=entries) == []
    assert _run(without, bot=entries) == []
    # An optional greeting first: the answer is checked against the next entry.
    greeting_first = (_entry(text("expect", "Hello"), optional=True), *entries)
    assert _run(with_closer, bot=greeting_first) == []
    required = (_entry(text("expect", "Friday")), _entry(text("equals", CLOSER)))
    ((check, _, evidence),) = _run(without, bot=required)
    assert check == "equals"
    assert "bot message 2" in evidence and "is missing: the turn has 1 bot message(s)" in evidence


def test_a_bot_entry_with_not_fails_on_its_own_message_only() -> None:
    chat = _chat(("payroll", PAYDAY), ("desk", f"{PAYDAY} {CLOSER}"))
    entries = (_entry(), _entry(text("not", "Friday")))  # the first message may say anything
    ((check, _, evidence),) = _run(chat, bot=entries)
    assert check == "not" and "bot message 2 (t1b2 from desk)" in evidence


# --- tool checks --------------------------------------------------------------------------------


def _with_tools(*calls: tuple[str, tuple[str, ...] | None]) -> Transcript:
    record = TurnRecord(
        turn=1, tool_calls=tuple(AgentToolCalls(agent=a, tools=t) for a, t in calls)
    )
    return _chat(("payroll", PAYDAY), records=(record,))


@pytest.mark.parametrize(
    ("calls", "expected", "called", "passes"),
    [
        ("strict", ("next_payday", "gross_pay"), ("next_payday", "gross_pay"), True),
        ("strict", ("next_payday", "gross_pay"), ("gross_pay", "next_payday"), False),
        ("strict", ("next_payday",), ("next_payday", "next_payday"), False),
        ("unordered", ("next_payday", "gross_pay"), ("gross_pay", "next_payday"), True),
        ("unordered", ("next_payday",), ("next_payday", "gross_pay"), False),
        ("subset", ("next_payday", "gross_pay"), ("next_payday",), True),
        ("subset", ("next_payday",), ("next_payday", "w2_location"), False),
        ("superset", ("next_payday",), ("w2_location", "next_payday"), True),
        ("superset", ("next_payday", "gross_pay"), ("next_payday",), False),
        ("strict", (), (), True),
        ("strict", (), ("next_payday",), False),
    ],
)
def test_tool_calls_are_matched_as_agentevals_modes(
    calls: str, expected: tuple[str, ...], called: tuple[str, ...], passes: bool
) -> None:
    chat = _with_tools(("payroll", called))
    check = ToolCheck(agent="payroll", tools=expected, calls=calls)  # type: ignore[arg-type]
    failures = _run(chat, tools=(check,))
    assert (failures == []) is passes
    if not passes:
        ((method, severity, evidence),) = failures
        assert (method, severity) == ("tools", "error")
        assert evidence.startswith(f"turn 1: payroll called {', '.join(called) or 'no tool'}")
        assert f"expected {calls}" in evidence


def test_calls_of_the_same_agent_in_one_turn_add_up_and_other_agents_do_not_count() -> None:
    chat = _with_tools(
        ("payroll", ("next_payday",)), ("pto", ("pto_balance",)), ("payroll", ("gross_pay",))
    )
    check = ToolCheck(agent="payroll", tools=("next_payday", "gross_pay"), calls="strict")
    assert _run(chat, tools=(check,)) == []


def test_never_calls_fails_when_the_agent_called_it() -> None:
    chat = _with_tools(("payroll", ("next_payday", "reset_password")))
    failures = _run(chat, tools=(ToolCheck(agent="payroll", never_calls=("reset_password",)),))
    ((method, severity, evidence),) = failures
    assert (method, severity) == ("never_calls", "error")
    assert "payroll called reset_password, which it must never call" in evidence
    # Another agent calling it is not this request's agent calling it.
    other = _with_tools(("password", ("reset_password",)))
    assert _run(other, tools=(ToolCheck(agent="payroll", never_calls=("reset_password",)),)) == []


def test_an_agent_that_was_not_called_called_no_tool() -> None:
    chat = _with_tools(("pto", ("pto_balance",)))
    ((_, _, evidence),) = _run(chat, tools=(ToolCheck(agent="payroll", tools=("next_payday",)),))
    assert "payroll called no tool (payroll was not called this turn)" in evidence


def test_without_a_tool_record_a_tool_check_is_not_checkable_never_passed() -> None:
    deployed = _chat(("payroll", PAYDAY))  # no TurnRecord: a deployed bot, a transcript file
    check = ToolCheck(agent="payroll", tools=("next_payday",), never_calls=("reset_password",))
    failures = _run(deployed, tools=(check,))
    assert [(m, s) for m, s, _ in failures] == [("tools", "warning"), ("never_calls", "warning")]
    assert all("not checkable" in e and "no record of its tool calls" in e for _, _, e in failures)
    # A handler function's calls are not known either.
    handler = _with_tools(("payroll", None))
    ((method, severity, evidence),) = _run(handler, tools=(ToolCheck(agent="payroll", tools=()),))
    assert (method, severity) == ("tools", "warning")
    assert "payroll's tool calls are not known" in evidence


# --- scenario files, end to end -----------------------------------------------------------------

SCENARIOS = """\
bot: {bot}
scenarios:
  - name: payday
    turns:
      - user: "When is the next payday?"
        expect: "Friday"
        not: ["password", "error"]
        regex: 'December \\d+'
        requests:
          - {{agent: payroll, tools: [next_payday], never_calls: [reset_password]}}
  - name: payday-wrong
    turns:
      - user: "When is the next payday?"
        not: "Friday"
        equals: "Payday is on Monday."
        bot:
          - {{expect: "Monday"}}
        requests:
          - {{agent: payroll, tools: [next_payday, gross_pay], calls: strict, never_calls: [next_payday]}}
"""


def _scenarios(tmp_path: Path, text: str = SCENARIOS) -> Path:
    path = tmp_path / "checks.scenarios.yaml"
    path.write_text(text.format(bot=HELPDESK), encoding="utf-8")
    return path


def _simulate(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["simulate", *args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def test_a_scenario_s_checks_run_against_the_bot_and_its_tool_calls(tmp_path: Path) -> None:
    code, report = _simulate(str(_scenarios(tmp_path)))
    assert code == 1
    good, wrong = report["transcripts"]
    assert good["findings"] == []
    checks = [(f["method"], f["senders"]) for f in wrong["findings"] if f["kind"] == "failed_check"]
    assert checks == [
        ("not", ["helpdesk"]),
        ("equals", []),
        ("expect", ["helpdesk"]),
        ("tools", ["payroll"]),
        ("never_calls", ["payroll"]),
    ]
    tools = next(f for f in wrong["findings"] if f["method"] == "tools")
    assert tools["evidence"].startswith("turn 1: payroll called next_payday; expected strict")
    assert report["summary"]["failed_check"] == 5


def test_a_tool_the_agent_does_not_have_is_a_scenario_error(tmp_path: Path) -> None:
    path = _scenarios(
        tmp_path,
        "bot: {bot}\nscenarios:\n  - name: typo\n    turns:\n      - user: When is payday?\n"
        "        requests:\n          - {{agent: payroll, tools: [next_paydy]}}\n",
    )
    result = CliRunner().invoke(cli, ["simulate", str(path)])
    assert result.exit_code == 2
    assert "payroll has no tool 'next_paydy'" in result.stderr


@pytest.mark.parametrize(
    ("turn", "message"),
    [
        ("{user: hi, regex: '('}", "not a regular expression"),
        ("{user: hi, requests: [{agent: a, calls: strict}]}", "give 'tools' too"),
        ("{user: hi, bot: [{expect: x, optionl: true}]}", "optionl"),
        ("{user: hi, requests: [{agent: a, calls: sometimes, tools: [t]}]}", "calls"),
    ],
)
def test_malformed_checks_are_reported_with_file_and_line(
    tmp_path: Path, turn: str, message: str
) -> None:
    path = tmp_path / "bad.scenarios.yaml"
    path.write_text(f"scenarios:\n  - name: bad\n    turns:\n      - {turn}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as raised:
        load_scenarios(path)
    assert raised.value.line == 4


def test_one_text_or_a_list(tmp_path: Path) -> None:
    path = tmp_path / "s.scenarios.yaml"
    path.write_text(
        "scenarios:\n  - name: s\n    turns:\n      - {user: hi, expect: a, not: [b, c]}\n",
        encoding="utf-8",
    )
    (turn,) = load_scenarios(path).scenarios[0].turns
    assert (turn.expect, turn.not_) == (["a"], ["b", "c"])


# --- where the tool record comes from -----------------------------------------------------------


async def test_a_hosted_agent_s_tool_calls_cross_the_wire_and_a_handler_s_are_unknown() -> None:
    from harness import Parent
    from harness.runtime.loading import load_bot
    from harness.testing import fake_subagent
    from harness.transport import InProcessTransport

    host = load_bot(HELPDESK)
    payroll = fake_subagent("payroll", examples=["when is payday"], pass_history=False)
    caller = Parent(
        name="desk", subagents=[payroll], transports={"payroll": InProcessTransport(host)}
    )
    chat = caller.conversation()
    (result,) = (await chat.send("when is payday")).results
    assert result.tool_calls == ("next_payday",)
    assert chat.transcript.turns[-1].tools_of("payroll") == ("next_payday",)
    # The same agent's own handler: its calls are not known, so a tool check cannot be made.
    handled = Parent(name="desk", subagents=[payroll]).conversation()
    (result,) = (await handled.send("when is payday")).results
    assert result.tool_calls is None
    assert handled.transcript.turns[-1].tools_of("payroll") is None


async def test_the_plan_event_of_a_served_bot_carries_the_tool_calls() -> None:
    from harness.detect.activities import PLAN_EVENT, plan_record
    from harness.hosting.core import plan_value
    from harness.runtime.loading import load_bot

    turn = await load_bot(HELPDESK).conversation().send("When is the next payday?")
    activity = {"type": "event", "name": PLAN_EVENT, "value": plan_value(turn)}
    record = plan_record(activity, 1)
    assert record is not None and record.tools_of("payroll") == ("next_payday",)
    # An older server's event without them: the record says they are not known.
    del activity["value"]["tool_calls"]  # type: ignore[attr-defined]
    older = plan_record(activity, 1)
    assert older is not None and older.tool_calls is None


async def test_a_stored_conversation_keeps_its_tool_calls() -> None:
    from harness.runtime.loading import load_bot

    bot = load_bot(HELPDESK)
    chat = bot.conversation()
    await chat.send("When is the next payday?")
    snapshot = chat.state.snapshot()
    restored = bot.conversation(state=snapshot)
    assert restored.transcript.turns[-1].tools_of("payroll") == ("next_payday",)

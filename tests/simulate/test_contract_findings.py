"""A sub-agent that breaks its contract fails a simulation: a ``contract`` finding in every report
format, in the pytest plugin's scenario failures and in the driver's assertions."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import load_bot, run_sync
from harness.cli import cli
from harness.detect.transcript import Message, Transcript
from harness.runtime.parent import Turn
from harness.simulate.violations import contract_findings
from harness.testing import ConversationDriver
from subagents import ContractViolation, Mode, SubagentResult, Usage, ViolationKind
from tests.simulate._helpers import embedded_data

BOT = "tests.simulate.contract_bot:make"
SCENARIOS = """\
scenarios:
  - name: refund
    turns:
      - user: "I want a refund for order 999"
        requests: [{agent: refunds}]
"""


def _simulate(tmp_path: Path, *options: str) -> tuple[int, str]:
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(SCENARIOS, encoding="utf-8")
    out = tmp_path / "report"
    result = CliRunner().invoke(
        cli, ["simulate", str(scenario), "--bot", BOT, "-q", *options, "-o", str(out)]
    )
    return result.exit_code, out.read_text(encoding="utf-8")


def test_a_silent_agent_without_findings_is_a_contract_error_in_json(tmp_path: Path) -> None:
    code, text = _simulate(tmp_path, "--format", "json")
    assert code == 1
    document = json.loads(text)
    (finding,) = document["transcripts"][0]["findings"]
    assert finding["kind"] == "contract"
    assert finding["severity"] == "error"
    assert finding["method"] == "missing_output"
    assert finding["senders"] == ["refunds"]
    assert "silent agents must return 'findings'" in finding["evidence"]
    assert document["summary"]["contract"] == 1
    assert document["totals"]["errors"] == 1


def test_every_report_format_carries_the_contract_finding(tmp_path: Path) -> None:
    code, page = _simulate(tmp_path, "--format", "junit")
    assert code == 1
    failure = ET.fromstring(page).find("testsuite/testcase/failure")
    assert failure is not None and failure.get("type") == "contract"
    assert "contract/missing_output [refunds]" in (failure.text or "")
    code, lines = _simulate(tmp_path, "--format", "github")
    assert code == 1
    assert "::error " in lines and "title=contract/missing_output::" in lines
    code, html = _simulate(tmp_path, "--format", "html")
    assert code == 1
    data = embedded_data(html)
    assert "contract" in data["kinds"]
    assert [(f["kind"], f["severity"]) for f in data["findings"]] == [("contract", "error")]
    code, table = _simulate(tmp_path, "--format", "text")
    assert code == 1
    assert "contract" in table and "refunds broke its contract" in table


async def test_the_driver_reports_a_silent_agent_claiming_an_answer() -> None:
    driver = ConversationDriver(BOT)
    await driver.send("how many loyalty points do i have")
    found = driver.findings("contract")
    assert [(f.method, f.senders, f.severity) for f in found] == [
        ("silent_answered", ("loyalty",), "error")
    ]
    with pytest.raises(AssertionError, match="contract/silent_answered"):
        driver.assert_clean()


def test_an_advisory_violation_is_a_warning() -> None:
    violation = ContractViolation(
        agent="payroll",
        kind=ViolationKind.MISSING_REQUEST_ANSWERS,
        message="the call carried 2 requests but 'answeredRequests' is missing",
    )
    user = Message(id="c-1", turn=1, role="user", sender="user", text="payday? and my W-2?")
    reply = Message(id="c-2", turn=1, role="bot", sender="payroll", text="Friday; in Workday.")
    turn = Turn(
        number=1,
        user=user,
        messages=(reply,),
        plan=(),
        results=(
            SubagentResult(
                agent="payroll",
                mode=Mode.DIRECT,
                request="payday? and my W-2?",
                status="complete",
                violations=(violation,),
            ),
        ),
        usage=Usage(),
    )
    (finding,) = contract_findings(turn, Transcript(conversation="c", messages=(user, reply)))
    assert (finding.kind, finding.method, finding.severity) == (
        "contract",
        "missing_request_answers",
        "warning",
    )
    assert finding.message_ids == ("c-2",) and finding.senders == ("payroll",)
    assert "advisory" in finding.evidence


def test_a_scenario_of_the_pytest_plugin_fails_on_a_broken_contract(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makefile(".yaml", scenarios_refund=f"bot: {BOT}\n" + SCENARIOS)
    result = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*contract/missing_output: refunds broke its contract*"])


def test_a_typed_tool_the_rules_model_cannot_fill_asks_for_the_value(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(
        "def refund(order_id: str, amount: float) -> str:\n"
        '    """Start a refund of an amount for an order."""\n'
        '    return f"Refund of {amount} started for order {order_id}."\n',
        encoding="utf-8",
    )
    (tmp_path / "bot.yaml").write_text(
        "parent: {name: shop, model: rules}\n"
        "subagents:\n"
        "  - name: refunds\n"
        "    kind: connected\n"
        "    mode: silent\n"
        "    description: Starts refunds for orders.\n"
        '    tools: ["tools.py:refund"]\n'
        "    examples: [i want a refund for my order]\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(f"bot: bot.yaml\n{SCENARIOS}", encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", str(scenario), "--format", "json"])
    # The offline model does not call a tool whose required `amount` it cannot fill: the user
    # is asked for it (no guess, no refusal), and the check reads no refusal in the question.
    assert result.exit_code == 0
    assert json.loads(result.output)["summary"]["missed_request"] == 0
    bot = load_bot(tmp_path / "bot.yaml")
    reply = run_sync(bot.conversation().send("I want a refund for order 999"))
    assert reply.text == "What amount do you want?"

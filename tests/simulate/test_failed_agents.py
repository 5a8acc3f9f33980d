"""A sub-agent whose model cannot be reached fails a simulation and a chat: the runtime answers
the user with an apology, so the conversation itself looks fine, but the exit code and the
reports say which agent failed and why."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli

BOT = "tests.simulate.down_bot:make"
SCENARIOS = """\
scenarios:
  - name: pay
    turns:
      - user: "When is payday?"
        requests: [{agent: payroll}]
"""


def _simulate(tmp_path: Path, *options: str) -> tuple[int, str, str]:
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(SCENARIOS, encoding="utf-8")
    out = tmp_path / "report"
    result = CliRunner().invoke(
        cli, ["simulate", str(scenario), "--bot", BOT, "-q", *options, "-o", str(out)]
    )
    return result.exit_code, out.read_text(encoding="utf-8"), result.stderr


def test_a_failed_sub_agent_fails_the_scenario_in_json(tmp_path: Path) -> None:
    code, text, stderr = _simulate(tmp_path, "--format", "json")
    assert code == 1, stderr
    document = json.loads(text)
    assert document["totals"]["failed"] == 1
    (transcript,) = document["transcripts"]
    why = "turn 1: payroll failed: ModelRequestError: cannot reach the model"
    assert why in transcript["error"]
    assert "pay: turn 1: payroll failed" in stderr


def test_standard_error_says_the_scenario_completed_and_its_sub_agent_failed(
    tmp_path: Path,
) -> None:
    code, _, stderr = _simulate(tmp_path, "--format", "json")
    assert code == 1
    assert "could not be completed" not in stderr
    assert "error: 1 of 1 scenario(s) ran to the end with a failed call:" in stderr
    assert "  pay: turn 1: payroll failed: ModelRequestError: cannot reach the model" in stderr


def test_a_github_annotation_of_a_failed_call_does_not_say_could_not_complete(
    tmp_path: Path,
) -> None:
    code, text, _ = _simulate(tmp_path, "--format", "github")
    assert code == 1
    assert "title=failed call::pay: turn 1: payroll failed" in text
    assert "could not complete" not in text


def test_the_html_verdict_says_the_scenario_had_a_failed_call(tmp_path: Path) -> None:
    code, page, _ = _simulate(tmp_path, "--format", "html")
    assert code == 1
    assert 'data-verdict="fail">FAIL: 0 errors, 1 with a failed call<' in page
    assert "could not complete" not in page


def test_junit_shows_the_failed_sub_agent(tmp_path: Path) -> None:
    code, page, _ = _simulate(tmp_path, "--format", "junit")
    assert code == 1
    case = ET.fromstring(page).find("testsuite/testcase")
    assert case is not None
    problems = [*case.findall("error"), *case.findall("failure")]
    assert any("payroll failed" in (p.text or "") + (p.get("message") or "") for p in problems)


def test_a_chat_whose_sub_agent_failed_exits_1() -> None:
    """The user gets the runtime's apology; a script piping questions in gets exit 1."""
    result = CliRunner().invoke(cli, ["chat", "-q", BOT], input="When is payday?\n")
    assert result.exit_code == 1, result.output
    assert "the payroll service failed" in result.stdout
    assert "error: 1 of 1 turn failed" in result.stderr


def test_repeated_runs_with_a_failed_call_are_not_said_to_have_stopped(tmp_path: Path) -> None:
    """``--repeat``: each run ran to its end, with a failed call; JUnit, HTML and JSON say so."""
    code, page, _ = _simulate(tmp_path, "--repeat", "2", "--format", "junit")
    assert code == 1
    case = ET.fromstring(page).find("testsuite/testcase")
    assert case is not None
    assert case.find("error") is None  # runs that completed: a failure, not an error
    failure = case.find("failure")
    assert failure is not None
    assert "run 1: ran with a failed call: turn 1: payroll failed" in (failure.text or "")
    assert "did not complete" not in page
    code, page, _ = _simulate(tmp_path, "--repeat", "2", "--format", "html")
    assert code == 1
    assert "ran with a failed call: turn 1: payroll failed" in page
    assert "did not complete" not in page
    code, text, _ = _simulate(tmp_path, "--repeat", "2", "--format", "json")
    (record,) = json.loads(text)["transcripts"]
    assert record["completed"] is True and "error" not in record
    assert [run["completed"] for run in record["failed_runs"]] == [True, True]

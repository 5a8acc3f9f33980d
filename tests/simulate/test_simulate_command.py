"""``harness simulate``: scenario files against in-process bots, reports and exit codes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.exceptions import ConfigError
from harness.simulate.scenarios import load_scenarios
from tests.simulate._helpers import TRANSCRIPT_KEYS

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_good_helpdesk_passes_every_sample_scenario() -> None:
    code, out, _ = run("simulate", str(SCENARIOS))
    assert code == 0, out
    assert "0 errors" in out


def test_the_naive_helpdesk_fails_with_its_restated_answers() -> None:
    code, out, _ = run("simulate", str(SCENARIOS), "--bot", str(NAIVE), "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert report["version"] == 1
    assert report["summary"]["duplicate"] >= 3
    first = report["transcripts"][0]
    assert set(first) == set(TRANSCRIPT_KEYS)
    duplicate = next(f for f in first["findings"] if f["kind"] == "duplicate")
    assert duplicate["scope"] == "same_turn"
    assert duplicate["senders"] == ["pto", "helpdesk"]
    assert all(mid.startswith("pto-and-payday-") for mid in duplicate["message_ids"])


def test_junit_has_one_test_case_per_scenario(tmp_path: Path) -> None:
    out_file = tmp_path / "report.xml"
    code, _, _ = run(
        "simulate",
        str(SCENARIOS),
        "--bot",
        str(NAIVE),
        "--format",
        "junit",
        "--output",
        str(out_file),
    )
    assert code == 1
    root = ET.parse(out_file).getroot()
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == [s.name for s in load_scenarios(SCENARIOS).scenarios]
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert "pto-and-payday" in failed
    assert "password-and-w2" not in failed


def test_a_malformed_scenario_file_is_a_usage_error_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "scenarios.yaml"
    bad.write_text("scenarios:\n  - name: x\n    turns:\n      - usr: hello\n", encoding="utf-8")
    code, _, err = run("simulate", str(bad), "--bot", str(NAIVE))
    assert code == 2
    assert f"{bad}:4" in err


def test_a_scenario_file_without_a_bot_needs_one(tmp_path: Path) -> None:
    plain = tmp_path / "scenarios.yaml"
    plain.write_text("scenarios:\n  - name: x\n    turns:\n      - user: hello\n", encoding="utf-8")
    code, _, err = run("simulate", str(plain))
    assert code == 2
    assert "names no bot" in err


def test_duplicate_scenario_names_are_rejected(tmp_path: Path) -> None:
    twice = tmp_path / "scenarios.yaml"
    twice.write_text(
        "scenarios:\n"
        "  - name: x\n    turns: [{user: hi}]\n"
        "  - name: x\n    turns: [{user: hello}]\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_scenarios(twice)
    assert caught.value.line == 4


def test_bot_and_endpoint_together_are_refused() -> None:
    code, _, err = run(
        "simulate", str(SCENARIOS), "--bot", str(NAIVE), "--endpoint", "http://127.0.0.1:9/api"
    )
    assert code == 2
    assert "not both" in err


def test_an_unknown_agent_in_a_scenario_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "scenarios.yaml"
    bad.write_text(
        f"bot: {NAIVE}\nscenarios:\n  - name: x\n    turns:\n"
        "      - user: hello\n        requests: [{agent: nobody, expect: hi}]\n",
        encoding="utf-8",
    )
    code, _, err = run("simulate", str(bad))
    assert code == 2
    assert "unknown agent 'nobody'" in err
    assert f"{bad}:3" in err


def test_header_needs_an_endpoint() -> None:
    code, _, err = run("simulate", str(SCENARIOS), "--header", "Authorization: Bearer x")
    assert code == 2
    assert "--endpoint" in err


def test_a_failed_request_is_reported_once_with_its_reason(tmp_path: Path) -> None:
    tools = tmp_path / "tools.py"
    tools.write_text(
        "def next_payday() -> str:\n"
        '    """When the next paycheck (payday) arrives."""\n'
        '    raise RuntimeError("payroll database is down")\n',
        encoding="utf-8",
    )
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent: {name: hd}\nsubagents:\n  - name: payroll\n    kind: connected\n"
        "    mode: silent\n    description: Looks up pay dates and paychecks.\n"
        '    tools: ["tools.py:next_payday"]\n    examples: ["when is payday"]\n',
        encoding="utf-8",
    )
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(
        "bot: bot.yaml\nscenarios:\n  - name: payday\n    turns:\n"
        "      - user: when is payday\n        requests: [{agent: payroll, expect: Friday}]\n",
        encoding="utf-8",
    )
    code, out, _ = run("simulate", str(scenarios), "--format", "json")
    assert code == 1
    findings = json.loads(out)["transcripts"][0]["findings"]
    missed = [f for f in findings if f["kind"] == "missed_request"]
    assert len(missed) == 1
    assert "failed" in missed[0]["evidence"]
    # the failed call also fails the scenario, its expectation checked all the same
    assert "turn 1: payroll failed: " in json.loads(out)["transcripts"][0]["error"]

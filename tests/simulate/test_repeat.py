"""``harness simulate --repeat N``: every scenario N times, pass rates, and which runs failed.

The bot is a flaky double (``tests.simulate.flaky_bot``): its parent restates the payroll agent's
answer in every other conversation, so runs 2 and 4 of 4 have a duplicate and runs 1 and 3 do not.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.detect.compare import compare_reports
from tests.simulate._helpers import embedded_data

BOT = "tests.simulate.flaky_bot:make"
SCENARIOS = """\
scenarios:
  - name: payday
    turns:
      - user: "When is payday?"
"""


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    path = tmp_path / "flaky.scenarios.yaml"
    path.write_text(SCENARIOS, encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def _json(scenarios: Path, *more: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(str(scenarios), "--bot", BOT, "--repeat", "4", "--format", "json", *more)
    return code, json.loads(out)


def test_a_flaky_duplicate_gives_a_pass_rate_and_the_runs_it_failed(scenarios: Path) -> None:
    code, report = _json(scenarios)
    assert code == 1  # by default every run must pass
    (record,) = report["transcripts"]
    assert (record["runs"], record["passed"], record["pass_rate"]) == (4, 2, 0.5)
    assert record["kind_pass_rates"]["duplicate"] == 0.5
    assert record["kind_pass_rates"]["silent_leak"] == 1.0
    assert [run["run"] for run in record["failed_runs"]] == [2, 4]
    assert {f["kind"] for run in record["failed_runs"] for f in run["findings"]} == {"duplicate"}
    # The duplicate is listed once, with the runs it came up in.
    (duplicate,) = record["findings"]
    assert duplicate["kind"] == "duplicate" and duplicate["runs"] == [2, 4]
    totals = report["totals"]
    assert (totals["runs"], totals["passed_runs"], totals["pass_rate"]) == (4, 2, 0.5)
    assert totals["kind_pass_rates"]["duplicate"] == 0.5
    assert totals["passed"] is False


def test_min_pass_rate_decides_the_exit_code(scenarios: Path) -> None:
    code, report = _json(scenarios, "--min-pass-rate", "0.5")
    assert code == 0 and report["totals"]["passed"] is True
    code, report = _json(scenarios, "--min-pass-rate", "0.75")
    assert code == 1 and report["totals"]["min_pass_rate"] == 0.75


def test_min_pass_rate_without_repeat_is_a_usage_error(scenarios: Path) -> None:
    code, _, err = run(str(scenarios), "--bot", BOT, "--min-pass-rate", "0.5")
    assert code == 2 and "--repeat" in err


def test_the_text_report_shows_the_rate_and_only_the_failed_runs(scenarios: Path) -> None:
    code, out, _ = run(str(scenarios), "--bot", BOT, "--repeat", "4", "--min-pass-rate", "0.5")
    assert code == 0
    assert "payday: 2 of 4 runs passed (50%)" in out
    assert "payday (run 2 of 4)" in out and "payday (run 4 of 4)" in out
    assert "run 1 of 4" not in out and "run 3 of 4" not in out
    assert "2 of 4 runs passed (50%; by kind: duplicate 50%" in out
    assert "below the minimum" not in out
    _, out, _ = run(str(scenarios), "--bot", BOT, "--repeat", "4")
    assert "payday: 2 of 4 runs passed (50%), below the minimum 100%" in out


def test_junit_has_one_case_per_scenario_listing_its_failed_runs(
    scenarios: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.xml"
    args = [str(scenarios), "--bot", BOT, "--repeat", "4", "--format", "junit", "-o", str(report)]
    code, _, _ = run(*args)
    assert code == 1
    root = ET.parse(report).getroot()
    (case,) = root.iter("testcase")
    assert case.get("name") == "payday" and root.get("failures") == "1"
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert (properties["runs"], properties["passed"], properties["pass_rate"]) == ("4", "2", "0.5")
    assert properties["pass_rate.duplicate"] == "0.5"
    assert properties["pass_rate.silent_leak"] == "1.0"
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "duplicate"
    assert "2 of 4 runs passed" in (failure.get("message") or "")
    lines = (failure.text or "").splitlines()
    assert [line.split(":")[0] for line in lines] == ["run 2", "run 4"]
    # Above the threshold the case passes, and the failed runs are in its output.
    code, _, _ = run(*args, "--min-pass-rate", "0.5")
    assert code == 0
    (case,) = ET.parse(report).getroot().iter("testcase")
    assert case.find("failure") is None
    out = case.find("system-out")
    assert out is not None and "run 2: turn 1: duplicate" in (out.text or "")


def test_the_html_report_has_a_pass_rate_row_and_every_run(scenarios: Path, tmp_path: Path) -> None:
    page_file = tmp_path / "report.html"
    args = [str(scenarios), "--bot", BOT, "--repeat", "4", "--format", "html", "-o", str(page_file)]
    run(*args)
    page = page_file.read_text(encoding="utf-8")
    assert 'id="pass-rates"' in page
    assert "2 of 4" in page and "50%" in page
    assert "run 2: turn 1: duplicate" in page and "run 4: turn 1: duplicate" in page
    assert "run 1:" not in page
    titles = [c["title"] for c in embedded_data(page)["conversations"]]
    assert titles == [f"payday (run {n} of 4)" for n in range(1, 5)]


def test_compare_reads_repeated_reports_and_flags_a_lower_pass_rate(scenarios: Path) -> None:
    _, flaky = _json(scenarios)
    clean = json.loads(json.dumps(flaky))
    record = clean["transcripts"][0]
    record.update(passed=4, pass_rate=1.0, findings=[], failed_runs=[])
    comparison = compare_reports(clean, flaky)
    (change,) = comparison.conversations
    assert (change.base_pass_rate, change.new_pass_rate) == (1.0, 0.5)
    assert [f["kind"] for f in change.added] == ["duplicate"]
    assert comparison.regressed
    assert not compare_reports(flaky, flaky).regressed


def test_repeat_runs_each_run_as_a_new_conversation(scenarios: Path) -> None:
    _, report = _json(scenarios)
    (record,) = report["transcripts"]
    # Four conversations of one user message each: 2 messages, or 3 with the restatement.
    assert record["messages"] == 2 + 3 + 2 + 3


def test_repeat_spreads_the_runs_over_jobs(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    path = tmp_path / "s.scenarios.yaml"
    path.write_text(
        f"bot: {root / 'samples' / 'helpdesk' / 'helpdesk.yaml'}\n{SCENARIOS}"
        "  - name: password\n    turns:\n      - user: I forgot my password\n",
        encoding="utf-8",
    )
    command = [sys.executable, "-c", "import sys; from harness.cli import main; sys.exit(main())"]
    args = ["simulate", str(path), "--repeat", "2", "--jobs", "2", "--format", "json"]
    done = subprocess.run([*command, *args], capture_output=True, text=True, cwd=root, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [(r["conversation"], r["runs"], r["passed"]) for r in report["transcripts"]] == [
        ("payday", 2, 2),
        ("password", 2, 2),
    ]
    assert report["totals"]["runs"] == 4

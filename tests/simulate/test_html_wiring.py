"""``--format html`` for ``harness detect`` and ``harness simulate``, and the plugin's
``--harness-html``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
TRANSCRIPT = ROOT / "docs" / "examples" / "transcript.jsonl"


def _data(page: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_detect_writes_an_html_report(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        cli, ["detect", str(TRANSCRIPT), "--format", "html", "--out", str(out)]
    )
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>harness detect</title>" in page
    assert '<dd id="sum-findings">2</dd>' in page
    data = _data(page)
    assert [f["kind"] for f in data["findings"]] == ["duplicate", "missed_request"]
    assert [row[0] for row in data["conversations"][0]["messages"]] == [
        "m1",
        "m2",
        "m3",
        "m4",
        "m5",
    ]


def test_simulate_html_report_has_the_model_usage(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        cli,
        ["simulate", str(SCENARIOS), "--bot", str(NAIVE), "--format", "html", "--out", str(out)],
    )
    assert result.exit_code == 1, result.output
    page = out.read_text(encoding="utf-8")
    assert 'data-verdict="fail"' in page
    assert re.search(r'<p id="sum-usage" class="usage">model usage: \d+ requests', page)
    assert len(_data(page)["conversations"]) == 4


SCENARIO_FILE = """\
bot: {bot}
scenarios:
  - name: pto-and-payday
    turns:
      - user: "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
        requests:
          - {{agent: pto, expect: "12 PTO days left"}}
          - {{agent: payroll, expect: "Friday, December 4"}}
  - name: password-only
    turns:
      - user: "I forgot my password"
        requests:
          - {{agent: password, expect: "reset link"}}
"""


def test_the_plugin_writes_the_scenarios_that_ran(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIO_FILE.format(bot=NAIVE))
    result = pytester.runpytest_inprocess("-q", "--harness-html=out/report.html", "-k", "pto")
    result.assert_outcomes(failed=1, deselected=1)
    page = (pytester.path / "out" / "report.html").read_text(encoding="utf-8")
    data = _data(page)
    assert [c["title"] for c in data["conversations"]] == ["pto-and-payday"]
    assert data["findings"][0]["kind"] == "duplicate"
    assert 'data-verdict="fail"' in page


def test_without_the_option_no_report_is_written(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIO_FILE.format(bot=GOOD))
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=2)
    assert not list(pytester.path.rglob("*.html"))

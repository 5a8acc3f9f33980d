"""``--format html`` for ``harness detect`` and ``harness simulate`` (the plugin's
``--harness-html``: tests/plugin)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli
from tests.simulate._helpers import embedded_data

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
TRANSCRIPT = ROOT / "docs" / "examples" / "transcript.jsonl"


def test_detect_writes_an_html_report(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        cli, ["detect", str(TRANSCRIPT), "--format", "html", "--output", str(out)]
    )
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>harness detect</title>" in page
    assert '<dd id="sum-findings">2</dd>' in page
    data = embedded_data(page)
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
        ["simulate", str(SCENARIOS), "--bot", str(NAIVE), "--format", "html", "--output", str(out)],
    )
    assert result.exit_code == 1, result.output
    page = out.read_text(encoding="utf-8")
    assert 'data-verdict="fail"' in page
    assert re.search(r'<p id="sum-usage" class="usage">model usage: \d+ requests', page)
    assert len(embedded_data(page)["conversations"]) == 4

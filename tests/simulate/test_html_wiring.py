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


def test_simulate_to_a_file_says_how_it_went_on_stderr(tmp_path: Path) -> None:
    """With -o the report goes to the file; stderr has one summary line naming the file."""
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        cli, ["simulate", str(SCENARIOS), "--bot", str(NAIVE), "--format", "html", "-o", str(out)]
    )
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    summary = [line for line in result.stderr.splitlines() if "report written to" in line]
    assert summary == [summary[0]]
    assert re.match(r"4 conversations: [1-9]\d* errors?, \d+ warnings? \(", summary[0])
    assert summary[0].endswith(f"; report written to {out}")
    clean = CliRunner().invoke(
        cli, ["simulate", str(SCENARIOS), "--bot", str(GOOD), "--format", "html", "-o", str(out)]
    )
    assert clean.exit_code == 0, clean.output
    assert f"4 conversations: 0 errors, 0 warnings; report written to {out}" in clean.stderr

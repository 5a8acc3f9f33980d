"""``harness detect`` on what a CI job hands it: a folder that holds an earlier run's report,
the command line's mistakes, and inputs whose errors used to mislead."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "copilot-studio-transcript.json"


def test_a_report_written_into_the_folder_is_not_read_as_a_transcript_next_time(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "a.json").write_text(EXAMPLE.read_text(), encoding="utf-8")
    report = folder / "report.json"
    runs = [
        CliRunner().invoke(cli, ["detect", str(folder), "--format", "json", "-o", str(report)])
        for _ in range(2)
    ]
    assert [r.exit_code for r in runs] == [1, 1], runs[1].output
    files = [t["file"] for t in json.loads(report.read_text(encoding="utf-8"))["transcripts"]]
    assert files == [str(folder / "a.json")]
    # a copy of a report under another name is recognised by its first bytes, with a note
    (folder / "old-report.json").write_bytes(report.read_bytes())
    again = CliRunner().invoke(cli, ["detect", str(folder), "--format", "json"])
    assert again.exit_code == 1, again.output
    assert f"warning: {folder / 'old-report.json'}: skipped: a JSON report" in again.stderr
    document = json.loads(again.stdout)
    assert [t["file"] for t in document["transcripts"]] == [str(folder / "a.json")]
    assert document["totals"]["unread"] == 0


def test_hidden_folders_are_not_scanned(tmp_path: Path) -> None:
    folder = tmp_path / "repo"
    (folder / ".git").mkdir(parents=True)
    (folder / "a.json").write_text(EXAMPLE.read_text(), encoding="utf-8")
    (folder / ".git" / "x.json").write_text('{"not": "a transcript"}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(folder), "--format", "json"])
    assert result.exit_code == 1, result.output
    assert len(json.loads(result.stdout)["transcripts"]) == 1

"""``harness compare BASE NEW``: findings added, fixed and unchanged; exit 1 on a regression."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.detect.compare import compare_reports, render_comparison

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"


def _finding(kind: str, turn: int, senders: list[str], severity: str = "error") -> dict[str, Any]:
    return {"kind": kind, "severity": severity, "turn": turn, "senders": senders, "evidence": "x"}


def _report(*records: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "transcripts": list(records)}


def _record(conversation: str, *findings: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"file": "s.yaml", "conversation": conversation, "findings": list(findings), **more}


def test_findings_are_matched_by_kind_turn_and_senders_not_wording() -> None:
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    reworded = {**dup, "evidence": "another wording of the same finding"}
    base = _report(_record("a", dup, _finding("duplicate", 2, ["pto", "helpdesk"])))
    new = _report(_record("a", reworded, _finding("silent_leak", 2, ["payroll"])))
    comparison = compare_reports(base, new)
    (change,) = comparison.conversations
    assert [f["kind"] for f in change.unchanged] == ["duplicate"]
    assert [(f["kind"], f["turn"]) for f in change.fixed] == [("duplicate", 2)]
    assert [f["kind"] for f in change.added] == ["silent_leak"]
    assert comparison.regressed and comparison.exit_code == 1
    assert comparison.kinds == {
        "duplicate": {"added": 0, "fixed": 1, "unchanged": 1},
        "silent_leak": {"added": 1, "fixed": 0, "unchanged": 0},
    }


def test_two_equal_findings_count_twice() -> None:
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    comparison = compare_reports(_report(_record("a", dup)), _report(_record("a", dup, dup)))
    (change,) = comparison.conversations
    assert len(change.unchanged) == 1 and len(change.added) == 1


def test_an_added_warning_is_a_change_not_a_regression() -> None:
    warning = _finding("awkward_ack", 1, ["helpdesk"], severity="warning")
    comparison = compare_reports(_report(_record("a")), _report(_record("a", warning)))
    assert not comparison.regressed and comparison.conversations[0].changed


def test_a_run_that_no_longer_completes_and_a_lower_pass_rate_are_regressions() -> None:
    failed = compare_reports(_report(_record("a")), _report(_record("a", error="turn 2: timeout")))
    assert failed.regressed
    rate = compare_reports(
        _report(_record("a", pass_rate=1.0)), _report(_record("a", pass_rate=0.8))
    )
    assert rate.regressed
    assert "pass rate 100% -> 80%" in render_comparison(rate)
    better = compare_reports(
        _report(_record("a", pass_rate=0.6)), _report(_record("a", pass_rate=0.8))
    )
    assert not better.regressed


def test_conversations_on_one_side_only_are_listed_not_regressions() -> None:
    comparison = compare_reports(_report(_record("old")), _report(_record("new")))
    assert comparison.only_in_base == ("s.yaml: old",)
    assert comparison.only_in_new == ("s.yaml: new",)
    assert not comparison.regressed
    text = render_comparison(comparison)
    assert "only in BASE: s.yaml: old" in text and "only in NEW: s.yaml: new" in text


def _simulate(runner: CliRunner, bot: Path, out: Path) -> None:
    result = runner.invoke(
        cli, ["simulate", str(SCENARIOS), "--bot", str(bot), "--format", "json", "-o", str(out)]
    )
    assert result.exit_code in (0, 1), result.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("reports")
    runner = CliRunner()
    naive, good = folder / "naive.json", folder / "good.json"
    _simulate(runner, NAIVE, naive)
    _simulate(runner, GOOD, good)
    return naive, good


def test_fixing_the_helpdesk_compares_clean_and_breaking_it_is_a_regression(
    reports: tuple[Path, Path],
) -> None:
    naive, good = reports
    runner = CliRunner()
    fixed = runner.invoke(cli, ["compare", str(naive), str(good)])
    assert fixed.exit_code == 0, fixed.output
    assert "no regression:" in fixed.output and " fixed" in fixed.output
    assert "fixed turn" in fixed.output  # each fixed finding is listed
    broken = runner.invoke(cli, ["compare", str(good), str(naive)])
    assert broken.exit_code == 1, broken.output
    assert "REGRESSED" in broken.output and "added turn" in broken.output


def test_json_and_markdown_reports(reports: tuple[Path, Path], tmp_path: Path) -> None:
    naive, good = reports
    runner = CliRunner()
    out = tmp_path / "comparison.json"
    result = runner.invoke(
        cli, ["compare", str(good), str(naive), "--format", "json", "-o", str(out)]
    )
    assert result.exit_code == 1
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["regressed"] is True
    assert any(c["added"] for c in document["conversations"])
    markdown = runner.invoke(cli, ["compare", str(good), str(naive), "--format", "markdown"])
    assert markdown.output.startswith("### ❌ regression:")
    assert "| finding kind | added | fixed | unchanged |" in markdown.output


def test_bad_input_exits_2_with_the_file_named(tmp_path: Path) -> None:
    not_a_report = tmp_path / "x.json"
    not_a_report.write_text('{"hello": 1}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["compare", str(not_a_report), str(not_a_report)])
    assert result.exit_code == 2
    assert "not a harness JSON report" in result.stderr and str(not_a_report) in result.stderr


def _at(file: str, conversation: str, *findings: dict[str, Any]) -> dict[str, Any]:
    return {"file": file, "conversation": conversation, "findings": list(findings)}


def test_a_file_written_as_an_absolute_path_or_in_another_folder_still_matches() -> None:
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    base = _report(_at("samples/s.yaml", "a"), _at("./samples/s.yaml", "b"))
    new = _report(_at("/ci/work/samples/s.yaml", "a", dup), _at("elsewhere/s.yaml", "b"))
    comparison = compare_reports(base, new)
    assert [c.name for c in comparison.conversations] == [
        "/ci/work/samples/s.yaml: a",
        "elsewhere/s.yaml: b",
    ]
    assert comparison.conversations[0].base_name == "samples/s.yaml: a"
    assert not comparison.only_in_base and not comparison.only_in_new
    assert comparison.regressed and comparison.exit_code == 1


def test_a_file_name_found_in_two_folders_is_not_guessed() -> None:
    base = _report(_at("one/s.yaml", "a"))
    new = _report(_at("two/s.yaml", "a"), _at("three/s.yaml", "a"))
    comparison = compare_reports(base, new)
    assert not comparison.conversations and comparison.only_in_base == ("one/s.yaml: a",)


def test_nothing_in_common_or_an_empty_new_report_is_incomplete_not_clean() -> None:
    base = _report(_record("a", _finding("duplicate", 1, ["pto", "helpdesk"])))
    for new in (_report(), _report(_record("renamed"))):
        comparison = compare_reports(base, new)
        assert comparison.exit_code == 3 and not comparison.regressed
        assert comparison.incomplete is not None
        assert render_comparison(comparison).splitlines()[-1].startswith("incomplete:")
    # --allow-missing forgives a renamed scenario, never a comparison of nothing
    assert compare_reports(base, _report(), allow_missing=True).exit_code == 3


def test_conversations_gone_from_new_or_unread_in_it_are_incomplete() -> None:
    base = _report(_record("a"), _record("b"))
    new = _report(_record("a"))
    assert compare_reports(base, new).exit_code == 3
    assert compare_reports(base, new, allow_missing=True).exit_code == 0
    unread = {
        **_report(_record("a"), _record("b")),
        "unread": [{"file": "c.jsonl", "line": 1, "error": "c.jsonl:1: not JSON"}],
    }
    comparison = compare_reports(_report(_record("a"), _record("b")), unread)
    assert comparison.exit_code == 3
    assert "unread in NEW: c.jsonl:1: not JSON" in render_comparison(comparison)


def test_the_cli_exits_3_on_an_empty_new_report(reports: tuple[Path, Path], tmp_path: Path) -> None:
    _, good = reports
    empty = tmp_path / "empty.json"
    empty.write_text('{"version": 1, "transcripts": []}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["compare", str(good), str(empty)])
    assert result.exit_code == 3, result.output
    assert "no conversation of BASE is in NEW" in result.output
    markdown = CliRunner().invoke(cli, ["compare", str(good), str(empty), "--format", "markdown"])
    assert markdown.output.startswith("### ⚠️ incomplete:")

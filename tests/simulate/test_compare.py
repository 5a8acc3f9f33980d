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


def test_a_file_written_as_an_absolute_path_still_matches_through_one_rewrite() -> None:
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    base = _report(_at("samples/s.yaml", "a"), _at("./samples/t.yaml", "b"))
    new = _report(_at("/ci/work/samples/s.yaml", "a", dup), _at("/ci/work/samples/t.yaml", "b"))
    comparison = compare_reports(base, new)
    assert [c.name for c in comparison.conversations] == [
        "/ci/work/samples/s.yaml: a",
        "/ci/work/samples/t.yaml: b",
    ]
    assert comparison.conversations[0].base_name == "samples/s.yaml: a"
    assert not comparison.only_in_base and not comparison.only_in_new
    assert comparison.regressed and comparison.exit_code == 1
    assert comparison.rewrite == ("", "/ci/work")
    text = render_comparison(comparison)
    assert "paths rewritten: BASE's relative paths are NEW's under /ci/work/" in text
    assert json.loads(render_comparison(comparison, "json"))["rewrite"] == {
        "base": "",
        "new": "/ci/work",
    }


def test_two_checkouts_absolute_roots_are_swapped_for_every_conversation() -> None:
    base = _report(
        *(_at(f"/home/runner/work/r/r/samples/{n}.yaml", n) for n in "abc"),
        _at("/home/runner/work/r/r/other/s.yaml", "x"),
    )
    new = _report(
        *(_at(f"/tmp/build/samples/{n}.yaml", n) for n in "abc"),
        _at("/tmp/build/other/s.yaml", "x"),
    )
    comparison = compare_reports(base, new)
    assert len(comparison.conversations) == 4 and comparison.exit_code == 0
    assert comparison.rewrite == ("/home/runner/work/r/r", "/tmp/build")
    assert "paths rewritten: BASE's /home/runner/work/r/r/... is NEW's /tmp/build/..." in (
        render_comparison(comparison)
    )


def test_a_removed_file_is_not_paired_with_an_added_one_of_the_same_name() -> None:
    """BASE a/s.yaml and b/s.yaml; NEW a/s.yaml and c/s.yaml: b was removed, c added."""
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    base = _report(_at("a/s.yaml", "x"), _at("b/s.yaml", "x"))
    new = _report(_at("a/s.yaml", "x"), _at("c/s.yaml", "x", dup))
    comparison = compare_reports(base, new)
    assert [c.name for c in comparison.conversations] == ["a/s.yaml: x"]
    assert comparison.only_in_base == ("b/s.yaml: x",)
    assert comparison.only_in_new == ("c/s.yaml: x",)
    assert not comparison.regressed and comparison.exit_code == 3
    assert comparison.rewrite is None
    assert "paths rewritten" not in render_comparison(comparison)


def test_two_folders_files_of_one_name_have_nothing_in_common() -> None:
    """detect names a JSONL conversation ``conversation``: two days' logs are two conversations."""
    base = _report(_at("logs/day1/transcript.jsonl", "conversation"))
    new = _report(
        _at("logs/day2/transcript.jsonl", "conversation", _finding("duplicate", 1, ["a", "b"]))
    )
    comparison = compare_reports(base, new)
    assert not comparison.conversations and comparison.exit_code == 3
    assert comparison.incomplete == "no conversation of BASE is in NEW"


def test_matching_thousands_of_conversations() -> None:
    """Thousands of conversations a side, their paths written another way: the result (the
    matching indexes them by name, so this stays quick; nothing here times it)."""
    count = 3_000
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    base = _report(*(_at(f"logs/{n % 50}/t{n}.jsonl", "conversation") for n in range(count)))
    new = _report(
        *(
            _at(f"/ci/work/logs/{n % 50}/t{n}.jsonl", "conversation", *([dup] if n == 7 else []))
            for n in range(count)
        )
    )
    comparison = compare_reports(base, new)
    assert len(comparison.conversations) == count and not comparison.only_in_base
    assert [c.name for c in comparison.conversations if c.regressed] == [
        "/ci/work/logs/7/t7.jsonl: conversation"
    ]
    other = _report(*(_at(f"elsewhere/{n}/t.jsonl", "conversation") for n in range(count)))
    assert compare_reports(base, other).exit_code == 3


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


def test_pairs_a_judge_could_not_decide_make_the_comparison_incomplete() -> None:
    dup = _finding("duplicate", 1, ["pto", "helpdesk"])
    judged = {**_report(_record("a", dup)), "totals": {"undecided": 0}}
    failed = {**_report(_record("a")), "totals": {"undecided": 2}}
    comparison = compare_reports(judged, failed)
    assert comparison.exit_code == 3 and len(comparison.conversations[0].fixed) == 1
    assert comparison.incomplete == "NEW's judge could not decide 2 borderline pair(s)"
    assert "incomplete:" in render_comparison(comparison).splitlines()[-1]
    assert compare_reports(failed, judged).exit_code == 1  # a regression is still one
    assert compare_reports(failed, failed).incomplete == (
        "BASE's judge could not decide 2 borderline pair(s)"
    )
    assert compare_reports(judged, failed, allow_missing=True).exit_code == 3


def test_files_unread_in_both_runs_do_not_make_it_incomplete() -> None:
    unread = [{"file": "x.csv", "line": 4, "field": "content", "error": "x.csv:4: cut short"}]
    base = {**_report(_record("a")), "unread": unread}
    new = {**_report(_record("a")), "unread": unread}
    comparison = compare_reports(base, new)
    assert comparison.exit_code == 0 and not comparison.unread_in_new
    assert (
        "unread in BASE and NEW (not counted as incomplete): x.csv:4: cut short"
        in render_comparison(comparison)
    )
    more = [*unread, {"file": "y.csv", "line": 2, "field": "content", "error": "y.csv:2: bad"}]
    worse = compare_reports(base, {**new, "unread": more})
    assert worse.exit_code == 3 and worse.unread_in_new == ("y.csv:2: bad",)
    # reports that give only the count: NEW's count beyond BASE's
    counted = {**_report(_record("a")), "totals": {"unread": 1}}
    assert compare_reports(counted, counted).exit_code == 0
    assert compare_reports(counted, {**counted, "totals": {"unread": 2}}).exit_code == 3


def test_runs_with_different_min_confidence_are_incomplete() -> None:
    dup = _finding("missed_request", 1, ["parent"])
    every = {**_report(_record("a", dup)), "settings": {"min_confidence": 0.0}}
    sure = {**_report(_record("a")), "settings": {"min_confidence": "sure"}}
    comparison = compare_reports(every, sure)
    assert comparison.exit_code == 3 and "different --min-confidence" in str(comparison.incomplete)
    assert compare_reports(_report(_record("a", dup)), every).exit_code == 0  # 0 when unrecorded


def test_help_lists_the_exit_codes_of_the_new_cases() -> None:
    detect = CliRunner().invoke(cli, ["detect", "--help"], terminal_width=200)
    assert "could not decide" in " ".join(detect.output.split())
    compare = CliRunner().invoke(cli, ["compare", "--help"], terminal_width=200)
    flat = " ".join(compare.output.split())
    assert "could not read" in flat and "--allow-missing" in flat

"""The report for CI logs: one line per finding (``--format lines``, and ``text`` when the report
does not go to a terminal) and GitHub Actions annotations (``--format github``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.cli.options import report_layout, stdout_is_terminal
from harness.cli.simulate import _failure_lines
from harness.detect import DetectionResult, detect
from harness.detect.reports import render_github, render_lines
from harness.detect.transcript import TurnRecord
from tests.simulate._helpers import conversation

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "docs" / "examples" / "transcript.jsonl"
BALANCE = "Your account balance is 1,240.50 euros as of this morning."


def _result(**kwargs: str) -> DetectionResult:
    transcript = conversation(
        (
            "what is my balance, and when does the branch open",
            [
                ("accounts", BALANCE, {"mode": "direct"}),
                ("bankbot", f"To sum up: {BALANCE[0].lower()}{BALANCE[1:]}"),
            ],
        )
    )
    transcript.conversation = "c7"
    return DetectionResult(
        file="exports/bank.jsonl",
        conversation="c7",
        transcript=transcript,
        findings=tuple(detect(transcript)),
        **kwargs,
    )


def test_every_finding_is_one_line_with_where_what_and_the_messages() -> None:
    result = _result()
    lines = render_lines([result]).splitlines()
    assert len(lines) == len(result.findings) + 1  # then the summary line
    duplicate = next(line for line in lines if " duplicate" in line)
    assert duplicate.startswith("exports/bank.jsonl::c7: turn 1: error duplicate/")
    assert '] accounts: "Your account balance is 1,240.50 euros' in duplicate
    assert '] bankbot: "To sum up:' in duplicate
    assert "; evidence: restates" in duplicate
    assert lines[-1].startswith("1 conversation: ")


def test_a_scenario_line_names_its_file_and_a_clean_one_is_one_line() -> None:
    named = _result(name="balance-and-hours")
    assert render_lines([named]).startswith("exports/bank.jsonl::balance-and-hours: turn 1: ")
    clean = conversation(("hi", [("bankbot", "Hello! How can I help?")]))
    result = DetectionResult(file="s.yaml", conversation="hi", transcript=clean, findings=())
    assert render_lines([result]).splitlines()[0] == (
        "s.yaml::hi: no findings (1 turn, 2 messages)"
    )


def test_a_long_message_is_cut_on_its_line() -> None:
    text = f"To sum up: {BALANCE} " + "and more words " * 40
    transcript = conversation(("my balance?", [("accounts", BALANCE), ("bankbot", text)]))
    result = DetectionResult(
        file="b.jsonl", conversation="c", transcript=transcript, findings=tuple(detect(transcript))
    )
    line = next(line for line in render_lines([result]).splitlines() if "To sum up" in line)
    assert "…" in line
    assert "and more words " * 10 not in line


def test_github_annotations_are_escaped_and_on_the_file() -> None:
    text = render_github([_result()])
    annotation = next(line for line in text.splitlines() if line.startswith("::error "))
    assert annotation.startswith("::error file=exports/bank.jsonl,title=duplicate/")
    message = annotation.split("::", 2)[2]
    assert message.startswith("exports/bank.jsonl::c7: turn 1: error duplicate/")
    assert "1,240.50" in message  # the data part escapes only %, CR and LF
    assert "\n" not in annotation
    assert text.splitlines()[-1].startswith("1 conversation: ")


def test_detect_writes_lines_when_its_output_is_no_terminal() -> None:
    # CliRunner's standard output is no terminal: a CI log
    result = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT)])
    assert result.exit_code == 1
    assert "━" not in result.output
    assert "::conversation: turn 2: error missed_request: " in result.output
    table = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "table"])
    assert "┃ kind" in table.output
    lines = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "lines"])
    assert lines.output == result.output


def test_detect_github_format() -> None:
    result = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "github"])
    assert result.exit_code == 1
    assert result.output.startswith("::error file=")


def test_text_is_the_table_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not stdout_is_terminal()  # pytest captures standard output
    monkeypatch.setattr("harness.cli.options.stdout_is_terminal", lambda: True)
    assert report_layout("text", None) == "text"
    assert report_layout("text", Path("report.txt")) == "lines"
    assert report_layout("table", Path("report.txt")) == "text"
    monkeypatch.setattr("harness.cli.options.stdout_is_terminal", lambda: False)
    assert report_layout("text", None) == "lines"
    assert report_layout("json", None) == "json"


def test_simulate_lines_name_the_scenario_file(tmp_path: Path) -> None:
    helpdesk = ROOT / "samples" / "helpdesk"
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            str(helpdesk / "scenarios.yaml"),
            "--bot",
            str(helpdesk / "helpdesk-naive.yaml"),
            "--format",
            "lines",
        ],
    )
    assert result.exit_code == 1, result.output
    finding = next(line for line in result.output.splitlines() if ": turn " in line)
    assert finding.startswith(f"{helpdesk / 'scenarios.yaml'}::")
    assert "━" not in result.output


def test_an_absolute_path_under_the_checkout_is_annotated_relative_to_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    inside = DetectionResult(
        file=str(tmp_path / "exports" / "bank.jsonl"),
        conversation="c7",
        transcript=_result().transcript,
        findings=_result().findings,
    )
    assert render_github([inside]).startswith("::error file=exports/bank.jsonl,")


def test_a_failed_calls_text_stays_on_its_line_and_starts_no_workflow_command() -> None:
    # An exception's text may hold line breaks; in a CI log each failure is one line, and in
    # GitHub's form a second line starting with "::" must not run as a command of its own.
    transcript = conversation(("hi", [("bankbot", "Hello!")]))
    transcript.turns.append(
        TurnRecord(turn=1, errors=("accounts: ValueError: bad row\n::error file=x::injected",))
    )
    result = DetectionResult(file="s.yaml", conversation="hi", transcript=transcript, findings=())
    lines = _failure_lines([result], "lines")
    assert lines.count("\n") == 1 and "bad row ::error" in lines
    github = _failure_lines([result], "github")
    assert github.count("\n") == 1
    assert github.startswith("::error file=s.yaml,title=failed call::")
    assert "%0A::error" in github

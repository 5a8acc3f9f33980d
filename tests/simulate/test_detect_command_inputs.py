"""``harness detect`` on what a CI job hands it: a folder that holds an earlier run's report,
the command line's mistakes, and inputs whose errors used to mislead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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


def _statement_then_request(tmp_path: Path) -> Path:
    """A statement, then a request, answered as a helpdesk would: the default check flags it."""
    lines = [
        {"id": "u1", "turn": 1, "role": "user", "text": "My laptop is broken, can someone help?"},
        {
            "id": "b1",
            "turn": 1,
            "role": "bot",
            "sender": "it",
            "text": "A technician will call you back shortly.",
        },
    ]
    path = tmp_path / "laptop.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_min_confidence_sure_reports_only_the_sure_missed_requests(tmp_path: Path) -> None:
    path = _statement_then_request(tmp_path)
    default = CliRunner().invoke(cli, ["detect", str(path), "--format", "json"])
    assert default.exit_code == 1, default.output
    assert json.loads(default.stdout)["summary"]["missed_request"] >= 1
    for level in ("sure", "1"):
        sure = CliRunner().invoke(
            cli, ["detect", str(path), "--format", "json", "--min-confidence", level]
        )
        assert sure.exit_code == 0, sure.output
        assert json.loads(sure.stdout)["summary"]["missed_request"] == 0


def test_min_confidence_must_be_a_level_or_sure(tmp_path: Path) -> None:
    path = _statement_then_request(tmp_path)
    for bad in ("high", "1.5", "-0.1"):
        result = CliRunner().invoke(cli, ["detect", str(path), "--min-confidence", bad])
        assert result.exit_code == 2 and "--min-confidence" in result.stderr, bad


def test_simulate_takes_min_confidence_in_process_and_with_jobs(tmp_path: Path) -> None:
    scenarios = tmp_path / "pay.yaml"
    bot = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
    scenarios.write_text(
        f"bot: {bot}\nscenarios:\n"
        "  - name: pay\n    turns:\n      - user: 'My paycheck is wrong, who do I contact?'\n"
        "  - name: pay-again\n    turns:\n      - user: 'My paycheck is wrong, who do I contact?'\n",
        encoding="utf-8",
    )
    base = ["simulate", str(scenarios), "--format", "json"]
    default = CliRunner().invoke(cli, base)
    assert default.exit_code == 1 and json.loads(default.stdout)["summary"]["missed_request"]
    for jobs in ("1", "2"):
        sure = CliRunner().invoke(cli, [*base, "--min-confidence", "sure", "--jobs", jobs])
        assert sure.exit_code == 0, sure.output
        assert json.loads(sure.stdout)["summary"]["missed_request"] == 0


def test_a_bot_greeting_before_the_first_user_message_is_explained(tmp_path: Path) -> None:
    from harness.detect.readers import parse_transcript
    from harness.exceptions import ConfigError

    lines = [
        {"id": "b0", "turn": 1, "role": "bot", "sender": "x", "text": "Hi! How can I help?"},
        {"id": "u1", "turn": 1, "role": "user", "text": "What is my PTO balance?"},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    try:
        parse_transcript(text, file="greeting.jsonl")
    except ConfigError as exc:
        assert "a second user message" not in str(exc)
        assert "comes after bot messages of the same turn" in str(exc)
        assert "belong to turn 0" in str(exc) and exc.line == 2
    else:
        raise AssertionError("a user message after bot messages of its turn was read")
    # a real second user message keeps its own error
    again = text + json.dumps({"id": "u2", "turn": 1, "role": "user", "text": "And payday?"})
    try:
        parse_transcript(again.replace('"turn": 1, "role": "bot"', '"turn": 0, "role": "bot"'))
    except ConfigError as exc:
        assert "a second user message in turn 1" in str(exc)
    else:
        raise AssertionError("two user messages in one turn were read")


def _export(tmp_path: Path, separator: str, name: str = "export.csv") -> Path:
    content = EXAMPLE.read_text(encoding="utf-8").replace('"', '""')
    path = tmp_path / name
    path.write_text(f'Name{separator}Content\nfirst{separator}"{content}"\n', encoding="utf-8")
    return path


def test_a_semicolon_separated_export_is_read(tmp_path: Path) -> None:
    path = _export(tmp_path, ";")
    result = CliRunner().invoke(cli, ["detect", str(path), "--format", "json"])
    assert result.exit_code == 1, result.output
    [record] = json.loads(result.stdout)["transcripts"]
    assert record["conversation"] == "first" and record["findings"]
    tabs = _export(tmp_path, "\t", "tabs.csv")
    assert CliRunner().invoke(cli, ["detect", str(tabs)]).exit_code == 1
    # a table without the column names its header; a table on standard input says it is one
    other = tmp_path / "other.csv"
    other.write_text("Name;Body\nx;y\n", encoding="utf-8")
    missing = CliRunner().invoke(cli, ["detect", str(other)])
    assert missing.exit_code == 2 and "its header is 'Name;Body'" in missing.stderr
    piped = CliRunner().invoke(cli, ["detect", "-"], input=path.read_text(encoding="utf-8"))
    assert piped.exit_code == 2 and "looks like a CSV table" in piped.stderr


def _terminate_self() -> None:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGTERM)  # the handler runs before the next line


def test_a_forked_worker_ends_quietly_on_sigterm(capfd: pytest.CaptureFixture[str]) -> None:
    """``detect --jobs`` forks workers that inherit the console script's SIGTERM handler; one
    stopped with SIGTERM must not print a ``KeyboardInterrupt`` traceback."""
    import multiprocessing
    import signal

    from harness.cli.command import on_sigterm, process_start

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        process_start()
        process = multiprocessing.get_context("fork").Process(target=_terminate_self)
        process.start()
        process.join()
    finally:
        signal.signal(signal.SIGTERM, previous)
        process_start()
    assert process.exitcode == 143
    assert "Traceback" not in capfd.readouterr().err


def test_a_labels_file_in_a_folder_is_skipped_as_labels_not_as_a_report(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.json").write_text(EXAMPLE.read_text(), encoding="utf-8")
    labels = {"version": 1, "transcripts": {"a.json": {"duplicates": [], "hard_negatives": []}}}
    (folder / "labels.json").write_text(json.dumps(labels, indent=2), encoding="utf-8")
    run = CliRunner().invoke(cli, ["detect", str(folder), "--format", "json"])
    assert run.exit_code == 1, run.output
    assert f"warning: {folder / 'labels.json'}: skipped: a file of labelled duplicate pairs" in (
        run.stderr
    )
    assert "report" not in run.stderr.split("labels.json", 1)[1].splitlines()[0]
    files = [t["file"] for t in json.loads(run.stdout)["transcripts"]]
    assert files == [str(folder / "a.json")]


def test_a_lines_report_saved_as_jsonl_is_skipped_in_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.json").write_text(EXAMPLE.read_text(), encoding="utf-8")
    lines = CliRunner().invoke(cli, ["detect", str(folder / "a.json"), "--format", "lines"])
    (folder / "findings.jsonl").write_text(lines.stdout, encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(folder), "--format", "json"])
    assert result.exit_code == 1, result.output
    assert f"{folder / 'findings.jsonl'}: skipped: a lines report" in result.stderr
    document = json.loads(result.stdout)
    assert [t["file"] for t in document["transcripts"]] == [str(folder / "a.json")]
    assert document["totals"]["unread"] == 0


def test_reports_record_min_confidence_and_compare_refuses_to_mix_levels(tmp_path: Path) -> None:
    path = _statement_then_request(tmp_path)
    every, sure = tmp_path / "every.json", tmp_path / "sure.json"
    CliRunner().invoke(cli, ["detect", str(path), "--format", "json", "-o", str(every)])
    CliRunner().invoke(
        cli, ["detect", str(path), "--format", "json", "--min-confidence", "sure", "-o", str(sure)]
    )
    assert json.loads(every.read_text(encoding="utf-8"))["settings"] == {"min_confidence": 0.0}
    assert json.loads(sure.read_text(encoding="utf-8"))["settings"] == {"min_confidence": "sure"}
    result = CliRunner().invoke(cli, ["compare", str(every), str(sure)])
    assert result.exit_code == 3, result.output
    assert "different --min-confidence (0.0 and sure)" in result.output


def test_a_user_message_of_turn_0_after_bot_messages_says_turns_count_from_1() -> None:
    from harness.detect.readers import parse_transcript
    from harness.exceptions import ConfigError

    lines = [
        {"id": "b0", "turn": 0, "role": "bot", "sender": "x", "text": "Hi!"},
        {"id": "u0", "turn": 0, "role": "user", "text": "What is my PTO balance?"},
    ]
    with pytest.raises(ConfigError) as caught:
        parse_transcript("".join(json.dumps(line) + "\n" for line in lines), file="g.jsonl")
    assert "turn -1" not in str(caught.value)
    assert "count turns from 1" in str(caught.value)

"""How a command's report reaches its file (``-o FILE``) or standard output: any text a bot sent
can be written, an earlier report is replaced whole or not at all, and missing folders are made.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.cli import simulate as simulate_module
from harness.cli.options import write_output
from harness.detect import DetectionResult, Finding, render_junit
from harness.detect.html import render_html
from harness.exceptions import UsageError
from tests.simulate._helpers import conversation

CUT_EMOJI = "Your order ships Friday \ud83d"
"""What a JavaScript bot sends when it cuts a string inside an emoji by UTF-16 units: a lone
surrogate, which JSON can carry (``"\\ud83d"``) and UTF-8 cannot."""


def _transcript(tmp_path: Path, text: str) -> Path:
    """A JSONL transcript whose bot repeats ``text`` (a duplicate finding quotes it)."""
    lines = [
        {"id": "u1", "turn": 1, "role": "user", "sender": "user", "text": "When does it ship?"},
        {"id": "b1", "turn": 1, "role": "bot", "sender": "orders", "text": text},
        {"id": "b2", "turn": 1, "role": "bot", "sender": "helpdesk", "text": text},
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["json", "junit", "html", "lines", "github", "table"])
def test_a_lone_surrogate_in_a_message_is_written_as_a_replacement_character(
    tmp_path: Path, fmt: str
) -> None:
    transcript = _transcript(tmp_path, CUT_EMOJI)
    report = tmp_path / f"report.{fmt}"
    result = CliRunner().invoke(cli, ["detect", str(transcript), "--format", fmt, "-o", report])
    assert result.exit_code == 1, result.output  # the duplicate, not a crash
    text = report.read_text(encoding="utf-8")
    assert "\ufffd" in text or fmt == "json"  # the JSON finding quotes no message text
    if fmt == "junit":
        ET.fromstring(text)


def test_a_lone_surrogate_reaches_standard_output_too() -> None:
    result = CliRunner().invoke(cli, ["detect", "-", "--format", "lines"], input=_jsonl(CUT_EMOJI))
    assert result.exit_code == 1, result.output
    assert "ships Friday \ufffd" in result.stdout


def _jsonl(text: str) -> str:
    return "".join(
        json.dumps(line) + "\n"
        for line in (
            {"id": "u1", "turn": 1, "role": "user", "sender": "user", "text": "When?"},
            {"id": "b1", "turn": 1, "role": "bot", "sender": "orders", "text": text},
            {"id": "b2", "turn": 1, "role": "bot", "sender": "helpdesk", "text": text},
        )
    )


def _result_quoting(text: str) -> DetectionResult:
    transcript = conversation(("When?", [("orders", text), ("helpdesk", text)]))
    finding = Finding(
        kind="duplicate",
        turn=1,
        message_ids=("t1b1", "t1b2"),
        senders=("orders", "helpdesk"),
        evidence=f'restates "{text}"',
        scope="same_turn",
        method="exact",
    )
    return DetectionResult(
        file="t.jsonl", conversation=text, transcript=transcript, findings=(finding,)
    )


def test_junit_and_html_leave_out_characters_xml_forbids() -> None:
    """NUL, backspace and the other C0 controls but tab and line breaks cannot be in an XML 1.0
    document, even escaped: a test-report action would refuse the whole file."""
    text = "nul \x00 bs \x08 ff \x0c us \x1f tab \t end \ud800"
    junit = render_junit([_result_quoting(text)])
    root = ET.fromstring(junit)
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    assert "nul  bs  ff  us  tab \t end \ufffd" in (failure.text or "")
    page = render_html([_result_quoting(text)])
    assert not any(c in page for c in "\x00\x08\x0c\x1f\ud800")


def test_a_report_that_cannot_be_made_leaves_the_earlier_one_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "report.json"
    report.write_text("the earlier report\n", encoding="utf-8")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(UsageError, match="cannot write"):
        write_output("the new report\n", report)
    assert report.read_text(encoding="utf-8") == "the earlier report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


def test_a_report_replaces_the_earlier_one_and_keeps_the_usual_permissions(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.json"
    report.write_text("a much longer earlier report\n" * 10, encoding="utf-8")
    write_output("new\n", report)
    assert report.read_text(encoding="utf-8") == "new\n"
    fresh = tmp_path / "fresh.json"
    fresh.write_text("x", encoding="utf-8")
    assert report.stat().st_mode & 0o777 == fresh.stat().st_mode & 0o777
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.json", "report.json"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_rewritten_report_keeps_the_earlier_files_permissions(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("the earlier report, users' words in it\n", encoding="utf-8")
    report.chmod(0o600)
    write_output("the new report\n", report)
    assert report.read_text(encoding="utf-8") == "the new report\n"
    assert report.stat().st_mode & 0o777 == 0o600


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_a_report_to_a_device_is_written_to_it() -> None:
    write_output("into the void\n", Path("/dev/null"))


def test_missing_folders_of_the_report_are_made(tmp_path: Path) -> None:
    transcript = _transcript(tmp_path, "Your order ships Friday.")
    report = tmp_path / "reports" / "ci" / "detect.xml"
    result = CliRunner().invoke(
        cli, ["detect", str(transcript), "--format", "junit", "-o", str(report)]
    )
    assert result.exit_code == 1, result.output
    ET.parse(report)


@pytest.mark.parametrize("blocker", ["reports", "reports/ci"])
def test_a_report_folder_that_cannot_be_made_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, blocker: str
) -> None:
    """A file where a folder should be: the command stops at once, before running anything."""
    (tmp_path / blocker).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / blocker).write_text("not a folder", encoding="utf-8")
    ran: list[object] = []
    monkeypatch.setattr(simulate_module, "_run", lambda *args: ran.append(args))
    scenarios = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "scenarios.yaml"
    report = tmp_path / "reports" / "ci" / "simulate.xml"
    result = CliRunner().invoke(cli, ["simulate", str(scenarios), "-o", str(report)])
    assert result.exit_code == 2
    assert f"cannot write {report}" in result.stderr
    assert f"{tmp_path / blocker} is not a folder" in result.stderr
    assert ran == []

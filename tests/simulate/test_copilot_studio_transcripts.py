"""``harness detect`` on Copilot Studio conversation transcripts as Dataverse stores them: the
``content`` of a ``ConversationTranscript`` row, ``{"activities": [...]}`` with ``from.role`` 0 (bot)
or 1 (user) and epoch-second timestamps."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.detect import detect
from harness.detect.readers import load_transcript, parse_transcript
from harness.exceptions import ConfigError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "copilot-studio-transcript.json"


def _message(i: int, role: int, text: str, t: int) -> dict[str, Any]:
    return {
        "id": f"m{i}",
        "type": "message",
        "from": {"id": "x", "role": role},
        "text": text,
        "timestamp": t,
    }


def test_reads_a_stored_transcript_with_agents_named_from_plan_events() -> None:
    (transcript,) = load_transcript(EXAMPLE)
    assert [(m.id, m.turn, m.role, m.sender) for m in transcript] == [
        ("a02", 0, "bot", "bot"),  # the greeting comes before the first user message
        ("a03", 1, "user", "user"),
        ("a06", 1, "bot", "PTO"),
        ("a09", 1, "bot", "Payroll"),
        ("a11", 1, "bot", "bot"),
    ]
    assert transcript.messages[1].timestamp == datetime(2025, 12, 1, 10, 0, 9, tzinfo=UTC)
    duplicates = [f for f in detect(transcript) if f.kind == "duplicate"]
    assert sorted(f.message_ids for f in duplicates) == [("a06", "a11"), ("a09", "a11")]


def test_activities_are_put_in_time_order_and_roles_count_turns() -> None:
    content = {
        "activities": [
            _message(3, 0, "Your badge has been reissued and is ready at reception.", 30),
            _message(1, 1, "I lost my badge", 10),
            {"type": "trace", "valueType": "SessionInfo", "timestamp": 40, "value": {}},
            _message(2, 0, "Sorry to hear that, let me check.", 20),
            _message(4, 1, "thanks", 50),
            {"id": "card", "type": "message", "from": {"role": 0}, "timestamp": 60},  # no text
        ]
    }
    (transcript,) = parse_transcript(json.dumps(content))
    assert [(m.id, m.turn, m.role) for m in transcript] == [
        ("m1", 1, "user"),
        ("m2", 1, "bot"),
        ("m3", 1, "bot"),
        ("m4", 2, "user"),
    ]


def test_detect_reads_it_from_the_command_line() -> None:
    result = CliRunner().invoke(cli, ["detect", str(EXAMPLE), "--format", "json"])
    assert result.exit_code == 1, result.output
    findings = json.loads(result.stdout)["transcripts"][0]["findings"]
    assert {tuple(f["senders"]) for f in findings if f["kind"] == "duplicate"} == {
        ("PTO", "bot"),
        ("Payroll", "bot"),
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"activities": 3}', 'expected {"activities": [...]}'),
        ('{"activities": [1]}', "activities[0]: expected an activity object, got int"),
        ('{"activities": [{"type": "event"}]}', "no message activities with text"),
        ('{"activities": [}', "not JSON"),
    ],
)
def test_bad_content_is_a_clear_error(content: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_transcript(content, file="row.json")
    assert message in str(caught.value)
    assert str(caught.value).startswith("row.json")


def test_reads_the_table_exported_as_csv(tmp_path: Path) -> None:
    import csv

    path = tmp_path / "conversationtranscripts.csv"
    quiet = {"activities": [_message(1, 1, "hello", 1), _message(2, 0, "Hi! How can I help?", 2)]}
    with path.open("w", newline="", encoding="utf-8-sig") as out:  # Excel-style, with a BOM
        writer = csv.writer(out)
        writer.writerow(["ConversationStartTime", "Content", "Name"])
        writer.writerow(["2025-12-01T10:00:00Z", EXAMPLE.read_text(), "conv-a_bot-1_0"])
        writer.writerow(["2025-12-01T11:00:00Z", json.dumps(quiet), "conv-b_bot-1_0"])
    first, second = load_transcript(path)
    assert (first.conversation, second.conversation) == ("conv-a_bot-1_0", "conv-b_bot-1_0")
    assert len([f for f in detect(first) if f.kind == "duplicate"]) == 2
    assert detect(second) == []


def test_a_csv_without_content_or_with_bad_content_says_where(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("Name,Text\na,b\n")
    with pytest.raises(ConfigError, match="needs a Content column"):
        load_transcript(path)
    path.write_text('Name,Content\na,"{""activities"": 3}"\n')
    with pytest.raises(ConfigError) as caught:
        load_transcript(path)
    assert str(caught.value).startswith(f"{path}:2: activities: expected")


def test_a_csv_row_with_no_message_is_skipped_not_fatal(tmp_path: Path) -> None:
    """A real table holds sessions opened and left (only events, or no activity at all): the
    other rows are still checked; unnamed rows are named by their row in the table."""
    import csv

    path = tmp_path / "export.csv"
    abandoned = {"activities": [{"type": "trace", "valueType": "ConversationInfo"}]}
    talk = {"activities": [_message(1, 1, "hello", 1), _message(2, 0, "Hi! How can I help?", 2)]}
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Content"])
        writer.writerow([json.dumps(abandoned)])
        writer.writerow([json.dumps({"activities": []})])
        writer.writerow([json.dumps(talk)])
    (only,) = load_transcript(path)
    assert only.conversation == "row 3"
    assert [m.text for m in only.messages] == ["hello", "Hi! How can I help?"]
    path.write_text('Content\n"{""activities"": []}"\n\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"none of the CSV's 1 row\(s\) holds a conversation"):
        load_transcript(path)


def test_detect_to_a_file_says_how_it_went_on_stderr(tmp_path: Path) -> None:
    """With -o the report goes to the file and standard error has the summary and the path, as
    for ``harness simulate``, so a failing CI step shows why."""
    out = tmp_path / "report.xml"
    result = CliRunner().invoke(
        cli, ["detect", str(EXAMPLE), "--format", "junit", "-q", "-o", str(out)]
    )
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"1 conversation: 2 errors, 0 warnings (2 duplicate); report written to {out}"
    ]
    assert out.read_text(encoding="utf-8").startswith("<?xml")


def test_detect_reports_the_files_it_can_read_and_names_the_one_it_cannot(tmp_path: Path) -> None:
    """`harness detect exports/*.json` with one empty export: the others are still checked and
    reported; the unreadable file is named on standard error and the exit code is 2."""
    empty = tmp_path / "abandoned.json"
    empty.write_text('{"activities": [{"type": "event"}]}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(EXAMPLE), str(empty), "-q"])
    assert result.exit_code == 2, result.output
    assert "1 conversation: 2 errors, 0 warnings (2 duplicate)" in result.stdout
    assert result.stderr.splitlines() == [
        f"error: {empty}: the transcript has no message activities with text"
    ]
    alone = CliRunner().invoke(cli, ["detect", str(empty)])
    assert alone.exit_code == 2 and alone.stdout == ""


def test_detect_takes_a_folder_of_exports(tmp_path: Path) -> None:
    """`harness detect exports/`: every transcript file in the folder and its sub-folders, in
    order; a folder with none is a usage error naming it."""
    exports = tmp_path / "exports"
    (exports / "older").mkdir(parents=True)
    (exports / "a.json").write_text(EXAMPLE.read_text(), encoding="utf-8")
    (exports / "older" / "b.json").write_text(EXAMPLE.read_text(), encoding="utf-8")
    (exports / "notes.txt").write_text("not a transcript", encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(exports), "--format", "json"])
    assert result.exit_code == 1, result.output
    files = [t["file"] for t in json.loads(result.stdout)["transcripts"]]
    assert files == [str(exports / "a.json"), str(exports / "older" / "b.json")]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(cli, ["detect", str(empty)])
    assert result.exit_code == 2
    assert f"{empty}: no transcript in the folder" in result.stderr


def test_detect_reads_a_transcript_from_standard_input() -> None:
    """`... | harness detect -`: one transcript, JSON or JSONL, named "-" in the report."""
    result = CliRunner().invoke(cli, ["detect", "-", "--format", "json"], input=EXAMPLE.read_text())
    assert result.exit_code == 1, result.output
    [transcript] = json.loads(result.stdout)["transcripts"]
    assert transcript["file"] == "-" and transcript["errors"] == 2


def test_a_csv_names_the_conversation_and_row_of_each_message_with_nothing_to_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Activity ids repeat from one conversation to the next in a table: each one that has
    nothing to read is named with its conversation and row, so it can be found."""
    import csv
    import logging

    def talk(empty: str) -> dict[str, Any]:
        blank = {"id": empty, "type": "message", "from": {"id": "b", "role": 0}, "timestamp": 3}
        return {"activities": [_message(1, 1, "hello", 1), _message(2, 0, "Hi there!", 2), blank]}

    path = tmp_path / "export.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Name", "Content"])
        writer.writerow(["first-chat", json.dumps(talk("a03"))])
        writer.writerow(["", json.dumps(talk("a03"))])
        writer.writerow(["third-chat", json.dumps(talk("b07"))])
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        load_transcript(path)
    assert caplog.messages == [
        f"{path}: 3 message activities have neither text nor a card with text, so nothing in "
        "them is checked (a03 in conversation first-chat (line 2); a03 in conversation row 2 "
        "(line 3); b07 in conversation third-chat (line 4))"
    ]


def test_a_web_api_answer_places_each_message_with_nothing_to_read_by_its_item(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    blank = {"id": "a03", "type": "message", "from": {"id": "b", "role": 0}, "timestamp": 3}
    talk = {"activities": [_message(1, 1, "hello", 1), _message(2, 0, "Hi there!", 2), blank]}
    path = tmp_path / "page.json"
    rows = [{"name": "first-chat", "content": json.dumps(talk)}, {"content": json.dumps(talk)}]
    path.write_text(json.dumps({"value": rows}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        load_transcript(path)
    assert caplog.messages[-1].endswith(
        "(a03 in conversation first-chat (value[0]); a03 in conversation row 2 (value[1]))"
    )


def test_a_bot_framework_file_with_several_conversations_names_each_ones(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    def activity(i: str, conversation: str, role: str, text: str | None) -> dict[str, Any]:
        found = {"id": i, "type": "message", "conversation": {"id": conversation}}
        found["from"] = {"id": role, "role": role}
        return {**found, "text": text} if text else found

    path = tmp_path / "two.json"
    activities = [
        activity("u1", "c1", "user", "hello"),
        activity("b1", "c1", "bot", None),
        activity("u2", "c2", "user", "hello"),
        activity("b2", "c2", "bot", "Hi there!"),
    ]
    path.write_text(json.dumps(activities), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        load_transcript(path)
    assert caplog.messages == [
        f"{path}: 1 message activity has neither text nor a card with text, so nothing in it is "
        "checked (b1 in c1)"
    ]

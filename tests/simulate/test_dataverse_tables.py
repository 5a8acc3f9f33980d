"""Copilot Studio conversations as whole Dataverse tables: the ``ConversationTranscript`` table
exported as CSV. One row that cannot be read costs only that row."""

from __future__ import annotations

import csv
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from harness.detect import detect
from harness.detect.readers import load_transcript
from harness.exceptions import ConfigError


def _talk(question: str, answer: str, restated: str) -> str:
    """A row's content: a question, a sub-agent's answer and the parent restating it."""

    def message(i: int, role: int, text: str) -> dict[str, Any]:
        return {
            "id": f"m{i}",
            "type": "message",
            "from": {"role": role},
            "text": text,
            "timestamp": i,
        }

    return json.dumps(
        {"activities": [message(1, 1, question), message(2, 0, answer), message(3, 0, restated)]}
    )


LOCKER = _talk(
    "Which locker is mine?",
    "Your locker is number 214 on the second floor.",
    "Got it. Your locker is number 214 on the second floor.",
)
PARKING = _talk(
    "Where do I park?",
    "Your parking spot is B-17 in the north garage.",
    "Summary: your parking spot is B-17 in the north garage.",
)
CUT_SHORT = LOCKER[:60]  # a cell limit or a spreadsheet round trip cut the JSON


def _csv(path: Path, rows: list[tuple[str, str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Name", "Content"])
        writer.writerows(rows)
    return path


def test_a_csv_row_that_cannot_be_read_costs_that_row_only(tmp_path: Path) -> None:
    path = _csv(
        tmp_path / "export.csv",
        [("lockers", LOCKER), ("broken", CUT_SHORT), ("parking", PARKING)],
    )
    unread: list[ConfigError] = []
    transcripts = load_transcript(path, unread=unread)
    assert [t.conversation for t in transcripts] == ["lockers", "parking"]
    assert all(f.kind == "duplicate" for t in transcripts for f in detect(t))
    [error] = unread
    assert (error.file, error.line) == (str(path), 3)
    assert str(error).startswith(f"{path}:3: not JSON: ")
    assert str(error).endswith("; conversation broken is not checked (the other rows are)")


def test_without_a_list_for_them_unreadable_rows_are_warnings(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _csv(tmp_path / "export.csv", [("broken", CUT_SHORT), ("lockers", LOCKER)])
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        (transcript,) = load_transcript(path)
    assert transcript.conversation == "lockers"
    [warning] = caplog.messages
    assert warning.startswith(f"{path}:2: not JSON: ")
    assert "conversation broken is not checked" in warning


def test_a_csv_none_of_whose_rows_can_be_read_is_an_error(tmp_path: Path) -> None:
    path = _csv(tmp_path / "export.csv", [("a", CUT_SHORT), ("b", '{"activities": 3}')])
    with pytest.raises(ConfigError) as caught:
        load_transcript(path, unread=[])
    assert str(caught.value).startswith(f"{path}:2: not JSON: ")
    assert "(none of the CSV's 2 rows can be read: 2 cannot)" in str(caught.value)

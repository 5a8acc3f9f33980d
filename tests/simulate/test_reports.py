"""The text, JSON and JUnit reports."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from harness.detect import (
    DetectionResult,
    detect,
    exit_code,
    render_json,
    render_junit,
    render_text,
)
from tests.simulate._helpers import TRANSCRIPT_KEYS, conversation

PTO = "You have 12 vacation days left for 2026."


def _results() -> list[DetectionResult]:
    dirty = conversation(
        (
            "vacation days?",
            [
                ("pto", PTO, {"mode": "direct"}),
                ("helpdesk", f"As mentioned above, {PTO[0].lower()}{PTO[1:]} Payday is Friday."),
            ],
        )
    )
    dirty.conversation = "dirty"
    clean = conversation(("payday?", [("payroll", "Your next payday is Friday, March 13.")]))
    clean.conversation = "clean"
    warn_only = conversation(("payday?", [("helpdesk", "As I said, payday is Friday.")]))
    warn_only.conversation = "warn"
    return [
        DetectionResult(
            file="a.json", conversation=t.conversation, transcript=t, findings=tuple(detect(t))
        )
        for t in (dirty, clean, warn_only)
    ]


def test_json_has_exactly_the_documented_shape() -> None:
    document = json.loads(render_json(_results()))
    assert list(document) == ["version", "transcripts", "summary", "totals"]
    assert document["version"] == 1
    first = document["transcripts"][0]
    assert list(first) == TRANSCRIPT_KEYS
    assert (first["errors"], first["warnings"]) == (1, 1)
    assert (first["file"], first["conversation"], first["turns"], first["messages"]) == (
        "a.json",
        "dirty",
        1,
        3,
    )
    duplicate, ack = first["findings"]
    assert duplicate == {
        "kind": "duplicate",
        "severity": "error",
        "scope": "same_turn",
        "method": "containment",
        "turn": 1,
        "message_ids": ["t1b1", "t1b2"],
        "senders": ["pto", "helpdesk"],
        "score": 1.0,
        "evidence": duplicate["evidence"],
        "highlights": [
            {"message_id": "t1b1", "text": PTO},
            {"message_id": "t1b2", "text": f"As mentioned above, {PTO[0].lower()}{PTO[1:]}"},
        ],
    }
    assert list(ack) == ["kind", "severity", "turn", "message_ids", "senders", "evidence"]
    assert ack["severity"] == "warning"
    assert document["summary"] == {
        "duplicate": 1,
        "missed_request": 0,
        "silent_leak": 0,
        "wrong_scope": 0,
        "awkward_ack": 2,
        "failed_check": 0,
        "contract": 0,
    }
    assert document["totals"] == {
        "conversations": 3,
        "findings": 3,
        "errors": 1,
        "warnings": 2,
        "failed": 0,
    }


def test_json_totals_count_the_conversations_that_could_not_complete() -> None:
    """A conversation that stopped (a run error) has no error finding of its own, yet the command
    exits 1 on it: ``totals.failed`` says so to a CI step that reads the JSON."""
    clean = _results()[1]
    stopped = DetectionResult(
        file="a.json",
        conversation="stopped",
        transcript=clean.transcript,
        findings=(),
        error="CassetteMissError: the plan request is not in the cassette",
    )
    document = json.loads(render_json([clean, stopped]))
    assert document["totals"]["errors"] == 0
    assert document["totals"]["failed"] == 1
    assert exit_code([clean, stopped]) == 1
    assert document["transcripts"][1]["error"].startswith("CassetteMissError")


def test_json_tells_a_conversation_that_stopped_from_one_with_a_failed_call() -> None:
    clean = _results()[1]
    common = {"file": "a.json", "transcript": clean.transcript, "findings": ()}
    stopped = DetectionResult(
        conversation="stopped", error="turn 1: boom", completed=False, **common
    )
    called = DetectionResult(
        conversation="called", error="turn 1: payroll failed: boom", completed=True, **common
    )
    unsaid = DetectionResult(conversation="unsaid", error="turn 1: boom", **common)
    document = json.loads(render_json([clean, stopped, called, unsaid]))
    assert [t["completed"] for t in document["transcripts"]] == [True, False, True, False]
    assert document["totals"]["failed"] == 3


def test_junit_parses_with_one_case_per_conversation() -> None:
    root = ET.fromstring(render_junit(_results()))
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "0")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["dirty", "clean", "warn"]
    failure = cases[0].find("failure")
    assert failure is not None and "t1b1 (pto), t1b2 (helpdesk)" in (failure.text or "")
    assert cases[1].find("failure") is None
    assert cases[2].find("failure") is None
    out = cases[2].find("system-out")
    assert out is not None and "awkward_ack" in (out.text or "")


def test_text_shows_the_offending_messages_side_by_side_with_their_senders() -> None:
    text = render_text(_results(), width=160)
    assert "a.json::dirty" in text
    row = next(line for line in text.splitlines() if "[t1b1] pto" in line)
    assert "[t1b2] helpdesk" in row
    assert "a.json::clean: no findings" in text
    assert "3 conversations: 1 error, 2 warnings" in text


def test_exit_code_is_1_only_for_error_findings() -> None:
    dirty, clean, warn_only = _results()
    assert exit_code([dirty, clean]) == 1
    assert exit_code([clean, warn_only]) == 0


def test_text_has_no_trailing_spaces_in_either_layout_or_colour() -> None:
    results = _results()
    for color in (False, True):
        for text in (render_text(results, color=color), render_text(results * 200, color=color)):
            plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
            assert [line for line in plain.splitlines() if line != line.rstrip()] == []


def test_text_counts_in_the_singular_for_one() -> None:
    dirty, clean, warn_only = _results()
    text = render_text([clean])
    assert "a.json::clean: no findings (1 turn, 2 messages)" in text
    assert text.splitlines()[-1] == "1 conversation: 0 errors, 0 warnings"
    assert render_text([warn_only]).splitlines()[-1] == (
        "1 conversation: 0 errors, 1 warning (1 awkward_ack)"
    )
    lines = render_text([dirty] * 300).splitlines()  # the one-line-per-finding layout
    assert lines[0] == "a.json::dirty (1 turn, 3 messages): 2 findings"


def test_junit_gives_a_conversation_that_did_not_complete_one_error() -> None:
    """The JUnit schema allows one ``<error>`` per test case: the reason, then the error findings
    made before the conversation stopped."""
    dirty = _results()[0]
    stopped = DetectionResult(
        file="a.json",
        conversation="stopped",
        transcript=dirty.transcript,
        findings=dirty.findings,
        error="the bot did not answer within 30 s",
    )
    root = ET.fromstring(render_junit([stopped]))
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("failures"), suite.get("errors")) == ("0", "1")
    (case,) = suite.findall("testcase")
    (error,) = case.findall("error")
    assert case.find("failure") is None
    assert error.get("message") == "the bot did not answer within 30 s"
    lines = (error.text or "").splitlines()
    assert lines[0] == "the bot did not answer within 30 s"
    assert lines[1].startswith("finding before it: turn 1: duplicate/containment")


def test_a_missed_request_with_no_expected_agent_says_none_and_nothing_after() -> None:
    """A request the check found by itself names no agent: the row says "(none)", not a
    dangling "(none) expected from"."""
    turn = conversation(
        (
            "When is payday, and where is my W-2?",
            [("payroll", "Your next payday is Friday, March 13.")],
        )
    )
    findings = tuple(f for f in detect(turn) if f.kind == "missed_request")
    assert findings and not findings[0].senders
    result = DetectionResult(file="a.json", conversation="c", transcript=turn, findings=findings)
    for text in (render_text([result], width=160), render_text([result] * 300, width=160)):
        assert "(none)" in text
        assert "expected from" not in text

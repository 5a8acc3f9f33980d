"""Cause hints on findings, the plan on the text missed-request line, and ids in the text
report cut from the middle but whole in JSON (issue 29)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from harness import load_bot
from harness.cli import cli
from harness.detect.detectors import detect
from harness.detect.findings import Finding
from harness.detect.reports import DetectionResult, render_json, render_text, short_id
from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord
from harness.lint.causes import cause_of

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"


def test_the_naive_bots_duplicates_say_the_parent_does_not_check_answered() -> None:
    result = CliRunner().invoke(
        cli, ["simulate", str(SCENARIOS), "--bot", str(NAIVE), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    findings = [f for t in json.loads(result.stdout)["transcripts"] for f in t["findings"]]
    duplicates = [f for f in findings if f["kind"] == "duplicate"]
    assert duplicates
    for finding in duplicates:
        assert "does not check `answered`" in finding["cause"]
        assert "generated_instructions is false" in finding["cause"]


def test_the_scenario_files_own_bot_gets_the_same_causes_as_bot(tmp_path: Path) -> None:
    """The same in-process bot named by the file's ``bot:`` instead of ``--bot``: the findings
    carry the same cause hints (they had none)."""
    scenarios = tmp_path / "scenarios.yaml"
    text = SCENARIOS.read_text(encoding="utf-8")
    scenarios.write_text(
        "\n".join(
            f"bot: {NAIVE}" if line.startswith("bot:") else line for line in text.splitlines()
        ),
        encoding="utf-8",
    )
    own = CliRunner().invoke(cli, ["simulate", str(scenarios), "--format", "json"])
    given = CliRunner().invoke(
        cli, ["simulate", str(SCENARIOS), "--bot", str(NAIVE), "--format", "json"]
    )
    causes = [
        [f["cause"] for t in json.loads(r.stdout)["transcripts"] for f in t["findings"]]
        for r in (own, given)
    ]
    assert causes[0] == causes[1]
    assert any(c and "does not check `answered`" in c for c in causes[0])


def _leak(sender: str) -> Finding:
    return Finding(
        kind="silent_leak", turn=1, message_ids=("m2",), senders=(sender,), evidence="leaked"
    )


def test_a_silent_leak_names_the_missing_silence_block_only_when_it_is_missing() -> None:
    naive, good = load_bot(NAIVE), load_bot(GOOD)
    silent = next(n for n, a in naive.subagents.items() if a.mode.value == "silent")
    assert "no silence block" in (cause_of(_leak(silent), naive) or "")
    # Generated instructions carry the silence block: no cause is claimed.
    assert cause_of(_leak(silent), good) is None
    # Nor for a duplicate of a bot whose parent has its generated `answered` check.
    duplicate = Finding(
        kind="duplicate",
        turn=1,
        message_ids=("m2", "m3"),
        senders=("pto", good.name),
        evidence="restates",
    )
    assert cause_of(duplicate, good) is None


def _missed() -> DetectionResult:
    long_id = "naive-parent-restates-baggage-allowance-2"
    transcript = Transcript(conversation="c")
    transcript.append(
        Message(
            id="u1",
            turn=1,
            role="user",
            sender="user",
            text="How many bags can I take, and give me a window seat.",
        )
    )
    transcript.append(
        Message(
            id=long_id, turn=1, role="bot", sender="seats", text="Seat 12A is yours.", mode="direct"
        )
    )
    transcript.turns.append(
        TurnRecord(
            turn=1,
            plan=(
                PlannedRequest(request="how many bags can I take", agent="baggage"),
                PlannedRequest(request="give me a window seat", agent="seats"),
            ),
        )
    )
    transcript.agent_modes.update({"baggage": "direct", "seats": "direct"})
    findings = detect(transcript)
    assert [f.kind for f in findings] == ["missed_request"]
    duplicate = Finding(
        kind="duplicate",
        turn=1,
        message_ids=(long_id, long_id),
        senders=("seats", "seats"),
        evidence="x",
        cause="a hint",
    )
    return DetectionResult(
        file="f", conversation="c", transcript=transcript, findings=(*findings, duplicate)
    )


def test_the_text_missed_request_line_shows_the_plan_and_the_cause() -> None:
    text = render_text([_missed()], width=1000)
    assert "plan: baggage <- 'how many bags can I take'; seats <- 'give me a window seat'" in text
    assert "cause: a hint" in text


def test_ids_are_cut_from_the_middle_in_text_and_whole_in_json() -> None:
    long_id = "naive-parent-restates-baggage-allowance-2"
    cut = short_id(long_id)
    assert cut.startswith("naive-parent") and cut.endswith("allowance-2") and "…" in cut
    assert len(cut) == 28 and short_id("direct-deposit-dialogue-5") == "direct-deposit-dialogue-5"
    result = _missed()
    assert f"[{cut}]" in render_text([result], width=200)
    document = json.loads(render_json([result]))
    assert document["transcripts"][0]["findings"][1]["message_ids"] == [long_id, long_id]
    assert document["transcripts"][0]["findings"][1]["cause"] == "a hint"
    assert "cause" not in document["transcripts"][0]["findings"][0]
    assert replace(result.findings[1], cause=None).to_json().get("cause") is None


def test_a_parent_told_to_repeat_gets_that_sentence_as_the_cause(tmp_path: Path) -> None:
    """With the generated `answered` check on, the cause is the sentence that contradicts it."""
    from tests.core.test_parent_told_to_repeat import REPEAT_WORDINGS, _bot

    sentence = REPEAT_WORDINGS[0]
    bot = _bot(tmp_path, sentence)
    result = CliRunner().invoke(
        cli,
        ["simulate", str(tmp_path / "scenarios.yaml"), "--bot", str(bot), "--format", "json"],
    )
    assert result.exit_code == 1, result.output
    findings = [f for t in json.loads(result.stdout)["transcripts"] for f in t["findings"]]
    causes = [f.get("cause") or "" for f in findings if f["kind"] == "duplicate"]
    assert causes and all("order it to repeat its sub-agents' answers" in c for c in causes)
    assert any(sentence.rstrip(".")[:40] in c for c in causes)

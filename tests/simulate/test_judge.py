"""The optional LLM judge: borderline pairs put to a model, its reason in the evidence.

The judge here is a ``FunctionModel`` (a fake: its verdicts are written by the test), and the
replay test records that fake to a cassette first. Nothing here says how a real LLM judges.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import FunctionModel, ModelRequest, ModelResponse
from harness.cli import cli
from harness.detect import detect, detect_async
from harness.detect.judge import ModelJudge
from harness.detect.transcript import Transcript
from harness.models.replay import ReplayModel
from subagents import Usage
from tests.simulate._helpers import conversation, duplicates

REFUND = "Your refund of $120 was sent to your Visa card this morning."
STATEMENT = "The $120 should show up on your statement within five business days."


def _transcript() -> Transcript:
    return conversation(("where is my refund?", [("billing", REFUND), ("helpdesk", STATEMENT)]))


def _fake_judge(verdict: bool) -> FunctionModel:
    def respond(request: ModelRequest) -> ModelResponse:
        assert request.output_name == "duplicate_verdict" and request.output_schema is not None
        prompt = request.messages[0].content or ""
        assert REFUND in prompt and STATEMENT in prompt
        output = {
            "duplicate": verdict,
            "reason": "both tell the user the $120 refund is on its way",
        }
        return ModelResponse(output=output, text=json.dumps(output), usage=Usage(requests=1))

    return FunctionModel(respond)


def test_the_rules_alone_leave_the_pair_alone() -> None:
    assert duplicates(detect(_transcript())) == []


async def test_a_borderline_pair_the_judge_calls_a_duplicate_is_reported_with_its_reason() -> None:
    judge = ModelJudge(_fake_judge(True))
    [finding] = await detect_async(_transcript(), judge=judge)
    assert finding.message_ids == ("t1b1", "t1b2")
    assert "judged a duplicate: both tell the user the $120 refund" in finding.evidence
    assert judge.requests == 1


async def test_a_borderline_pair_the_judge_clears_is_not_reported() -> None:
    assert await detect_async(_transcript(), judge=ModelJudge(_fake_judge(False))) == []


async def test_clear_cases_never_reach_the_judge() -> None:
    t = conversation(("payday?", [("payroll", REFUND), ("helpdesk", REFUND)]))
    judge = ModelJudge(_fake_judge(False))
    found = await detect_async(t, judge=judge)
    assert [f.method for f in found] == ["exact"] and judge.requests == 0


def test_detect_judge_replays_from_a_cassette(tmp_path: Path) -> None:
    cassette = tmp_path / "judge.jsonl"
    recorder = ReplayModel(cassette, mode="record", wrapped=_fake_judge(True))
    asyncio.run(ModelJudge(recorder).judge(REFUND, STATEMENT))
    transcript = tmp_path / "refund.jsonl"
    _transcript().write_jsonl(transcript)
    result = CliRunner().invoke(
        cli, ["detect", str(transcript), "--format", "json", "--judge", f"replay:{cassette}"]
    )
    assert result.exit_code == 1, result.output
    [finding] = json.loads(result.stdout)["transcripts"][0]["findings"]
    assert finding["evidence"].startswith("judged a duplicate:")


def _failing_judge(error: Exception) -> FunctionModel:
    def respond(request: ModelRequest) -> ModelResponse:
        raise error

    return FunctionModel(respond)


def _two_turns() -> Transcript:
    """A borderline pair in turn 1 and two borderline pairs and an exact duplicate later."""
    return conversation(
        ("where is my refund?", [("billing", REFUND), ("helpdesk", STATEMENT)]),
        ("and my other refund?", [("billing", REFUND), ("helpdesk", REFUND)]),
    )


async def test_a_judge_that_fails_leaves_the_pairs_as_the_rules_decided_them() -> None:
    from harness.exceptions import ModelBehaviorError

    judge = ModelJudge(_failing_judge(ModelBehaviorError("no verdict")), max_bad_answers=10)
    found = await detect_async(_two_turns(), judge=judge)
    assert [method for _, _, method in duplicates(found)] == ["exact"]  # the rule finding is kept
    assert judge.undecided >= 1 and judge.requests == judge.undecided  # each pair was tried
    assert judge.errors == ["ModelBehaviorError: no verdict"] and judge.stopped is None


async def test_an_outage_stops_the_judge_after_one_request() -> None:
    from harness.exceptions import ModelRequestError

    judge = ModelJudge(_failing_judge(ModelRequestError("HTTP 500 after 3 attempts")))
    found = await detect_async(_two_turns(), judge=judge)
    assert [method for _, _, method in duplicates(found)] == ["exact"]
    assert judge.requests == 1 and judge.undecided >= 2
    assert judge.stopped == "ModelRequestError: HTTP 500 after 3 attempts"


def test_detect_writes_its_report_when_the_judge_fails(tmp_path: Path) -> None:
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("", encoding="utf-8")
    transcript = tmp_path / "refund.jsonl"
    _two_turns().write_jsonl(transcript)
    report = tmp_path / "report.json"
    judged = ["detect", str(transcript), "--judge", f"replay:{cassette}"]
    result = CliRunner().invoke(cli, [*judged, "--format", "json", "-o", str(report)])
    assert result.exit_code == 1, result.output
    assert "the judge could not decide" in result.stderr and "CassetteMissError" in result.stderr
    document = json.loads(report.read_text(encoding="utf-8"))
    findings = document["transcripts"][0]["findings"]
    assert [f["method"] for f in findings if f["kind"] == "duplicate"] == ["exact"]
    [note] = document["notes"]
    assert "the judge could not decide" in note["note"]
    for fmt in ("lines", "junit", "github"):
        shown = CliRunner().invoke(cli, [*judged, "--format", fmt])
        assert shown.exit_code == 1 and "could not decide" in shown.stdout, fmt


def test_the_rules_model_cannot_judge_a_usage_error(tmp_path: Path) -> None:
    transcript = tmp_path / "refund.jsonl"
    _transcript().write_jsonl(transcript)
    result = CliRunner().invoke(cli, ["detect", str(transcript), "--judge", "rules"])
    assert result.exit_code == 2, result.output
    assert "the rules model cannot judge" in result.stderr and "openai:<model>" in result.stderr


async def test_a_model_that_keeps_answering_badly_stops_the_judge() -> None:
    from harness.exceptions import ModelBehaviorError

    long = conversation(
        *[(f"and refund {n}?", [("billing", REFUND), ("helpdesk", STATEMENT)]) for n in range(6)]
    )
    judge = ModelJudge(_failing_judge(ModelBehaviorError("no verdict")), max_bad_answers=3)
    await detect_async(long, judge=judge)
    assert judge.requests == 3 and judge.undecided > 3
    assert judge.stopped is not None and "3 answers in a row without a verdict" in judge.stopped


async def test_an_empty_answer_is_named_not_shown_as_none() -> None:
    def refuse(request: ModelRequest) -> ModelResponse:
        return ModelResponse(output=None, text=None, usage=Usage(requests=1))

    judge = ModelJudge(FunctionModel(refuse))
    await detect_async(_transcript(), judge=judge)
    [error] = judge.errors
    assert "an empty answer" in error and "None" not in error


def test_a_judge_failure_alone_exits_1_and_is_marked_in_every_format(tmp_path: Path) -> None:
    """The transcript's only candidate is the borderline pair: no rule finding, so exit 1 can
    come only from the judge's failure."""
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("", encoding="utf-8")
    transcript = tmp_path / "refund.jsonl"
    _transcript().write_jsonl(transcript)
    judged = ["detect", str(transcript), "--judge", f"replay:{cassette}"]
    result = CliRunner().invoke(cli, [*judged, "--format", "json"])
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["totals"]["errors"] == 0 and document["totals"]["undecided"] == 1
    [note] = document["notes"]
    assert note["title"] == "judge failed" and note["undecided"] == 1
    assert "error: " in result.stderr and "could not decide" in result.stderr
    junit = CliRunner().invoke(cli, [*judged, "--format", "junit"])
    assert junit.exit_code == 1
    assert 'errors="1"' in junit.stdout and '<error message="conversation' in junit.stdout
    assert "<skipped" not in junit.stdout
    text = CliRunner().invoke(cli, judged)
    assert text.exit_code == 1 and "1 pair the judge could not decide" in text.stdout
    github = CliRunner().invoke(cli, [*judged, "--format", "github"])
    assert "::error " in github.stdout and "title=judge failed" in github.stdout


def test_after_an_outage_later_conversations_say_they_were_not_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.detect import judge as judge_module
    from harness.exceptions import ModelRequestError

    down = _failing_judge(ModelRequestError("HTTP 500 after 4 attempts"))
    monkeypatch.setattr(judge_module, "resolve_model", lambda model: down)
    for name in ("a", "b"):
        _transcript().write_jsonl(tmp_path / f"{name}.jsonl")
    result = CliRunner().invoke(
        cli, ["detect", str(tmp_path), "--judge", "replay:x.jsonl", "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    first, second = (n["note"] for n in json.loads(result.stdout)["notes"])
    assert first.endswith("ModelRequestError: HTTP 500 after 4 attempts")
    assert "not asked, the judge stopped at an earlier conversation" in second

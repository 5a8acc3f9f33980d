"""Every report shows how sure the missed-request check is of a finding: JSON ``score``, and
``confidence 0.NNN`` (rounded down) in the text reports and the pytest failure text, so a developer can tell
which ``--min-confidence`` level would withhold it."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli
from harness.detect.answers import matcher
from harness.detect.findings import Finding
from harness.detect.report_parts import confidence_note, finding_json
from harness.runtime.loading import run_sync
from harness.testing import ConversationDriver

BOT = Path(__file__).parent / "rail_bot" / "bot.yaml"
USER = "When is the last train to Hull tonight and are there any delays on the line?"


def _simulate(tmp_path: Path, fmt: str, *options: str) -> str:
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(
        f"bot: {BOT}\nscenarios:\n  - name: two\n    turns:\n      - user: {USER!r}\n",
        encoding="utf-8",
    )
    out = tmp_path / f"report.{fmt}"
    result = CliRunner().invoke(
        cli, ["simulate", str(scenario), "-q", "--format", fmt, "-o", str(out), *options]
    )
    assert result.exit_code in (0, 1), result.output
    return out.read_text(encoding="utf-8")


def _score(tmp_path: Path) -> float:
    (transcript,) = json.loads(_simulate(tmp_path, "json"))["transcripts"]
    (finding,) = transcript["findings"]
    assert finding["kind"] == "missed_request"
    score = finding["score"]
    assert isinstance(score, float)
    assert 0.0 < score <= 1.0
    return score


def test_the_json_score_is_the_level_that_withholds_it(tmp_path: Path) -> None:
    score = _score(tmp_path)
    assert score < matcher().report_threshold  # so "sure" withholds it, and the level below not
    below = _simulate(tmp_path, "json", "--min-confidence", f"{score - 0.01:.3f}")
    assert len(json.loads(below)["transcripts"][0]["findings"]) == 1
    above = _simulate(tmp_path, "json", "--min-confidence", f"{score + 0.01:.3f}")
    assert json.loads(above)["transcripts"][0]["findings"] == []


def test_the_lines_and_junit_reports_say_the_confidence(tmp_path: Path) -> None:
    note = f"confidence {_score(tmp_path):.3f}"
    (line,) = [x for x in _simulate(tmp_path, "lines").splitlines() if "error missed_request" in x]
    assert f"(planned for disruption); {note}; plan:" in line
    assert note in _simulate(tmp_path, "junit")


def test_the_driver_failure_text_says_the_confidence(tmp_path: Path) -> None:
    note = f"confidence {_score(tmp_path):.3f}"
    driver = ConversationDriver(BOT)
    run_sync(driver.send(USER))
    try:
        driver.assert_each_request_answered_once()
    except AssertionError as failure:
        assert f"({note})" in str(failure)
    else:
        raise AssertionError("the missed request was not reported")


def _missed(score: float) -> Finding:
    return Finding(
        kind="missed_request", turn=1, message_ids=(), senders=(), evidence="x", score=score
    )


def test_the_shown_confidence_never_passes_the_sure_level() -> None:
    # 0.97395 is below sure (0.974), which withholds it: rounding would show 0.974 (and 0.97).
    below, at = _missed(0.97395), _missed(0.9745)
    assert finding_json(below)["score"] == 0.973
    assert confidence_note(below) == "confidence 0.973"
    assert finding_json(at)["score"] == 0.974
    assert confidence_note(at) == "confidence 0.974"
    assert confidence_note(_missed(0.29)) == "confidence 0.290"  # not 0.289: 0.29 * 1000 < 290

"""A request whose ``expect`` passed is answered for the missed-request check too: one report
does not say both that the expected words came and that nothing addressed the request."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli

BOT = Path(__file__).parent / "rail_bot" / "bot.yaml"
USER = "When is the last train to Hull tonight and are there any delays on the line?"
TIMES = "{text: 'When is the last train to Hull tonight', agent: timetable"
DELAYS = "{text: 'are there any delays on the line', agent: disruption"


def _missed(tmp_path: Path, *requests: str) -> list[str]:
    lines = "\n".join(f"          - {r}" for r in requests)
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(
        f"bot: {BOT}\nscenarios:\n  - name: two\n    turns:\n"
        f"      - user: {USER!r}\n        requests:\n{lines}\n",
        encoding="utf-8",
    )
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli, ["simulate", str(scenario), "-q", "--format", "json", "-o", str(out)]
    )
    assert result.exit_code in (0, 1), result.output
    (transcript,) = json.loads(out.read_text(encoding="utf-8"))["transcripts"]
    return [f["evidence"] for f in transcript["findings"] if f["kind"] == "missed_request"]


def test_text_alone_still_reports_the_answer_in_other_words(tmp_path: Path) -> None:
    # The check's own reading: "late" shares no word with the question (the documented limit).
    assert len(_missed(tmp_path, TIMES + "}", DELAYS + "}")) == 1


def test_a_passed_expect_answers_a_declared_request(tmp_path: Path) -> None:
    assert _missed(tmp_path, TIMES + ", expect: '23:41'}", DELAYS + ", expect: late}") == []


def test_a_passed_expect_answers_the_request_without_text(tmp_path: Path) -> None:
    found = _missed(
        tmp_path, "{agent: timetable, expect: '23:41'}", "{agent: disruption, expect: late}"
    )
    assert found == []


def test_an_expect_that_failed_is_reported_once(tmp_path: Path) -> None:
    found = _missed(
        tmp_path, "{agent: timetable, expect: '23:41'}", "{agent: disruption, expect: cancelled}"
    )
    assert found == ['expected "cancelled" from disruption; no bot message in turn 1 contains it']


def test_a_declared_request_whose_expect_failed_is_still_missed(tmp_path: Path) -> None:
    found = _missed(tmp_path, TIMES + ", expect: '23:41'}", DELAYS + ", expect: cancelled}")
    assert len(found) == 1
    assert "are there any delays on the line" in found[0]

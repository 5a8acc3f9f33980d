"""The pytest plugin gives the driver a scenario's requests as they are written (``text``,
``words``, ``expect``, ``agent``), so a scenario file means the same under pytest as under
``harness simulate``: ``text`` + ``words:`` says what answers a request."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)
from harness.cli import cli

RAIL = Path(__file__).parents[1] / "simulate" / "rail_bot"
SCENARIOS = """\
bot: bot.yaml
scenarios:
  - name: words
    turns:
      - user: "When is the last train to Hull tonight and are there any delays on the line?"
        requests:
          - {{text: "When is the last train to Hull tonight", agent: timetable}}
          - {{text: "are there any delays on the line", agent: disruption, {delays}}}
"""


def _project(pytester: pytest.Pytester, delays: str) -> pytest.Pytester:
    for name in ("bot.yaml", "tools.py"):
        shutil.copy(RAIL / name, pytester.path / name)
    pytester.makefile(".yaml", scenarios_rail=SCENARIOS.format(delays=delays))
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    return pytester


def _simulate(path: Path) -> list[dict[str, object]]:
    out = path.parent / "report.json"
    result = CliRunner().invoke(
        cli, ["simulate", str(path), "-q", "--format", "json", "-o", str(out)]
    )
    assert result.exit_code in (0, 1), result.output
    (transcript,) = json.loads(out.read_text(encoding="utf-8"))["transcripts"]
    findings: list[dict[str, object]] = transcript["findings"]
    return findings


def test_words_that_the_answer_says_pass_as_under_simulate(pytester: pytest.Pytester) -> None:
    project = _project(pytester, "words: [late, delayed]")
    assert _simulate(project.path / "scenarios_rail.yaml") == []
    project.runpytest_inprocess("-q").assert_outcomes(passed=1)


def test_words_that_the_answer_lacks_fail_on_the_declared_request(
    pytester: pytest.Pytester,
) -> None:
    project = _project(pytester, "words: [cancelled]")
    (finding,) = _simulate(project.path / "scenarios_rail.yaml")
    assert finding["kind"] == "missed_request"
    result = project.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(['*"are there any delays on the line": no bot message*'])


def test_a_passed_expect_withdraws_the_finding_as_under_simulate(
    pytester: pytest.Pytester,
) -> None:
    # The check is sure ("cancelled" is not said); the expected text came ("20 min").
    project = _project(pytester, "words: [cancelled], expect: '20 min'")
    assert _simulate(project.path / "scenarios_rail.yaml") == []
    project.runpytest_inprocess("-q").assert_outcomes(passed=1)

"""``--harness-min-confidence`` and ini ``harness_min_confidence`` give the pytest plugin the
reporting level of ``harness simulate --min-confidence``: at ``sure`` the missed-request check
withholds the requests it is not sure went unanswered."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)

RAIL = Path(__file__).parents[1] / "simulate" / "rail_bot"
SCENARIOS = """\
bot: bot.yaml
scenarios:
  - name: two
    turns:
      - user: "When is the last train to Hull tonight and are there any delays on the line?"
"""
DRIVER_TEST = """\
from harness.runtime.loading import run_sync


def test_two(harness_driver):
    driver = harness_driver("bot.yaml")
    run_sync(driver.send("When is the last train to Hull tonight and are there any delays?"))
    driver.assert_each_request_answered_once()
"""


@pytest.fixture
def rail(pytester: pytest.Pytester) -> pytest.Pytester:
    for name in ("bot.yaml", "tools.py"):
        shutil.copy(RAIL / name, pytester.path / name)
    pytester.makefile(".yaml", scenarios_rail=SCENARIOS)
    return pytester


def _ini(pytester: pytest.Pytester, extra: str = "") -> None:
    pytester.makeini(f"[pytest]\nasyncio_default_fixture_loop_scope = function\n{extra}")


def test_without_a_level_the_answer_in_other_words_is_a_missed_request(
    rail: pytest.Pytester,
) -> None:
    _ini(rail)
    result = rail.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*are there any delays on the line*"])


def test_the_option_at_sure_withholds_it(rail: pytest.Pytester) -> None:
    _ini(rail)
    rail.runpytest_inprocess("-q", "--harness-min-confidence", "sure").assert_outcomes(passed=1)


def test_the_ini_at_sure_withholds_it(rail: pytest.Pytester) -> None:
    _ini(rail, "harness_min_confidence = sure\n")
    rail.runpytest_inprocess("-q").assert_outcomes(passed=1)


def test_the_option_overrides_the_ini(rail: pytest.Pytester) -> None:
    _ini(rail, "harness_min_confidence = sure\n")
    rail.runpytest_inprocess("-q", "--harness-min-confidence", "0").assert_outcomes(failed=1)


def test_the_driver_fixture_uses_the_level(rail: pytest.Pytester) -> None:
    _ini(rail, "harness_min_confidence = sure\n")
    rail.makepyfile(test_drive=DRIVER_TEST)
    rail.runpytest_inprocess("-q", "test_drive.py").assert_outcomes(passed=1)


def test_a_bad_level_is_a_usage_error(rail: pytest.Pytester) -> None:
    _ini(rail)
    result = rail.runpytest_inprocess("-q", "--harness-min-confidence", "very")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--harness-min-confidence: 'very' is not a number from 0 to 1*"])

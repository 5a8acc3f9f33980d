"""The pytest plugin: scenario files become tests, and the driver fixture asserts on a bot."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"

SCENARIOS = """\
bot: {bot}
scenarios:
  - name: pto-and-payday
    turns:
      - user: "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
        requests:
          - {{agent: pto, expect: "12 PTO days left"}}
          - {{agent: payroll, expect: "Friday, December 4"}}
  - name: password-only
    turns:
      - user: "I forgot my password"
        requests:
          - {{agent: password, expect: "reset link"}}
"""


@pytest.fixture(autouse=True)
def _quiet_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


def test_scenario_files_are_collected_one_item_per_scenario(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=GOOD))
    result = pytester.runpytest_inprocess("--collect-only", "-q")
    result.stdout.fnmatch_lines(["*scenarios_helpdesk.yaml::pto-and-payday*", "*::password-only*"])


def test_a_good_bot_passes_its_scenarios(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=GOOD))
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=2)


def test_a_duplicate_fails_the_scenario_and_shows_the_messages(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=NAIVE))
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "*scenario 'pto-and-payday' failed*",
            "*duplicate/containment (same_turn)*",
            "*pto, direct: You have 12 PTO days left this year*",
            "*helpdesk: To sum up: You have 12 PTO days left*",
        ]
    )


def test_a_missed_expectation_fails_with_the_missing_request(pytester: pytest.Pytester) -> None:
    text = SCENARIOS.format(bot=GOOD).replace("reset link", "a carrier pigeon")
    pytester.makefile(".yaml", scenarios_helpdesk=text)
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*missed_request*a carrier pigeon*"])


def test_a_file_without_a_bot_uses_the_ini_default(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_x=SCENARIOS.format(bot=GOOD).split("\n", 1)[1])
    pytester.makeini(
        f"[pytest]\nasyncio_default_fixture_loop_scope = function\nharness_bot = {GOOD}\n"
    )
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=2)


def test_the_driver_fixture_asserts_on_a_conversation(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        QUESTION = "How many vacation days do I have remaining, and when will I be getting my next paycheck?"

        @pytest.mark.asyncio
        async def test_good(harness_driver):
            driver = harness_driver({str(GOOD)!r})
            await driver.send(QUESTION, expect=[("pto", "12 PTO days"), ("payroll", "Friday")])
            driver.assert_no_duplicates()
            driver.assert_each_request_answered_once()
            driver.assert_no_silent_leaks()

        @pytest.mark.asyncio
        async def test_naive(harness_driver):
            driver = harness_driver({str(NAIVE)!r})
            await driver.send(QUESTION)
            driver.assert_no_duplicates()
        """
    )
    result = pytester.runpytest_inprocess("-q", "-p", "asyncio", "-o", "asyncio_mode=strict")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*duplicate messages: 1 finding(s)*", "*To sum up*"])


def test_another_tools_scenarios_yaml_is_left_alone(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios="scenarios:\n  smoke:\n    executor: constant-vus\n")
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=1)

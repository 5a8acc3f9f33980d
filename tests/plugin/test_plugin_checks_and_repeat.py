"""The pytest plugin and the driver: per-turn checks, and ``--harness-repeat`` with pass rates."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

# As in test_pytest_plugin: import what the plugin loads once, before pytester's in-process runs.
import harness.detect.html
import harness.detect.reports
import harness.testing._driver  # noqa: F401
from harness.exceptions import ConfigError
from harness.simulate.scenarios import ScenarioTurn
from harness.testing import ConversationDriver
from tests.simulate._helpers import embedded_data

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"

CHECKS = """\
bot: {bot}
scenarios:
  - name: payday
    turns:
      - user: "When is the next payday?"
        {checks}
        requests:
          - {{agent: payroll, {tools}}}
"""

FLAKY = """\
bot: tests.simulate.flaky_bot:make
scenarios:
  - name: payday
    turns:
      - user: "When is payday?"
"""


@pytest.fixture(autouse=True)
def _quiet_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


def _checks(checks: str, tools: str = "tools: [next_payday]") -> str:
    return CHECKS.format(bot=GOOD, checks=checks, tools=tools)


def test_a_scenario_with_passing_checks_passes(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_checks=_checks("expect: Friday\n        not: password"))
    pytester.runpytest_inprocess("-q").assert_outcomes(passed=1)


def test_a_failed_check_says_which_check_on_which_message(pytester: pytest.Pytester) -> None:
    text = _checks(
        "bot:\n          - {equals: 'Payday is Monday.'}",
        tools="tools: [gross_pay], never_calls: [next_payday]",
    )
    pytester.makefile(".yaml", scenarios_checks=text)
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*scenario 'payday' failed*",
            "*failed_check/equals: turn 1, bot message 1 (* from helpdesk): fails equals*",
            "*failed_check/tools: turn 1: payroll called next_payday; expected superset*",
            "*failed_check/never_calls: turn 1: payroll called next_payday*",
        ]
    )


async def test_the_driver_takes_checks_and_tool_expectations() -> None:
    driver = ConversationDriver(GOOD)
    await driver.send(
        "When is the next payday?",
        expect=[{"agent": "payroll", "tools": ["next_payday"], "calls": "strict"}],
        checks={"expect": "Friday", "not": ["password"], "regex": r"December \d"},
    )
    driver.assert_checks_pass()
    await driver.send("I forgot my password", checks={"not": "reset link"})
    with pytest.raises(
        AssertionError, match=r"(?s)checks failed: 1 finding.*turn 2, bot message 1"
    ):
        driver.assert_checks_pass()
    await driver.bot.aclose()


async def test_the_driver_rejects_a_malformed_check_before_sending() -> None:
    driver = ConversationDriver(GOOD)
    with pytest.raises(ConfigError, match=r"checks\.nott"):
        await driver.send("When is payday?", checks={"nott": "x"})
    with pytest.raises(ConfigError, match="expect: 'calls' says how to compare 'tools'"):
        await driver.send("When is payday?", expect=[{"agent": "payroll", "calls": "strict"}])
    assert len(driver.transcript) == 0
    await driver.bot.aclose()


async def test_the_driver_rejects_an_agent_or_tool_the_bot_does_not_have_before_sending() -> None:
    driver = ConversationDriver(GOOD)
    known = "direct_deposit, helpdesk, password, payroll, pto"
    with pytest.raises(
        ConfigError, match=rf"expect\[1\]: unknown agent 'payrol' \(the bot has {known}\)"
    ):
        await driver.send("When is payday?", expect=[("pto", "12"), ("payrol", "Friday")])
    with pytest.raises(ConfigError, match=r"expect\[0\]: payroll has no tool 'next_paydy'"):
        await driver.send("When is payday?", expect=[{"agent": "payroll", "tools": ["next_paydy"]}])
    with pytest.raises(ConfigError, match=r"checks\.requests\[0\]: unknown agent 'payrol'"):
        await driver.send(
            "When is payday?", checks=ScenarioTurn(user="x", requests=[{"agent": "payrol"}])
        )
    assert len(driver.transcript) == 0
    await driver.send("When is payday?", expect=[("helpdesk", "Friday")])  # the parent is known
    await driver.bot.aclose()


def test_a_scenario_naming_an_unknown_agent_fails_in_one_line_under_pytest(
    pytester: pytest.Pytester,
) -> None:
    text = CHECKS.format(bot=GOOD, checks="expect: Friday", tools="expect: Friday").replace(
        "agent: payroll", "agent: payrol"
    )
    path = pytester.makefile(".yaml", scenarios_typo=text)
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [f"scenario 'payday': {path}:3: turn 1: unknown agent 'payrol' (the bot has direct_*)"]
    )


def test_repeat_runs_a_scenario_n_times_and_fails_below_the_pass_rate(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".yaml", scenarios_flaky=FLAKY)
    result = pytester.runpytest_inprocess("-q", "--harness-repeat", "4")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*2 of 4 runs passed (50%), below the minimum 100%*",
            "run 2 of 4:",
            "*duplicate/exact (same_turn)*",
            "run 4 of 4:",
            "*harness scenario pass rates*",
            "*scenarios_flaky.yaml::payday: 2 of 4 runs passed (50%); failed runs: 2, 4",
            "pass rate by kind: duplicate 50%, missed_request 100%*",
        ]
    )
    assert "run 1 of 4:" not in result.stdout.str()


def test_min_pass_rate_lets_a_flaky_scenario_pass_and_junit_has_its_rate(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".yaml", scenarios_flaky=FLAKY)
    result = pytester.runpytest_inprocess(
        "-q",
        "--harness-repeat=4",
        "--harness-min-pass-rate=0.5",
        "--junitxml=junit.xml",
        "--harness-html=r.html",
    )
    result.assert_outcomes(passed=1)
    (case,) = ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties["harness_pass_rate"] == "0.5"
    assert properties["harness_failed_runs"] == "[2, 4]"
    page = (pytester.path / "r.html").read_text(encoding="utf-8")
    titles = [c["title"] for c in embedded_data(page)["conversations"]]
    assert titles == [f"payday (run {n} of 4)" for n in range(1, 5)]
    assert 'id="pass-rates"' in page and 'data-verdict="pass"' in page


def test_a_repeat_below_one_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_flaky=FLAKY)
    result = pytester.runpytest_inprocess("-q", "--harness-repeat=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_a_request_nobody_answered_shows_what_the_bot_did_say() -> None:
    """A missed request names no message: the failure shows the turn's bot messages instead
    (once per turn), so the developer sees what was said without rerunning the chat."""
    from harness.detect import detect
    from harness.testing._driver import format_findings
    from tests.simulate._helpers import conversation

    turn = conversation(
        (
            "Where is my W-2, when is payday, and how many vacation days are left?",
            [("payroll", "Your next payday is Friday, March 13.")],
        )
    )
    missed = [f for f in detect(turn) if f.kind == "missed_request"]
    assert len(missed) == 2
    text = format_findings(missed, turn)
    assert text.count("the bot's messages in turn 1:") == 1
    assert text.count("payroll: Your next payday is Friday, March 13.") == 1

"""A ``harness_driver`` test that catches a turn's error and goes on has its later turns' checks
applied (the review of s62-tidy: its ``stopped`` flag switched them off for good, and the test
below passed). New helpdesk bot, built here."""

from __future__ import annotations

import pytest

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)

TEST = """\
import pytest

from harness import Parent
from harness.exceptions import SubagentError
from harness.testing import fake_subagent


def desk():
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={"answered": True, "interactionSummary": "Payday is Friday the 28th."},
        description="Knows payday dates and payslips.",
        examples=["when is payday"],
    )
    laptops = fake_subagent(
        "laptops",
        mode="direct",
        error=RuntimeError("asset system unreachable"),
        description="Orders replacement laptops.",
        examples=["order a new laptop"],
    )
    return Parent(name="desk", subagents=[payroll, laptops], model="rules", strict=True)


async def test_the_bot_recovers_after_a_failed_order(harness_driver):
    driver = harness_driver(desk())
    with pytest.raises(SubagentError):
        await driver.send("Please order a new laptop for me.")
    await driver.send(
        "When is payday?", expect=[("payroll", "Thursday")], checks={"expect": "Thursday"}
    )
    driver.assert_checks_pass()
"""


def test_a_turn_after_a_caught_error_is_checked(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\nharness_async_tests = true\n"
    )
    pytester.makepyfile(test_after_error=TEST)
    result = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)  # the bot said Friday the 28th
    result.stdout.fnmatch_lines(["*checks failed: 1 finding(s)*", "*turn 2: failed_check*"])

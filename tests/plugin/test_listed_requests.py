"""The pytest plugin reads a scenario turn's requests as ``harness simulate`` does: a fully
declared request without ``expect`` names what the message asks (for the check), not an agent
that must speak; a turn where some requests give only their agent keeps the check's own findings
(second review of s61-fixaudit). New text on the rail bot of tests/simulate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)

RAIL = Path(__file__).parents[1] / "simulate" / "rail_bot"
USER = "When is the last train to Hull tonight and are there any delays on the line?"


@pytest.fixture
def rail(pytester: pytest.Pytester) -> pytest.Pytester:
    for name in ("bot.yaml", "tools.py"):
        shutil.copy(RAIL / name, pytester.path / name)
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    return pytester


def test_a_declared_request_for_an_agent_that_did_not_answer_it_is_no_silent_agent(
    rail: pytest.Pytester,
) -> None:
    # The answer came from disruption; the request names timetable and no expect. harness
    # simulate reports nothing (words: [late] are said); the plugin must not fail on
    # "timetable was expected to answer".
    rail.makefile(
        ".yaml",
        scenarios_listed=(
            "bot: bot.yaml\nscenarios:\n  - name: declared\n    turns:\n"
            "      - user: 'Are there any delays on the line?'\n        requests:\n"
            "          - {text: 'Are there any delays on the line', agent: timetable,"
            " words: [late]}\n"
        ),
    )
    rail.runpytest_inprocess("-q").assert_outcomes(passed=1)


def test_a_request_listed_by_its_agent_alone_keeps_the_checks_finding(
    rail: pytest.Pytester,
) -> None:
    # One request with text and expect, the other only its agent: harness simulate keeps the
    # check's own finding for the delays question; so does the plugin.
    rail.makefile(
        ".yaml",
        scenarios_partly=(
            "bot: bot.yaml\nscenarios:\n  - name: partly\n    turns:\n"
            f"      - user: {USER!r}\n        requests:\n"
            "          - {text: 'When is the last train to Hull tonight', agent: timetable,"
            " expect: '23:41'}\n"
            "          - {agent: disruption}\n"
        ),
    )
    result = rail.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*are there any delays on the line*"])

"""A sub-agent call that failed (its tool raised) fails a scenario test and the driver's assertions,
as it fails ``harness simulate``: the user got an apology that quotes the request, so the
findings alone would let it pass."""

from __future__ import annotations

from pathlib import Path

import pytest

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)
from harness.runtime.loading import run_sync
from harness.testing import ConversationDriver

BOT = """\
parent:
  name: desk
  model: rules
subagents:
  - name: pto
    kind: child
    mode: direct
    description: Answers questions about paid time off (PTO, vacation days).
    tools: ["tools.py:pto_balance"]
    examples: [how many vacation days do i have remaining]
"""
TOOLS = '''\
def pto_balance() -> str:
    """How many paid time off (vacation) days are left this year."""
    raise ConnectionError("HR system down")
'''
QUESTION = "How many vacation days do I have remaining?"
SCENARIOS = f"""\
bot: bot.yaml
scenarios:
  - name: pto
    turns:
      - user: "{QUESTION}"
"""


def _bot(folder: Path) -> Path:
    (folder / "tools.py").write_text(TOOLS, encoding="utf-8")
    path = folder / "bot.yaml"
    path.write_text(BOT, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _quiet_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


def test_a_scenario_whose_sub_agent_failed_fails_with_the_agent_and_the_error(
    pytester: pytest.Pytester,
) -> None:
    _bot(pytester.path)
    pytester.makefile(".yaml", scenarios_x=SCENARIOS)
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*scenario 'pto' failed*", "*turn 1: pto failed: ConnectionError: HR system down*"]
    )


def test_a_failed_call_with_an_expectation_says_why_it_failed(pytester: pytest.Pytester) -> None:
    _bot(pytester.path)
    expecting = SCENARIOS + '        requests: [{agent: pto, expect: "12 PTO days"}]\n'
    pytester.makefile(".yaml", scenarios_x=expecting)
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*turn 1: pto failed: ConnectionError: HR system down*"])


def test_a_repeated_scenario_counts_a_run_with_a_failed_call_as_failed(
    pytester: pytest.Pytester,
) -> None:
    _bot(pytester.path)
    pytester.makefile(".yaml", scenarios_x=SCENARIOS)
    result = pytester.runpytest_inprocess("-q", "--harness-repeat", "2")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*0 of 2 runs passed*", "*turn 1: pto failed: ConnectionError: HR system down*"]
    )


@pytest.mark.parametrize("check", ["assert_clean", "assert_each_request_answered_once"])
def test_the_driver_fails_on_a_failed_sub_agent_call(tmp_path: Path, check: str) -> None:
    driver = ConversationDriver(_bot(tmp_path))
    run_sync(driver.send(QUESTION))
    assert driver.failed_calls == ["turn 1: pto failed: ConnectionError: HR system down"]
    with pytest.raises(AssertionError, match=r"pto failed: ConnectionError: HR system down"):
        getattr(driver, check)()


def test_the_driver_checks_that_do_not_cover_calls_still_pass(tmp_path: Path) -> None:
    driver = ConversationDriver(_bot(tmp_path))
    run_sync(driver.send(QUESTION))
    driver.assert_no_duplicates()
    driver.assert_no_silent_leaks()
    with pytest.raises(AssertionError, match="1 failed call"):
        driver.assert_no_failed_calls()


HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"
DEPLOYED = Path(__file__).resolve().parents[2] / "docs" / "examples" / "deployed-scenario.yaml"


def test_a_deployed_bots_scenario_file_is_skipped_with_how_to_run_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".yaml", scenarios_deployed=DEPLOYED.read_text(encoding="utf-8"))
    pytester.makepyfile("def test_other():\n    assert True\n")
    result = pytester.runpytest_inprocess("-q", "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(
        ["*a deployed bot's scenario (target:)*run it with 'harness simulate *scenarios_deployed*"]
    )
    assert "not a scenario file" not in result.stdout.str()


def test_a_mistake_in_a_deployed_bots_target_is_a_collection_error(
    pytester: pytest.Pytester,
) -> None:
    text = DEPLOYED.read_text(encoding="utf-8").replace("  directline:", "  direct_line:")
    pytester.makefile(".yaml", scenarios_deployed=text)
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*scenarios_deployed.yaml:*unknown key 'direct_line'*"])


def test_a_module_bot_is_found_from_the_rootdir_when_pytest_runs_in_a_sub_folder(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        desk_bot_for_rootdir_test=(
            "from harness.runtime.loading import load_bot\n\n"
            "def make():\n"
            f"    return load_bot({str(HELPDESK)!r})\n"
        )
    )
    tests = pytester.mkdir("tests")
    (tests / "scenarios_x.yaml").write_text(
        SCENARIOS.replace("bot: bot.yaml", "bot: desk_bot_for_rootdir_test:make"), encoding="utf-8"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tests)  # the import path has the sub-folder, not the rootdir
        result = pytester.runpytest_inprocess("-q", "--rootdir", str(pytester.path))
    result.assert_outcomes(passed=1)


def test_a_deployed_bots_file_with_a_bot_runs_on_that_bot(pytester: pytest.Pytester) -> None:
    text = f"bot: {HELPDESK}\n" + DEPLOYED.read_text(encoding="utf-8")
    pytester.makefile(".yaml", scenarios_deployed=text)
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=2)

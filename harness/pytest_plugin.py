"""pytest plugin for duplicate-message regression tests (registered through ``pytest11``).

Scenario files are collected as tests, one item per scenario: a file is collected when its name
matches the ``harness_scenarios`` ini patterns (default ``scenarios*.yaml`` and
``*.scenarios.yaml``). Each item runs its conversation against the file's ``bot`` (or the
``harness_bot`` ini value, relative to the rootdir) and fails on any error-level finding, showing the
offending messages.

Fixtures:
    harness_driver: a factory ``harness_driver(bot, *, model=None) -> ConversationDriver`` for tests
        that drive a bot themselves and assert ``no duplicates``, ``each request answered once``
        and ``no silent leaks``.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["ScenarioFileCollector", "ScenarioItem"]

_DEFAULT_PATTERNS = ["scenarios*.yaml", "scenarios*.yml", "*.scenarios.yaml", "*.scenarios.yml"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "harness_scenarios",
        type="linelist",
        default=_DEFAULT_PATTERNS,
        help="file name patterns of harness scenario files to collect as tests",
    )
    parser.addini("harness_bot", default="", help="default bot for scenario files without 'bot:'")
    parser.addini("harness_model", default="", help="model for scenario tests (default: the bot's)")
    parser.addoption(
        "--harness-html",
        metavar="FILE",
        default=None,
        help="write an HTML report of the harness scenarios that ran to FILE",
    )


_HTML_RESULTS = pytest.StashKey[list[Any]]()
"""The checked conversations of the scenarios that ran, for ``--harness-html``."""


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the ``--harness-html`` report (the scenarios that ran, in the order they ran)."""
    path = session.config.getoption("harness_html", None)
    if path and not hasattr(session.config, "workerinput"):  # not from pytest-xdist workers
        from harness.simulate.html import render_html

        results = session.config.stash.get(_HTML_RESULTS, [])
        target = session.config.invocation_params.dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_html(results, title="harness scenarios"), encoding="utf-8")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    patterns: list[str] = parent.config.getini("harness_scenarios")
    if any(fnmatch.fnmatch(file_path.name, p) for p in patterns):
        return ScenarioFileCollector.from_parent(parent, path=file_path)
    return None


class ScenarioFileCollector(pytest.File):
    """A scenario file: one test item per scenario."""

    def collect(self) -> Iterator[pytest.Item]:
        from harness.simulate.scenarios import load_scenarios
        from subagents.config import load_yaml

        if not _looks_like_scenarios(load_yaml(self.path)):
            return  # another tool's file that happens to match the name pattern
        scenario_file = load_scenarios(self.path)
        for scenario in scenario_file.scenarios:
            yield ScenarioItem.from_parent(
                self, name=scenario.name, scenario=scenario, scenario_file=scenario_file
            )


def _looks_like_scenarios(tree: Any) -> bool:
    """True when a YAML document has a ``scenarios`` list of mappings with ``turns``."""
    if not isinstance(tree, dict):
        return False
    scenarios = tree.get("scenarios")
    return (
        isinstance(scenarios, list)
        and bool(scenarios)
        and all(isinstance(s, dict) and "turns" in s for s in scenarios)
    )


class ScenarioFailedError(AssertionError):
    """A scenario produced error-level findings."""


class ScenarioItem(pytest.Item):
    """One scenario run as a test."""

    def __init__(self, *, scenario: Any, scenario_file: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.scenario_file = scenario_file

    def _bot(self) -> str:
        bot = self.scenario_file.bot_target()
        if bot:
            return str(bot)
        default = self.config.getini("harness_bot")
        if not default:
            raise pytest.UsageError(
                f"{self.path}: no 'bot:' in the scenario file and no harness_bot ini option"
            )
        return (
            str(Path(self.config.rootpath) / default)
            if default.endswith((".yaml", ".yml"))
            else default
        )

    def runtest(self) -> None:
        from harness._loading import run_sync
        from harness.testing import ConversationDriver

        model = self.config.getini("harness_model") or None
        driver = ConversationDriver(self._bot(), model=model)

        async def run() -> None:
            for step in self.scenario.turns:
                expectations = [(r.agent, r.expect) for r in step.requests if r.expect]
                await driver.send(step.user, expect=expectations)
            await driver.bot.aclose()

        run_sync(run())
        found = driver.findings()
        if self.config.getoption("harness_html", None):
            from harness.simulate.reports import DetectionResult

            self.config.stash.setdefault(_HTML_RESULTS, []).append(
                DetectionResult(
                    file=str(self.path),
                    conversation=self.name,
                    transcript=driver.transcript,
                    findings=tuple(found),
                    name=self.name,
                )
            )
        findings = [f for f in found if f.severity == "error"]
        if findings:
            from harness.testing import format_findings

            raise ScenarioFailedError(format_findings(findings, driver.transcript))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailedError):
            return f"scenario {self.name!r} failed:\n{excinfo.value}"
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.scenario.line - 1 if self.scenario.line else None
        return self.path, line, f"scenario: {self.name}"


@pytest.fixture
def harness_driver() -> Callable[..., Any]:
    """A factory: ``harness_driver(bot, *, model=None)`` returns a ``ConversationDriver``."""
    from harness.testing import ConversationDriver

    def make(bot: Any, *, model: Any = None) -> ConversationDriver:
        return ConversationDriver(bot, model=model)

    return make

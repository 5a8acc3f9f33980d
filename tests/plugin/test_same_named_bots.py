"""Two folders, each with its own ``mybot.py`` named as ``bot: mybot:make`` by the scenario file
beside it: each file runs on its own folder's bot, in one pytest run and in one
``harness simulate`` run (module names are global in a process; the second file used to run,
silently, on the first folder's bot)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import harness.testing._driver  # noqa: F401  (see test_pytest_plugin.py)
from harness.exceptions import ConfigError
from harness.runtime.loading import load_bot

BOT = """\
from harness import Parent
from harness.testing import fake_subagent


def make():
    agent = fake_subagent(
        "{agent}", mode="direct", outputs={{"answered": True, "interactionSummary": "{answer}"}},
        description="{description}", examples=["{example}"],
    )
    return Parent(name="{name}", subagents=[agent], model="rules")
"""
SCENARIOS = """\
bot: {module}:make
scenarios:
  - name: {name}
    turns:
      - user: "{question}"
        requests: [{{agent: {agent}}}]
"""
PAYROLL = {
    "agent": "payroll",
    "answer": "Payday is Friday.",
    "description": "Answers questions about pay days and payslips.",
    "example": "when is payday",
    "question": "When is payday?",
}
PTO = {
    "agent": "pto",
    "answer": "You have 12 days left.",
    "description": "Answers questions about paid time off (PTO, vacation days).",
    "example": "how many vacation days do i have left",
    "question": "How many vacation days do I have left?",
}


def _layout(root: Path, module: str) -> tuple[Path, Path]:
    files = []
    for folder, name, facts in (("a", "desk_a", PAYROLL), ("b", "desk_b", PTO)):
        where = root / "tests" / folder
        where.mkdir(parents=True)
        (where / f"{module}.py").write_text(BOT.format(name=name, **facts), encoding="utf-8")
        scenarios = where / f"scenarios_{folder}.yaml"
        text = SCENARIOS.format(module=module, name=f"s_{folder}", **facts)
        scenarios.write_text(text, encoding="utf-8")
        files.append(scenarios)
    return files[0], files[1]


@pytest.fixture(autouse=True)
def _quiet_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


def test_each_folder_runs_its_own_bot_in_one_pytest_run(pytester: pytest.Pytester) -> None:
    _layout(pytester.path, "s58_twin_bot_plugin")
    result = pytester.runpytest_inprocess("-q", "tests")
    result.assert_outcomes(passed=2)


def test_load_bot_gives_the_bot_beside_each_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _layout(tmp_path, "s58_twin_bot_load")
    monkeypatch.chdir(tmp_path)
    names = [load_bot("s58_twin_bot_load:make", near=path.parent).name for path in (a, b, a, b)]
    assert names == ["desk_a", "desk_b", "desk_a", "desk_b"]


def test_each_folder_runs_its_own_bot_in_one_simulate_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.cli import cli

    a, b = _layout(tmp_path, "s58_twin_bot_cli")
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli, ["simulate", str(a), str(b), "-q", "--format", "json", "-o", str(report)]
    )
    assert result.exit_code == 0, result.output
    assert "unknown agent" not in result.output
    totals = json.loads(report.read_text(encoding="utf-8"))["totals"]
    assert (totals["conversations"], totals["failed"], totals["errors"]) == (2, 0, 0)


@pytest.mark.parametrize("imported_first", [False, True], ids=["on_the_path", "imported"])
def test_a_folder_of_the_same_name_on_the_path_does_not_hide_the_bot_beside_the_scenarios(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, imported_first: bool
) -> None:
    # ``harness new s69_twin_desk`` run in a folder on the import path leaves a folder
    # ``s69_twin_desk/`` without ``__init__.py`` there: Python would import it as an empty
    # namespace package, and the scenario's ``s69_twin_desk:make`` used to be "not a Parent".
    a, _ = _layout(tmp_path / "project", "s69_twin_desk")
    other = tmp_path / "elsewhere"
    (other / "s69_twin_desk").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(other))
    monkeypatch.delitem(sys.modules, "s69_twin_desk", raising=False)
    if imported_first:
        import s69_twin_desk  # type: ignore[import-not-found]  # noqa: F401

        monkeypatch.setitem(sys.modules, "s69_twin_desk", sys.modules["s69_twin_desk"])
    assert load_bot("s69_twin_desk:make", near=a.parent).name == "desk_a"


def test_a_missing_attribute_is_named_with_its_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = _layout(tmp_path, "s69_twin_attr")
    monkeypatch.syspath_prepend(str(a.parent))
    monkeypatch.delitem(sys.modules, "s69_twin_attr", raising=False)
    with pytest.raises(ConfigError) as caught:
        load_bot("s69_twin_attr:build")
    assert str(a.parent / "s69_twin_attr.py") in str(caught.value)
    assert "has no 'build'" in str(caught.value)

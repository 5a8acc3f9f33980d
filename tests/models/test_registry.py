"""The model registry: a model name's prefix picks its provider, everywhere a name is accepted."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from harness import ConfigError, Parent, UsageError, load_bot, load_config
from harness.cli import cli
from harness.models import (
    Model,
    RulesModel,
    check_model_name,
    model_names,
    register_model,
    resolve_model,
    unregister_model,
)
from harness.models.replay import ReplayModel
from tests.core._support import HELPDESK


class LabModel(RulesModel):
    """A user's provider: answers as the rules model, remembers how it was built."""

    built: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def __init__(self, name: str, **options: Any) -> None:
        super().__init__()
        self.lab_name = name
        LabModel.built.append((name, options))


@pytest.fixture
def lab() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    LabModel.built = []
    register_model("lab", LabModel, argument="size", replace=True)
    yield LabModel.built
    unregister_model("lab")


def test_the_built_in_prefixes() -> None:
    assert model_names() == ("rules", "openai:<model>", "replay:<cassette>")
    assert isinstance(resolve_model(None), RulesModel)
    assert isinstance(resolve_model("rules"), RulesModel)
    model = RulesModel()
    assert resolve_model(model) is model


def test_an_unknown_prefix_names_the_known_ones(lab: list[Any]) -> None:
    with pytest.raises(ConfigError) as error:
        resolve_model("gpt-5")
    assert error.value.message == (
        "unknown model 'gpt-5'; known: 'rules', 'openai:<model>', 'replay:<cassette>', 'lab:<size>'"
    )
    assert error.value.field == "model"
    with pytest.raises(ConfigError, match="unknown model 'gpt-5'"):
        check_model_name("gpt-5")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("openai:", "model 'openai:' needs a model after the colon: openai:<model>"),
        ("openai", "model 'openai' needs a model after the colon: openai:<model>"),
        ("replay:", "model 'replay:' needs a cassette after the colon: replay:<cassette>"),
        ("rules:fast", "model 'rules:fast': use 'rules' alone"),
    ],
)
def test_a_name_in_the_wrong_form(name: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        check_model_name(name)
    assert error.value.message == message


def test_a_registered_prefix_resolves_with_its_factory(lab: list[Any]) -> None:
    model = resolve_model("lab:small", temperature=0)
    assert isinstance(model, LabModel) and model.lab_name == "small"
    assert lab == [("small", {"temperature": 0})]
    assert check_model_name("lab:large") == "lab:large"
    assert "lab:<size>" in model_names()


def test_registering_twice_needs_replace(lab: list[Any]) -> None:
    with pytest.raises(UsageError, match="already registered"):
        register_model("lab", LabModel)
    with pytest.raises(UsageError, match="letters, digits"):
        register_model("my lab", LabModel)
    register_model("lab", lambda name, **options: RulesModel(), replace=True)
    assert type(resolve_model("lab:small")) is RulesModel


def test_a_built_in_can_be_replaced_and_comes_back() -> None:
    register_model("rules", lambda name, **options: LabModel("rules"), argument=None, replace=True)
    try:
        assert isinstance(resolve_model("rules"), LabModel)
    finally:
        unregister_model("rules")
    assert type(resolve_model("rules")) is RulesModel


def test_replay_is_loaded_only_when_named(tmp_path: Path) -> None:
    cassette = tmp_path / "c.jsonl"
    cassette.write_text("", encoding="utf-8")
    model = resolve_model(f"replay:{cassette}")
    assert isinstance(model, ReplayModel) and model.path == cassette


def test_a_registered_prefix_in_python_and_in_yaml(lab: list[Any], tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\n  model: lab:small\n"
        "subagents:\n  - name: pto\n    kind: child\n    mode: direct\n"
        "    description: Answers questions about paid time off.\n    model: lab:tiny\n",
        encoding="utf-8",
    )
    assert load_config(config).parent.model == "lab:small"
    bot = load_bot(config)
    assert isinstance(bot.model, LabModel) and bot.model.lab_name == "small"
    agent_model: Model = bot.model_for("pto")
    assert isinstance(agent_model, LabModel) and agent_model.lab_name == "tiny"
    assert isinstance(Parent(name="desk", model="lab:small").model, LabModel)


def test_an_unknown_prefix_in_yaml_names_the_line(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\nsubagents:\n  - name: pto\n    kind: child\n    mode: direct\n"
        "    model: lab:tiny\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as error:
        load_config(config)
    assert (error.value.line, error.value.field) == (7, "subagents[0].model")
    assert error.value.message.startswith("unknown model 'lab:tiny'; known: 'rules'")


def test_a_registered_prefix_on_the_command_line(lab: list[Any]) -> None:
    result = CliRunner().invoke(
        cli,
        ["chat", str(HELPDESK), "--model", "lab:small"],
        input="how many vacation days do I have left\nexit\n",
    )
    assert result.exit_code == 0, result.output
    assert lab == [("small", {})]
    assert "vacation" in result.stdout.lower() or "pto" in result.stdout.lower()
    unknown = CliRunner().invoke(cli, ["chat", str(HELPDESK), "--model", "labs:x"], input="exit\n")
    assert unknown.exit_code == 2
    assert "'lab:<size>'" in unknown.stderr


def test_an_installed_package_adds_a_prefix_by_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A distribution as pip installs it: its metadata declares the factory in the entry-point
    # group, and nothing calls register_model.
    (tmp_path / "harness_lab_plugin.py").write_text(
        "from harness.models import RulesModel\n\n"
        "def build(name, **options):\n"
        "    model = RulesModel()\n"
        "    model.plugin_name = name\n"
        "    return model\n",
        encoding="utf-8",
    )
    info = tmp_path / "harness_lab_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: harness-lab-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[harness.models]\nplugin = harness_lab_plugin:build\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        model = resolve_model("plugin:mini")
        assert getattr(model, "plugin_name", None) == "mini"
        assert "plugin:<name>" in model_names()
    finally:
        unregister_model("plugin")
        sys.modules.pop("harness_lab_plugin", None)


def test_the_linter_checks_model_names_with_the_registry(lab: list[Any], tmp_path: Path) -> None:
    from harness.lint import lint_paths

    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\n  model: gpt-5\nsubagents:\n  - name: pto\n    kind: child\n"
        "    mode: direct\n    description: PTO.\n    model: lab:small\n",
        encoding="utf-8",
    )
    found = [(f.id, f.line, f.message) for f in lint_paths([config]).findings if f.id == "HC100"]
    assert len(found) == 1, found
    assert found[0][1] == 3 and "unknown model 'gpt-5'; known: 'rules'" in found[0][2]
    assert lab == []  # checked, never built

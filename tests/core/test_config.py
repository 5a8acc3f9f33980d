"""YAML configs: every error names the file, the line and the field; a good config builds the same bot."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from harness import ChildAgent, ConfigError, ConnectedAgent, Mode, Parent, load_bot
from harness.runtime.config_files import load_config
from harness.simulate.scenarios import load_scenarios
from subagents import IOSpec, Subagent
from subagents.config import ConfigWarning
from tests.core._support import CONFIGS


def _line_of(path: Path, text: str, *, last: bool = False) -> int:
    lines = [i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    assert lines, f"{text!r} not in {path}"
    return lines[-1] if last else lines[0]


# (file, text on the offending line, field, words of the message)
SCHEMA_ERRORS = [
    ("bad_yaml_syntax.yaml", "mode: direct: loud", None, "invalid YAML"),
    ("unknown_kind.yaml", "kind: direct", "subagents[0].kind", "'child' or 'connected'"),
    ("unknown_mode.yaml", "mode: chatty", "subagents[0].mode", "'silent'"),
    ("wrong_type.yaml", "timeout: soon", "subagents[0].timeout", "number"),
    ("missing_name.yaml", "- kind: connected", "subagents[1].name", "required"),
    (
        "misspelt_field.yaml",
        "pass_histroy: false",
        "subagents[0].pass_histroy",
        "did you mean 'pass_history'?",
    ),
    ("missing_parent.yaml", "subagents:", "parent", "required"),
    ("not_a_mapping.yaml", "- name: pto", None, "must be a mapping"),
]


@pytest.mark.parametrize(
    ("name", "marker", "field", "words"), SCHEMA_ERRORS, ids=[e[0] for e in SCHEMA_ERRORS]
)
@pytest.mark.parametrize("loader", [load_config, load_bot], ids=["load_config", "load_bot"])
def test_a_schema_error_names_file_line_and_field(
    loader: object, name: str, marker: str, field: str | None, words: str
) -> None:
    path = CONFIGS / name
    with pytest.raises(ConfigError) as caught:
        loader(path)  # type: ignore[operator]
    error = caught.value
    line = _line_of(path, marker)
    assert (error.file, error.line, error.field) == (str(path), line, field)
    assert words in error.message
    assert str(error).startswith(f"{path}:{line}: ")


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n"])
def test_an_empty_file_says_it_is_empty(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bot.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="the file is empty: expected a config"):
        load_config(path)
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="the file is empty: expected a scenario file"):
        load_scenarios(scenarios)


def test_an_unknown_key_with_no_close_match_lists_the_keys_allowed_there(tmp_path: Path) -> None:
    path = tmp_path / "bot.yaml"
    path.write_text("parent:\n  name: desk\n  colour: blue\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert (caught.value.line, caught.value.field) == (3, "parent.colour")
    assert caught.value.message.startswith("unknown key 'colour' (expected one of name, ")


def test_empty_outputs_warn_at_load_time_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bot.yaml"
    path.write_text(
        "parent:\n  name: desk\nsubagents:\n  - name: pto\n    kind: child\n    mode: direct\n"
        "    description: PTO.\n    outputs: []\n",
        encoding="utf-8",
    )
    with pytest.warns(ConfigWarning) as caught:
        bot = load_bot(path)
    (warning,) = caught.list
    assert (warning.filename, warning.lineno) == (str(path), 8)
    assert str(warning.message) == (
        "subagents[0].outputs: 'pto' defines no outputs, so the parent cannot tell what it already "
        "told the user and will say it again; as a direct agent it needs 'answered' and "
        "'interactionSummary' (harness lint: HC001; `harness lint --fix` adds them)"
    )
    assert bot.subagents["pto"].outputs == ()


def test_a_duplicate_name_points_at_the_second_one() -> None:
    path = CONFIGS / "duplicate_names.yaml"
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    error = caught.value
    assert (error.line, error.field) == (
        _line_of(path, "name: pto", last=True),
        "subagents[2].name",
    )
    assert "duplicate sub-agent name 'pto'" in str(error)


@pytest.mark.parametrize("name", ["missing_tool.yaml", "missing_tool_module.yaml"])
def test_a_tool_that_does_not_exist_names_its_entry(name: str) -> None:
    path = CONFIGS / name
    load_config(path)  # reading and validating never imports tools
    with pytest.raises(ConfigError) as caught:
        load_bot(path)
    error = caught.value
    index = 1 if name == "missing_tool.yaml" else 0
    entry = _line_of(path, "- name:", last=True)
    tools = _line_of(path, "tools:", last=True)
    assert error.file == str(path)
    assert error.line in (entry, tools)
    assert error.field == f"subagents[{index}].tools"
    assert ("no_such_tool" if index else "no_such_file.py") in error.message


def test_a_child_agent_with_history_off_is_refused_with_its_line() -> None:
    path = CONFIGS / "child_history_off.yaml"
    with pytest.raises(ConfigError) as caught:
        load_bot(path)
    error = caught.value
    assert error.file == str(path)
    assert error.line in (_line_of(path, "- name: pto"), _line_of(path, "pass_history"))
    assert "always receives the parent's history" in error.message


def test_a_child_agent_with_history_off_names_the_field() -> None:
    path = CONFIGS / "child_history_off.yaml"
    with pytest.raises(ConfigError) as caught:
        load_bot(path)
    assert caught.value.field == "subagents[0].pass_history"
    assert caught.value.line == _line_of(path, "pass_history")


@pytest.mark.parametrize(
    ("name", "marker", "words"),
    [
        ("unknown_model.yaml", "model: gpt-5", "unknown model 'gpt-5'"),
        ("unknown_subagent_model.yaml", "model: claude", "unknown model 'claude'"),
        ("parent_named_like_subagent.yaml", "name: pto", "both named 'pto'"),
    ],
)
def test_errors_found_while_building_the_bot_name_file_and_line(
    name: str, marker: str, words: str
) -> None:
    path = CONFIGS / name
    with pytest.raises(ConfigError) as caught:
        load_bot(path)
    assert words in caught.value.message
    assert caught.value.file == str(path)
    assert caught.value.line == _line_of(path, marker)


def test_a_missing_file_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as caught:
        load_bot(CONFIGS / "nope.yaml")
    assert caught.value.file == str(CONFIGS / "nope.yaml")
    assert "cannot read" in str(caught.value)


def test_a_module_attr_target_that_is_not_a_parent_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"not a harness\.Parent"):
        load_bot("tests.core._support:ROOT")
    with pytest.raises(ConfigError, match="cannot import"):
        load_bot("tests.no_such_module:bot")


# --- a good config builds the same bot as the Python API ------------------------------------------


def _fixture_tools() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_core_fixture_tools", CONFIGS / "tools.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _python_bot() -> Parent:
    tools = _fixture_tools()
    return Parent(
        name="desk",
        instructions="You are the office helpdesk.",
        model="rules",
        max_compose_steps=3,
        subagents=[
            ChildAgent(
                name="pto",
                mode=Mode.DIRECT,
                description="Answers questions about paid time off (PTO, vacation days).",
                instructions="Use the PTO tool.",
                tools=[tools.pto_balance],
                examples=["how many vacation days do i have left"],
            ),
            ConnectedAgent(
                name="payroll",
                mode=Mode.SILENT,
                pass_history=False,
                description="Looks up pay dates.",
                tools=[tools.next_payday],
                timeout=5,
            ),
            ConnectedAgent(
                name="ticket",
                mode=Mode.CONVERSATIONAL,
                description="Opens IT support tickets.",
                tools=[tools.open_ticket],
                outputs=[
                    IOSpec(name="answered", description="True when the ticket is open."),
                    IOSpec(name="scopedRequest", description="The ticket request."),
                    IOSpec(name="interactionSummary", description="What the user was told."),
                ],
            ),
        ],
    )


def _shape(agent: Subagent) -> dict[str, object]:
    return {
        "type": type(agent).__name__,
        "mode": agent.mode,
        "description": agent.description,
        "instructions": agent.instructions,
        "examples": tuple(agent.examples),
        "inputs": tuple(agent.inputs or ()),
        "outputs": tuple(agent.outputs or ()),
        "history": agent.receives_history,
        "timeout": agent.timeout,
        "tools": [
            (t.name, t.description, dict(t.parameters), t.context_param) for t in agent.tool_specs
        ],
    }


async def test_load_bot_builds_the_same_bot_as_the_python_api() -> None:
    loaded = load_bot(CONFIGS / "good.yaml")
    built = _python_bot()
    assert (loaded.name, loaded.instructions, loaded.max_compose_steps, loaded.strict) == (
        built.name,
        built.instructions,
        built.max_compose_steps,
        built.strict,
    )
    assert loaded.system == built.system
    assert list(loaded.subagents) == list(built.subagents) == ["pto", "payroll", "ticket"]
    for name in built.subagents:
        assert _shape(loaded.subagents[name]) == _shape(built.subagents[name]), name
        assert loaded.system_prompt_for(name) == built.system_prompt_for(name)

    said = []
    for bot in (loaded, built):
        conversation = bot.conversation()
        for text in (
            "How many vacation days do I have left, and when is my next payday?",
            "Please open an IT support ticket",
            "my laptop",
        ):
            await conversation.send(text)
        said.append([(m.sender, m.text) for m in conversation.transcript])
    assert said[0] == said[1]
    assert ("ticket", "Ticket IT-1 is open.") in said[0]


def test_the_shipped_sample_configs_load() -> None:
    from tests.core._support import HELPDESK, HELPDESK_NAIVE

    good = load_bot(HELPDESK)
    naive = load_bot(HELPDESK_NAIVE)
    assert list(good.subagents) == list(naive.subagents)
    assert not good.subagents["payroll"].receives_history
    assert naive.subagents["payroll"].receives_history
    assert not naive.subagents["pto"].scoped and good.subagents["pto"].scoped

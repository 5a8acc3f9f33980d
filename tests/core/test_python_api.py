"""Building agents in Python: modes by name, clear errors for bad modes and tool references."""

from __future__ import annotations

import pytest

from harness import ChildAgent, ConfigError, ConnectedAgent, Mode, Parent, run_sync
from subagents import ModeName
from tests.core._support import HELPDESK


@pytest.mark.parametrize("cls", [ChildAgent, ConnectedAgent])
@pytest.mark.parametrize("name", ["silent", "direct", "conversational"])
def test_a_mode_may_be_given_by_name_and_reads_back_as_a_mode(
    cls: type[ChildAgent] | type[ConnectedAgent], name: ModeName
) -> None:
    agent = cls(name="a", description="A.", mode=name)
    assert agent.mode is Mode(name)
    assert agent == cls(name="a", description="A.", mode=Mode(name))


def test_the_default_mode_is_direct() -> None:
    assert ChildAgent(name="a", description="A.").mode is Mode.DIRECT


@pytest.mark.parametrize("cls", [ChildAgent, ConnectedAgent])
def test_an_unknown_mode_is_a_config_error_naming_the_valid_modes(
    cls: type[ChildAgent] | type[ConnectedAgent],
) -> None:
    with pytest.raises(ConfigError) as caught:
        cls(name="pto", description="PTO.", mode="quiet")  # type: ignore[arg-type]
    assert caught.value.field == "mode"
    assert str(caught.value) == (
        "mode: unknown mode 'quiet' of sub-agent 'pto'; "
        "use one of 'silent', 'direct', 'conversational' (or a Mode)"
    )


def test_a_module_function_reference_works_as_a_tool() -> None:
    agent = ChildAgent(
        name="pto",
        description="PTO.",
        tools=["samples.helpdesk.tools:pto_balance", "samples.helpdesk.tools:pto_used"],
    )
    assert [t.name for t in agent.tool_specs] == ["pto_balance", "pto_used"]
    turn = run_sync(
        Parent(name="desk", subagents=[agent]).conversation().send("How many PTO days are left?")
    )
    assert "12 PTO days left" in turn.text


def test_a_file_reference_in_python_says_to_pass_the_function() -> None:
    with pytest.raises(ConfigError) as caught:
        ChildAgent(name="pto", description="PTO.", tools=["tools.py:pto_balance"])
    assert caught.value.field == "tools"
    assert "in Python, pass the function itself (from tools import f)" in str(caught.value)


@pytest.mark.parametrize(
    ("tool", "words"),
    [
        ("samples.helpdesk.nothing:f", "cannot import tool module 'samples.helpdesk.nothing'"),
        ("samples.helpdesk.tools:nothing", "has no function 'nothing'"),
        (42, "a tool must be a function, a Tool or 'package.module:function', not int"),
    ],
)
def test_a_tool_that_cannot_be_used_is_a_config_error(tool: object, words: str) -> None:
    with pytest.raises(ConfigError, match="tools") as caught:
        ChildAgent(name="pto", description="PTO.", tools=[tool])  # type: ignore[list-item]
    assert words in str(caught.value)


def test_the_yaml_loader_still_resolves_file_references_next_to_the_config() -> None:
    from harness import load_bot

    bot = load_bot(HELPDESK)
    assert "pto_balance" in [t.name for t in bot.subagents["pto"].tool_specs]

"""The generated instructions satisfy the text rules they are the fix for."""

from __future__ import annotations

import pytest

from harness.lint.phrases import (
    anchors_scope,
    checks_answered,
    claims_only_speaker,
    forbids_user_messages,
    hints_answered,
)
from instructions import (
    AgentView,
    ParentView,
    render_subagent_description,
    render_subagent_instructions,
    render_top_level_instruction,
)

MODES = ("silent", "direct", "conversational")


def _agent(mode: str) -> AgentView:
    return AgentView(name=f"{mode}_agent", kind="child", mode=mode, description="Answers PTO.")


def test_the_generated_top_level_instruction_checks_answered() -> None:
    parent = ParentView(name="helpdesk", subagents=tuple(_agent(m) for m in MODES))
    text = render_top_level_instruction(parent)
    assert checks_answered(text)
    assert not claims_only_speaker(text)


@pytest.mark.parametrize("mode", MODES)
def test_generated_sub_agent_text_anchors_scope_and_hints_answered(mode: str) -> None:
    agent = _agent(mode)
    assert anchors_scope(render_subagent_instructions(agent))
    assert hints_answered(render_subagent_description(agent))


@pytest.mark.parametrize("mode", MODES)
def test_only_the_silent_block_forbids_messaging_the_user(mode: str) -> None:
    text = render_subagent_instructions(_agent(mode))
    assert forbids_user_messages(text) is (mode == "silent")

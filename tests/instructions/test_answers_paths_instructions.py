"""The generated sub-agent instructions tell an agent this SDK calls about ``userAnswers`` (the
user's answers to its questions, beside ``scopedRequest``), so a model uses the values instead of
asking again; the Copilot Studio fragments, whose agents get only the declared inputs, do not
(docs/contract.md, "The user's answer to an agent's question"). A ferry desk, written for these
tests."""

from __future__ import annotations

import pytest

from harness import ChildAgent, FunctionModel, Mode, ModelResponse, Parent
from instructions import (
    AgentView,
    ParentView,
    render_copilot_studio,
    render_markdown,
    render_subagent_system,
)
from instructions.contract import MODES

SENTENCE = "use those values instead of asking again"


def _view(mode: str, kind: str = "child") -> AgentView:
    return AgentView(
        name="crossings",
        kind=kind,
        mode=mode,
        description="Books ferry crossings for foot passengers and cars.",
        instructions="Book crossings with the booking tool.",
    )


@pytest.mark.parametrize("kind", ["child", "connected"])
@pytest.mark.parametrize("mode", MODES)
def test_every_agent_this_sdk_calls_is_told_about_user_answers(mode: str, kind: str) -> None:
    system = render_subagent_system(_view(mode, kind))
    assert "`userAnswers`" in system and SENTENCE in system
    # Said once, under the request, before the agent's own instructions.
    assert system.count("`userAnswers`") == 1
    assert system.index("`userAnswers`") < system.index("Book crossings with the booking tool.")
    parent = ParentView(name="ferry", subagents=(_view(mode, kind),))
    assert SENTENCE in render_markdown(parent)


@pytest.mark.parametrize("kind", ["child", "connected"])
@pytest.mark.parametrize("mode", MODES)
def test_copilot_studio_fragments_leave_user_answers_out(mode: str, kind: str) -> None:
    parent = ParentView(name="ferry", subagents=(_view(mode, kind),))
    assert "userAnswers" not in render_copilot_studio(parent)


def test_a_model_backed_agents_system_prompt_says_it_and_a_naive_one_does_not() -> None:
    model = FunctionModel(lambda _request: ModelResponse(output={}))
    kwargs = {
        "mode": Mode.DIRECT,
        "description": "Books ferry crossings for foot passengers and cars.",
        "model": model,
    }
    crossings = ChildAgent(name="crossings", **kwargs)  # type: ignore[arg-type]
    naive = ChildAgent(name="naive", generated_instructions=False, instructions="Book.", **kwargs)  # type: ignore[arg-type]
    bot = Parent(name="ferry", model=model, subagents=[crossings, naive])
    assert SENTENCE in bot.system_prompt_for("crossings")
    assert "userAnswers" not in bot.system_prompt_for("naive")

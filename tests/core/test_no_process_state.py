"""No process-wide side effects (issue 23): each bot owns its tool-thread quotas and its history
encoding cache, and the runtime's dialogue state stays out of the user's agent state."""

from __future__ import annotations

from typing import Any

from harness import ChildAgent, FunctionModel, ModelResponse, Parent, load_bot
from harness.composing import RulesComposer
from harness.models.base import ModelRequest, ToolCall
from harness.runtime.runner import SubagentCall, run_subagent
from subagents import HistoryEntry
from tests.core._support import HELPDESK


def _bot_with_tool(tool: Any) -> Parent:
    def respond(request: ModelRequest) -> ModelResponse:
        if not any(m.role == "tool" for m in request.messages):
            return ModelResponse(tool_calls=(ToolCall(id="1", name=tool.__name__, arguments={}),))
        return ModelResponse(output={"answered": True, "findings": "done"})

    agent = ChildAgent(name="lookup", mode="silent", description="Looks up.", tools=[tool])  # type: ignore[arg-type]
    return Parent(
        name="desk", subagents=[agent], model=FunctionModel(respond), composer=RulesComposer()
    )


async def test_two_bots_with_same_named_agents_do_not_share_tool_thread_quotas() -> None:
    seen: list[tuple[int, int]] = []
    bots: list[Parent] = []

    def probe() -> str:  # a sync tool: it runs on a thread from its bot's share
        first, second = bots
        seen.append(
            (
                first.dependencies.tool_threads.in_use("lookup"),
                second.dependencies.tool_threads.in_use("lookup"),
            )
        )
        return "ok"

    bots.extend([_bot_with_tool(probe), _bot_with_tool(probe)])
    result = await bots[0].run_subagent("lookup", "find it")
    assert result.error is None
    assert seen == [(1, 0)]  # the first bot's slot is taken; the second bot's share is untouched
    assert bots[0].dependencies.tool_threads is not bots[1].dependencies.tool_threads


async def test_each_bot_keeps_its_own_history_encoding() -> None:
    heard: list[str] = []

    def respond(request: ModelRequest) -> ModelResponse:
        heard.append(request.messages[-1].content or "")
        return ModelResponse(output={"answered": True, "findings": "-"})

    agent = ChildAgent(name="lookup", mode="silent", description="Looks up.")  # type: ignore[arg-type]
    first = Parent(
        name="one", subagents=[agent], model=FunctionModel(respond), composer=RulesComposer()
    )
    second = Parent(
        name="two", subagents=[agent], model=FunctionModel(respond), composer=RulesComposer()
    )
    history = (HistoryEntry(role="user", sender="user", text="hello", turn=1),)
    await first.run_subagent("lookup", "a", history=history)
    assert first.dependencies.local._last_history[0] is not None  # the first bot's cache is set
    assert second.dependencies.local._last_history == (None, "")  # the second bot's is not
    await second.run_subagent("lookup", "a", history=history)
    assert heard[0] == heard[1] and '"hello"' in heard[0]


async def test_a_call_without_a_bot_caches_nothing_for_the_process() -> None:
    def respond(request: ModelRequest) -> ModelResponse:
        return ModelResponse(output={"answered": True, "findings": "-"})

    agent = ChildAgent(name="lookup", mode="silent", description="Looks up.")  # type: ignore[arg-type]
    history = (HistoryEntry(role="user", sender="user", text="hello", turn=1),)
    call = SubagentCall(
        agent=agent,
        request="a",
        history=history,
        model=FunctionModel(respond),
        system="-",
    )
    result = await run_subagent(call)
    assert result.error is None
    import harness.transport.local as local

    assert not [name for name in vars(local) if "history" in name.lower() and "last" in name]


async def test_the_users_agent_state_holds_no_runtime_keys() -> None:
    conversation = load_bot(HELPDESK).conversation()
    await conversation.send("I want to change my direct deposit account")
    state = conversation.agent_states["direct_deposit"]
    assert not [key for key in state if key.startswith("_")]
    assert conversation.state.dialogues["direct_deposit"]  # the dialogue is kept, apart
    assert "_dialogue" not in conversation.snapshot()["agent_states"]["direct_deposit"]


async def test_an_old_snapshot_with_the_dialogue_in_the_agent_state_still_continues() -> None:
    bot = load_bot(HELPDESK)
    conversation = bot.conversation()
    await conversation.send("I want to change my direct deposit account")
    snapshot = conversation.snapshot()
    dialogue = snapshot.pop("dialogues")["direct_deposit"]
    snapshot["agent_states"]["direct_deposit"]["_dialogue"] = dialogue  # as older versions wrote
    resumed = bot.conversation(state=snapshot)
    assert resumed.state.dialogues["direct_deposit"] == dialogue
    assert "_dialogue" not in resumed.agent_states["direct_deposit"]
    turn = await resumed.send("123456789")
    assert [p.agent for p in turn.plan] == ["direct_deposit"]
    assert resumed.agent_states["direct_deposit"]["account"] == "123456789"
    assert len(resumed.state.dialogues["direct_deposit"]) > len(dialogue)

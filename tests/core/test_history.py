"""History passthrough: a connected agent with history off never sees earlier turns; a child always does."""

from __future__ import annotations

import json

import pytest

from harness import (
    ChildAgent,
    ConfigError,
    ConnectedAgent,
    FunctionModel,
    Mode,
    Parent,
    ToolContext,
)
from harness.composing import RulesComposer
from harness.models import ActContext
from harness.planning import RulesPlanner
from subagents import HistoryEntry
from tests.core._support import act_requests, planned_rules, recording_rules, request_text

CITIES = ("Oslo", "Bergen", "Tromso")


def forecast(request: str) -> str:
    """The weather forecast for a city."""
    city = request.rstrip("?").split()[-1]
    return f"Forecast for {city}: sunny."


def pto_balance() -> str:
    """How many paid time off (vacation) days are left."""
    return "You have 12 PTO days left."


def _parent(*, weather_history: bool) -> tuple[Parent, FunctionModel]:
    model = recording_rules()
    weather = ConnectedAgent(
        name="weather",
        description="Gives the weather forecast for a city.",
        mode=Mode.SILENT,
        pass_history=weather_history,
        tools=[forecast],
        examples=["what is the weather forecast in paris"],
    )
    pto = ChildAgent(
        name="pto",
        description="Answers questions about paid time off (PTO, vacation days).",
        mode=Mode.DIRECT,
        tools=[pto_balance],
        examples=["how many vacation days do i have left"],
    )
    planner = RulesPlanner()
    bot = Parent(
        name="desk",
        subagents=[weather, pto],
        model=model,
        planner=planner,
        composer=RulesComposer(),
    )
    return bot, model


async def _three_turns(parent: Parent, model: FunctionModel) -> list[list[str]]:
    """Run three turns; return, per turn, everything the weather agent's model was shown."""
    conversation = parent.conversation()
    shown: list[list[str]] = []
    for city in CITIES:
        before = len(model.calls)
        turn = await conversation.send(
            f"How many vacation days do I have left and what is the weather forecast in {city}?"
        )
        assert {p.agent for p in turn.plan} == {"weather", "pto"}, turn.plan
        assert f"Forecast for {city}: sunny." in turn.text
        calls = model.calls[before:]
        shown.append(
            [
                request_text(c)
                for c in calls
                if isinstance(c.context, ActContext) and c.agent == "weather"
            ]
        )
    return shown


async def test_a_connected_agent_with_history_off_never_sees_earlier_turns() -> None:
    parent, model = _parent(weather_history=False)
    shown = await _three_turns(parent, model)
    for index, texts in enumerate(shown):
        assert texts, "the weather agent was called every turn"
        # Earlier turns: their cities and the other agent's answer.
        earlier = [*CITIES[:index], "12 PTO days"]
        for text in texts:
            leaked = [word for word in earlier if word in text]
            assert leaked == [], f"turn {index + 1}: the agent saw {leaked}"
            # Scoped: not even the other request of this very turn.
            assert "vacation" not in text
    for request in act_requests(model, "weather"):
        assert isinstance(request.context, ActContext)
        assert request.context.history is None
        payload = json.loads(request.messages[0].content or "{}")
        assert set(payload) == {"scopedRequest"}


async def test_a_connected_agent_with_history_on_sees_earlier_turns() -> None:
    parent, model = _parent(weather_history=True)
    shown = await _three_turns(parent, model)
    assert "Oslo" in shown[1][0] and "Bergen" in shown[2][0]
    assert "12 PTO days" in shown[2][0]


async def test_a_child_agent_always_sees_earlier_turns() -> None:
    parent, model = _parent(weather_history=False)
    await _three_turns(parent, model)
    requests = act_requests(model, "pto")
    last = requests[-1]
    assert isinstance(last.context, ActContext)
    history = last.context.history
    assert history is not None
    assert {h.turn for h in history} == {1, 2, 3}
    assert any("Oslo" in h.text and h.role == "user" for h in history)
    assert any(h.sender == "desk" and "Forecast for Bergen" in h.text for h in history)
    payload = json.loads(last.messages[0].content or "{}")
    assert payload["scopedRequest"] == "How many vacation days do I have left"
    assert any("Oslo" in entry["text"] for entry in payload["history"])


async def test_tools_get_the_history_only_when_their_agent_receives_it() -> None:
    seen: dict[str, tuple[HistoryEntry, ...] | None] = {}

    def remember(ctx: ToolContext) -> str:
        """Remember what this agent was given."""
        seen[ctx.agent] = ctx.history
        return f"{ctx.agent} done"

    common = {"description": "Jobs.", "mode": Mode.SILENT, "tools": [remember]}
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[
            ChildAgent(name="child", **common),  # type: ignore[arg-type]
            ConnectedAgent(name="open", **common),  # type: ignore[arg-type]
            ConnectedAgent(name="closed", pass_history=False, **common),  # type: ignore[arg-type]
        ],
    )
    conversation = parent.conversation()
    await conversation.send("child first and open first and closed first")
    await conversation.send("child second and open second and closed second")
    assert seen["closed"] is None
    for name in ("child", "open"):
        history = seen[name]
        assert history is not None
        assert [h.text for h in history if h.role == "user"] == [
            "child first and open first and closed first",
            "child second and open second and closed second",
        ]


async def test_history_is_limited_to_the_recent_turns() -> None:
    seen: list[tuple[HistoryEntry, ...] | None] = []

    def remember(ctx: ToolContext) -> str:
        """Remember the history."""
        seen.append(ctx.history)
        return "ok"

    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        history_turns=2,
        subagents=[ChildAgent(name="child", description="x", mode=Mode.SILENT, tools=[remember])],
    )
    conversation = parent.conversation()
    for n in range(4):
        await conversation.send(f"child turn {n + 1}")
    last = seen[-1]
    assert last is not None
    assert sorted({h.turn for h in last}) == [3, 4]


def test_a_child_agent_cannot_turn_history_off() -> None:
    with pytest.raises(ConfigError) as caught:
        ChildAgent(name="pto", description="PTO.", pass_history=False)
    assert caught.value.field == "pass_history"
    assert "'pto'" in caught.value.message
    assert "ConnectedAgent" in str(caught.value)


def test_history_flags_of_each_kind() -> None:
    assert ChildAgent(name="a", description="x").receives_history
    assert ConnectedAgent(name="b", description="x").receives_history
    assert not ConnectedAgent(name="c", description="x", pass_history=False).receives_history

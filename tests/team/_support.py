"""Helpers for the team tests: deterministic members, a tool-calling model and a fake clock."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.models import FunctionModel, ModelRequest, ModelResponse, ToolCall
from harness.team import Member, MemberReply, TeamRole, TeamState


def scripted(*replies: MemberReply | str) -> Callable[[TeamState], object]:
    """A member function that plays ``replies`` in order, repeating the last one."""
    calls: list[TeamState] = []

    async def play(state: TeamState) -> MemberReply | str:
        calls.append(state)
        return replies[min(len(calls), len(replies)) - 1]

    play.calls = calls  # type: ignore[attr-defined]
    return play


def member(
    name: str, role: TeamRole | str, *replies: MemberReply | str, **kwargs: object
) -> Member:
    return Member(name=name, role=TeamRole(role), function=scripted(*replies), **kwargs)  # type: ignore[arg-type]


def policy_lookup_model() -> FunctionModel:
    """A member model that calls ``lookup_policy(topic="pto")`` once, then stops with what the tool
    returned (``Could not check: ...``)."""

    def respond(request: ModelRequest) -> ModelResponse:
        last = request.messages[-1]
        if last.role == "tool":
            return ModelResponse(
                output={"content": f"Could not check: {last.content}", "stop": True}
            )
        call = ToolCall(id="c1", name="lookup_policy", arguments={"topic": "pto"})
        return ModelResponse(tool_calls=(call,))

    return FunctionModel(respond)


_WORDS = (
    "alpha bravo charlie", "delta echo foxtrot", "golf hotel india", "juliet kilo lima",
    "mike november oscar", "papa quebec romeo", "sierra tango uniform", "victor whiskey xray",
    "yankee zulu amber", "basalt cobalt dune", "ember fjord glacier", "harbor island jungle",
    "kelp lagoon mesa", "nebula orchid prairie",
)  # fmt: skip


def counting(name: str, role: TeamRole | str = "solver", **reply: object) -> Member:
    """A member whose every reply is worded differently (so the loop watchdog never fires)."""

    async def speak(state: TeamState) -> MemberReply:
        words = _WORDS[state.turn % len(_WORDS)]
        return MemberReply(content=f"{name}: {words}", **reply)  # type: ignore[arg-type]

    return Member(name=name, role=TeamRole(role), function=speak)


class FakeClock:
    """A clock that advances by ``step`` seconds every time it is read."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def types(events: Sequence[dict[str, object]]) -> list[str]:
    return [str(e["type"]) for e in events]

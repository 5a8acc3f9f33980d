"""Helpers for the team tests: deterministic members and a fake clock."""

from __future__ import annotations

from collections.abc import Callable, Sequence

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

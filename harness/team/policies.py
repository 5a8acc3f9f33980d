"""Speaker selection: who talks next in a team run.

``RoundRobin`` walks a fixed order (the members' order, or a schedule that may repeat names, as a
debate does) and honours handoffs: when the latest message hands over to a member, that member
speaks next and the order resumes after it. ``Selector`` asks a function or a model to choose, as
AutoGen's selector group chat does, and falls back to round robin when the choice is not a member.
Policies are stateless: they derive everything from the ``TeamState``, so one team can serve
several runs at once.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence

from harness.models.base import ChatMessage, Model, ModelRequest
from harness.team.state import TeamState

__all__ = ["RoundRobin", "Selector", "SpeakerPolicy"]


class SpeakerPolicy(ABC):
    """Chooses the next speaker."""

    @abstractmethod
    async def select(self, state: TeamState) -> str:
        """Return the name of the member who speaks next."""


def _handoff(state: TeamState) -> str | None:
    last = state.last
    if last is not None and last.signals.handoff in state.members:
        return last.signals.handoff
    return None


class RoundRobin(SpeakerPolicy):
    """Members in turn, with handoffs.

    Args:
        order: the speaking order; names may repeat (a schedule). None: the members' order.
        handoffs: let a message's ``handoff`` signal choose the next speaker.
    """

    def __init__(self, order: Sequence[str] | None = None, *, handoffs: bool = True) -> None:
        self.order = tuple(order) if order is not None else None
        self.handoffs = handoffs

    def _position(self, order: Sequence[str], state: TeamState) -> int:
        """Where in ``order`` the latest speaker stands (-1 before the first turn)."""
        position = -1
        for message in state.journal:
            for step in range(1, len(order) + 1):
                candidate = (position + step) % len(order)
                if order[candidate] == message.sender:
                    position = candidate
                    break
        return position

    async def select(self, state: TeamState) -> str:
        if self.handoffs and (chosen := _handoff(state)):
            return chosen
        order = self.order or state.members
        unknown = [name for name in order if name not in state.members]
        if unknown:
            raise ValueError(f"the speaking order names unknown members: {', '.join(unknown)}")
        return order[(self._position(order, state) + 1) % len(order)]


SelectFunction = Callable[[TeamState], str | Awaitable[str]]


class Selector(SpeakerPolicy):
    """A function or a model chooses the next speaker.

    Args:
        choose: a function of the state returning a member's name (sync or async).
        model: asked to choose when no function is given; it sees the task, the roles and the
            recent messages and answers ``{"speaker": name}`` (or the bare name as text).
        handoffs: honour a message's ``handoff`` signal before asking.
        allow_repeat: let the latest speaker be chosen again.
        fallback: used when the choice is not an allowed member (round robin by default).
    """

    def __init__(
        self,
        choose: SelectFunction | None = None,
        *,
        model: Model | None = None,
        handoffs: bool = True,
        allow_repeat: bool = False,
        fallback: SpeakerPolicy | None = None,
    ) -> None:
        if (choose is None) == (model is None):
            raise ValueError("give a Selector exactly one of choose= or model=")
        self.choose = choose
        self.model = model
        self.handoffs = handoffs
        self.allow_repeat = allow_repeat
        self.fallback = fallback or RoundRobin()

    async def _ask_model(self, model: Model, state: TeamState, allowed: Sequence[str]) -> str:
        roster = "\n".join(f"- {name}: {state.roles[name].value}" for name in allowed)
        recent = "\n".join(f"{m.sender} ({m.role.value}): {m.content}" for m in state.journal[-6:])
        response = await model.request(
            ModelRequest(
                agent="selector",
                system=(
                    "You choose who speaks next in a team of agents working on one task. "
                    "Pick the member whose role moves the task forward. Answer with one name."
                ),
                messages=(
                    ChatMessage(
                        role="user",
                        content=f"Task: {state.task}\nMembers:\n{roster}\nRecent:\n{recent}",
                    ),
                ),
                output_schema={
                    "type": "object",
                    "properties": {"speaker": {"type": "string", "enum": list(allowed)}},
                    "required": ["speaker"],
                    "additionalProperties": False,
                },
                output_name="next_speaker",
            )
        )
        choice = (response.output or {}).get("speaker") or (response.text or "")
        return str(choice).strip()

    async def select(self, state: TeamState) -> str:
        if self.handoffs and (chosen := _handoff(state)):
            return chosen
        last = state.last.sender if state.last else None
        allowed = [m for m in state.members if self.allow_repeat or m != last] or list(
            state.members
        )
        if self.choose is not None:
            outcome = self.choose(state)
            choice = await outcome if inspect.isawaitable(outcome) else outcome
        else:
            assert self.model is not None
            choice = await self._ask_model(self.model, state, allowed)
        if choice in allowed:
            return choice
        return await self.fallback.select(state)

"""A team run's memory: the immutable journal, the scratchpad and the state members see.

The journal only grows: entries are frozen ``TeamMessage`` objects, and nothing can be removed or
rewritten. The scratchpad holds intermediate results (hypotheses, sub-questions, variables); only
the loop writes it, from the ``notes`` of members' replies, and it remembers who wrote each key. A
member receives a ``TeamState``: a frozen snapshot of both plus the run's counters, so it cannot
change the run behind the loop's back.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from harness.team.messages import TeamMessage, TeamRole
from subagents import HistoryEntry

__all__ = ["Journal", "Scratchpad", "TeamState"]


class Journal:
    """The append-only record of a run's messages."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: list[TeamMessage] = []

    def append(self, message: TeamMessage) -> None:
        """Add a message; turns must increase."""
        if self._entries and message.turn <= self._entries[-1].turn:
            raise ValueError(f"turn {message.turn} after turn {self._entries[-1].turn}")
        self._entries.append(message)

    @property
    def entries(self) -> tuple[TeamMessage, ...]:
        return tuple(self._entries)

    def __iter__(self) -> Iterator[TeamMessage]:
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)


class Scratchpad:
    """Shared intermediate results, written by the loop and attributed to their writer."""

    __slots__ = ("_values", "_writers")

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._writers: dict[str, list[tuple[int, str]]] = {}

    def write(self, key: str, value: Any, *, by: str, turn: int) -> None:
        self._values[key] = copy.deepcopy(value)
        self._writers.setdefault(key, []).append((turn, by))

    def read(self, key: str, default: Any = None) -> Any:
        return copy.deepcopy(self._values.get(key, default))

    def writers(self, key: str) -> tuple[tuple[int, str], ...]:
        """``(turn, member)`` of every write to ``key``, oldest first."""
        return tuple(self._writers.get(key, ()))

    def snapshot(self) -> Mapping[str, Any]:
        """A read-only deep copy of the current values."""
        return MappingProxyType(copy.deepcopy(self._values))


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamState:
    """What a member (and a speaker policy, and a stop condition) sees of a run."""

    task: str
    """The task the team works on (the sub-agent's scoped request), normalised."""
    correlation_id: str
    turn: int
    """Turns taken so far."""
    members: tuple[str, ...]
    roles: Mapping[str, TeamRole]
    journal: tuple[TeamMessage, ...] = ()
    scratchpad: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    history: tuple[HistoryEntry, ...] | None = None
    """The parent's conversation, when the team receives it."""
    speaker: str | None = None
    """The member about to speak (set for a member's own turn)."""
    tokens_used: int = 0
    """Sum of the messages' cost estimates (model usage when known)."""
    cost_usd: float | None = None
    """Model cost so far, when the models report a price; None when unknown."""
    elapsed_s: float = 0.0
    consecutive_failures: int = 0
    """Turns in a row that failed or were rejected by a critic or verifier."""

    @property
    def round(self) -> int:
        """Completed rounds: every member has had a turn once per round on average."""
        return self.turn // max(1, len(self.members))

    @property
    def last(self) -> TeamMessage | None:
        return self.journal[-1] if self.journal else None

    def latest(
        self, *, role: TeamRole | str | None = None, sender: str | None = None
    ) -> TeamMessage | None:
        """The most recent message from ``role`` and/or ``sender``."""
        for message in reversed(self.journal):
            if role is not None and message.role != role:
                continue
            if sender is not None and message.sender != sender:
                continue
            return message
        return None

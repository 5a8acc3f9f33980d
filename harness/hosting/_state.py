"""The stored form of a hosted conversation: a window of recent turns plus the hosting bookkeeping.

``Conversation.snapshot()`` holds every message. Stored as is, a conversation's state (and the time
to load and save it) grows with every turn. The hosting core stores instead:

- the snapshot cut to the last ``window`` turns (the parent's own history window is smaller), with
  the message counter, so new ids stay unique;
- under ``"hosting"``: how many turns are in the transcript log (``logged``), the recent activity
  ids already handled (``seen``, so a channel's retry is not applied twice), and, while a turn
  runs, what the turn started from (``pending``), so a retry of a turn whose worker died mid-way
  can undo the partial turn and run it again.

Finished turns go to the store's append-only log (``StateStore.append_log``), one entry per turn.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["INTERRUPTED", "SEEN_LIMIT", "Stored", "activity_key"]

BOOKKEEPING = "hosting"
SEEN_LIMIT = 64
"""How many handled activity ids a conversation remembers (a retry older than that runs again)."""

INTERRUPTED = "interrupted: the turn was not saved to its end (its worker stopped or a save failed)"
"""The error recorded for a turn that did not reach its final save and whose message was not retried."""


def activity_key(activity_id: str | None, text: str) -> str | None:
    """The id a retry is recognised by: the activity id with a digest of its text.

    The text is part of it because some channels (and tests) reuse activity ids.
    """
    if not activity_id:
        return None
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{activity_id}:{digest}"


@dataclass(slots=True, kw_only=True)
class Stored:
    """A stored conversation, split into the conversation's snapshot and the bookkeeping."""

    snapshot: dict[str, Any] | None = None
    """``Conversation.snapshot()`` (possibly cut to a window); None for a new conversation."""
    logged: int = 0
    """Turns already in the transcript log."""
    seen: list[str] = field(default_factory=list)
    """Keys (``activity_key``) of the latest handled activities, oldest first."""
    pending: dict[str, Any] | None = None
    """The turn in progress: its activity key, number and what it started from."""

    @classmethod
    def parse(cls, state: Mapping[str, Any] | None) -> Stored:
        if not state:
            return cls()
        snapshot = {k: v for k, v in state.items() if k != BOOKKEEPING}
        book = state.get(BOOKKEEPING)
        if not isinstance(book, Mapping):
            # Written before the window existed: the snapshot holds the whole transcript.
            return cls(snapshot=snapshot)
        pending = book.get("pending")
        return cls(
            snapshot=snapshot,
            logged=int(book.get("logged", 0)),
            seen=[str(k) for k in book.get("seen", [])][-SEEN_LIMIT:],
            pending=dict(pending) if isinstance(pending, Mapping) else None,
        )

    def pack(self, snapshot: Mapping[str, Any]) -> dict[str, Any]:
        """The value to store: ``snapshot`` with this bookkeeping."""
        book: dict[str, Any] = {"logged": self.logged, "seen": self.seen}
        if self.pending is not None:
            book["pending"] = self.pending
        return {**snapshot, BOOKKEEPING: book}

    def begin(self, key: str | None, snapshot: Mapping[str, Any]) -> None:
        """Remember what the coming turn starts from (to undo it if it is retried)."""
        self.pending = {
            "activity": key,
            "turn": _turn_count(snapshot) + 1,
            "active_agent": snapshot.get("active_agent"),
            "agent_states": copy.deepcopy(snapshot.get("agent_states", {})),
            "dialogues": copy.deepcopy(snapshot.get("dialogues", {})),
            "message_count": snapshot.get("message_count", len(snapshot.get("messages", []))),
        }

    def recover(self, key: str | None) -> dict[str, str]:
        """Deal with a turn whose worker stopped mid-way (``pending`` is set).

        The same message again (a channel's retry): undo the partial turn, to run it again with
        the same message ids. Any other message: keep the partial turn as it is, record it as
        interrupted, and go on.

        Returns:
            For a turn run again, the messages the stopped worker certainly sent already (their
            id and text): every saved bot message of the partial turn but the last, since a
            message is saved only after the one before it was sent. The last may not have gone
            out, so it is sent again.
        """
        pending, snapshot = self.pending, self.snapshot
        self.pending = None
        if pending is None or snapshot is None:
            return {}
        number = int(pending.get("turn", 0))
        messages = snapshot.get("messages", [])
        if key is not None and pending.get("activity") == key:
            partial = [m for m in messages if m.get("turn") == number and m.get("role") == "bot"]
            sent = {str(m["id"]): str(m["text"]) for m in partial[:-1]}
            snapshot["messages"] = [m for m in messages if m.get("turn") != number]
            snapshot["turns"] = [t for t in snapshot.get("turns", []) if t.get("turn") != number]
            snapshot["active_agent"] = pending.get("active_agent")
            snapshot["agent_states"] = pending.get("agent_states", {})
            snapshot["dialogues"] = pending.get("dialogues", {})
            snapshot["message_count"] = pending.get("message_count", len(snapshot["messages"]))
            return sent
        if any(m.get("turn") == number for m in messages) and not any(
            t.get("turn") == number for t in snapshot.get("turns", [])
        ):
            snapshot.setdefault("turns", []).append({"turn": number, "error": INTERRUPTED})
        return {}

    def finish(
        self, key: str | None, snapshot: dict[str, Any], window: int | None
    ) -> dict[int, Any]:
        """Close the turn: remember its activity, cut the snapshot to ``window`` turns.

        Returns:
            The log entries of the turns not logged yet, by turn number (to append before the
            state is saved).
        """
        self.pending = None
        if key is not None:
            self.seen = [*(k for k in self.seen if k != key), key][-SEEN_LIMIT:]
        last = _turn_count(snapshot)
        entries = _log_entries(snapshot, self.logged + 1, last)
        if window is not None:
            first = last - window + 1
            snapshot["messages"] = [m for m in snapshot["messages"] if m["turn"] >= first]
            snapshot["turns"] = [t for t in snapshot["turns"] if t["turn"] >= first]
        self.snapshot = snapshot
        return entries


def _turn_count(snapshot: Mapping[str, Any]) -> int:
    messages = snapshot.get("messages") or []
    return int(messages[-1]["turn"]) if messages else 0


def _log_entries(snapshot: Mapping[str, Any], first: int, last: int) -> dict[int, Any]:
    entries: dict[int, dict[str, Any]] = {
        n: {"turn": n, "messages": []} for n in range(max(first, 1), last + 1)
    }
    for message in snapshot.get("messages", []):
        entry = entries.get(message["turn"])
        if entry is not None:
            entry["messages"].append(message)
    for record in snapshot.get("turns", []):
        entry = entries.get(record["turn"])
        if entry is not None:
            entry.update({k: v for k, v in record.items() if k != "turn"})
    return {n: e for n, e in entries.items() if e["messages"]}

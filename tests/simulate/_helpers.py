"""Build small conversations for the detector tests; read the data an HTML report embeds."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from harness.detect import Finding
from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord

Bot = tuple[str, str] | tuple[str, str, dict[str, Any]]

TRANSCRIPT_KEYS = [
    "file",
    "conversation",
    "turns",
    "messages",
    "errors",
    "warnings",
    "findings",
    "completed",
]
"""The keys of one transcript in the JSON report, in the documented order (docs/simulate.md)."""


def conversation(
    *turns: tuple[str, Sequence[Bot]],
    modes: dict[str, str] | None = None,
    plans: dict[int, Sequence[tuple[str, str]]] | None = None,
    records: Sequence[TurnRecord] = (),
) -> Transcript:
    """Turns of (user text, [(sender, text[, {mode, request}]), ...]).

    Ids: ``t1u`` for the user message of turn 1, ``t1b1``, ``t1b2`` ... for its bot messages.
    ``plans`` maps a turn to its planned (agent, request) pairs.
    """
    messages: list[Message] = []
    for number, (user, bots) in enumerate(turns, start=1):
        messages.append(
            Message(id=f"t{number}u", turn=number, role="user", sender="user", text=user)
        )
        for index, bot in enumerate(bots, start=1):
            extra = bot[2] if len(bot) == 3 else {}  # type: ignore[misc]
            messages.append(
                Message(
                    id=f"t{number}b{index}",
                    turn=number,
                    role="bot",
                    sender=bot[0],
                    text=bot[1],
                    mode=extra.get("mode"),
                    request=extra.get("request"),
                )
            )
    turn_records = list(records)
    for number, plan in (plans or {}).items():
        turn_records.append(
            TurnRecord(turn=number, plan=tuple(PlannedRequest(agent=a, request=r) for a, r in plan))
        )
    return Transcript.from_messages(messages, turns=turn_records, agent_modes=modes)


def duplicates(findings: Sequence[Finding]) -> list[tuple[tuple[str, ...], str | None, str | None]]:
    """(message ids, scope, method) of each duplicate finding."""
    return [(f.message_ids, f.scope, f.method) for f in findings if f.kind == "duplicate"]


def kinds(findings: Sequence[Finding]) -> list[str]:
    return [f.kind for f in findings]


def embedded_data(page: str) -> dict[str, Any]:
    """The JSON an HTML report embeds (its findings, conversations and summary)."""
    match = re.search(
        r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S
    )
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data

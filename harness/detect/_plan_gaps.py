"""How the runtime's plan treated each request the missed-request check found
(:mod:`harness.detect.missed`): the plan entry that covers it, and whether the plan dropped it or
merged it with another, for a missed request's evidence and cause hint."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness.detect.answers import words_of
from harness.detect.transcript import PlannedRequest, Transcript, TurnRecord

if TYPE_CHECKING:
    from harness.detect.missed import DeclaredRequest

__all__ = ["plan_gaps"]


def plan_gaps(
    requests: Sequence[DeclaredRequest], plan: Sequence[PlannedRequest]
) -> dict[int, tuple[str, PlannedRequest | None]]:
    """How the plan treated each request, by index: the plan entry that covers it (the one
    holding most of its content words, at least half of them; of two holding as much, the one
    whose own words are more the request's) and what went wrong, if anything.

    An entry covering two or more requests merged them; a request no entry covers was dropped.
    Requests the plan gave an entry of their own have an empty reason.
    """
    entries = [words_of(p.request) for p in plan]
    owner: dict[int, int] = {}
    for index, request in enumerate(requests):
        words = words_of(request.text)
        if not words:
            continue
        # Of two entries holding as much of the request, the one more of whose own words are the
        # request's covers it: "did I get my day off" is covered by its own entry, not by "how
        # many vacation days are left" before it, which holds "day" as well.
        best, share = -1, (0.0, 0.0)
        for e, entry in enumerate(entries):
            shared = len(words & entry)
            key = (shared / len(words), shared / len(entry) if entry else 0.0)
            if key > share:
                best, share = e, key
        if share[0] >= 0.5:
            owner[index] = best
    gaps: dict[int, tuple[str, PlannedRequest | None]] = {}
    for index, request in enumerate(requests):
        if not words_of(request.text):
            continue
        if index not in owner:
            gaps[index] = ("the plan has no entry for it", None)
            continue
        planned = plan[owner[index]]
        shared = sum(1 for e in owner.values() if e == owner[index])
        reason = (
            f"the plan merged it with {shared - 1} other request(s) into "
            f"{_quote(planned.request)} for {planned.agent}"
            if shared > 1
            else ""
        )
        gaps[index] = (reason, planned)
    return gaps


def _plan_detail(
    transcript: Transcript, record: TurnRecord, gap: tuple[str, PlannedRequest | None] | None
) -> str:
    """What the plan adds to a missed request: dropped, merged, its agent failed or claimed it."""
    if gap is None:
        return ""
    reason, entry = gap
    if entry is None:
        return reason
    agent = entry.agent
    said = any(m.sender == agent for m in transcript.bot_messages(record.turn))
    details = [reason] if reason else [f"planned for {agent}"]
    if agent in record.failed:
        details.append(f"{agent} failed")
    elif (
        record.answered_request(entry)
        and not said
        and transcript.agent_modes.get(agent) in ("direct", "conversational")
    ):
        details.append(f"{agent} said answered but sent no message")
    return "; ".join(details)


def _plan_cause(gap: tuple[str, PlannedRequest | None] | None) -> str | None:
    """The cause hint a plan gives a missed request: the planner dropped it or merged it."""
    if gap is None:
        return None
    reason, entry = gap
    if entry is None:
        return "the planner dropped it, so no agent was asked"
    if reason:
        return (
            f"the planner merged it into one plan entry with another request, so {entry.agent} "
            "was given several requests as one and answered only part"
        )
    return None


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'

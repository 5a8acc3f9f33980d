"""Bot Framework activities received from a deployed bot, turned into transcript messages.

Shared by the Direct Line and Copilot Studio targets and by the transcript readers (what a message
says, cards included: :func:`activity_text`). Who sent a message: ``channelData.sender``
(this SDK's bots set it), else ``from.name``, else ``unknown``. The detectors do not rely on the
sender for duplicates, so a channel that names every message the same (``offline-directline``
calls every reply "Bot") still gets its duplicates found.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from harness.detect.transcript import (
    Message,
    PlannedRequest,
    TurnRecord,
    planned_from,
    tool_calls_from_json,
)
from harness.text.claims import CLAIM_BUDGET
from instructions.contract import MODES

__all__ = [
    "UNKNOWN_SENDER",
    "TraceAttribution",
    "activity_message",
    "activity_text",
    "activity_timestamp",
    "error_detail",
    "parse_timestamp",
    "plan_record",
    "reply_id",
    "user_message",
]

PLAN_EVENT = "harness.plan"
"""The event a bot served by ``harness serve`` sends with a turn's plan, when asked for it."""
PLAN_REQUEST = {"harness": {"plan": True}}
"""The ``channelData`` of a user activity that asks a ``harness serve`` bot for the turn's plan."""

UNKNOWN_SENDER = "unknown"

_MODES = MODES


def parse_timestamp(raw: Any) -> datetime | None:
    """An ISO 8601 timestamp as Bot Framework and Dataverse write it, or None when it is not one.

    Accepts a trailing ``Z`` and the 7 fractional digits .NET writes (datetime takes at most 6).
    """
    if not isinstance(raw, str):
        return None
    value = raw.strip()
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    if "." in value:
        head, _, tail = value.partition(".")
        digits = len(tail) - len(tail.lstrip("0123456789"))
        value = head + "." + tail[: min(digits, 6)] + tail[digits:]
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def activity_timestamp(activity: Mapping[str, Any]) -> datetime:
    """The activity's ISO 8601 ``timestamp``, or now (UTC) when it has none or it does not parse."""
    return parse_timestamp(activity.get("timestamp")) or datetime.now(UTC)


def reply_id(activity: Mapping[str, Any]) -> str | None:
    """The bot's stable id for a reply (``channelData.replyId``: conversation, turn, index), or
    None. A hosted harness bot that runs a turn again after a crash sends its replies with the
    ids they had, so a channel drops an id it has seen."""
    data = activity.get("channelData")
    value = data.get("replyId") if isinstance(data, Mapping) else None
    return value if isinstance(value, str) and value else None


def user_message(conversation: str, turn: int, text: str) -> Message:
    """The user message of ``turn`` as sent to a deployed bot now (id ``<conversation>-u<turn>``)."""
    return Message(
        id=f"{conversation}-u{turn}",
        turn=turn,
        role="user",
        sender="user",
        text=text,
        timestamp=datetime.now(UTC),
    )


def activity_message(
    activity: Mapping[str, Any],
    *,
    turn: int,
    message_id: str,
    sender: str | None = None,
) -> Message | None:
    """The bot message an activity carries, or None for anything but a ``message`` with text
    (its ``text`` or its cards': :func:`activity_text`).

    Args:
        activity: the activity as received.
        turn: the user turn it answers.
        message_id: its id in the transcript (unique in the conversation).
        sender: overrides the sender read from the activity (an attribution from traces).
    """
    if activity.get("type") != "message":
        return None
    text = activity_text(activity)
    if not text.strip():
        return None
    data = activity.get("channelData")
    data = data if isinstance(data, Mapping) else {}
    account = activity.get("from")
    account = account if isinstance(account, Mapping) else {}
    named = data.get("sender") if isinstance(data.get("sender"), str) else None
    mode = data.get("mode")
    request = data.get("request")
    return Message(
        id=message_id,
        turn=turn,
        role="bot",
        sender=str(named or sender or account.get("name") or UNKNOWN_SENDER),
        text=text,
        mode=mode if mode in _MODES else None,
        request=request if isinstance(request, str) else None,
        timestamp=activity_timestamp(activity),
    )


_ADAPTIVE_CARD = "application/vnd.microsoft.card.adaptive"
_CARD = "application/vnd.microsoft.card."
_CARD_PARTS = ("title", "subtitle", "text")
"""What a Hero, Thumbnail (or another Bot Framework) card shows, in this order."""
_NESTED = ("body", "items", "columns", "rows", "cells")
"""Where an Adaptive Card's elements hold others: a card's body, a Container's, Column's or table
cell's items, a ColumnSet's columns, a Table's rows, a row's cells."""


def activity_text(activity: Mapping[str, Any]) -> str:
    """What a message activity says: its ``text``, then what its cards show, one piece a line.

    Copilot Studio topics and many Bot Framework bots answer with a card and no ``text``. An
    Adaptive Card gives its ``TextBlock`` texts, its ``RichTextBlock`` runs (joined) and its
    ``FactSet`` facts as ``title: value``, in the order they appear (inside containers, columns
    and tables too); a Hero or Thumbnail card (or another Bot Framework card) its title, subtitle
    and text. A piece that repeats one read already (a card that restates the ``text``) is left
    out. A card's ``content`` may also be its JSON as a string (as some channels and serialisers
    send it). Empty when the activity has neither text nor a card with text.
    """
    text = activity.get("text")
    pieces = [text] if isinstance(text, str) and text.strip() else []
    attachments = activity.get("attachments")
    for attachment in attachments if isinstance(attachments, list) else ():
        if not isinstance(attachment, Mapping):
            continue
        kind = attachment.get("contentType")
        content = _card_content(attachment.get("content"))
        if not isinstance(kind, str) or not isinstance(content, Mapping):
            continue
        if kind == _ADAPTIVE_CARD:
            found: list[str] = []
            _adaptive_pieces(content, found)
        elif kind.startswith(_CARD):
            found = [content[k] for k in _CARD_PARTS if isinstance(content.get(k), str)]
        else:
            continue
        seen = {p.strip() for p in pieces}
        for piece in found:
            if piece.strip() and piece.strip() not in seen:
                seen.add(piece.strip())
                pieces.append(piece)
    return "\n".join(pieces)


def _card_content(content: object) -> object:
    """An attachment's ``content``; a string holding a JSON object (a card sent serialised) is
    read as that object, any other string is left as it is (not a card)."""
    if isinstance(content, str) and content.lstrip().startswith("{"):
        try:
            return json.loads(content)
        except (ValueError, RecursionError):
            return content
    return content


def _adaptive_pieces(element: Mapping[str, Any], out: list[str]) -> None:
    """The texts of an Adaptive Card element and the elements inside it, in order."""
    kind = element.get("type")
    if kind == "TextBlock" and isinstance(element.get("text"), str):
        out.append(element["text"])
    elif kind == "RichTextBlock":
        runs = element.get("inlines")
        out.append(
            "".join(
                run if isinstance(run, str) else str(run.get("text") or "")
                for run in (runs if isinstance(runs, list) else ())
                if isinstance(run, str | Mapping)
            )
        )
    elif kind == "FactSet":
        facts = element.get("facts")
        for fact in facts if isinstance(facts, list) else ():
            if isinstance(fact, Mapping):
                title, value = fact.get("title"), fact.get("value")
                title = title.strip() if isinstance(title, str) else ""
                value = value.strip() if isinstance(value, str) else ""
                out.append(f"{title}: {value}" if title and value else title or value)
    for key in _NESTED:
        children = element.get(key)
        for child in children if isinstance(children, list) else ():
            if isinstance(child, Mapping):
                _adaptive_pieces(child, out)


def error_detail(body: str) -> tuple[str | None, str]:
    """The ``error.code`` and a short message from a Bot Framework error body (any text works)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return None, " ".join(body.split())[:300]
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(error, dict):
        code = error.get("code")
        message = error.get("message")
        return (
            code if isinstance(code, str) else None,
            str(message)[:300] if message else (code if isinstance(code, str) else ""),
        )
    return None, " ".join(body.split())[:300]


class TraceAttribution:
    """Names the child or connected agent a Copilot Studio message came from, from the plan events
    the orchestrator emits around each step, where present.

    Generative orchestration sends ``event`` activities named (and ``valueType``)
    ``DynamicPlanStepTriggered`` and ``DynamicPlanStepFinished``, whose ``value.taskDialogId`` is
    the schema name of the step's component (``cr123_hr.agent.Payroll`` for a child agent,
    ``cr123_hr.InvokeConnectedAgentTaskAction.Payroll`` for a connected one) and whose
    ``value.type`` is ``Agent`` for agents. A message sent while such a step is open is that
    agent's; any other message is the parent's. These names are taken from public transcripts and
    community tools, not from a documented contract, so without them attribution is text only
    (every message the parent's).
    """

    _STARTED = "DynamicPlanStepTriggered"
    _FINISHED = "DynamicPlanStepFinished"
    _AGENT_MARKERS = (".agent.", "InvokeConnectedAgentTaskAction", "connected-agent", "AgentDialog")

    def __init__(self) -> None:
        self._open: list[tuple[str, str]] = []  # (step id, agent name), innermost last

    @property
    def sender(self) -> str | None:
        """The agent whose step is open now, or None (the parent)."""
        return self._open[-1][1] if self._open else None

    def observe(self, activity: Mapping[str, Any]) -> None:
        """Follow the plan events (every other activity is ignored)."""
        if activity.get("type") not in ("event", "trace"):
            return
        name = activity.get("name") or activity.get("valueType")
        value = activity.get("value")
        if name not in (self._STARTED, self._FINISHED) or not isinstance(value, Mapping):
            return
        dialog = value.get("taskDialogId")
        if not isinstance(dialog, str) or not dialog:
            return
        step = str(value.get("stepId") or dialog)
        if name == self._FINISHED:
            self._open = [(s, n) for s, n in self._open if s != step]
            return
        if value.get("type") == "Agent" or any(m in dialog for m in self._AGENT_MARKERS):
            self._open.append((step, dialog.rsplit(".", 1)[-1]))


def _answers(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The well-formed answers of a plan event's entry, as ``answers_json`` writes them (``{}``
    when there are none): ``planned_from`` reads them without checking. An answer with an empty
    value is dropped, and at most the last ``CLAIM_BUDGET`` are kept (the planner's limits)."""
    raw = entry.get("answers")
    kept = [
        {"question": answer.get("question"), "value": answer["value"]}
        for answer in (raw if isinstance(raw, list) else [])
        if isinstance(answer, Mapping)
        and isinstance(answer.get("value"), str)
        and answer["value"].strip()
        and isinstance(answer.get("question"), str | None)
    ]
    return {"answers": kept[-CLAIM_BUDGET:]} if kept else {}


def plan_record(activity: Mapping[str, Any], turn: int) -> TurnRecord | None:
    """The plan of ``turn`` from a ``harness.plan`` event (see ``harness serve``), else None.

    Its ``value`` is ``{"plan": [{"request", "agent", "answers"?}], "answered_by": [...],
    "requests_answered": [{"request", "agent", "answers"?}], "failed": [...]}``, each entry in
    the plan-entry JSON form (``planned_json``: ``answers`` is ``[{"question", "value"}]``, the
    user's answers to what the agent asked about the request). What is malformed is skipped, so
    a malformed event gives an empty plan, never an error: an entry whose request or agent is not
    a string, an answer whose value is not a string or is empty (or whose question is neither a
    string nor null); the entry of a skipped answer is kept, with its other answers (at most the
    last ``CLAIM_BUDGET`` of them, as the planner keeps).
    """
    if activity.get("type") != "event" or activity.get("name") != PLAN_EVENT:
        return None
    value = activity.get("value")
    value = value if isinstance(value, Mapping) else {}

    def entries(key: str) -> tuple[PlannedRequest, ...]:
        raw = value.get(key)
        return tuple(
            planned_from({"request": entry["request"], "agent": entry["agent"], **_answers(entry)})
            for entry in (raw if isinstance(raw, list) else [])
            if isinstance(entry, Mapping)
            and isinstance(entry.get("request"), str)
            and isinstance(entry.get("agent"), str)
        )

    def names(key: str) -> tuple[str, ...]:
        found = value.get(key)
        return tuple(n for n in (found if isinstance(found, list) else []) if isinstance(n, str))

    return TurnRecord(
        turn=turn,
        plan=entries("plan"),
        answered_by=names("answered_by"),
        answered=entries("requests_answered"),
        failed=names("failed"),
        tool_calls=tool_calls_from_json(value.get("tool_calls")),
    )

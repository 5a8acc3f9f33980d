"""A deterministic stand-in for an LLM behind the fake OpenAI server, for the helpdesk sample.

It reads only what a real model would get over the wire (the messages, the tools, the response
format) and answers like a well-behaved model: the plan splits the message and routes each part by
keywords, a sub-agent calls its matching tool, a direct agent sends one message with the result
and reports ``answered``, a silent one returns ``findings``, and the parent's reply relays only
what the user has not seen. Who is calling is told by the structured output's name, because
sub-agents run concurrently and their requests arrive in any order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.models.fake_openai import caller_of, message, schema_of, tool_call

__all__ = ["helpdesk_brain"]

PARENT = "helpdesk"
SEND = "send_message_to_user"

AGENT_WORDS: Sequence[tuple[str, tuple[str, ...]]] = (
    ("direct_deposit", ("direct deposit", "bank account")),
    ("password", ("password", "locked")),
    ("pto", ("vacation", "pto", "days off", "time off")),
    ("payroll", ("paycheck", "payday", "w-2", "w2", "salary", "gross pay")),
)
TOOL_WORDS: Mapping[str, tuple[str, ...]] = {
    "pto_balance": ("remaining", "left", "balance"),
    "pto_used": ("used", "taken", "utilized"),
    "pto_request": ("request", "book"),
    "next_payday": ("paycheck", "payday", "pay date"),
    "w2_location": ("w-2", "w2", "tax form"),
    "gross_pay": ("salary", "gross"),
    "reset_password": ("password", "locked", "unlock"),
}
_SPLIT = re.compile(r",?\s+and\s+(?:also\s+)?|[.?!]\s+(?:also,?\s+)?|;\s*", re.IGNORECASE)


def _route(clause: str) -> str:
    low = clause.lower()
    for agent, words in AGENT_WORDS:
        if any(word in low for word in words):
            return agent
    return PARENT


def _plan(body: Mapping[str, Any]) -> dict[str, Any]:
    text = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    plan: list[dict[str, str]] = []
    for clause in (c.strip() for c in _SPLIT.split(text)):
        if not clause:
            continue
        agent = _route(clause)
        if plan and plan[-1]["agent"] == agent:
            plan[-1]["request"] += f" and {clause}"
        else:
            plan.append({"request": clause, "agent": agent})
    return message({"requests": plan})


def _reply(body: Mapping[str, Any]) -> dict[str, Any]:
    system = body["messages"][0]["content"]
    honours_answered = "`answered`" in system
    last = body["messages"][-1]["content"]
    payload = json.loads(last.split("\n", 1)[1])
    parts: list[str] = []
    for own in payload.get("handledByYou", []):
        parts.append(
            f'I can\'t help with "{own.rstrip("?.!")}" here; please contact the service desk.'
        )
    for result in payload["results"]:
        if result["status"] in ("failed", "timed_out"):
            parts.append(
                f'Sorry, I could not finish "{result["scopedRequest"]}". Please try again.'
            )
        elif result["mode"] == "silent" and result.get("findings"):
            parts.append(result["findings"])
        elif result["answered"] and not honours_answered and result.get("interactionSummary"):
            parts.append(f"To sum up: {result['interactionSummary']}")
    return message({"message": " ".join(parts), "route": []})


def _tool_text(content: str) -> tuple[str, bool, list[str]]:
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return content, True, []
    if isinstance(data, dict) and "text" in data:
        return str(data["text"]), bool(data.get("done", True)), list(data.get("openQuestions", []))
    return content, True, []


def _scoped(item: Mapping[str, Any]) -> str | None:
    """The scoped request of the sub-agent's input message (not of a repair message)."""
    if item["role"] != "user":
        return None
    try:
        data = json.loads(item["content"])
    except json.JSONDecodeError:
        return None
    return data.get("scopedRequest") if isinstance(data, dict) else None


def _act(body: Mapping[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    messages = body["messages"]
    start = max(i for i, m in enumerate(messages) if _scoped(m) is not None)
    scoped = _scoped(messages[start])
    tools = [t["function"] for t in body.get("tools", [])]
    names = [t["name"] for t in tools if t["name"] != SEND]
    can_send = any(t["name"] == SEND for t in tools)
    after = messages[start + 1 :]
    results = [m for m in after if m["role"] == "tool"]
    sent = [
        json.loads(c["function"]["arguments"])["text"]
        for m in after
        if m["role"] == "assistant"
        for c in m.get("tool_calls", [])
        if c["function"]["name"] == SEND
    ]
    if not results:
        low = scoped.lower()
        chosen = [n for n in names if any(w in low for w in TOOL_WORDS.get(n, ()))]
        if not chosen and len(names) == 1:
            chosen = names
        if chosen:
            calls = []
            for name in chosen:
                spec = next(t for t in tools if t["name"] == name)
                required = spec.get("parameters", {}).get("required", [])
                calls.append(tool_call(name, {param: scoped for param in required}))
            return message(tool_calls=calls)
    texts: list[str] = []
    done = True
    open_questions: list[str] = []
    for result in results:
        if result["content"] == "sent":
            continue
        text, item_done, item_open = _tool_text(result["content"])
        texts.append(text)
        done = done and item_done
        open_questions += item_open
    answer = " ".join(texts)
    if not texts:
        open_questions.append(scoped)
    if can_send and answer and not sent:
        return message(tool_calls=[tool_call(SEND, {"text": answer})])
    outputs: dict[str, Any] = {}
    for name in schema["required"]:
        if name == "answered":
            outputs[name] = bool(sent) and done
        elif name == "openQuestions":
            outputs[name] = open_questions
        elif name == "scopedRequest":
            outputs[name] = scoped
        elif name == "answeredRequests":  # a call carrying several numbered requests
            outputs[name] = [
                {"request": r, "answered": bool(sent) and done, "findings": "" if sent else answer}
                for r in re.split(r";\s*\(\d+\)\s*", re.sub(r"^\(1\)\s*", "", scoped))
            ]
        else:  # interactionSummary, findings
            outputs[name] = answer
    return message(outputs)


def helpdesk_brain(body: dict[str, Any]) -> dict[str, Any]:
    """Answer one chat-completions request body for the helpdesk sample."""
    caller = caller_of(body)
    if caller == "plan":
        return _plan(body)
    if caller == "reply":
        return _reply(body)
    schema = schema_of(body)
    assert schema is not None, "the helpdesk brain answers json_schema and json_object requests"
    return _act(body, schema)

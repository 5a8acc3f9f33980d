"""The LLM planner: one structured-output request to any ``Model``.

The request is an ordinary one (a system prompt, the recent conversation and the user's message,
an output schema): the model needs no notion of "planning" to answer it.

Like the offline planner, it works within ``harness.text.ANALYSIS_BUDGET``: the model is sent at
most that many characters of the message and of each recent message (their start, cut at a
space), and at most ``CLAIM_BUDGET`` planned requests of at most that many characters each are
read from its answer. One huge message (or answer) costs one budget's worth, not its size.

When sub-agents wait for the user's answer to a question (``PlanInput.awaiting``), the system
prompt lists the waiting requests, numbered, and each planned entry gets two more fields:
``waiting``, the number of the waiting request the entry answers, and ``value``, the value the
user gave. Such an entry is planned as the waiting request, for the agent
that asked, with the value as a ``PlanEntry.answers`` item (docs/contract.md, "The user's answer to
an agent's question"). A mark is ignored (the entry is planned as the model gave it) when its
number names no waiting request, its value is empty or not in the user's message (neither the
text, whatever its case and white space, nor its facts), or the entry is for another sub-agent
than the one that asked. When nothing waits, the request is what it always was.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from harness.exceptions import ModelBehaviorError
from harness.models.base import ChatMessage, Model, ModelRequest
from harness.planning.base import Plan, PlanEntry, PlanInput, Planner, WaitingRequest
from harness.text.claims import CLAIM_BUDGET, analysed_part, message_facts
from subagents import UserAnswer

__all__ = ["PLAN_SCHEMA", "LLMPlanner", "plan_request", "plan_schema"]

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "requests": {
            "type": "array",
            "description": "One entry per distinct request in the user's message, in order.",
            "items": {
                "type": "object",
                "properties": {
                    "request": {
                        "type": "string",
                        "description": "The scoped request, self-contained.",
                    },
                    "agent": {
                        "type": "string",
                        "description": "The sub-agent's name, or the parent's.",
                    },
                },
                "required": ["request", "agent"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["requests"],
    "additionalProperties": False,
}
"""The JSON schema of a plan, with ``agent`` free (``plan_schema`` limits it to the bot's names)."""


_ANSWER_FIELDS: dict[str, Any] = {
    "waiting": {
        "type": ["integer", "null"],
        "description": (
            "When this entry only gives the value a waiting request's question asks for: the "
            "number of that waiting request. Otherwise null."
        ),
    },
    "value": {
        "type": ["string", "null"],
        "description": (
            "With `waiting`: the value the user gave, without the words around it. Otherwise null."
        ),
    },
}
"""The fields each planned entry gets while sub-agents wait for the user's answer (required and
nullable, as strict structured outputs want them)."""


def plan_schema(names: tuple[str, ...], *, answering: bool = False) -> Mapping[str, Any]:
    """``PLAN_SCHEMA`` with ``agent`` limited to ``names`` (the sub-agents', then the parent's).

    A server that enforces schemas then cannot produce an unknown agent. With ``answering``
    (sub-agents wait for the user's answer), each entry also has the answer fields ``waiting``
    and ``value``. Cached per bot: the same (read-only) schema object serves every turn.
    """
    return _plan_schema(names, answering)


@functools.lru_cache(maxsize=64)
def _plan_schema(names: tuple[str, ...], answering: bool) -> Mapping[str, Any]:
    schema: dict[str, Any] = json.loads(json.dumps(PLAN_SCHEMA))
    item = schema["properties"]["requests"]["items"]
    item["properties"]["agent"]["enum"] = list(dict.fromkeys(names))
    if answering:
        item["properties"].update(json.loads(json.dumps(_ANSWER_FIELDS)))
        item["required"] = [*item["required"], *_ANSWER_FIELDS]
    return schema


_NAME_BUDGET = 200
"""The most characters of an agent name read from the model's answer (names are short; an
unknown one goes to the parent)."""


def _floor_note(active: str) -> str:
    return (
        f"\n\nRight now the conversational sub-agent `{active}` is in a dialogue with the "
        "user and holds the floor. Still split the user's message into its requests: "
        f"give `{active}` the part that answers or continues its dialogue (as its scoped "
        "request), and route every other request as usual, each to its own agent.\n"
    )


def _waiting_note(waiting: Sequence[WaitingRequest]) -> str:
    listed = "\n".join(
        f"{number}. `{asked.agent}` asked "
        f"{_quoted(asked.question) if asked.question else 'the user for a value'} about the "
        f"request {_quoted(asked.request)}"
        for number, asked in enumerate(waiting, 1)
    )
    return (
        "\n\nSub-agents asked the user for a value they need, and wait for the answer:\n"
        f"{listed}\n"
        "When the user's message, or a part of it, only gives such a value (an amount, a date, "
        "a name, a number), plan that part as one entry for the agent that asked, with "
        "`waiting` set to the number of its waiting request and `value` set to the value alone "
        '("£20" of "yes, £20 please"). Give every other entry null for both.\n'
    )


def _quoted(text: str) -> str:
    return json.dumps(analysed_part(text), ensure_ascii=False)


def plan_request(given: PlanInput) -> ModelRequest:
    """The model request that asks for a plan of ``given`` (output name ``plan``)."""
    system = given.system
    if given.active_agent is not None:
        system += _floor_note(given.active_agent)
    if given.awaiting:
        system += _waiting_note(given.awaiting)
    recent = tuple(
        replace(m, content=analysed_part(m.content)) if m.content else m for m in given.recent
    )
    return ModelRequest(
        agent=given.parent,
        system=system,
        messages=(*recent, ChatMessage(role="user", content=analysed_part(given.message))),
        output_schema=plan_schema(
            (*(card.name for card in given.agents), given.parent), answering=bool(given.awaiting)
        ),
        output_name="plan",
    )


class LLMPlanner(Planner):
    """Plans with one structured-output request to ``model``.

    Args:
        model: any model; its answer must match ``PLAN_SCHEMA``.
    """

    def __init__(self, model: Model) -> None:
        self.model = model

    async def plan(self, given: PlanInput) -> Plan:
        response = await self.model.request(plan_request(given))
        output = response.output
        entries = output.get("requests") if isinstance(output, Mapping) else None
        if not isinstance(entries, list):
            raise ModelBehaviorError("the plan has no list of requests", agent=given.parent)
        if not entries:
            raise ModelBehaviorError("the plan's list of requests is empty", agent=given.parent)
        entries = entries[:CLAIM_BUDGET]
        if not all(isinstance(entry, Mapping) for entry in entries):
            raise ModelBehaviorError(
                "each planned request must be an object with 'request' and 'agent'",
                agent=given.parent,
            )
        message = analysed_part(given.message)
        answered: set[int] = set()
        planned: list[PlanEntry] = []
        for entry in entries:
            answer = (
                _answer(entry, given.awaiting, answered, parent=given.parent, message=message)
                if given.awaiting
                else None
            )
            planned.append(
                answer
                or PlanEntry(
                    request=analysed_part(str(entry.get("request") or message)),
                    agent=str(entry.get("agent", given.parent))[:_NAME_BUDGET],
                )
            )
        return Plan(entries=tuple(planned), usage=response.usage)


def _answer(
    entry: Mapping[str, Any],
    waiting: Sequence[WaitingRequest],
    answered: set[int],
    *,
    parent: str,
    message: str,
) -> PlanEntry | None:
    """The waiting request ``entry`` marks as answered, for the agent that asked, with the value
    after any earlier answers (the last ``CLAIM_BUDGET``); None when it marks none (or one
    already answered in this plan), gives no value, gives a value ``message`` does not hold, or is
    for another sub-agent than the one that asked: the entry is then planned as given."""
    number = entry.get("waiting")
    if isinstance(number, str) and number.strip().isdigit():
        number = int(number)
    value = entry.get("value")
    if (
        not isinstance(number, int)
        or isinstance(number, bool)
        or not 1 <= number <= len(waiting)
        or number in answered
        or not isinstance(value, str)
        or not value.strip()
    ):
        return None
    asked = waiting[number - 1]
    value = analysed_part(value.strip())
    if entry.get("agent") not in (asked.agent, parent) or not _said(value, message):
        return None
    answered.add(number)
    given = UserAnswer(request=asked.request, question=asked.question, value=value)
    answers = (*asked.answers, given)[-CLAIM_BUDGET:]
    return PlanEntry(request=asked.request, agent=asked.agent, answers=answers)


def _said(value: str, message: str) -> bool:
    """Whether the user's ``message`` gives ``value``: it holds the value (whatever the case and
    the white space), or states every fact of it ("12 May" of "the 12th of May")."""
    if "".join(value.split()).casefold() in "".join(message.split()).casefold():
        return True
    facts = message_facts(value)
    return bool(facts) and facts <= message_facts(message)

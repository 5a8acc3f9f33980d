"""A reply that only gives the value an agent asked for ("£20", "ABC123", "the 14th", "My ID is
GM4471"), and the waiting request it completes.

When a sub-agent asked the user for a value it needs (the runtime keeps the request it asked
about and what it asked: ``PlanInput.awaiting``), the user's next message usually gives the value
alone. Planned on its own it finds no agent ("I can't help with "£20" here"); read as the answer
(``harness.models._answer.given_value``), it plans the request it completes again, for the same
agent, with the value beside it (``PlanEntry.answers``: data, never text in the request), so the
agent makes the change with it. A message that says anything else (a question, a new
request, a statement: "I topped up £20 yesterday", a word that names what a tool of the bot reads:
"hours") is no such answer and is planned as usual. When two or more requests wait, the value goes
to the one whose question it fits (an amount to "What amount?", a level to "Which level?"); if it
fits several or none, the message is planned as usual.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.models._answer import given_value
from harness.models._text import content_tokens
from harness.models.base import AgentCard
from harness.planning.base import PlanEntry, WaitingRequest
from harness.text import extract_facts
from harness.text.facts import DATE_WORDS
from subagents import UserAnswer

__all__ = ["answer_entry"]

# What kind of value a question asks for, by its words (closed classes; an agent's own wording,
# not only the offline model's).
_ASKS_MONEY = re.compile(r"\b(amount|how much|price|cost|sum|fee)\b", re.IGNORECASE)
_ASKS_COUNT = re.compile(r"\bhow many\b|\bnumber of\b", re.IGNORECASE)
_ASKS_DATE = re.compile(r"\b(date|dates|day|when)\b", re.IGNORECASE)
_ASKS_TIME = re.compile(r"\b(time|what time)\b", re.IGNORECASE)
_ASKS_ID = re.compile(r"\b(number|no|id|reference|ref|code)\b(?!\s+of)", re.IGNORECASE)
_ORDINAL = re.compile(r"\b(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b", re.IGNORECASE)
_CURRENCY_WORDS = re.compile(r"\b(quid|pounds?|dollars?|euros?|bucks)\b", re.IGNORECASE)


def answer_entry(
    message: str, waiting: Sequence[WaitingRequest], agents: Sequence[AgentCard]
) -> PlanEntry | None:
    """The waiting request ``message`` completes, for the agent that asked, with the value it
    gives as an answer (after any earlier ones); None when the message is no answer (it is
    planned as usual)."""
    if not waiting:
        return None
    framing = {w for asked in waiting for w in f"{asked.request} {asked.question}".split()}
    value = given_value(message, framing=framing)
    if value is None or _names_tool_subject(value, agents):
        return None
    if len(waiting) == 1:
        asked = waiting[0]
    else:
        fitting = [w for w in waiting if fits(value, w.question)]
        if len(fitting) != 1:
            return None
        asked = fitting[0]
    answer = UserAnswer(request=asked.request, question=asked.question, value=value)
    return PlanEntry(request=asked.request, agent=asked.agent, answers=(*asked.answers, answer))


def _names_tool_subject(value: str, agents: Sequence[AgentCard]) -> bool:
    """Whether ``value`` is one lower-case word that names what a tool of the bot reads or
    returns ("hours" of ``gym_hours``, "prices" of ``rental_prices``): a new request, no value."""
    if len(value.split()) != 1 or not value.isalpha() or not value.islower():
        return False
    said = set(content_tokens(value))
    return bool(said) and any(
        said <= set(content_tokens(tool.replace("_", " ")))
        for card in agents
        for tool in card.tools
    )


def fits(value: str, question: str) -> bool:
    """Whether ``value`` is of a kind ``question`` asks for: an amount of money or a bare number
    for "What amount ...?", a count for "How many ...?", a date or day for "Which date ...?", a
    time, an identifier or a number for "What is your member number?", a word for any other
    question ("Which level ...?", "What is your pet's name?")."""
    kinds = {fact.kind for fact in extract_facts(value)}
    words = {w.lower().strip(",.") for w in value.split()}
    numeric = bool(kinds & {"number", "money"}) or any(c.isdigit() for c in value)
    if _ORDINAL.search(value) or words & DATE_WORDS:
        kinds.add("date")
    asked: list[bool] = []
    if _ASKS_MONEY.search(question):
        asked.append(bool(kinds & {"money"}) or (kinds <= {"number"} and numeric))
        if _CURRENCY_WORDS.search(value):
            asked[-1] = True
    if _ASKS_COUNT.search(question):
        asked.append(bool(kinds & {"number", "duration"}) and "money" not in kinds)
    elif _ASKS_ID.search(question):
        asked.append("id" in kinds or kinds == {"number"})
    if _ASKS_DATE.search(question):
        asked.append(bool(kinds & {"date", "weekday", "month"}))
    if _ASKS_TIME.search(question):
        asked.append("time" in kinds)
    if not asked:
        # A question for a word: a level, a plan, a name.
        return not numeric and not kinds
    return any(asked)

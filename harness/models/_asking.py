"""What the offline model asks the user when a change lacks a value: one question per value.

A required argument the request does not give (``_arguments.lacks``) is never guessed. The
offline model does not make that call; it asks for the value instead, in words a reader of the
tool's signature would use: the argument's name read as words, the kind of value its type asks
(a count, an amount, a date, a time, an identifier, a description) and, when the tool says them,
the values it takes (a ``Literal`` type's choices, or the examples its docstring gives: "an
animal, e.g. penguins or otters").

Each question speaks to the user ("Which animal do you mean?", "How many adults do you want?"),
so a composer can tell it from a request handed back (``harness.composing``: it is asked, not
routed nor refused).

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness.text.words import stem

__all__ = ["choices", "examples", "question_for"]

_ID_WORDS = {
    "id": "number",
    "no": "number",
    "number": "number",
    "num": "number",
    "code": "code",
    "ref": "reference",
    "reference": "reference",
}
_DATE_WORDS = frozenset({"date", "day", "dates", "days", "when", "month"})
_TIME_WORDS = frozenset({"time", "hour", "slot"})
_AMOUNT_WORDS = frozenset({"amount", "sum", "total", "price", "cost", "value", "budget"})
_DESCRIBING = frozenset(
    {"problem", "issue", "reason", "description", "detail", "details", "note", "comment"}
    | {"fault", "complaint", "symptom", "summary", "feedback", "message", "instruction"}
)
# Where a docstring starts giving examples of a value: "an animal (penguins, otters)", "the
# animal, e.g. penguins", "a colour such as red or blue".
_EXAMPLES = re.compile(
    r"(?P<lead>[A-Za-z][\w' -]{0,60}?)\s*"
    r"(?:\(\s*(?:e\.g\.?|eg|for example|such as|like)?,?\s*(?P<paren>[^()]+)\)"
    r"|,?\s*(?:e\.g\.?|eg|for example|for instance|such as|like|including)[,:]?\s+"
    r"(?P<list>[^().;:]+))",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"\s*(?:,|/|\bor\b|\band\b|\betc\b\.?)\s*", re.IGNORECASE)


def _label(name: str) -> tuple[str, str]:
    """The argument's name read as words, and what kind of word ends it ("order_id" → "order
    number", "number")."""
    words = [w for w in name.lower().split("_") if w]
    if len(words) > 1 and words[-1] in _ID_WORDS:
        return " ".join([*words[:-1], _ID_WORDS[words[-1]]]), "id"
    return " ".join(words) or name, words[-1] if words else name


def choices(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """The values a ``Literal`` (JSON schema ``enum``) argument takes, as text; () for others."""
    found = schema.get("enum")
    if found is None:
        for option in schema.get("anyOf", ()):
            if isinstance(option, Mapping) and "enum" in option:
                found = option["enum"]
                break
    return tuple(str(v) for v in found or () if v is not None)


def examples(name: str, about: str) -> tuple[str, ...]:
    """The example values the tool's docstring ``about`` gives for the argument ``name``: a list
    after "e.g.", "such as", "like" or in brackets, right after the argument's own noun ("an
    animal (penguins, otters)"); () when the docstring gives none for it."""
    noun = stem(_label(name)[0].split()[-1])
    out: list[str] = []
    for match in _EXAMPLES.finditer(about):
        lead = [stem(w) for w in re.findall(r"[\w']+", match.group("lead").lower())[-3:]]
        if noun not in lead:
            continue
        listed = match.group("paren") or match.group("list") or ""
        out.extend(p.strip(" .'\"") for p in _LIST_SPLIT.split(listed) if p.strip(" .'\""))
    return tuple(dict.fromkeys(out))


def _either(values: Sequence[str]) -> str:
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"


def question_for(name: str, schema: Mapping[str, Any], about: str = "") -> str:
    """The question that asks the user for the argument ``name`` (JSON ``schema``) of a tool
    whose docstring is ``about``: "Which animal do you mean (for example penguins or otters)?",
    "How many adults do you want?", "What is your order number?"."""
    label, last = _label(name)
    kind = schema.get("type", "string")
    listed = choices(schema)
    if listed:
        return f"Which {label} do you mean: {_either(listed)}?"
    if last == "id":
        return f"What is your {label}?"
    if kind == "integer":
        return f"How many {label} do you want?"
    if kind == "number" or last in _AMOUNT_WORDS:
        return f"What {label} do you want?" if last in _AMOUNT_WORDS else f"How much {label}?"
    if last in _DATE_WORDS:
        return f"Which {label} do you want?"
    if last in _TIME_WORDS:
        return "What time do you want?" if label == "time" else f"Which {label} do you want?"
    if last in _DESCRIBING:
        return f"Can you tell me the {label}?"
    if last == "name":
        owner = label.rsplit(" ", 1)[0] if " " in label else ""
        return f"What is your {owner}'s name?" if owner else "What name do you want to use?"
    given = examples(name, about)[:3]
    if given:
        return f"Which {label} do you mean (for example {_either(given)})?"
    return f"Which {label} do you mean?"

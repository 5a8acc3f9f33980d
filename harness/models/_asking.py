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

from harness.models._argnames import (
    AMOUNTS,
    CONTACTS,
    DATE_NAMES,
    DESCRIBING,
    GENERIC_COUNTS,
    KIN,
    NAME_PARTS,
    PERSON_OWNERS,
    TIME_NAMES,
    UNITS,
    label,
    takes_money,
)
from harness.text._shapes import word_class
from harness.text.words import stem

__all__ = ["choices", "examples", "for_action", "question_for"]

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
    noun = stem(label(name)[0].split()[-1])
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


def _counted(tool: str) -> str:
    """What a tool counts when its count argument names nothing ("order_items" → "items"): the
    last word of its name when it is a plural, else ""."""
    last = tool.lower().split("_")[-1] if tool else ""
    return last if len(last) > 3 and last.endswith("s") and not last.endswith("ss") else ""


def question_for(name: str, schema: Mapping[str, Any], about: str = "", *, tool: str = "") -> str:
    """The question that asks the user for the argument ``name`` (JSON ``schema``) of the tool
    ``tool`` whose docstring is ``about``: "Which animal do you mean (for example penguins or
    otters)?", "How many adults do you want?", "What is your order number?", "What is your
    first name?", "Is it urgent?", "What is the weight in kg?"."""
    said, last = label(name)
    words = said.split()
    kind = schema.get("type", "string")
    listed = choices(schema)
    if listed:
        return f"Which {said} do you mean: {_either(listed)}?"
    if kind == "boolean":
        if words[0] in ("is", "has", "needs", "wants") and len(words) > 1:
            return f"Is it {' '.join(words[1:])}?" if words[0] == "is" else f"Do you need {said}?"
        return f"Do you want {said}?"
    contact = next((CONTACTS[w] for w in words if w in CONTACTS), None)
    if contact is not None:
        return f"What is your {contact}?"
    if last == "id":
        return f"What is your {said}?"
    if kind in ("integer", "number") and words[-1] in UNITS and len(words) > 1:
        return f"What is the {' '.join(words[:-1])} in {words[-1]}?"
    if kind == "integer" and not takes_money(name):
        if last in GENERIC_COUNTS:
            counted = _counted(tool)
            return f"How many {counted} do you want?" if counted else "How many do you want?"
        return f"How many {_counted_noun(words)} do you want?"
    if takes_money(name):
        return (
            "What amount do you want?"
            if last in AMOUNTS and len(words) == 1
            else (f"What {said} do you want?")
        )
    if kind == "number":
        return f"What {said} do you want?"
    if last in DATE_NAMES or last in ("dates", "days"):
        return f"Which {said} do you want?"
    if last in TIME_NAMES:
        return "What time do you want?" if said == "time" else f"Which {said} do you want?"
    if last in DESCRIBING:
        return f"Can you tell me the {said}?"
    if last == "name":
        owner = words[:-1]
        if not owner or set(owner) <= PERSON_OWNERS:
            return "What is your name?"
        if owner[-1] in NAME_PARTS:
            return f"What is your {owner[-1]} name?"
        if owner[-1] in KIN:
            return f"What is your {' '.join(owner)}'s name?"
        return f"Which {' '.join(owner)} do you mean?"
    given = examples(name, about)[:3]
    if given:
        return f"Which {said} do you mean (for example {_either(given)})?"
    if len(words) > 1 and words[0] in _DIRECTIONS:
        # A name that says which way ("to_member", "from_account"): "Which member is it to?",
        # never "Which to member do you mean?".
        return f"Which {' '.join(words[1:])} is it {words[0]}?"
    return f"Which {said} do you mean?"


# Words of a count's name that say it is a count, not what it counts ("number_of_people",
# "num_tickets", "seat_count"), and nouns whose size is a count of people ("party_size",
# "group"): closed classes.
_COUNT_WORDS = word_class("number num nr no n count total")
_GROUPS = word_class("party group")


def _counted_noun(words: Sequence[str]) -> str:
    """What a count argument whose name is ``words`` counts, as a question names it:
    "number of people" → "people", "num tickets" → "tickets", "party size" → "people"; the
    words as they are when they name nothing else."""
    kept = list(words)
    while len(kept) > 1 and kept[0] in _COUNT_WORDS:
        kept = kept[2:] if len(kept) > 2 and kept[1] == "of" else kept[1:]
    while len(kept) > 1 and kept[-1] in _COUNT_WORDS:
        kept = kept[:-1]
    if kept[-1] in _GROUPS or (kept[-1] == "size" and len(kept) > 1 and kept[-2] in _GROUPS):
        return "people"
    return " ".join(kept)


# Prepositions a parameter's name may open with to say which way its value goes (closed class).
_DIRECTIONS = word_class("to from for into onto via with")


# Words after a verb in a tool's name that belong to the verb ("top_up", "sign_in"): no "the"
# before them.
_PARTICLES = word_class("up down in out on off over back away")


def _action(tool: str, given: Mapping[str, Any]) -> str:
    """The action of the tool named ``tool`` in words, with the identifier ``given`` names for
    its noun: "top up", "pay invoice 5521", "cancel the booking", "add the breakfast"."""
    words = [w for w in re.split(r"[_\s]+|(?<=[a-z])(?=[A-Z])", tool.strip()) if w]
    words = [w.lower() for w in words]
    if len(words) < 2 or words[1] in _PARTICLES:
        return " ".join(words)
    value = next(
        (str(v) for k, v in given.items() if label(k)[0].split()[0] == words[-1] and v),
        "",
    )
    if value:
        return " ".join([*words, value])
    return " ".join([words[0], "the", *words[1:]])


def for_action(question: str, name: str, tool: str, given: Mapping[str, Any]) -> str:
    """``question`` (for the argument ``name`` of the tool ``tool``, whose call has the values
    ``given``) naming the action it is for, when another action of the same reply asks the
    same: "How much do you want to top up?", "How much do you want to pay invoice 5521?", "To
    cancel the booking, what is your booking reference?"."""
    action = _action(tool, given)
    if not action:
        return question
    if takes_money(name):
        return f"How much do you want to {action}?"
    return f"To {action}, {question[:1].lower()}{question[1:]}"

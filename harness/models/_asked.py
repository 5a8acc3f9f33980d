"""Which tool that reads answers a question, by what the question asks for: the offline model's
tool choice (``_choice.choose``) weighs this above the words a question shares with a tool.

An agent's reading tools often share their nouns ("tour_times", "tour_prices",
"tour_availability" all say "tour"), so the words alone pick whichever tool says the noun most.
What tells them apart is what the question asks for, matched against what each tool says it
tells:

- a price, a time, a length of time or a place, read as the credit step reads them
  (``_credit.asked_kind``, ``_credit.tells``), with a way there ("how do I get to", "which bus")
  read as a place;
- whether something is free or left ("is there room", "are there still tickets", "any seats
  left", "do you have any spaces"): a tool that says "free", "available", "left", "in stock";
- a contact ("how do I call", "who do I talk to", "what's the email"): a tool that says "phone",
  "email", "contact";
- what is allowed ("can I bring", "am I allowed", "do I need"): a tool that says "rules",
  "policy", "limits".

A question "how tall", "how old", "how heavy" asks for a height, an age, a weight: the noun is
added to its words (``asked_words``). Everything here is English, closed classes, not any one
bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.models._actions import base_forms, is_question
from harness.models._credit import ASKING_WORDS, asked_kind, tells
from harness.models._text import Router, content_tokens
from harness.models.base import ToolDefinition

__all__ = ["about", "asked_words", "by_asked", "kind_asked", "says_kind"]

_FREE, _CONTACT, _ALLOWED, _PLACE = "free", "contact", "allowed", "place"
_CREDIT_KINDS = frozenset(["price", "time", "length", "place"])

# How a question asks for the new kinds (lower case), tried after ``_credit.asked_kind``'s: by
# its build (``strong``: "is there room", "how do I get there", "can I ...") or by a word alone
# ("... left", "... email"), which only counts for a tool that shares a word with the question.
_ASKS: tuple[tuple[str, bool, re.Pattern[str]], ...] = (
    (
        _PLACE,
        True,
        re.compile(
            r"\bhow (?:do|can|would|should) (?:i|we|you) (?:get|find|reach) (?:to|there|you|the)\b"
            r"|\bhow to (?:get|find)\b|\bwhich (?:bus|train|tram|exit)\b"
        ),
    ),
    (
        _FREE,
        True,
        re.compile(
            r"\b(?:is|are) there (?:still |any |some )?(?:room|space|spaces|places|seats)\b"
            r"|\b(?:is|are) there still\b"
            r"|\b(?:any|some) (?:free )?(?:room|space|spaces|places|seats|slots)\b"
        ),
    ),
    (_FREE, False, re.compile(r"\b(?:free|left|available|vacant|in stock)\b")),
    (
        _CONTACT,
        True,
        re.compile(
            r"\b(?:how|who) (?:do|can|should) (?:i|we) (?:call|phone|ring|"
            r"email|contact|reach|talk to|speak to)\b"
        ),
    ),
    (_CONTACT, False, re.compile(r"\b(?:phone|email|e-mail|contact)\b")),
    (
        _ALLOWED,
        True,
        re.compile(
            r"^(?:can|may) (?:i|we) (?:bring|take|have|use|keep|park|smoke|wear)\b"
            r"|\b(?:am i|are we|is it|are you) (?:allowed|permitted)\b"
            r"|^do (?:i|we) (?:need|have to)\b|\bis it (?:ok|okay|fine) (?:to|if)\b"
        ),
    ),
    (_ALLOWED, False, re.compile(r"\b(?:allowed|permitted|rules?|policy)\b")),
)
# Words a tool's name or docstring says it tells one of the new kinds with.
_TELLS = {
    _FREE: frozenset(
        [
            "free",
            "available",
            "availability",
            "left",
            "vacant",
            "vacancies",
            "stock",
            "spaces",
            "remaining",
        ]
    ),
    _CONTACT: frozenset(["phone", "telephone", "email", "contact", "contacts"]),
    _ALLOWED: frozenset(
        [
            "rules",
            "rule",
            "policy",
            "policies",
            "limits",
            "allowed",
            "terms",
            "conditions",
            "regulations",
            "waiver",
        ]
    ),
    _PLACE: frozenset(["address", "directions", "map"]),
}
# "free" that says something costs nothing, or is without a thing, not that it is to be had:
# "under-5s swim free", "your first class is free", "children go free", "for free", "free of
# charge", "step-free", "gluten-free".
_COSTS_NOTHING = re.compile(
    r"\b(?:is|are|be|go|goes|swim|swims|ride|rides|travel|travels|eat|eats|stay|stays|enter|"
    r"enters|park|parks|for|entry|admission)\s+free\b|\bfree\s+of\s+charge\b|-free\b"
)
# "how <adjective>" asks for the noun of that measure (closed class).
_MEASURES = {
    "tall": "height",
    "high": "height",
    "old": "age",
    "young": "age",
    "heavy": "weight",
    "far": "distance",
    "big": "size",
    "deep": "depth",
    "wide": "width",
    "fast": "speed",
}
_MEASURE = re.compile(r"\bhow (" + "|".join(_MEASURES) + r")\b")
# What only qualifies a question's main clause: a clause of condition, time or cause, or a place
# or a time it is asked in ("who do I call if ...", "can I take photos in the tower").
_QUALIFIER = re.compile(
    r"\b(?:if|unless|because|while|when|whenever|in case|in|on|at|into|inside|near|during)\b"
)
_COUNTED = re.compile(r"\b\d+ (?:of )?[a-z]+\b")
# Words that only ask for a kind of value: no word of what a question is about.
_ASKING = frozenset(
    ASKING_WORDS.union(
        *(content_tokens(" ".join(words)) for words in _TELLS.values()),
        content_tokens("free left available vacant stock allowed permitted rule rules policy"),
    )
)


def kind_asked(text: str) -> tuple[str, bool] | None:
    """The kind of value the question ``text`` asks for, and whether its build says so
    (``_credit.asked_kind``'s kinds, a price, a time, a length or a place, by a question word:
    "how much", "when", "where"), else a place by a way there, whether something is free, a
    contact or what is allowed (``_ASKS``); None for no question or no kind."""
    if not (is_question(text) or text.rstrip().endswith("?")):
        return None
    kind = asked_kind(text)
    if kind is not None:
        return kind, asked_kind(text, strong=True) is not None
    lowered = _lowered(text)
    return next(((k, strong) for k, strong, p in _ASKS if p.search(lowered)), None)


def says_kind(tool: ToolDefinition, kind: str) -> bool:
    """Whether ``tool``'s name or docstring says it tells a value of ``kind``."""
    said = f"{tool.name} {tool.description}".lower().replace("_", " ")
    if kind == _FREE:
        said = _COSTS_NOTHING.sub(" ", said)
    words = set(re.findall(r"[a-z]+", said))
    if kind in _TELLS and words & _TELLS[kind]:
        return True
    return kind in _CREDIT_KINDS and tells(tool.name, tool.description, kind)


def asked_words(text: str) -> str:
    """``text`` with the noun of each measure it asks for ("how tall" adds "height")."""
    nouns = [_MEASURES[m] for m in _MEASURE.findall(text.lower())]
    return f"{text} {' '.join(nouns)}" if nouns else text


def about(text: str) -> str:
    """The words of what the question ``text`` is about: its main clause after the build that
    asks ("can I use", "who do I call", ``_ASKS``), cut at a clause or a place that only
    qualifies it ("... if there's a problem at night", "... photos in the tower"), without the
    words that only ask for a kind (``_credit``'s asking words, "free", "left", "open", "rules",
    "phone" ...): "when is the open mic night?" is about "mic night"; "can I use the printer?"
    about "printer". A measure asked for joins it ("how tall": "height", ``asked_words``)."""
    lowered = _lowered(text)
    build = next(
        (p.search(lowered) for _, strong, p in _ASKS if strong and p.search(lowered)), None
    )
    if build is not None:
        lowered = f"{lowered[: build.start()]} {lowered[build.end() :]}"
    cut = _QUALIFIER.search(lowered, 1)
    main = lowered[: cut.start()] if cut else lowered
    # A count names how many, not what: "room for 6 drivers", "a table for 4 people".
    main = _COUNTED.sub(" ", main)
    words = [w for w in re.findall(r"[a-z0-9'-]+", main) if not _only_asks(w)]
    return asked_words(" ".join(words)) if _MEASURE.search(lowered) else " ".join(words)


def _other_kind(best: ToolDefinition, kind: str, text: str) -> bool:
    """Whether ``best`` says it tells another price, time, length or place than the one the
    question ``text`` asks for by a question word ("what time ...": not ``hire_prices``, though
    it names the skis)."""
    if kind not in _CREDIT_KINDS or asked_kind(text, strong=True) != kind:
        return False
    return any(tells(best.name, best.description, k) for k in _CREDIT_KINDS - {kind})


def _only_asks(word: str) -> bool:
    tokens = set(content_tokens(word))
    return bool(tokens) and tokens <= _ASKING


def _lowered(text: str) -> str:
    lowered = text.lower().replace("\u2019", "'").strip()
    return re.sub(r"^(?:hi|hello|hey|sorry|excuse me|please)\b[\s,!]*", "", lowered)


def by_asked(
    readers: Sequence[ToolDefinition],
    router: Router,
    text: str,
    best: ToolDefinition | None,
) -> ToolDefinition | None:
    """The reading tool that tells what the question ``text`` asks for (``kind_asked``), when
    ``best`` (the best by words, or None) does not: the best-scoring of ``readers`` that says
    it tells the kind and shares a word of what the question is about (``about``: not the word
    that asks, "open", "free"), else the one reader that says it tells the kind at all, when the
    question asks by its build and ``best`` shares no word of what it is about ("can I use the
    printer?" stays with the tool that names the printer). None when ``best`` tells it already,
    no kind is asked, or no reader (or more than one with no word shared) tells it; a kind asked
    by a word alone ("... left") needs a shared word."""
    asked = kind_asked(text)
    if asked is None:
        return None
    kind, strong = asked
    if best is None and asked_kind(text, strong=True) is not None:
        # A question of a price, a time, a length or a place that no tool shares a word with
        # is the credit step's: the call is made for it, and counts only if its answer answers
        # it (``rules._kind_picks``).
        return None
    if best is not None and says_kind(best, kind):
        return None
    scores = dict(router.scores(about(base_forms(text))))
    telling = [t for t in readers if says_kind(t, kind)]
    sharing = [t for t in telling if scores.get(t.name, 0.0) > 0]
    if sharing:
        return max(sharing, key=lambda t: scores.get(t.name, 0.0))
    if best is not None and scores.get(best.name, 0.0) > 0 and not _other_kind(best, kind, text):
        return None
    return telling[0] if strong and len(telling) == 1 else None

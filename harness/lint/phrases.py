"""What instructions and descriptions say, as the linter asks it.

The text rules (HC005, HC006, HC009, HC010, HC011, HC016, HC017), Copilot Studio's mode
inference and the starter config's mode hint (:func:`asks_user`) read free text with the SDK's one
instruction reader, :mod:`harness.text.instructions`, which the offline rules model and the
simulator's awkward-acknowledgement finder use too; this module re-exports its predicates for the
rules.

HC001, for a sub-agent that cannot declare outputs (a Copilot Studio ``ConnectedAgentTool`` or an
external agent), asks what the parent's instructions say about that one agent: :func:`says_of_agent`
re-addresses each clause that names it (the agent becomes "you", the parent's "you" becomes the
parent) and reads it with the same reader, so "The billing agent never talks to the customer" is
read as "you never talk to the user" (silence) and "Here, `Claims_assistant` talks to the user
directly" as an address.

HC013 compares descriptions with :func:`description_similarity`: the cosine similarity of the sets of
stemmed content words, generic routing words left out; :data:`OVERLAP_THRESHOLD` (0.7) or more is a
near-duplicate. The rule compares each description without its hint on how to read ``answered``
(``harness.lint._generated.routing_text``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal

from harness.text import stem
from harness.text.instructions import (
    anchors_scope,
    checks_answered,
    claims_only_speaker,
    forbids_user_messages,
    hints_answered,
    read,
    read_sentence,
    repeats_answers,
    user_address,
)
from harness.text.words import DESCRIPTION_STOPWORDS

__all__ = [
    "OVERLAP_THRESHOLD",
    "anchors_scope",
    "asks_user",
    "checks_answered",
    "claims_only_speaker",
    "description_similarity",
    "description_words",
    "forbids_user_messages",
    "hints_answered",
    "repeats_answers",
    "says_of_agent",
    "user_address",
]

OVERLAP_THRESHOLD = 0.7
"""Descriptions at or above this similarity are near-duplicates (HC013)."""

_TRANSLATE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)

# -- description similarity (HC013) -----------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")


def description_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text``, generic routing words ("agent", "questions") left out."""
    words = _WORD.findall(text.lower().translate(_TRANSLATE).replace("'s", ""))
    return frozenset(stem(w) for w in words if w not in DESCRIPTION_STOPWORDS)


def description_similarity(a: str, b: str) -> float:
    """How alike two routing descriptions are, from 0.0 to 1.0.

    The cosine similarity of their sets of stemmed content words: ``|A ∩ B| / sqrt(|A| * |B|)``.
    Identical texts (ignoring case, spacing and punctuation) score 1.0 even when they hold only
    generic words.
    """
    if _WORD.findall(a.lower()) == _WORD.findall(b.lower()) and a.strip():
        return 1.0
    wa, wb = description_words(a), description_words(b)
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / math.sqrt(len(wa) * len(wb))


# -- what a parent says of one named agent (HC001 for agents without outputs) -------------------

AgentTalk = Literal["silence", "address"]
"""What a parent's instructions can say of one agent: it never talks to the user, or it does."""

_CLAUSE = re.compile(r";|\s[-\u2013\u2014]\s|\n|:\s")
_POWER_FX_REF = re.compile(r"\{[^{}\n]*\}")
_SECOND_PERSON = re.compile(r"\byou(?:rself|rs|r)?\b", re.IGNORECASE)
# After the name: its predicate, not a list or an aside ("the billing agent, which ...").
_NOT_A_PREDICATE = re.compile(r"\s*(?:$|[,)(/&]|(?:and|or|but|nor|to|for)\b)", re.IGNORECASE)
# Before the name, when it is the clause's subject: nothing, a lead ending in a comma ("Here, X
# talks ..."), or "that" ("Remember that X ...").
_SUBJECT_LEAD = re.compile(r"(?:^|,|\bthat)\s*$", re.IGNORECASE)
_NOUN_AFTER_REF = re.compile(r"\s+(?:agent|tool|assistant)\b", re.IGNORECASE)
# An adverbial aside between the name and its predicate: "The billing agent, under no
# circumstances, talks to ...", "X, as a rule, never talks ...". A negative one ("under no
# circumstances", "at no point") is read in place; any other is left out. A relative clause
# ("X, which handles refunds, ...") is no such aside: the name stays unread there.
_ASIDE_AFTER_NAME = re.compile(
    r"\s*,\s*(?P<aside>(?:under|at|in|on|by|as|for|whatever|no matter|regardless|even|ever|not"
    r"|never|however|of course)\b[^,;:]{0,60}?)\s*,\s*",
    re.IGNORECASE,
)
_NEGATIVE_ASIDE = re.compile(r"\b(?:no|not|never)\b", re.IGNORECASE)


def _name_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    alternatives = []
    for name in names:
        words = re.findall(r"[A-Za-z0-9]+", name)
        if words:
            alternatives.append(r"[\s_.-]+".join(re.escape(w) for w in words))
    if not alternatives:
        return None
    alternatives.sort(key=len, reverse=True)
    return re.compile(
        r"(?<![A-Za-z0-9])(?:" + "|".join(alternatives) + r")(?![A-Za-z0-9])", re.IGNORECASE
    )


def _to_parent(text: str) -> str:
    """The parent's instructions speak to the parent: its "you" is the parent."""

    def swap(match: re.Match[str]) -> str:
        word = match.group().lower()
        return "the parent's" if word in ("your", "yours") else "the parent"

    return _SECOND_PERSON.sub(swap, text)


def _mention(clause: str, pattern: re.Pattern[str]) -> tuple[int, int] | None:
    """Where ``clause`` names the agent (a Power Fx reference to it counts whole), or None."""
    match = pattern.search(clause)
    if match is None:
        return None
    start, end = match.span()
    for ref in _POWER_FX_REF.finditer(clause):
        if ref.start() <= start and end <= ref.end():
            start, end = ref.span()
            noun = _NOUN_AFTER_REF.match(clause, end)
            end = noun.end() if noun else end
            break
    quote = re.match(r"[`'\"]", clause[end:])
    if quote and start > 0 and clause[start - 1] == quote.group():
        start, end = start - 1, end + 1
    lead = re.search(r"\b(?:the|our)\s+$", clause[:start], re.IGNORECASE)
    return (lead.start() if lead else start), end


@lru_cache(maxsize=1024)
def _says(text: str, names: tuple[str, ...]) -> frozenset[AgentTalk]:
    pattern = _name_pattern(names)
    if pattern is None:
        return frozenset()
    said: set[AgentTalk] = set()
    for reading in read(text):
        for clause in _CLAUSE.split(reading.sentence):
            span = _mention(clause, pattern)
            if span is None:
                continue
            start, end = span
            if not _SUBJECT_LEAD.search(clause[:start]):
                continue  # an object or a condition: "ask X before ...", "if X fails, ..."
            rest = clause[end:]
            if rest.startswith("'s"):
                subject, rest = "your", rest[2:]
            else:
                subject = "you"
            aside = _ASIDE_AFTER_NAME.match(rest)
            if aside is not None:
                words = aside.group("aside")
                rest = (
                    " "
                    + (words if _NEGATIVE_ASIDE.search(words) else "")
                    + " "
                    + rest[aside.end() :]
                )
            if _NOT_A_PREDICATE.match(rest):
                continue  # named as an object or in a list, not as the one who acts
            asks = read_sentence(subject + _to_parent(rest))
            whole = read_sentence(_to_parent(clause[:start]) + subject + _to_parent(rest))
            if "silence" in asks and "conditional" not in whole:
                said.add("silence")
            elif "address" in asks and "silence" not in asks:
                said.add("address")
    return frozenset(said)


def says_of_agent(text: str, names: Iterable[str]) -> frozenset[AgentTalk]:
    """What ``text`` (a parent's instructions) says of the agent called any of ``names``.

    ``silence`` when a clause with the agent as its subject says it never talks to the user ("The
    billing agent never talks to the policyholder", "`Billing_agent`'s replies are for you to
    deliver"), ``address`` when it says the agent talks to the user itself ("Here, the claims
    assistant answers the customer directly"). A name is matched whatever its case and separators
    (``Claims_assistant``, "the claims assistant"), and a Power Fx reference naming it counts.
    Not read: the agent as an object ("send billing questions to the billing agent", "ask the
    billing agent before ..."), inside a condition ("if the billing agent fails, ..."), in a list
    or aside, or a silence under a condition ("if the claim is disputed, the billing agent never
    talks to the customer"); statements about sub-agents in general.

    Example:
        >>> sorted(says_of_agent("The Billing agent never talks to the customer.", ["Billing agent"]))
        ['silence']
    """
    return _says(text, tuple(n for n in names if n and n.strip()))


# An imperative that questions the user: "ask them which account", "clarify the choice with the
# customer", "confirm the details with the caller". Not "prompt" (it means "show" as often).
_QUESTION_VERB = re.compile(
    r"\b(?:ask|confirm|clarif(?:y|ies)|verif(?:y|ies)|double-check|check|find out"
    r"|quer(?:y|ies)|question)(?:s|ed|ing)?\b",
    re.IGNORECASE,
)
# Telling rather than asking ("confirm to the user that ...", "confirm the booking for them"),
# or asking nothing ("ask the user nothing", "no questions").
_NOT_A_QUESTION = re.compile(
    r"\b(?:to|for)\s+(?:the|them|him|her|your|our)\b|\bnothing\b|\bno\s+(?:further\s+)?"
    r"questions?\b",
    re.IGNORECASE,
)
_PART = re.compile(r",|;|:\s|\band\b|\bthen\b", re.IGNORECASE)


def asks_user(text: str) -> str | None:
    """The first sentence of ``text`` (an agent's instructions) telling it to ask the user
    something (a question, a confirmation, a clarification), or None.

    A part of a sentence counts when the reader reads it as addressing the user and no longer does
    once its questioning verb is taken out, so the question is what addresses the user: "if the
    user didn't say, ask them which account", "clarify the choice with the customer", "ask the
    user to confirm the transfer". Not counted: a sentence that forbids messaging the user, a
    question put to someone else ("ask the billing tool"), the user asking ("tell the user to ask
    HR"), a question beside another address ("check the balance and tell the user"), telling
    ("confirm to the user that the refund was issued") and asking nothing ("ask the user
    nothing").
    """
    for reading in read(text):
        if "address" not in reading.asks or "silence" in reading.asks:
            continue
        for part in _PART.split(reading.sentence):
            if not _QUESTION_VERB.search(part) or _NOT_A_QUESTION.search(part):
                continue
            if "address" not in read_sentence(part):
                continue
            if "address" not in read_sentence(_QUESTION_VERB.sub("note", part)):
                return reading.sentence
    return None

"""The one reader of natural-language instructions: what each sentence asks of the agent.

The linter (every rule that reads instructions or descriptions), the offline rules model (whether
the parent checks ``answered`` or is told to repeat its sub-agents) and the simulator's
awkward-acknowledgement finder all ask these questions, so they read text the same way. A sentence
is read in three steps:

1. Roles are folded (:mod:`harness.text._roles`): any word for the person served is ``user``, any
   word for the caller is ``parent``, any word for the agents a parent calls is ``subagents``.
2. The sentence is cut into clauses; a clause opening with a condition ("if the lookup fails, ...")
   or closing with one ("... until you have the balance") is marked conditional.
3. Each clause is matched against frames built from word classes (:mod:`harness.text._vocab`): who
   acts (you, the parent, the user, the sub-agents), whether it is negated (and whether the
   negation is itself negated: "don't forget to greet the user"), what the act is (talking to the
   user, repeating what sub-agents said, checking ``answered``, claiming to be the only speaker).

:func:`read` gives one :class:`Reading` per sentence; the predicates below answer one question for a
whole text. :func:`acknowledgement` finds, in a bot's message, the phrase that refers to an earlier
answer ("as mentioned above", "to reiterate", "per the billing agent's message above").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from harness.text._acknowledge import acknowledgement
from harness.text._answered import (
    _ANSWERED_NAMED,
    _INTERPRETS,
    _NO_ANSWERED,
    _NO_REPEAT,
    _NO_REPEAT_OTHERS,
    _anchors_scope,
    _checks_answered,
    _ignores_answered,
    _only_speaker,
    _repeats,
)
from harness.text._features import sentence_features
from harness.text._learned import reader_model
from harness.text._roles import clauses, sentences
from harness.text._talk import _CONDITIONAL_LEAD, _addresses, _conditional, _forbids
from harness.text._vocab import ALREADY_DONE
from instructions.contract import ANSWERED

__all__ = [
    "ASKS",
    "Ask",
    "Reading",
    "acknowledgement",
    "anchors_scope",
    "checks_answered",
    "claims_only_speaker",
    "forbids_user_messages",
    "hints_answered",
    "read",
    "read_sentence",
    "repeats_answers",
    "user_address",
]

Ask = Literal[
    "address",
    "silence",
    "conditional",
    "check_answered",
    "repeat",
    "only_speaker",
    "acknowledge",
    "scope",
]
"""What a sentence asks: address the user; never address the user; address (or not) the user only
under a condition; check ``answered``; repeat or summarise sub-agent answers (or ignore
``answered``); claim to be the only speaker; acknowledge an earlier message; keep to the scoped
request."""

ASKS: tuple[Ask, ...] = (
    "address",
    "silence",
    "conditional",
    "check_answered",
    "repeat",
    "only_speaker",
    "acknowledge",
    "scope",
)


LEARNED: tuple[Ask, ...] = ("silence",)
"""The readings the learned model may decide on a sentence the frames read nothing in: silence,
the reading whose frames missed most wordings when first measured (docs/lint.md). For the others,
cross-validation showed no gain over the frames."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """What one sentence asks."""

    sentence: str
    """The sentence as written (spacing collapsed, end dot cut)."""
    asks: frozenset[Ask]
    """Every reading of :data:`Ask` the sentence carries (empty for "none of them")."""


# -- reading ------------------------------------------------------------------------------------


# An instruction to acknowledge an earlier message: "acknowledge what the specialist said".
_ACK_INSTRUCTION = re.compile(
    r"\b(?:acknowledg|refer(?:ence)?\s+(?:back\s+)?to|point\s+(?:back\s+)?to|credit|cite|mention"
    r"|thank)\w*\s+(?:\w+\s+){0,3}?(?:what|that|the|their|each|any|its)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:subagents?'?s?|answers?|said|replied|answered|told|earlier|previous|above|responses?"
    r"|replies|messages?)\b"
    r"|\b(?:begin|start|open|preface)\w*\s+(?:\w+\s+){0,3}?(?:with|by)\s+(?:saying\s+)?"
    r"(?:as|like|per)\b"
)
_ACK_NEGATED = re.compile(r"(?:\bnot|\bnever|n't|\bavoid|\bno need to|\bwithout)\b[^,;]*$")


def _acknowledges(original: str, sentence: str) -> bool:
    match = _ACK_INSTRUCTION.search(sentence)
    if match and not _ACK_NEGATED.search(sentence[: match.start()]):
        return True
    if _CONDITIONAL_LEAD.match(sentence):
        return False  # "if a helper agent has already replied, ...": a condition, not a reference
    phrase = acknowledgement(original)
    if phrase is None:
        return False
    start = original.replace("\u2019", "'").find(phrase)
    return not _ACK_NEGATED.search(original[:start].lower())


_OBJECT_PRONOUN = re.compile(r"(?<=\s)(?:them|him|her)\b")
_PRONOUN_SUBJECT = re.compile(
    r"^(?:it|they|he|she)\s+(?=(?:\w+\s+){0,2}?(?:speak|talk|repl|respond|answer"
    r"|handl|deal|message|contact|communicat|will|does|do)\w*)"
)


@lru_cache(maxsize=16_384)
def _read_normalised(sentence: str) -> frozenset[Ask]:
    asks: set[Ask] = set()
    previous = ""
    for clause in clauses(sentence):
        if "user" in sentence and not clause.startswith("user"):
            rest = sentence.partition("user")[2]
            if rest and clause in rest:
                clause = _OBJECT_PRONOUN.sub("user", clause)
        if "parent" in previous:
            # "return results to the coordinator; it speaks to the patient": "it" is the parent.
            clause = _PRONOUN_SUBJECT.sub("parent ", clause)
        previous = clause
        if _forbids(clause):
            asks.add("silence")
        if _conditional(clause, sentence):
            asks.add("conditional")
        if _addresses(clause):
            asks.add("address")
        if _checks_answered(clause):
            asks.add("check_answered")
        if _repeats(clause, sentence):
            asks.add("repeat")
    if _only_speaker(sentence):
        asks.add("only_speaker")
    if _anchors_scope(sentence):
        asks.add("scope")
    return frozenset(asks)


def _rule_asks(original: str, sentence: str) -> frozenset[Ask]:
    asks = set(_read_normalised(sentence))
    if not asks & {"repeat", "check_answered"} and _acknowledges(original, sentence):
        asks.add("acknowledge")
    return frozenset(asks)


def sentence_features_of(text: str) -> frozenset[str]:
    """The learned reader's features of every sentence of ``text`` together (for fitting it:
    ``tools/reader/fit.py``)."""
    return frozenset().union(*(sentence_features(s) for _, s in sentences(text)))


@lru_cache(maxsize=4096)
def read(text: str) -> tuple[Reading, ...]:
    """One :class:`Reading` per sentence of ``text``.

    A sentence carries what the frames read in it. When they read nothing, the learned model
    (:mod:`harness.text._learned`), which reads the sentence from general features alone, decides
    the readings of :data:`LEARNED` it is confident of (probability above
    :data:`~harness.text._learned.CONFIDENT`): a wording the frames miss is still read.

    Example:
        >>> [sorted(r.asks) for r in read("Greet the flyer. Never echo what a helper agent said.")]
        [['address'], ['check_answered']]
    """
    model = reader_model()
    readings = []
    for original, sentence in sentences(text):
        asks = _rule_asks(original, sentence)
        if not asks:
            asks = frozenset(
                a for a in LEARNED if a in model.confident(sentence_features(sentence))
            )
        readings.append(Reading(sentence=original, asks=frozenset(asks)))
    return tuple(readings)


def read_sentence(sentence: str) -> frozenset[Ask]:
    """What one sentence asks (see :data:`Ask`)."""
    return frozenset().union(*(r.asks for r in read(sentence))) if sentence.strip() else frozenset()


def _first(text: str, ask: Ask) -> str | None:
    return next((r.sentence for r in read(text) if ask in r.asks), None)


def forbids_user_messages(text: str) -> bool:
    """True when ``text`` forbids messaging the user without a condition.

    Recognised: prohibitions ("do not respond to the customer", "don't call SendMessageTool"),
    others speaking for the agent ("hand results back; the main agent talks to the user", "only
    the orchestrator may contact the user"), the user never hearing from it ("the customer should
    never see anything you write") and silent roles ("you work behind the scenes"). Not
    recognised: conditional prohibitions ("do not reply to the user until you have the balance").
    """
    return _first(text, "silence") is not None


def user_address(text: str) -> str | None:
    """The first sentence of ``text`` that tells the agent to address the user, or None.

    Recognised: imperatives whose object is the user, with any addressee ("explain the score to
    the customer", "welcome the guest", "wish the shopper a nice day", "don't forget to greet the
    user", "always begin with a friendly hello"), also after a condition. Not recognised:
    prohibitions, someone else speaking ("the parent will tell the user"), the user as the
    subject ("when the user tells you their ID") and quoted examples.
    """
    return _first(text, "address")


def checks_answered(text: str) -> bool:
    """True when ``text`` (a parent's instructions) checks the sub-agents' ``answered`` output.

    Recognised: naming it in a check ("check the answered output", "if answered is true, ...")
    and the natural form ("never echo what a helper agent has already told the user"). Not
    recognised: ignoring it ("ignore the answered flag") or "answered" in another sense.
    """
    return _first(text, "check_answered") is not None


def repeats_answers(text: str) -> str | None:
    """The first sentence of ``text`` telling a parent to repeat or summarise its sub-agents'
    answers, or to ignore ``answered``; None when there is none.

    Recognised: "after the sub-agents reply, always repeat each of their answers to the
    customer", "ignore the answered output and summarise all results", "recap everything the
    specialists said". Not recognised: prohibitions ("never repeat what a sub-agent said"),
    conditions on a missing answer ("if a sub-agent did not answer, summarise ...") and silent
    findings ("summarise the findings").
    """
    return _first(text, "repeat")


def claims_only_speaker(text: str) -> bool:
    """True when ``text`` (a parent's instructions) claims the parent is the only one who talks
    to the user ("you're the single voice the customer hears", "nobody but you speaks to the
    user", "sub-agents never talk to the user"). Not recognised: other "only" claims and
    denials ("never assume you are the only one who talks to the user")."""
    return _first(text, "only_speaker") is not None


def anchors_scope(text: str) -> bool:
    """True when ``text`` anchors a sub-agent to its scoped request (naming it, or "only handle
    the request you were given"); rejecting it ("ignore the scoped request") does not count."""
    return _first(text, "scope") is not None


def hints_answered(text: str) -> bool:
    """True when ``text`` (a routing description) tells the parent how to read ``answered``.

    Recognised: "If its answered output is true, the user has already received their response",
    "returns answered = true when it already replied to the user", "when it has already answered
    the user, do not answer again". Not recognised: a mention without its meaning ("returns an
    answered flag") or a denial ("it does not return answered").
    """
    for _, sentence in sentences(text):
        if _NO_ANSWERED.search(sentence) or _ignores_answered(sentence):
            continue
        if _ANSWERED_NAMED.search(sentence) and _INTERPRETS.search(sentence):
            return True
        if ANSWERED in sentence and _INTERPRETS.search(sentence) and "output" in sentence:
            return True
        if _NO_REPEAT_OTHERS.search(sentence) or (
            re.search(ALREADY_DONE, sentence) and _NO_REPEAT.search(sentence)
        ):
            return True
    return False

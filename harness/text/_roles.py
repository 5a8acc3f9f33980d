"""Normalising instruction sentences before they are read: roles, references, quotes.

Whoever the agent serves (customer, flyer, patient, policyholder...) becomes ``user``; whoever calls
the agent (orchestrator, main agent, supervisor, concierge...) becomes ``parent``; the agents a
parent calls (sub-agents, child agents, helper agents, specialists...) become ``subagent``. The
patterns of :mod:`harness.text.instructions` then name three roles instead of hundreds of nouns.
Names of the ``answered`` and ``scopedRequest`` outputs, Power Fx references and quoted examples are
folded too, and a sentence is cut into clauses at ``;``, ``:`` and dashes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from harness.text._split import split_sentences

__all__ = ["clauses", "normalise_sentence", "sentences", "tidy"]

_TRANSLATE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)
_ABBREVIATIONS = re.compile(r"\b(?:i\.e\.|e\.g\.|etc\.|vs\.)")
_NAMED_ANSWERED = re.compile(
    r"[`'\"]answered[`'\"]|\{[^}\n]*\banswered\b[^}\n]*\}|\b\w+\.answered\b"
)
_NAMED_SCOPE = re.compile(r"\{[^}\n]*\bscoped_?request\b[^}\n]*\}|\b\w+\.scoped_?request\b")
# Power Fx references ({System.Bot.DisplayName}, {Topic.Components...}) name a tool or a value;
# what they say is no instruction.
_POWER_FX = re.compile(r"\{[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*\}")
# A quotation of three words or more is an example of what someone says, not an instruction.
_QUOTED = re.compile(r'"[^"\n]*\s[^"\n]*\s[^"\n]*"')
_CLAUSE_CUT = re.compile(r";|\s-\s|\n|:\s")
_MARKUP = re.compile(r"[*`#>_\"()\[\]]+")

# The agents a parent calls. Checked before the parent, so that "other agents" is not read as one.
_SUBAGENT = re.compile(
    r"\b(?:sub[- ]?agents?|child(?:ren)?[- ]agents?|connected[- ]agents?|(?:helper|specialist|worker"
    r"|expert|downstream|delegate|domain|skill|specialized|specialised|team|other|underlying|called"
    r"|individual|assisting|supporting)[- ]agents?|specialists|helpers"
    r"|(?:the|your|these|those|all|each|every|any|multiple|several|various|different|both) agents)\b"
)
# Whoever calls the agent: the parent.
_PARENT = re.compile(
    r"\b(?:(?:root/)?parent(?:[- ]agent)?|orchestrat(?:or|ing agent)(?:[- ]agent)?|main[- ]agent"
    r"|root[- ]agent|primary[- ]agent|calling[- ]agent|caller[- ]agent|supervis(?:or|ing)(?:[- ]agent)?"
    r"|concierge(?:[- ]agent)?|router(?:[- ]agent)?|routing[- ]agent|coordinat(?:or|ing)"
    r"(?:[- ]agent)?|host[- ]agent|lead[- ]agent|front[- ]?(?:desk|door|line)[- ]agent"
    r"|top[- ]level[- ]agent|manager[- ]agent|dispatcher(?:[- ]agent)?|triage[- ]agent"
    r"|master[- ]agent|umbrella[- ]agent|upstream[- ]agent|invoking[- ]agent)\b"
)
# Whoever the agent serves: any word for a person it might talk to.
_USER = re.compile(
    r"\b(?:end[- ]?)?(?:users?|customers?|employees?|requesters?|requestors?|callers?|persons?"
    r"|people|humans?|visitors?|clients?|(?:policy|account|card|ticket|stake|home|key|share)"
    r" ?holders?|travell?ers?|members?|students?|patients?|guests?|shoppers?|buyers?|citizens?"
    r"|residents?|tenants?|applicants?|candidates?|learners?|subscribers?|claimants?|passengers?"
    r"|consumers?|staff(?: members?)?|colleagues?|participants?|flyers?|fliers?|diners?|riders?"
    r"|attendees?|donors?|borrowers?|investors?|homeowners?|renters?|pupils?|guardians?"
    r"|beneficiar(?:y|ies)|insureds?|enrollees?|purchasers?|requesting party|individuals?"
    r"|patrons?|teammates?"
    r"|the person(?: (?:asking|you are helping|you're helping|you help|chatting))?"
    r"|(?<=the )contacts?(?! (?:details?|form|centre|center|page|list|us)\b))\b"
)
_USER_CONTEXT_FREE = re.compile(r"\bhuman agents?\b")


def _reference(match: re.Match[str]) -> str:
    # A reference to the send-message tool still names it; any other is just "ref".
    return " sendmessagetool " if "sendmessage" in match.group() else " ref "


@lru_cache(maxsize=16_384)
def normalise_sentence(sentence: str) -> str:
    """``sentence`` lower-cased with roles, output names, references and quotes folded."""
    t = sentence.lower().translate(_TRANSLATE)
    t = _ABBREVIATIONS.sub(" ", t)
    t = _NAMED_ANSWERED.sub(" answered output ", t)
    t = _NAMED_SCOPE.sub(" scopedrequest ", t)
    t = t.replace("scoped_request", "scopedrequest")
    t = _POWER_FX.sub(_reference, t)
    t = _QUOTED.sub(" quote ", t)
    t = _USER_CONTEXT_FREE.sub(" human staff ", t)
    t = _SUBAGENT.sub(" subagents ", t)
    t = _PARENT.sub(" parent ", t)
    t = _USER.sub(" user ", t)
    return " ".join(t.split()).replace(" 's ", "'s ").replace(" ,", ",")


def tidy(part: str) -> str:
    """``part`` without Markdown marks, spacing collapsed and end punctuation cut."""
    part = _MARKUP.sub(" ", part)
    return " ".join(part.split()).strip(" ,:-.!?")


@lru_cache(maxsize=4096)
def sentences(text: str) -> tuple[tuple[str, str], ...]:
    """(original sentence, normalised sentence) for each sentence of ``text``."""
    return tuple(_sentence_iter(text))


def _sentence_iter(text: str) -> Iterator[tuple[str, str]]:
    for span in split_sentences(text):
        sentence = tidy(normalise_sentence(span.text))
        if sentence:
            yield " ".join(span.text.split()).rstrip("."), sentence


def clauses(sentence: str) -> tuple[str, ...]:
    """The clauses of a normalised sentence, cut at ``;``, ``:``, dashes and line breaks."""
    return tuple(c for c in (tidy(p) for p in _CLAUSE_CUT.split(sentence)) if c)

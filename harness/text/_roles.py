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
from harness.text._vocab import NEG_NEGATOR

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

# A negator cut off from its verb by asides between commas: "never, under any circumstances,
# repeat ...", "do not, even if asked, reply ...", "under no circumstances, should you ...", and a
# negated verb of omission cut off from what it asks for: "don't forget, however, to greet ...".
# The asides are lifted out so that the negator stands before its verb again (see _lift_asides).
_NEG_HEAD = re.compile(
    r"\b(?P<head>(?:never|not ever|(?:do|does|did|must|should|shall|may|will|would|can|could|are"
    r"|is)\s+not|don't|doesn't|didn't|mustn't|shouldn't|won't|wouldn't|cannot|can't|couldn't"
    r"|aren't|isn't)(?:(?:\s+ever)?\s+" + NEG_NEGATOR + r")?"
    r"|avoid|refrain from|under no circumstances?|in no (?:case|way|event)"
    r"|on no account|by no means|at no (?:point|time|stage)),\s+"
)
# Negators that always need a verb after them: a comma right after one is never the end of an
# elliptical clause ("if it does not, tell the user" is one, after "does not").
_BARE_HEADS = frozenset(
    (
        "never",
        "not ever",
        "under no circumstance",
        "under no circumstances",
        "in no case",
        "in no way",
        "in no event",
        "on no account",
        "by no means",
        "at no point",
        "at no time",
        "at no stage",
    )
)
# An aside opens with a preposition, an adverb of degree or frequency, a concession or a
# condition, and holds no comma: "under any circumstances", "even if asked", "at any point",
# "for any reason", "whatever happens", "if the lookup fails".
_ASIDE = re.compile(
    r"(?P<aside>(?:(?:and|or)\s+)?(?:under|in|at|for|on|by|during|even|ever|not|no|whatever"
    r"|whatsoever|regardless|however|if|unless|when|whenever|until|before|after|once|while"
    r"|though|although|please|again|still|of course|absolutely|without|except|as|i repeat)\b"
    r"[^,;:]*),\s+"
)
_ASIDE_WORDS = 8
_MAX_LIFTS = 8
"""Negators a sentence has its asides lifted after, at most (each lift rewrites the sentence: a
bound keeps a pathological text linear)."""
# An aside that is a condition ("if asked", "until the parent confirms") goes after the verb
# phrase, where the frames read a condition's tail; any other goes before the negator.
_CONDITION_ASIDE = re.compile(
    r"(?:(?:and|or)\s+)?(?:if|unless|when|whenever|once|until|before|after|while|except"
    r"|in case|as long as)\b"
)
_CONDITION_BEFORE = re.compile(r"\b(?:if|unless|when|whenever|whether|once|until|in case|or)\b")


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
    t = " ".join(t.split()).replace(" 's ", "'s ").replace(" ,", ",")
    return _lift_asides(t) if "," in t else t


def _lift_asides(t: str) -> str:
    """``t`` with asides between a negator and its verb lifted out.

    "never, under any circumstances, repeat their answers" becomes "under any circumstances,
    never repeat their answers"; "do not, if asked, reply to the user" becomes "do not reply to
    the user, if asked" (a condition goes after the verb phrase, where the frames read it); "under
    no circumstances, should you reply" loses its comma. Not lifted: a negator that ends an
    elliptical clause ("if it does not, tell the user"), and a stretch that does not open like an
    aside or runs past eight words.
    """
    pos = lifts = 0
    while lifts < _MAX_LIFTS and (match := _NEG_HEAD.search(t, pos)) is not None:
        start = max(t.rfind(mark, 0, match.start()) for mark in ",;:") + 1
        lead = t[start : match.start()]
        pos = match.end()
        if _CONDITION_BEFORE.search(lead):
            continue  # "if it does not, ...", "whether or not, ..."
        asides: list[str] = []
        end = match.end()
        while (aside := _ASIDE.match(t, end)) is not None:
            if len(aside.group("aside").split()) > _ASIDE_WORDS:
                break
            asides.append(aside.group("aside"))
            end = aside.end()
        if not asides and match.group("head") not in _BARE_HEADS:
            continue
        before = [a for a in asides if not _CONDITION_ASIDE.match(a)]
        after = [a for a in asides if _CONDITION_ASIDE.match(a)]
        rest = t[end:]
        cut = min(
            (i for i in (rest.find(m) for m in ",;:") if i >= 0),
            default=len(rest.rstrip(" .!?")),
        )
        verb_phrase, tail = rest[:cut], rest[cut:]
        front = t[:start] + (" " if start else "") + "".join(a + ", " for a in before)
        core = lead.strip() + (" " if lead.strip() else "") + match.group("head") + " "
        core += verb_phrase + "".join(", " + a for a in after)
        t = front + core + tail
        pos = len(front) + len(lead.strip())
        t = " ".join(t.split())
        lifts += 1
    return t


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

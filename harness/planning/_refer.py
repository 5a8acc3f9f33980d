"""A request that points back to another request of the same message goes to that one's agent.

"Is the blue road bike in stock, and how much is it?": the second request has no words of its
own to route by ("how much is it"), so no agent's texts match it and, planned alone, the parent
would say it cannot help. It is about what the request before it names, so it goes where that
request went, and its text carries the thing it stands for, in brackets after it ("how much is
it (the blue road bike)"), for the agent to act on: the offline model reads the words, and a
model-backed sub-agent reads a request that names its object.

Only a piece the planner keeps with the parent is read (one that routes by its own words, "can I
hire one for the weekend", keeps its route), and only by closed classes of words, no model:

- what points back: "it", "its", "them", "they", "their", "one", "that one", "this one", "the
  same", "those", "her", "him", "there" (not "there is"); not a dummy "it" ("is it raining",
  "is it true", "what time is it", "how far is it", "is it possible to");
- what it stands for: a noun phrase of an earlier piece, the nearest piece with one that fits,
  the first phrase of that piece that fits: "they", "them", "their" and "those" want a plural
  ("workshops", "the letters"), "it" and "its" a singular, "her" and "him" a name ("Dr Patel");
  "one" and the rest any. The earlier piece's agent must be a sub-agent: a pronoun that points
  at something the parent keeps ("My laptop keeps crashing, can you fix it?") stays with it.
"""

from __future__ import annotations

import re

from harness.planning.base import PlanEntry
from harness.text._shapes import AUXILIARIES, LEAD, VERBS, WH_SET, word_class

__all__ = ["referred"]

_TOKEN = re.compile(r"[A-Za-z0-9][\w'’-]*")

# The words that point back, by what they need to stand for.
_PLURAL = word_class("they them their those")
_SINGULAR = word_class("it its")
_PERSON = word_class("her him")
_ANY = word_class("one same there")
# "one" is a number before a noun ("one night"); a pronoun at the end or before these words.
_AFTER_ONE = word_class(
    "for with that which in on at from to please too instead as of then now today tomorrow"
)
_NOT_ONE = word_class("no every each any some someone anyone no-one")
# "there is" / "there are" introduce, they do not point.
_EXISTENTIAL = word_class("is are was were be been 's isn't aren't will would")
# A dummy "it": the weather, the time, a judgement of what follows ("is it true that ...").
_DUMMY = re.compile(
    r"\b(?:what time|what day|what date|how far|how long until|how cold|how hot|how warm)"
    r"\s+(?:is|was|will)\s+it\b"
    r"|\bit(?:'s|s)?\s+(?:(?:is|was|will|be|going|gonna|to|get|getting|still|likely|supposed)\s+)*"
    r"(?:rain|snow|sleet|hail|drizzl|pour|sunny|hot\b|cold\b|warm\b|chilly|windy|cloudy|freez"
    r"|foggy|stormy|humid|weather|true\b|far\b|possible|worth|necessary|too late|too early)",
    re.IGNORECASE,
)
# Words no noun phrase is made of (closed classes): question words, auxiliaries, request verbs,
# prepositions, conjunctions, pronouns, and the adverbs and predicate adjectives a request says of
# its object ("is the boardroom free", "is my repair ready").
_STOP = (
    WH_SET
    | AUXILIARIES
    | word_class(
        "what's whats how's where's i'm i'd i'll i've you're we're it's that's there's "
        "and or but if so then also too as than because while when whether "
        "of in on at to for from with by about into onto over under near around after before "
        "until till since between during without within off out up down via per "
        "i me you we us he she him her it its they them their there here this that these those "
        "one same someone anyone anything something "
        "please just still already yet now today tonight tomorrow yesterday soon again right "
        "not no yes very really much many more most less any all "
        "free available open closed ready broken sold left working busy full empty ok okay "
        "safe suitable fine able possible late early "
        "monday tuesday wednesday thursday friday saturday sunday weekend week month year "
        "mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends weeks months "
        "years days hours minutes "
        "january february march april may june july august september october november december "
        "morning afternoon evening night"
    )
)
# Verbs (request verbs and a few of being somewhere or lasting): no noun phrase opens with one,
# but after a determiner one is a noun ("my order", "the check").
_VERBS = frozenset(VERBS.split("|")) | word_class(
    "like need want hire rent see know think go come arrive keep hold save fix give cost "
    "fit last stay join collect pick happen work start end"
)
_DETERMINERS = word_class(
    "the a an my our your his their this that these those any some another every each "
    "two three four five six seven eight nine ten"
)
# Words ending in "s" that are singular, and plurals that do not end in "s".
_SINGULAR_S = word_class("news series species class glass pass bus gas plus christmas physics")
_PLURAL_WORDS = word_class("people children men women feet teeth mice geese sheep")


def referred(entries: list[PlanEntry], parent: str) -> list[PlanEntry]:
    """``entries`` with each one the parent keeps that points back to what an earlier entry of a
    sub-agent names given to that agent, its text followed by the thing it stands for in
    brackets (the module's docstring says which words count). The others are as they were."""
    out = list(entries)
    for index, entry in enumerate(entries):
        if index == 0 or entry.agent != parent:
            continue
        wanted = _pointing(entry.request)
        if wanted is None:
            continue
        for earlier in reversed(entries[:index]):
            phrase = _phrase(earlier.request, wanted)
            if phrase is None:
                continue
            if earlier.agent != parent:
                # Before the closing punctuation: "how do I get them (my rewards)?"
                text = entry.request.rstrip(" .!?")
                end = entry.request[len(text) :].strip()
                out[index] = PlanEntry(request=f"{text} ({phrase}){end}", agent=earlier.agent)
            break
    return out


def _pointing(text: str) -> str | None:
    """What ``text``'s pointing word needs to stand for ("plural", "singular", "person", "any"),
    or None when nothing in it points back, or when what it points at is named before it in
    ``text`` itself ("I need an apartment, can you get me one"). A leading connective is no
    part of it ("while you're at it, ...", ``LEAD``)."""
    opening = LEAD.match(text)
    text = text[opening.end() if opening else 0 :]
    tokens = _TOKEN.findall(text)
    words = [w.lower().replace("’", "'") for w in tokens]
    dummy = _DUMMY.search(text) is not None
    for index in range(len(words)):
        wanted = _wants(words, index, dummy=dummy)
        if wanted is not None:
            own = _phrase(" ".join(tokens[:index]), wanted)
            return None if own is not None else wanted
    return None


def _wants(words: list[str], index: int, *, dummy: bool) -> str | None:
    """What ``words[index]`` needs to stand for, if it points back (``_pointing``)."""
    word = words[index]
    after = words[index + 1] if index + 1 < len(words) else ""
    before = words[index - 1] if index else ""
    if word in _PLURAL:
        return "plural"
    if word in _SINGULAR and not dummy:
        return "singular"
    if word in _PERSON and (not after or after in _AFTER_ONE):
        return "person"
    if word == "one" and before not in _NOT_ONE and (not after or after in _AFTER_ONE):
        return "any"
    if word == "same" and before == "the":
        return "any"
    if word == "there" and index and after not in _EXISTENTIAL and before not in ("is", "are"):
        return "any"
    return None


def _phrase(text: str, wanted: str) -> str | None:
    """The first noun phrase of ``text`` that ``wanted`` (``_pointing``) can stand for, as
    written, or None."""
    for phrase in _phrases(text):
        # A plural is the last plural word of its run ("reading groups" of "reading groups
        # meet"); anything else is named by its run's last word.
        plurals = [k for k, word in enumerate(phrase) if _plural(word.lower())]
        if wanted == "plural":
            if not plurals:
                continue
            phrase = phrase[: plurals[-1] + 1]
        elif wanted == "singular" and _plural(phrase[-1].lower()):
            continue
        if wanted == "person" and not any(w[:1].isupper() for w in phrase):
            continue
        return " ".join(phrase)
    return None


def _phrases(text: str) -> list[list[str]]:
    """The noun phrases of ``text`` (after a leading connective): runs of words none of
    ``_STOP`` nor, but right after a determiner, of ``_VERBS`` (a determiner opens a new run; a
    word in "-ed" after a noun ends one: "my delivery shipped"), each with a word that is no
    determiner and no number, and that opens with a determiner or a possessive, or holds a name,
    a number ("room 3") or a plural ("lockers")."""
    opening = LEAD.match(text)
    tokens = _TOKEN.findall(text[opening.end() if opening else 0 :])
    runs: list[list[str]] = []
    run: list[str] = []
    for index, token in enumerate(tokens):
        word = token.lower().replace("’", "'")
        if word in _DETERMINERS:
            runs.append(run)
            run = [token]
        elif (
            word in _STOP
            or (word in _VERBS and not (len(run) == 1 and run[0].lower() in _DETERMINERS))
            or (word.endswith("ed") and _nouns(run))
        ):
            runs.append(run)
            run = []
        else:
            # A text's first word is capitalised as a sentence opens, not as a name.
            run.append(token if index else word)
    runs.append(run)
    return [r for r in runs if _nouns(r) and _phrase_like(r)]


def _nouns(run: list[str]) -> bool:
    """Whether ``run`` has a word that is no determiner and no number."""
    return any(w.lower() not in _DETERMINERS and not w[:1].isdigit() for w in run)


def _phrase_like(run: list[str]) -> bool:
    """Whether ``run`` reads as a noun phrase (``_phrases``)."""
    first = run[0].lower()
    return (
        first in _DETERMINERS
        or first.endswith(("'s", "s'"))
        or any((w[:1].isupper() and w != "I") or w[:1].isdigit() for w in run)
        or any(_plural(w.lower()) for w in run)
    )


def _plural(head: str) -> bool:
    """Whether a phrase whose last word is ``head`` is plural (by its ending, closed lists)."""
    return head in _PLURAL_WORDS or (
        head.endswith("s")
        and not head.endswith(("ss", "us", "is", "'s"))
        and head not in _SINGULAR_S
    )

"""A request that points back to another request of the same message goes to that one's agent.

"Is the blue road bike in stock, and how much is it?": the second request has no words of its
own to route by ("how much is it"), so no agent's texts match it and, planned alone, the parent
would say it cannot help. It is about what the request before it names, so it goes where that
request went, and its text carries the thing it stands for, in square brackets right after the
word that points ("how much is it [the blue road bike]", "will it [the taxi] be there by six"),
for the agent to act on: the offline model reads the words, and a model-backed sub-agent reads a
request that names its object. Next to the pronoun, the bracket stays in its clause when a
sub-agent cuts the request again at "and" or "then"; it is shown wherever the request is (a
hand-back quoting it, the transcript). A pronoun that points to an earlier turn is not told
apart: it gets this message's referent when one fits.

Only a piece the planner keeps with the parent is read (one that routes by its own words, "can I
hire one for the weekend", keeps its route), and only by closed classes of words, no model:

- what points back: "it", "its", "them", "they", "their", "one", "that one", "this one", "the
  same", "those", "her", "him", "there" (not "there is"); not a dummy "it" ("is it raining",
  "is it true", "what time is it", "how far is it", "is it possible to", and by shape "is it
  a/an ...", "what's it like (there)", "will it be ADJ" but for a state or place of an object
  or a participle: "will it be ready", "will it be fixed" point back); nothing when a noun phrase
  comes before the pointing word in its own piece ("my knee hurts when I bend it");
- what it stands for: a noun phrase of an earlier piece, the nearest piece with one that fits,
  the first phrase of that piece that fits: "they", "them", "their" and "those" want a plural
  ("workshops", "the letters"), "it" and "its" a singular, "her" and "him" a name ("Dr Patel");
  "one" and the rest any; for "one" and "the same" the bracket names the kind without number
  or determiner ("one [tickets]", not "(Two tickets)"). A word in "-ing" before a name, a
  number or a determiner opens no noun phrase ("showing Moana 2"), and "next"/"last" are none
  of one. The earlier piece's agent must be a sub-agent: a pronoun that points
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
# Quantifiers that stand for a kind named before when no noun follows them.
_ELLIPTIC = word_class("another some")
# "there is" / "there are" introduce, they do not point.
_EXISTENTIAL = word_class("is are was were be been 's isn't aren't will would")
# What a request says of its object ("is the boardroom free", "will it be ready"): a state, not a
# judgement of the world.
_STATES = word_class(
    "free available open closed ready broken sold left working busy full empty ok okay safe "
    "suitable fine able possible late early back done over"
)
# A dummy "it": the weather, the time, a judgement of what follows ("is it true that ..."), and
# by shape: "is it a/an NOUN" ("is it a bank holiday"), "what's it like (there)", and "will it be
# ADJ" when ADJ is no word of ``_STOP`` (a state of an object, "ready"; a place, "there") nor a
# participle ("will it be dark", not "will it be ready", "will it be fixed").
_DUMMY = re.compile(
    r"\b(?:what time|what day|what date|how far|how long until|how cold|how hot|how warm)"
    r"\s+(?:is|was|will)\s+it\b"
    r"|\bit(?:'s|s)?\s+(?:(?:is|was|will|be|going|gonna|to|get|getting|still|likely|supposed)\s+)*"
    r"(?:rain|snow|sleet|hail|drizzl|pour|sunny|hot\b|cold\b|warm\b|chilly|windy|cloudy|freez"
    r"|foggy|stormy|humid|weather|true\b|far\b|possible|worth|necessary|too late|too early)"
    r"|\b(?:is|was|isn't|wasn't)\s+it\s+an?\b"
    r"|\b(?:what's|whats|what\s+is|what\s+was|how's|how\s+is)\s+it\s+like\b(?:\s+there\b)?",
    re.IGNORECASE,
)
_IT_BE = re.compile(
    r"\b(?:will|would|won't|is|was|isn't)\s+it\s+(?:be|going\s+to\s+be|gonna\s+be)\s+([\w']+)",
    re.IGNORECASE,
)
# Words no noun phrase is made of (closed classes): question words, auxiliaries, request verbs,
# prepositions, conjunctions, pronouns, and the adverbs and predicate adjectives a request says of
# its object ("is the boardroom free", "is my repair ready").
_STOP = (
    WH_SET
    | AUXILIARIES
    | _STATES
    | word_class(
        "what's whats how's where's i'm i'd i'll i've you're we're it's that's there's "
        "and or but if so then also too as than because while when whether "
        "of in on at to for from with by about into onto over under near around after before "
        "until till since between during without within off out up down via per "
        "i me you we us he she him her it its they them their there here this that these those "
        "one same someone anyone anything something "
        "please just still already yet now today tonight tomorrow yesterday soon again right "
        "not no yes very really much many more most less any all "
        "next last "
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
    sub-agent names given to that agent, its text with the thing it stands for in brackets right
    after the word that points (the module's docstring says which words count). The others are
    as they were."""
    out = list(entries)
    for index, entry in enumerate(entries):
        if index == 0 or entry.agent != parent:
            continue
        pointing = _pointing(entry.request)
        if pointing is None:
            continue
        wanted, end = pointing
        for earlier in reversed(entries[:index]):
            phrase = _phrase(earlier.request, wanted)
            if phrase is None:
                continue
            if earlier.agent != parent:
                # Right after the pointing word, inside its clause: a sub-agent that cuts the
                # request at "and" or "then" keeps the two together ("will it [the taxi] be
                # ..."). Square brackets: a round one ends the clause of a quoted refusal ("I
                # can't help with "..." here.") for the missed-request check, which would then
                # read the rest as an answer.
                text = f"{entry.request[:end]} [{phrase}]{entry.request[end:]}"
                out[index] = PlanEntry(request=text, agent=earlier.agent)
            break
    return out


def _pointing(text: str) -> tuple[str, int] | None:
    """What ``text``'s pointing word needs to stand for ("plural", "singular", "person", "kind"
    for "one" and "the same", "any" for "there") and where it ends in ``text``, or None when
    nothing in it points back, or when a noun phrase comes before it in ``text`` itself ("I need
    an apartment, can you get me one"; "my knee hurts when I bend it"). A leading connective
    ("while you're at it, ...", ``LEAD``) and a dummy "it" (``_dummy``) are no part of it."""
    opening = LEAD.match(text)
    start = opening.end() if opening else 0
    blanked = _dummy(text)
    matches = list(_TOKEN.finditer(blanked, start))
    words = [m.group().lower().replace("’", "'") for m in matches]
    for index in range(len(words)):
        wanted = _wants(words, index)
        if wanted is not None:
            if _phrases(text[start : matches[index].start()]):
                return None
            return wanted, matches[index].end()
    return None


def _dummy(text: str) -> str:
    """``text`` with each dummy "it" (``_DUMMY``, ``_IT_BE``) blanked out, same length."""
    spans = [m.span() for m in _DUMMY.finditer(text)]
    for match in _IT_BE.finditer(text):
        word = match.group(1).lower()
        # "will it be dark": a word no noun phrase is made of ("ready", "there", "back")
        # says where or how the object is; a participle what is done to it ("fixed").
        if word not in _STOP and not word.endswith(("ed", "en")):
            spans.append(match.span())
    for begin, end in spans:
        text = text[:begin] + " " * (end - begin) + text[end:]
    return text


def _wants(words: list[str], index: int) -> str | None:
    """What ``words[index]`` needs to stand for, if it points back (``_pointing``)."""
    word = words[index]
    after = words[index + 1] if index + 1 < len(words) else ""
    before = words[index - 1] if index else ""
    if word in _PLURAL:
        return "plural"
    if word in _SINGULAR:
        return "singular"
    if word in _PERSON and (not after or after in _AFTER_ONE):
        return "person"
    if word == "one" and before not in _NOT_ONE and (not after or after in _AFTER_ONE):
        return "kind"
    if word == "same" and before == "the":
        return "kind"
    # "another for my call", "please order some": a quantifier standing alone for a kind named
    # before ("set an alarm for my meeting and another for my call").
    if word in _ELLIPTIC and (not after or after in _AFTER_ONE):
        return "kind"
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
        if wanted == "kind":
            # "one" and "the same" stand for the kind of thing, not its number: "(tickets)",
            # not "(Two tickets)", which a booking tool would read as two.
            bare = [w for w in phrase if w.lower() not in _DETERMINERS and not w[:1].isdigit()]
            phrase = bare or phrase
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
            # A word in "-ing" before a name, a number or a determiner is a verb ("showing
            # Moana 2"); before a noun it may open one ("reading groups").
            or (word.endswith("ing") and not run and _object_follows(tokens, index))
        ):
            runs.append(run)
            run = []
        else:
            # A text's first word is capitalised as a sentence opens, not as a name.
            run.append(token if index else word)
    runs.append(run)
    return [r for r in runs if _nouns(r) and _phrase_like(r)]


def _object_follows(tokens: list[str], index: int) -> bool:
    """Whether the token after ``index`` is a name, a number or a determiner."""
    if index + 1 >= len(tokens):
        return False
    after = tokens[index + 1]
    return after[:1].isupper() or after[:1].isdigit() or after.lower() in _DETERMINERS


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

"""Whether a question back is about a request (:func:`asked_elsewhere`), read by the answer
matcher (:mod:`harness.detect.answers`) so that a bot that leaves a request out and asks about
another task in its place ("what's my checking balance" answered by "How many people will be
dining?") is not read as following that request up.

A question back that shares no word with any request may still follow one up ("In what city?"
for "find me a dentist"), so the matcher lets it answer one. It is held back only on positive
evidence that it belongs to another task, learned from the Schema-Guided Dialogue *train*
dialogues (CC BY-SA 4.0; ``_models/asking_words.json``, counted by
``tools/detector/fit_asking_words.py``): the share of each word's uses in each kind of task
(domain), and the words real systems ask with about one domain only ("bedroom": homes,
"cuisine": restaurants, "account": banks). A question is of another task than a request when

- it asks with such a word, and no word of the request is used in that word's domain more than
  by chance ("pay" is used in banks, so "From which account?" may follow up "pay my rent"), and
- either a word of the request is mostly used in one or two other domains ("balance": banks;
  "movie": movies and media) where the asking word is not used, or a word of another request
  of the same message is mostly used in the question's domain (then it is that request's
  question back: "How many bedrooms?" beside "find me an apartment" is not the locksmith's).

A question also says its task by its subject: a word real systems ask about in one or two
domains, and mostly use there ("Which movie do you want to watch?": media and movies;
:func:`subject_domains`). Such a question is of another task than a request of no one domain
too, when every word of the request is known to the counts and none is used where the question
is asked ("how much time did I take off so far" and "Which song would you like to play?").

The association table of the matcher (a dozen words per row, learned from SGD wording) only
ever vetoes: a question tied to the request there, directly or by the company the words keep,
is never held back. A word the counts never saw ("train", "jazz", "plumber") or one used in many
domains ("book", "get", "call") is no evidence either way; a request named by a pronoun
("book it") has no words of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from harness.detect._answer_terms import DEICTIC, Associations, words_of

__all__ = ["asked_elsewhere", "neighbours", "task_words"]

_MODEL = Path(__file__).resolve().parent / "_models" / "asking_words.json"

# The least share of the smaller company two words keep in common for them to be of one task
# (chosen on the development splits: "music" and "concert" 0.48, "album" and "music" 0.34,
# "bedroom" and "flight" 0.02; 0.15 and 0.35 moved the figures by a few turns).
SAME_COMPANY = 0.25
# The least share of a request word's uses in one domain, or in two, for the request to be of
# them: the fit's criterion for asking words ("movie": 0.55 media and 0.44 movies; "get": 0.51
# ride sharing and 0.13 events, no).
OF_A_DOMAIN = 0.8
# How many times its chance share a word's share of uses in a domain must be for it to be used
# there ("pay": 3 times in banks; "call": 1.6 times in homes, "would you like to call them").
USED_IN = 2.0

_WORD = re.compile(r"[a-z']+")
# Before another word they are determiners ("this weekend", "that place"), naming nothing
# elsewhere (a closed class).
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
# A capitalised word inside a sentence, or a word with a digit: a name or a value the request
# gives ("Ridin High", "AA123"), which says nothing of what its task is.
_NAMED = re.compile(r"(?<=[\w,;:] )[A-Z][\w'’-]*|\b\w*\d[\w-]*")

# The company of the tables read (the shipped matcher's, a test's), each made once.
_MADE: list[tuple[Associations, dict[str, frozenset[str]]]] = []


@cache
def _model() -> tuple[dict[str, str], dict[str, dict[str, float]], dict[str, float]]:
    raw = json.loads(_MODEL.read_text(encoding="utf-8"))
    return raw["asking"], raw["shares"], raw["base"]


@cache
def _subjects() -> dict[str, dict[str, float]]:
    """Per word real systems ask about in one or two domains, the share of its asking uses in
    each domain it is asked in (``subjects`` of ``_models/asking_words.json``)."""
    raw: dict[str, dict[str, float]] = json.loads(_MODEL.read_text(encoding="utf-8"))["subjects"]
    return raw


@cache
def _asked_about(word: str) -> frozenset[str]:
    """The one or two domains real systems ask about ``word`` in, each with a real share of
    its asking uses ("movie": media and movies), if it is a subject at all (the fit keeps out
    the everyday words CLINC150 spreads over its domains: "long", "back", "happen")."""
    return frozenset(_subjects().get(word, {}))


@cache
def _used_in(word: str) -> frozenset[str]:
    """The domains ``word`` is used in more than by chance (its share there at least
    :data:`USED_IN` times the domain's share of all uses): "pay" in banks, not "call" in homes."""
    _, shares, base = _model()
    return frozenset(d for d, s in shares.get(word, {}).items() if s >= USED_IN * base[d])


@cache
def _of(word: str) -> frozenset[str]:
    """The one or two domains ``word`` is mostly used in (together :data:`OF_A_DOMAIN` of its
    uses: "movie" in movies and media), if any."""
    _, shares, _ = _model()
    top = sorted(shares.get(word, {}).items(), key=lambda item: (-item[1], item[0]))[:2]
    if top and top[0][1] >= OF_A_DOMAIN:
        return frozenset({top[0][0]})
    if len(top) == 2 and top[0][1] + top[1][1] >= OF_A_DOMAIN:
        return frozenset(d for d, _ in top)
    return frozenset()


def neighbours(table: Associations) -> dict[str, frozenset[str]]:
    """Per word the table knows, on either side (a reply's or a request's), the words it goes
    with, and itself."""
    for known, company in _MADE:
        if known is table:
            return company
    out: dict[str, set[str]] = {}
    for word, row in table.items():
        for other in row:
            out.setdefault(word, {word}).add(other)
            out.setdefault(other, {other}).add(word)
    company = {w: frozenset(c) for w, c in out.items()}
    del _MADE[:-3]  # a few tables at most (tests make their own)
    _MADE.append((table, company))
    return company


def task_words(request: str) -> frozenset[str]:
    """The words of a request that may name its task: its content words without names and
    values; none when it names its task by a pronoun ("book it", "find a cheaper one", "is
    that open": its task is named elsewhere)."""
    said = _WORD.findall(request.lower())
    if any(
        w in DEICTIC and not (w in _DEMONSTRATIVES and k + 1 < len(said))
        for k, w in enumerate(said)
    ):
        return frozenset()
    return words_of(_NAMED.sub(" ", request))


def asked_domains(question: str) -> frozenset[str]:
    """The domains the question asks about with a word of one domain only (none for "In what
    city?")."""
    asking = _model()[0]
    return frozenset(asking[w] for w in words_of(question) if w in asking)


def subject_domains(question: str) -> frozenset[str]:
    """The domains the question asks about by its subject: the one or two domains real systems
    ask about a word of it in ("Which day would you like to see the movie?": media, movies;
    none for "What time?"), where the word is also mostly used in all its uses (:func:`_of`).
    A word asked about in one sense and used in another is no evidence: "call" is asked about
    in calendars ("what should the event be called?") but used in all kinds of task ("would you
    like to call them?"); "living" is asked about in homes, used mostly of live music."""
    return frozenset(d for w in words_of(question) for d in _asked_about(w) & _of(w))


def _tied(question: str, request: frozenset[str], table: Associations) -> bool:
    company = neighbours(table)
    for w in words_of(question):
        if w not in company:
            continue
        row, mine = table.get(w, {}), company[w]
        for r in request:
            if row.get(r, 0.0) > 0 or table.get(r, {}).get(w, 0.0) > 0:
                return True
            theirs = company.get(r)
            if theirs and len(mine & theirs) >= SAME_COMPANY * min(len(mine), len(theirs)):
                return True
    return False


def asked_elsewhere(
    question: str, request: str, table: Associations, *, others: Sequence[str] = ()
) -> bool:
    """Whether ``question`` is positively about another task than ``request`` (``others``: the
    other requests of the message): "How many bedrooms do you need?" for "what's my checking
    balance", or for "find me a locksmith" beside "find me an apartment"."""
    subjects = subject_domains(question)
    asked = asked_domains(question) | subjects
    words = task_words(request)
    if not asked or not words or any(_used_in(w) & asked for w in words):
        return False
    if _tied(question, words, table):
        return False
    own = {d for w in words for d in _of(w)}
    asking = _model()[0]
    # The domains the question's words may be of: where its asking words are used more than by
    # chance; the domains real systems ask about its subject words in, each with a real share
    # of its own (a stray 2 % of "hear" asked in buses is not one), and those whose turns use
    # the subject at all ("traveling" is said in hotel searches).
    said = words_of(question)
    traces = {d for w in said if w in asking for d in _used_in(w)}
    shares = _model()[1]
    for w in said:
        if _asked_about(w):
            traces |= _asked_about(w) | set(shares.get(w, {}))
    if own and not own & traces:
        return True
    # A question about a subject of one or two domains ("Is there a song you would like to
    # hear?"), after a request of no one domain whose words SGD's counts all know, none of them
    # used where the question's words are ("how much time did I take off so far"): the request
    # is of no task the question asks about. One word the counts never saw keeps the lenient
    # reading ("book a train": "train" may name the task).
    if (
        not own
        and subjects
        and all(w in shares for w in words)
        and not any(_used_in(w) & traces for w in words)
    ):
        return True
    return any(_of(w) & asked for other in others for w in task_words(other))

"""Lifecycle stages of a tracked item: what a status word says about how far a request, a claim,
an order or a ticket has come (issue 24, failure class 2).

"Expense EXP-5521 was submitted on 3 June." and "Your expense EXP-5521 from 3 June has been
approved." share every value, yet the second is news: the item moved on. The pair scorer cannot
learn that from its material: Schema-Guided Dialogue has no tracked items with ids, never uses a
status as a slot value, and its system turns hardly use these words at all ("approved" twice,
"submitted" twice, "shipped", "granted", "rejected" never, in 111,878 system turns of train;
``docs/journal/detector.md``, s59-status). So this is a closed class of general English words, the
statuses such an item passes through, each with a place in one order:

    filed (0) < pending (1) < decided (2) < carried out (3) < handed over (4)

``decided`` and ``carried out`` each have a going branch ("approved"; "shipped", "paid") and a
stopping one ("declined"; "cancelled", "expired").

Words with two readings are left out on purpose, so they never make a restatement an update:
"received" (we received your form: filed; you received the refund: carried out), "sent",
"booked", "placed", "confirmed", "processed", "arrived", "closed" (also opening hours), "open",
"review" alone (also a customer review: "under review" is kept as a phrase), "done" (also an
acknowledgement: "Done! Ticket INC-1 is logged."), "complete" and "fixed" (also adjectives: "a
complete list", "a fixed price"), "applied" (applied for, or a discount applied to), "issued" (a
permit issued is the decision, a refund issued is the payment, a case number issued is the
filing) and "collected" (a direct debit collected is paid, a parcel collected is handed over).

A status word counts only as what a claim states about its item (:func:`stages`): the predicate
of a clause about the item ("was approved", "has now been paid", "LV-1 approved", "... and
delivered on 7 May"), not a word that describes ("your paid leave request", "5 days of paid
leave", "a $5 processing fee", "pre-approved", ", completed and signed,"), not a condition or a
time ("once approved", "until it is paid", "because flight BA-2291 was cancelled"), not a question
("has it been delivered yet?"), not a stage not reached ("will be", "it'll be", "can be picked
up", "needs to be signed", "may have been", "should have been delivered by now": any modal, "to"
or "'ll" before the verb), and not the status of another item the clause names.

Words of one status in other words ("approved" / "granted", "shipped" / "dispatched") are listed
apart, in a short table of true synonyms (:func:`same_status`): the status words facts are read
with (:data:`harness.text.facts._STATES`) group words by the kind of fact, and "unpaid" /
"overdue" or "opened" / "reopened" are two statuses of one kind, not one status.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from harness.text._shapes import word_class

__all__ = ["Stage", "same_status", "stages"]


@dataclass(frozen=True, slots=True)
class Stage:
    """Where a status word puts an item in its lifecycle."""

    rank: int
    """0 filed, 1 pending, 2 decided, 3 carried out, 4 handed over."""
    stops: bool
    """The stopping branch of its rank ("declined", "cancelled"), not the going one."""
    status: str
    """The status the word states (its synonyms share it: "granted" is "approved")."""


_STATUSES: tuple[tuple[str, int, bool, str], ...] = (
    ("submitted", 0, False, "submitted lodged filed logged registered raised requested"),
    (
        "pending",
        1,
        False,
        "pending awaiting queued processing assessing reviewing; under review; in review; "
        "in progress; being processed; being reviewed; being assessed; being handled; on hold",
    ),
    ("approved", 2, False, "approved accepted granted authorised authorized"),
    ("denied", 2, True, "denied declined rejected refused"),
    ("completed", 3, False, "completed finished"),
    ("resolved", 3, False, "resolved"),
    ("paid", 3, False, "paid settled reimbursed"),
    ("refunded", 3, False, "refunded"),
    ("shipped", 3, False, "shipped dispatched posted; on its way; on the way"),
    ("ready", 3, False, "ready"),
    ("delivered", 4, False, "delivered; picked up"),
    ("cancelled", 3, True, "cancelled canceled withdrawn voided revoked"),
    ("expired", 3, True, "expired"),
)
"""Each status: its name, rank, branch, and its words and phrases (a phrase's words in order;
phrases after the first ";")."""

_SYNONYMS = (
    "submitted lodged filed",
    "approved accepted granted authorised authorized",
    "denied declined rejected refused",
    "completed finished",
    "resolved closed",
    "paid settled",
    "shipped dispatched posted",
    "cancelled canceled",
)
"""Words that state one status in other words, a short list of its own (not the lifecycle
table's groups: "logged" / "requested" or "withdrawn" / "revoked" are no one status, nor the fact
kinds of ``facts._STATES``)."""


def _table() -> tuple[dict[str, Stage], dict[tuple[str, ...], Stage]]:
    words: dict[str, Stage] = {}
    phrases: dict[tuple[str, ...], Stage] = {}
    for status, rank, stops, spelled in _STATUSES:
        stage = Stage(rank, stops, status)
        head, *rest = spelled.split(";")
        for word in head.split():
            words[word] = stage
        for phrase in rest:
            phrases[tuple(phrase.split())] = stage
    return words, phrases


_WORDS, _PHRASES = _table()
_FIRST = frozenset(p[0] for p in _PHRASES)
_SYNONYM_OF = {word: group.split()[0] for group in _SYNONYMS for word in group.split()}

_TOKEN = re.compile(
    r"[$£€#]?\d(?:[\d,.:]*\d)?(?:[-/]\w+)*"  # a number, an amount, a range ("3-7")
    r"|[\w'’]+(?:-[\w'’]+)*"  # a word; a hyphenated one is one token ("pre-approved", "LA-2210")
    r"|[.?!;:()\[\],]|(?<=\s)[-–—](?=\s)|[–—]"  # marks that end a clause
)
_MARKS = frozenset(".?!;:()[],-–—")
_SUBORDINATORS = word_class(
    "once when whenever if unless until till before after because since while whereas although "
    "though whether which who whom whose where lest"
)
"""Words that open a clause that is not the statement (a condition, a time, a reason, a
relative clause): a closed class of English subordinators and relative pronouns."""
_SUBORDINATE_PHRASES = (("as", "soon", "as"), ("as", "long", "as"), ("in", "case"), ("now", "that"))
_COORDINATORS = word_class("and but or so then plus")
_BE = word_class(
    "is are was were be been being am has have had get gets got become became isn't aren't "
    "wasn't weren't hasn't haven't"
)
"""Auxiliaries and copulas a status stated as reached comes after ("was approved", "has been
paid", "got accepted", "it's ready")."""
_NOT_YET = word_class(
    "to can could will would may might must should shall won't wouldn't can't cannot couldn't "
    "shouldn't needs need going"
)
"""Words that make the verb after them a possibility or a plan, not a state reached (English
modals, "to", "needs (to)", "going (to)")."""
_ADVERBS = word_class(
    "now already just also finally fully successfully recently today yesterday still all duly "
    "officially formally"
)
"""Adverbs that may stand between an auxiliary and its verb ("has now been approved"); a
contraction's "'s" is read as "is" or "has" ("it's ready", "it's been approved")."""
_DETERMINERS = word_class(
    "a an the your my our their his her its this that these those any no every each some"
)
_PREPOSITIONS = word_class(
    "of for with to in on at by from about into under over per as without via than"
)
_GOES_ON = _BE | _ADVERBS | _NOT_YET | word_class("it it's this")
"""How a clause that does not name the item opens when it still says something about it: with
no subject of its own ("... and has been approved"), or with "it" or "this"."""
_ASKING = word_class(
    "is are was were has have had do does did can could will would shall should may might"
)
_ASKED = word_class("it you they we i he she this that the your my there")


def _key(token: str) -> str:
    return re.sub(r"[^0-9a-z]", "", token.lower())


def _pieces(text: str) -> list[tuple[str, list[str]]]:
    """``text`` cut into clauses, each with how it opens: "mark" (after a punctuation mark or at
    the start), "and" (after a coordinator), "sub" (a subordinator or relative pronoun), "ask" (a
    question: it ends with "?" or opens with an auxiliary and a subject)."""
    out: list[tuple[str, list[str]]] = []
    kind = "mark"
    words: list[str] = []
    tokens = [t.replace("’", "'") for t in _TOKEN.findall(text.lower())]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        opens = ""
        if token in _MARKS:
            if token == "?" and words:
                kind = "ask"
            opens = "mark"
        elif token in _SUBORDINATORS:
            opens = "sub"
        elif token in _COORDINATORS:
            opens = "and"
        else:
            for phrase in _SUBORDINATE_PHRASES:
                if tuple(tokens[i : i + len(phrase)]) == phrase:
                    opens = "sub"
                    i += len(phrase) - 1
                    break
        if not opens:
            words.append(token)
            i += 1
            continue
        if words:
            out.append((kind, words))
        # a subordinate clause stays subordinate through "and" ("because X was cancelled and
        # refunded"); a question mark ends its clause.
        if opens == "and" and kind == "sub" and words:
            opens = "sub"
        kind, words = opens, []
        i += 1
    if words:
        out.append((kind, words))
    return [
        ("ask", w) if k != "sub" and len(w) > 1 and w[0] in _ASKING and w[1] in _ASKED else (k, w)
        for k, w in out
    ]


def _reached(words: list[str], i: int) -> str:
    """How the status at ``words[i]`` stands: "be" (after an auxiliary or a copula, as reached),
    "bare" (no auxiliary before it), or "" (not reached: a modal, "to" or "'ll" before it)."""
    j = i - 1
    be = False
    while j >= 0 and (words[j] in _BE or words[j] in _ADVERBS or words[j] in _NOT_YET):
        if words[j] in _NOT_YET:
            return ""
        be = be or words[j] in _BE
        j -= 1
    if j >= 0 and words[j].endswith(("'ll", "'d")):
        return ""
    if j >= 0 and words[j].endswith("'s") and not be:
        return "be"  # "it's ready", "order's shipped"
    return "be" if be else "bare"


def _stated(words: list[str]) -> list[tuple[int, Stage]]:
    """The status words and phrases of one clause, with where each stands."""
    out: list[tuple[int, Stage]] = []
    for i, word in enumerate(words):
        stage = _WORDS.get(word)
        if stage is not None:
            out.append((i, stage))
        if word in _FIRST:
            for phrase, found in _PHRASES.items():
                if tuple(words[i : i + len(phrase)]) == phrase:
                    out.append((i, found))
    return out


@lru_cache(maxsize=16_384)
def stages(
    text: str, names: frozenset[str] = frozenset(), others: frozenset[str] = frozenset()
) -> frozenset[Stage]:
    """The lifecycle stages ``text`` (one claim) states about its item: ``names``, the item's
    ids or labelled numbers as fact values ("la2210", "8832"), ``others`` those of other items.

    A status counts as the predicate of a clause that is a statement (not a question, not opened
    by a subordinator, not a stage not reached) and is about the item: the clause names it, or
    it goes on without a subject of its own ("... and has been approved") or with "it" / "this",
    and it names no other item. After an auxiliary or a copula it counts ("was approved", "is
    under review"); without one, only right after the item's words as a verb ("LV-1 approved",
    "Order OR-55 for the lamp shipped on 5 May") or opening a clause that goes on ("... and
    delivered on 7 May"), never after a determiner, a preposition or a number ("of paid leave", "a
    $5 processing fee") nor before the clause's auxiliary ("5 days paid leave was submitted")."""
    out: set[Stage] = set()
    verb = False  # the clause before this one had a verb: "and" may go on with another
    for kind, words in _pieces(text):
        went_on, verb = verb and kind == "and", False
        if kind in ("sub", "ask"):
            continue
        keys = [_key(w) for w in words]
        named = [i for i, k in enumerate(keys) if k and k in names]
        if any(k and k in others for k in keys) and not named:
            continue
        first = words[0]
        if not named and not (
            first in _GOES_ON or first in _PREPOSITIONS or first in _WORDS or first in _FIRST
        ):
            continue  # a clause with a subject of its own: about someone or something else
        verb = any(w in _BE for w in words)
        for i, stage in _stated(words):
            how = _reached(words, i)
            if how == "be":
                out.add(stage)
            elif how == "bare" and (
                (named and named[0] < i)
                or (i == 0 and went_on)
                or (i == 1 and first in ("it", "this"))
            ):
                before = words[i - 1] if i else ""
                if (
                    before not in _DETERMINERS
                    and before not in _PREPOSITIONS
                    and not (before and (before[0].isdigit() or before[0] in "$£€#"))
                    and not (words[i].endswith("ing") and words[i] != "pending")
                    # a clause has one verb: with an auxiliary after it, the word was in the
                    # subject ("Leave LV-1 for 5 days paid leave was submitted")
                    and not any(w in _BE for w in words[i + 1 :])
                ):
                    out.add(stage)
                    verb = True
    return frozenset(out)


def same_status(a: str, b: str) -> bool:
    """Whether the words ``a`` and ``b`` state one status in other words ("granted" /
    "approved", "dispatched" / "shipped", "resolved" / "closed"), by a short list of true
    synonyms (``_SYNONYMS``). Two statuses of one kind ("unpaid" / "overdue", "opened" /
    "reopened", "withdrawn" / "revoked") are not one."""
    a, b = a.lower(), b.lower()
    if a == b:
        return False
    first = _SYNONYM_OF.get(a)
    return first is not None and first == _SYNONYM_OF.get(b)

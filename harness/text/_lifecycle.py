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
stopping one ("declined"; "cancelled", "expired"). Words of one status are synonyms ("approved",
"accepted", "granted": the same as :data:`harness.text.facts._STATES` reads them), so a
restatement that rewords a status stays a restatement (:func:`same_status`).

Words with two readings are left out on purpose, so they never make a restatement an update:
"received" (we received your form: filed; you received the refund: carried out), "sent",
"booked", "placed", "confirmed", "processed", "arrived", "closed" (also opening hours), "open",
"review" alone (also a customer review: "under review" is kept as a phrase), "done" (also an
acknowledgement: "Done! Ticket INC-1 is logged."), "complete" and "fixed" (also adjectives: "a
complete list", "a fixed price"), "applied" (applied for, or a discount applied to). A status
word right after a determiner modifies a noun and states nothing ("your paid leave request",
"the approved supplier list"): it is read only as a predicate ("was paid", "LV-1 approved").
A status after "be" that a modal or "to" opens is not reached yet ("can be picked up", "will be
approved", "needs to be signed"), so it states no stage either.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from harness.text._shapes import word_class
from harness.text.facts import state_of
from harness.text.words import tokens

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
    ("issued", 3, False, "issued"),
    ("completed", 3, False, "completed finished"),
    ("resolved", 3, False, "resolved"),
    ("paid", 3, False, "paid settled reimbursed"),
    ("refunded", 3, False, "refunded"),
    ("shipped", 3, False, "shipped dispatched posted; on its way; on the way"),
    ("ready", 3, False, "ready"),
    ("delivered", 4, False, "delivered"),
    ("collected", 4, False, "collected; picked up"),
    ("cancelled", 3, True, "cancelled canceled withdrawn voided revoked expired"),
)
"""Each status: its name, rank, branch, and its words and phrases (a phrase's words in order;
phrases after the first ";")."""


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
_DETERMINERS = word_class(
    "a an the your my our their his her its this that these those any no every each some"
)
"""English determiners, a closed class: a status word after one modifies a noun."""
_NOT_YET = word_class("to can could will would may might must should shall")
"""Words before "be" that make what follows a possibility, not a state reached (a closed class:
English modals and the infinitive's "to")."""


def _stated(words: list[str], i: int) -> bool:
    """Whether the status at ``words[i]`` is stated as reached: not after a determiner, not
    after a modal's or an infinitive's "be"."""
    if i and words[i - 1] in _DETERMINERS:
        return False
    return not (i > 1 and words[i - 1] == "be" and words[i - 2] in _NOT_YET)


@lru_cache(maxsize=16_384)
def stages(text: str) -> frozenset[Stage]:
    """The lifecycle stages the status words and phrases of ``text`` (one claim) state."""
    words = tokens(text)
    out: set[Stage] = set()
    for i, word in enumerate(words):
        stage = _WORDS.get(word)
        if stage is not None and _stated(words, i):
            out.add(stage)
        if word in _FIRST and _stated(words, i):
            for phrase, stage in _PHRASES.items():
                if tuple(words[i : i + len(phrase)]) == phrase:
                    out.add(stage)
    return frozenset(out)


def same_status(a: str, b: str) -> bool:
    """Whether the words ``a`` and ``b`` state one status in other words ("granted" /
    "approved", "dispatched" / "shipped", "resolved" / "fixed"), by this class or by the status
    words facts are read with (:data:`harness.text.facts._STATES`)."""
    a, b = a.lower(), b.lower()
    if a == b:
        return False
    first, second = _WORDS.get(a), _WORDS.get(b)
    if first is not None and second is not None and first.status == second.status:
        return True
    state = state_of(a)
    return state is not None and state == state_of(b)

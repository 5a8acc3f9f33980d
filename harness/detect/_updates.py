"""A new state of the same item is an update, not a repeat (issue 24, failure class 2).

Two messages about one labelled item ("Room 214", "job 4471", "DL 1422") share its number, and
the pair scorer, fitted on material whose shared values are what a message says (times, prices,
places), reads a shared value as a shared claim: "Room 214 is still being cleaned." / "Room 214 is
ready and your key cards are at the front desk." scores as a repeat. The issue's definition is
that a repeat says the same about the same subject; a shared id or name alone is never one. This
stated rule (:func:`new_state`) reads what each message says *about* the item: the words of its
claims that hold the shared facts, less the facts' own words and the words naming the item. When
the later message says none of what the earlier said about it (not the same word, not a learned
rewording: :func:`~harness.detect._wording.rewordings`) and says something else, it is an update.

It is narrow on purpose. The shared facts must be the item and nothing else, named one of two
ways in both messages: by a label word before a number or an id, the same in both ("Room 214" /
"room 214"; a number followed by a content word is a count, "1 movie", not an item), or as the
subject of a claim, the words before its first auxiliary, worded alike in both ("Your order of 2
Nike Pegasus shoes is packed ..." / "Your order of 2 Nike Pegasus shoes has shipped ..."). SGD's
crowd paraphrases reword what they say about an entity freely ("I found a nice place called Chop
Bar and it's located in Oakland." / "Chop Bar is also an excellent restaurant in Oakland."), so a
rule that took any shared name or count as the item would excuse them (``docs/journal/detector.md``
has the counts). Two states that share no word are told apart only as far as the learned rewordings
go: "Your order 1234 is on its way." / "Order 1234 has shipped." says the same state in words SGD
never swaps: as the reply to the user's next message the rule reads it as an update; sent
unprompted after another answer, it is left to the scorer.

A second rule, :func:`new_stage`, reads a later *status* of an item named by an id or a labelled
number, by a closed class of lifecycle statuses (:mod:`harness.text._lifecycle`): "Expense
EXP-5521 for $412 was submitted on 3 June." / "Your expense EXP-5521 from 3 June has been
approved." shares every value and still reports news. It asks neither for the reply condition
nor for the item alone among the shared facts: a status moving on is read from the status words,
as what each message states about the item (the predicate of a clause about it, not a word that
describes, a condition, a question, a stage not reached or another item's status). The duplicate
detector never lets it excuse a word-for-word repeat.
"""

from __future__ import annotations

from functools import lru_cache

from harness.detect._features import _side
from harness.detect._wording import rewordings
from harness.text import STOPWORDS, Analysis, content_words, stem, tokens
from harness.text._lifecycle import Stage, stages

__all__ = ["new_stage", "new_state"]

_SUBJECT = ("id:", "name:", "acronym:", "email:", "url:")
"""Fact kinds that name what a claim is about (as the pair scorer's features split them)."""
_ITEM = ("num:", "id:")
"""Fact kinds a label word may stand before ("Room 214", "order A-5531")."""


_AUXILIARY_WORDS = """is are was were am be been being has have had will would shall should can
could may might must do does did"""
_AUXILIARIES = frozenset(_AUXILIARY_WORDS.split())
"""English auxiliary and copula verbs, a closed class: where a simple claim's subject ends ("Your
order of 2 Nike Pegasus shoes | is packed ...")."""


def _find(words: list[str], value: str) -> tuple[int, int] | None:
    """Where ``value`` (a fact's canonical value, compared without its marks and spaces: "a5531"
    is "A-5531", "nikepegasus" is "Nike Pegasus") stands in ``words``: its first and last word,
    or None."""
    want = "".join(ch for ch in value if ch.isalnum())
    if not want:
        return None
    for i, word in enumerate(words):
        if not word or not want.startswith(word):
            continue
        joined, j = word, i
        while len(joined) < len(want) and j + 1 < len(words):
            j += 1
            joined += words[j]
        if joined == want:
            return i, j
    return None


@lru_cache(maxsize=16_384)
def _label(text: str, value: str) -> str:
    """The stem of the word right before ``value`` (a number or an id) in ``text`` when it names
    an item: not a stop word or a number, and, for a plain number, followed by a stop word or
    nothing (so "Room 214 is" and "job 4471:" label their numbers, while "found 1 movie" counts).
    "" when there is none."""
    words = tokens(text)
    found = _find(words, value)
    if found is None:
        return ""
    i, j = found
    plain = "".join(ch for ch in value if ch.isalnum()).isdigit()
    if plain and j + 1 < len(words) and words[j + 1] not in STOPWORDS:
        return ""
    if i == 0 or words[i - 1] in STOPWORDS or not words[i - 1].isalpha():
        return ""
    return stem(words[i - 1])


@lru_cache(maxsize=16_384)
def _subject(text: str, shared: frozenset[str]) -> frozenset[str] | None:
    """The content words before the first auxiliary of ``text`` (a claim) when every ``shared``
    fact stands there: the subject the claim says something about ("Your order of 2 Nike Pegasus
    shoes is packed ..."). None when there is no such subject."""
    words = tokens(text)
    cut = next((k for k, w in enumerate(words) if w in _AUXILIARIES or w.endswith("'s")), 0)
    if cut == 0:
        return None
    for key in shared:
        found = _find(words, key.partition(":")[2])
        if found is None or found[1] >= cut:
            return None
    return content_words(" ".join(words[:cut]))


def _labels(analysis: Analysis, key: str) -> set[str]:
    """The labels of fact ``key`` in the claims of ``analysis`` that hold it."""
    value = key.partition(":")[2]
    out = {_label(c.span.text, value) for c in analysis.claims if key in c.facts}
    out.discard("")
    return out


def _subjects(analysis: Analysis, shared: frozenset[str]) -> set[frozenset[str]]:
    """The subjects (:func:`_subject`) of the claims of ``analysis`` that hold a shared fact."""
    out = {_subject(c.span.text, shared) for c in analysis.claims if c.facts & shared}
    return {s for s in out if s}


def _items(earlier: Analysis, later: Analysis, shared: frozenset[str]) -> set[str] | None:
    """The words that name the item both messages speak of, when the shared facts are the item
    and nothing else; else None. Either every shared fact is a name or a number or an id under
    the same label in both, one of them labelled ("Room 214" / "room 214": the labels), or both
    have a claim whose subject holds every shared fact, a name or an id among them, and is
    worded alike ("Your order of 2 Nike Pegasus shoes is packed ..." / "Your order of 2 Nike
    Pegasus shoes has shipped ...": the subject's words; not "Your table for 4 is ..."). Both namings of the item, where both hold, are its words ("Refund for
    order 7781 is ...": "order" and "refund")."""
    labels: set[str] = set()
    for key in shared:
        if key.startswith(_ITEM):
            both = _labels(earlier, key) & _labels(later, key)
            if both:
                labels |= both
                continue
        if not key.startswith(_SUBJECT):
            labels.clear()
            break
    # A subject names an item only with a name or an id in it: "Your table for 4" or "Your
    # refund of $40" share a count or an amount, which may be all the two claims are about.
    named = any(key.startswith(_SUBJECT) for key in shared)
    alike = _subjects(earlier, shared) & _subjects(later, shared) if named else set()
    if not labels and not alike:
        return None
    return labels.union(*alike)


def _about(analysis: Analysis, shared: frozenset[str], item: set[str]) -> set[str]:
    """What ``analysis`` says about the shared facts: the content words of its claims that hold
    one, less the facts' own words and the words naming the item (``item``: :func:`_items`)."""
    out: set[str] = set()
    for claim in analysis.claims:
        if claim.facts & shared:
            out |= claim.words
    for key in shared:
        out -= content_words(key.partition(":")[2])
    return out - item


def _says(words: set[str], said: frozenset[str]) -> bool:
    """Whether any of ``words`` is in ``said``, as itself or a learned rewording."""
    table = rewordings()
    return any(w in said or not table.get(w, frozenset()).isdisjoint(said) for w in words)


def new_state(earlier: Analysis, later: Analysis, *, replied: bool = False) -> bool:
    """Whether ``later`` gives a new state of the item ``earlier`` spoke of: it is the reply to
    its turn's user message (not ``replied``: no bot message of its turn came before it), the
    two share only the item (:func:`_items`: labelled numbers or ids and names, or an alike
    subject), ``later`` says none of what ``earlier`` said about it and something else ("Room
    214 is still being cleaned." / "Room 214 is ready ..."; "DL 1422 is delayed." / "DL 1422
    will land at 7:32 PM."), and does not say it repeats ("As I said, ..."). Such a pair is an
    update, not a duplicate.

    A message sent after its turn's reply (``replied``) answers no new question of the user's,
    so the same item in other words there ("Your order 1234 is on its way." / later, after
    another answer, "Order 1234 has shipped.") is left to the scorer, as the *resent* rule
    leaves a turn's first reply to it."""
    if replied:
        return False
    shared = earlier.facts & later.facts
    if not shared:
        return False
    item = _items(earlier, later, shared)
    if item is None:
        return False
    said = _about(earlier, shared, item)
    if not said or _says(said, later.words):
        return False
    says = _about(later, shared, item)
    if not any(not _says({w}, earlier.words) for w in says):
        return False
    return not _side(later).says_repeat


def _references(earlier: Analysis, later: Analysis) -> frozenset[str]:
    """The facts both messages share that name one tracked item: its id ("EXP-5521",
    "INC-30418") or a number under the same label word in both ("card 8832" / "Card 8832")."""
    out = set()
    for key in earlier.facts & later.facts:
        if key.startswith("id:") or (
            key.startswith("num:") and _labels(earlier, key) & _labels(later, key)
        ):
            out.add(key)
    return frozenset(out)


def _stages(
    analysis: Analysis, references: frozenset[str], *, refers_back: bool = False
) -> set[Stage]:
    """The lifecycle stages the claims of ``analysis`` state about a referenced item
    (:func:`~harness.text._lifecycle.stages`: the predicate of a statement about it, not a word
    that describes, a condition, a question or another item's status; a negated claim states
    none: "has not been approved yet"). ``refers_back``: claims that name no other item count too
    ("Claim CL-1 was lodged on 4 April. It is now under review.")."""
    names = frozenset(key.partition(":")[2] for key in references)
    out: set[Stage] = set()
    for claim in analysis.claims:
        if claim.negated:
            continue
        others = frozenset(
            key.partition(":")[2] for key in claim.facts - references if key.startswith("id:")
        )
        if claim.facts & references or (refers_back and not others):
            out |= stages(claim.span.text, names, others)
    return out


def new_stage(earlier: Analysis, later: Analysis) -> bool:
    """Whether ``later`` moves an item ``earlier`` named by id on to a later stage of its
    lifecycle (:mod:`harness.text._lifecycle`): both name it ("EXP-5521", "card 8832"), the
    claims naming it state a stage in both, and ``later`` states one past every stage
    ``earlier`` states (a higher rank, or the other branch of the same rank: "approved" /
    "declined") and does not say it repeats. "Expense EXP-5521 for $412 was submitted on 3
    June." / "Your expense EXP-5521 from 3 June has been approved." is an update, in one turn (a
    sub-agent's answer, then the parent's news) or across turns, however many of the earlier
    values the later restates; "was approved" / "has been granted" (one stage in other words)
    and "was submitted" / "was submitted and is pending" restated after the news (no stage past
    the earlier's) are not, nor "was submitted" / "was submitted and will show in your calendar
    once approved" (a condition states no status). The earlier message's status is read from all
    it says about the item ("... was lodged on 4 April. It is now under review.").

    Unlike :func:`new_state`, it does not ask whether ``later`` answers a new user message: a
    relay of the same turn with a newer status is where it is needed."""
    references = _references(earlier, later)
    if not references:
        return False
    before = _stages(earlier, references, refers_back=True)
    if not before:
        return False
    after = _stages(later, references)
    top = max(stage.rank for stage in before)
    branches = {stage.stops for stage in before if stage.rank == top}
    if not any(s.rank > top or (s.rank == top and s.stops not in branches) for s in after):
        return False
    return not _side(later).says_repeat

"""A later message that says itself it says something again: a recap, a summary, a reminder.

A bot that opens (or goes on) with "To sum up:", "Just a reminder:", "So you have everything in
one place:" or "As the benefits team said" announces that what follows was said before. When the
claim rules find that it restates a message of the last :data:`RECAP_TURNS` turns
(:func:`harness.detect.restate.compare`: a claim of each side matched, not a near miss only), the
restatement was not asked for unless the user asked for it, whatever the scorer says: SGD's bots
never recap unprompted, so the scorer learned restatements after a user message as the answer to
it and turns most recaps down. :func:`_recap` is a stated rule beside the scorer, as
:func:`~._around._verbatim` is; the other stated rules (the user asked again, a confirmation of
what the user chose, a new state, ...) still excuse the pair after it, but not "another option"
(a recap offers nothing new). The screen and the pair bound do not read the rule, so a recap's
pair they rule out is still compared, and dropped unless the rule takes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from harness.detect._candidates import Entry
from harness.detect._features import _capitalised
from harness.detect._users import _User
from harness.detect._wording import rewordings
from harness.detect.acts import message_acts
from harness.detect.choices import asks_confirmation
from harness.detect.restate import Restatement
from harness.text import Claim, analyse, analysed_part, normalise, split_sentences
from harness.text._acknowledge import acknowledgement

__all__: list[str] = []

_LEADS = re.compile(
    r"\b(?:"
    # "to recap", "quick recap:", "a short summary", "to sum up", "summing up", "in summary"
    r"recap|summary|summari[sz](?:e|ing)|sum(?:ming)? (?:it |things |everything )?up"
    r"|(?:to |so to |let me |let's )wrap (?:it |things |everything )?up|wrapping up"
    r"|in (?:short|brief|a nutshell|sum)\b"
    # "just a reminder", "as a reminder", "reminder:", "remember:", "and remember your slot" (not
    # the noun of "I'll set a reminder")
    r"|(?:just|as|quick|friendly|gentle) (?:a )?reminder|reminder\s*:"
    r"|(?:(?:just|and|also|please|but) )?remember(?: that)?(?:,|:| your\b| you\b)"
    r"|(?:don't|do not) forget (?:that|your|you)\b"
    # "so you have everything in one place", "here's where things stand"
    r"|(?:all|everything) in one place|where (?:things|everything|we|you) stands?"
    r"|(?:just )?so (?:it's|it is|you're|you are|we're|we are) clear"
    r"|for (?:your )?(?:reference|records)\b"
    r")",
    re.IGNORECASE,
)
"""Ways a message announces that it says again what was said (a closed class of English lead-ins:
summing up, reminding, gathering in one place). :func:`acknowledgement` reads the others ("as I
mentioned", "just to repeat what the team said")."""
_LEADS_LOWER = re.compile(_LEADS.pattern)
"""The same pattern without ``IGNORECASE``, for an ASCII text in lower case (as
:mod:`harness.text._acknowledge` does: the pattern's letters are all lower case)."""
_LEAD_STEMS = frozenset(
    {"recap", "summary", "summaris", "summariz", "sum", "wrap", "short", "brief", "nutshell"}
    | {"reminder", "remember", "forget", "plac", "stand", "clear", "referenc", "record"}
)
"""The content-word stems one of which every match of :data:`_LEADS` holds: a message whose
analysed words hold none (most) is not searched."""

RECAP_TURNS = 8
"""How many turns back a recap's restatements are asked about (the last few turns: what a recap
sums up; an older message goes through the scorer alone, and a long conversation's recap does not
compare every candidate in full)."""

_ASKS_SUMMARY = re.compile(
    r"\b(?:recap|summar|sum (?:\w+ ){0,2}?up|overview|go (?:over|through)"
    r"|remind|one place|run (?:me )?through|rundown|all the details|everything (?:again|so far))",
    re.IGNORECASE,
)
"""A user's message that asks for a summary or a reminder ("can you sum up?", "send me all the
details in one place"): the recap answers it."""

_ASKING = frozenset({"OFFER_INTENT", "CONFIRM"})
"""Acts of a question that asks the user to confirm or offers to act ("Shall I go ahead?"; a
statement the act tagger reads as an offer, "we'll put the €89.90 back", asks nothing)."""


def says_again(text: str, words: frozenset[str] | None = None) -> bool:
    """Whether a bot's message says itself that it says something again (:data:`_LEADS`, or
    :func:`~harness.text._acknowledge.acknowledgement`'s "as I mentioned") in its analysed part
    (:func:`~harness.text.analysed_part`). ``words``: the content words of its analysis
    (:attr:`harness.text.Analysis.words`), when known."""
    # The analysed part only (as the comparison reads it): a megabyte message costs no more.
    text = analysed_part(text)
    if words is None:
        words = analyse(text).words
    if not words.isdisjoint(_LEAD_STEMS):
        found = _LEADS_LOWER.search(text.lower()) if text.isascii() else _LEADS.search(text)
        if found is not None:
            return True
    return acknowledgement(text) is not None


def summary_asked(between: Iterable[_User]) -> bool:
    """Whether a user message in between (``between``) asked for a summary or a reminder ("can
    you sum that up?", "give me a recap of both"): then neither a message that says itself it
    sums up (a recap) nor one that folds an earlier turn's answer with this turn's (a fold) is
    reported by those rules; the scorer decides the pair."""
    return any(_ASKS_SUMMARY.search(u.text) for u in between)


def _recap(other: Entry, entry: Entry, found: Restatement, between: Sequence[_User]) -> bool:
    """``entry`` restates ``other`` (``found``) by the claim rules (a near miss, of score 0, is
    no restatement) and says itself it says something again (the caller asks
    :func:`says_again`), no user message in between (``between``) asked for a summary or a
    reminder, no restated claim names another item in the same words or updates the earlier one
    (:func:`_moves_on`), and ``entry`` asks the user nothing to confirm."""
    if found.score <= 0.0 or not found.matches:
        return False
    if summary_asked(between):
        return False
    if _another_name(found, other.message.text, entry.message.text):
        return False
    if any(_moves_on(match.earlier, match.later) for match in found.matches):
        return False
    # A summary that asks the user to confirm or offers to act ("Just to sum up before I book:
    # ... Shall I go ahead?") asks something: the scorer decides it, as any confirmation request.
    return not _asks(analysed_part(entry.message.text))


@lru_cache(maxsize=1024)
def _asks(text: str) -> bool:
    """The message asks the user to confirm, or offers to act in a question (a recap's
    candidates share its text: asked once)."""
    if asks_confirmation(text):
        return True
    return any("?" in s.text and message_acts(s.text) & _ASKING for s in split_sentences(text))


def _another_name(found: Restatement, earlier: str, later: str) -> bool:
    """A matched claim pair in which each side names an item (a capitalised word of three letters
    or more inside a sentence) the other message does not use at all: one template about two
    items ("not eligible for the Blue Shield plan until March 21" / "... the Kaiser HMO plan
    ..."), which the scorer reads through its names feature and this rule must not overrule."""
    earlier_words = set(normalise(earlier).split())
    later_words = set(normalise(later).split())
    for match in found.matches:
        first = _capitalised(match.earlier.span.text)
        second = _capitalised(match.later.span.text)
        if any(len(w) >= 3 and w not in later_words for w in first - second) and any(
            len(w) >= 3 and w not in earlier_words for w in second - first
        ):
            return True
    return False


_ADDITIVE = re.compile(r"\b(?:also|as well(?! as)|likewise)\b|\btoo\b(?=\s*(?:[,.;:!)]|$))", re.I)
"""The additive particles of English ("the café also opens at 07:45", "... at 07:45 too"): what
the clause says holds of one more item, not again of the same one."""
_CHANGE = re.compile(
    r"\b(?:now|instead|rather than|no longer|any more|anymore"
    r"|moved|changed|switched|rescheduled|updated|replaced)\b",
    re.IGNORECASE,
)
"""The markers of a change of state in English ("is now on Friday", "instead of Thursday",
"moved to 17:15"): a closed class of adverbs and the verbs of moving a value."""
_OLD = re.compile(
    r"\b(?:instead of|rather than|no longer|(?:moved|changed|switched|rescheduled) from)\b", re.I
)
"""Words that name a value as the old one ("instead of Thursday", "moved from 10:00")."""


def _moves_on(earlier: Claim, later: Claim) -> bool:
    """The later claim says of another item what the earlier one says (an additive particle the
    earlier lacks, after a word the earlier claim does not use, nor a learned rewording of one
    (:func:`~._wording.rewordings`), while a word of the earlier claim is gone from the later
    one: "the sauna also opens at 06:30" after "the pool opens at 06:30"; not "Chef Ming's is
    also nice" after "a nice place called Chef Ming's", nor a relay "the clinic also says your
    appointment is ..."), or gives the same item a new value (a change marker the earlier lacks,
    and a new value of a kind the earlier claim states, whose earlier value is gone from the
    later claim or named as the old one: "now on Friday 15 May instead of Thursday 14 May"). A
    recap says again what holds; an update or another item's news is no restatement of it."""
    first, second = earlier.span.text, later.span.text
    additive = _ADDITIVE.search(second)
    if additive is not None and not _ADDITIVE.search(first):
        # what the particle's clause is about: the words before it, less a recap's lead-in
        head = second[: additive.start()]
        lead = _LEADS.search(head)
        if lead is not None:
            head = head[lead.end() :]
        table = rewordings()
        # a swap, not an addition: a word the earlier claim lacks (nor a learned rewording of
        # one) stands where a word of the earlier claim is gone ("the café" for "the range"); a
        # relay adds its source or a preamble ("the clinic also says ...") and drops nothing
        if any(
            table.get(w, frozenset()).isdisjoint(earlier.words)
            for w in analyse(head).words - earlier.words
        ) and any(
            table.get(w, frozenset()).isdisjoint(later.words) for w in earlier.words - later.words
        ):
            return True
    if not _CHANGE.search(second) or _CHANGE.search(first):
        return False
    # a value replaced: a kind the later claim states a new value of, whose earlier value is gone
    # from the later claim or named there as the old one ("instead of Thursday"); an added value
    # beside the same one ("now opens at 06:30 ... until 22:00") replaces nothing
    kinds = {fact.partition(":")[0] for fact in earlier.facts}
    new = {f.partition(":")[0] for f in later.facts if f not in earlier.facts} & kinds
    gone = any(f not in later.facts and f.partition(":")[0] in new for f in earlier.facts)
    if not new:
        return False
    if gone:
        return True
    named = _OLD.search(second)
    if named is None:
        return False
    # the earlier claim's own value named as the old one, not some older value beside it
    tail = analyse(second[named.end() :]).facts
    return any(f in tail for f in earlier.facts if f.partition(":")[0] in new)


def moves_on(found: Restatement) -> bool:
    """Every claim pair of ``found`` speaks of another item or gives a new value
    (:func:`_moves_on`): the later message is news, not a restatement, whatever the scorer
    reads."""
    return bool(found.matches) and all(_moves_on(m.earlier, m.later) for m in found.matches)

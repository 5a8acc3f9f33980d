"""A bot's refusal read as such: "I can't help with that", not an answer.

The missed-request check (:mod:`harness.detect.missed`) takes what the bot said for an answer when
it matches the request; a refusal often quotes the request's own words (the runtime's own
fallback does: ``I can't help with "..." here.``), so the matching would read it as the answer. A
part of a reply that only says the bot cannot help, do, handle, assist with or answer something,
or that something is not something it can help with, answers nothing.

A small closed grammar of English, not a list of sentences: a first-person subject ("I", "we")
with a word of inability and a verb of service, or "not something I can ...". A report of a
result is not a refusal: "I couldn't find any flights on that date", "Sorry, it cannot be
refunded" and "The booking failed" answer what was asked (their verb is not one of service, or
their subject is not the bot)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.detect.answers import AnswerMatcher
from harness.text.words import may_hold

__all__ = ["asks_to_rephrase", "decline_rows", "declines", "refusals"]

# Inability, after "I" or "we" (with "am", "'m", "are" or "'re" and "afraid" maybe): "can't",
# "cannot", "couldn't", "won't be able to", "am not able to", "am unable to", "don't", "am not
# sure how to", "am not set up to".
_UNABLE = (
    r"(?:can(?:'t|not| not)|could(?:n't| not)|(?:won't|will not) be able to"
    r"|(?:'m|am|'re|are) (?:afraid (?:i |we )?)?(?:can(?:'t|not| not)|(?:not |un)able to"
    r"|not sure how to|not set up to|not allowed to))"
)
# "We don't handle refunds": a refusal, but also a no to "do you handle refunds?".
_DONT = r"(?:don't|do not) (?:really )?"
# Verbs of service: what a bot declines, not what it reports failing at ("find", "book",
# "refund" report a result). "do" only with a pronoun ("I can't do that"; "we can't do Saturday"
# offers something else).
_SERVICE = (
    r"(?:help|assist|handle|answer|deal with|take care of"
    r"|do (?:that|this|it|those|these|so)\b)"
)
_SUBJECT = r"\b(?:i|we)\s*(?:really |actually |unfortunately )?"
_DONT_DECLINE = re.compile(rf"{_SUBJECT}{_DONT}{_SERVICE}", re.IGNORECASE)
_DECLINE = re.compile(
    rf"{_SUBJECT}{_UNABLE}\s*(?:really |actually )?{_SERVICE}"
    # "That's not something I can help with", "is outside what we can handle"
    rf"|\bnot something (?:that )?(?:i|we) (?:can|could|am able to|are able to) {_SERVICE}"
    rf"|\b(?:outside|beyond) what (?:i|we) (?:can|am able to|are able to) {_SERVICE}"
    r"|\b(?:outside|beyond) (?:my|our) (?:scope|remit)\b",
    re.IGNORECASE,
)
_DECLINE_NEEDS = ("can", "could", "able", "won't", "will not", "don't", "do not", "sure how")
"""A word every match of :data:`_DECLINE` holds, or of its "outside my scope" branch ("not
something I can", "what I can" hold "can"); see :func:`~harness.text.words.may_hold`."""
_SCOPE_NEEDS = ("scope", "remit")

_ELSE = re.compile(r"(?:\s+you)?(?:\s+with)?\s+anything\s+else\b", re.IGNORECASE)

# A reply that asks the user to say it again: "Could you rephrase?", "Can you say that again?"
_REPHRASE = re.compile(
    r"\b(?:rephrase|reword|say (?:that|it) again|put (?:that|it) another way|ask (?:that|it) "
    r"(?:again|another way|differently))\b",
    re.IGNORECASE,
)


def declines(part: str, *, polar: bool = False) -> bool:
    """Whether a part of the bot's reply (a sentence or a clause) says the bot cannot help with,
    do, handle, assist with or answer something: "Sorry, I can't help with that.", ``I can't
    help with "when's the next one" here.``, "I'm not able to help with refunds", "That's not
    something I can help with". "I couldn't find any flights" and "it cannot be refunded" are
    results, not refusals. With ``polar`` (the request asks yes or no), "We don't handle refunds"
    is a no, not a refusal."""
    text = part.replace("’", "'")
    if not may_hold(text, _DECLINE_NEEDS + _SCOPE_NEEDS):
        return False  # most parts say none of these words: the pattern's scan is spared
    found = _DECLINE.search(text) or (None if polar else _DONT_DECLINE.search(text))
    # "... if you're sure I can not assist you with anything else?" offers more, declines nothing
    return found is not None and _ELSE.match(text, found.end()) is None


def asks_to_rephrase(part: str) -> bool:
    """Whether a part of the bot's reply only asks the user to say it again ("Could you
    rephrase?"): beside a refusal, it answers nothing either."""
    return _REPHRASE.search(part) is not None


def refusals(claims: Sequence[str], polar: Sequence[bool]) -> list[list[bool]]:
    """For each request, which parts of the reply decline rather than answer
    (:func:`~harness.detect._declines.declines`; "We don't handle refunds" answers a yes/no
    question)."""
    plain = [declines(text) for text in claims]
    if not any(plain):
        return [plain] * len(polar)
    yes_no = [declines(text, polar=True) for text in claims]
    return [yes_no if asks else plain for asks in polar]


def decline_rows(
    model: AnswerMatcher,
    p: list[list[float]],
    judged: Sequence[int],
    refused: Sequence[Sequence[bool]],
    opens: Sequence[bool],
    named: Sequence[Sequence[bool]],
) -> set[int]:
    """A refusal answers no request, whichever it names or matches ("I can't help with ticket
    prices here"): its parts are taken out of every row of ``p`` (the matcher's probabilities,
    a row for each request in ``judged``; ``refused``: :func:`refusals`; ``named[i][j]``: whether
    part ``j`` names request ``i``). Returned: the requests it matched or named (the bot
    declined them), or every request when a refusal matched and named none ("Sorry, I can't help
    with that": whichever is left without an answer was declined)."""
    if not any(any(row) for row in refused):
        return set()  # most replies refuse nothing
    out: set[int] = set()
    taken: set[int] = set()
    for row, i in enumerate(judged):
        for j, no in enumerate(refused[i]):
            if not no:
                continue
            limit = model.threshold if opens[j] else model.later_threshold
            if p[row][j] >= limit or named[i][j]:
                out.add(i)
                taken.add(j)
            p[row][j] = 0.0
    if any(j not in taken for j in range(len(opens)) if any(r[j] for r in refused)):
        out.update(judged)
    return out

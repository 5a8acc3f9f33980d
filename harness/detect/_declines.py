"""A bot's refusal read as such: "I can't help with that", not an answer.

The missed-request check (:mod:`harness.detect.missed`) takes what the bot said for an answer when
it matches the request; a refusal often quotes the request's own words (the runtime's own
fallback does: ``I can't help with "..." here.``), so the matching would read it as the answer. A
part of a reply that only says the bot cannot help with, assist with, handle, deal with or answer
something, or that something is not something it can help with, answers nothing.

A small closed grammar of English, not a list of sentences: a first-person subject ("I", "we")
with a word of present inability and a verb of service, or "not something I can ...". What it
leaves out:

- a report of a result or a past failure: "I couldn't find any flights", "Sorry, I couldn't book
  that", "I was unable to make the transfer", "Sorry, it cannot be refunded" (a failure notice
  answers, as an apology does; their verb is not one of service, their subject is not the bot, or
  their inability is past);
- the rest of the sentence: a refusal covers its own clause, up to a comma, dash, colon,
  "because" or "but" ("I can't help with railcards, a return is £14.60" answers the fare);
- a condition or a question back: "I can't do that without your booking reference. What is
  it?" asks for what it needs;
- an offer of another time and the idiom: "We can't do Tuesday, but 3 pm works", "I can't help
  recommending the lamb";
- to a yes/no question, a refusal after a "no" is a no: "No, sorry, we can't handle card
  payments" answers "Can I pay by card?"; to one about what the bot does, so is a refusal saying
  what it cannot do, "no" or not: "We can't handle carbon frames" answers "Do you repair carbon
  frames?" (:func:`polarity`). The runtime's own quoted refusal, or one of "that" alone, is no
  "no"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.detect._kinds import asks_yes_or_no
from harness.detect._reply_parts import reply_parts
from harness.detect.answers import AnswerMatcher, words_of
from harness.text.words import may_hold

__all__ = [
    "apologises",
    "asks_to_rephrase",
    "decline_clause",
    "decline_rows",
    "declined_alone",
    "declines",
    "gives_up",
    "names",
    "only_apology",
    "only_declines",
    "only_gives_up",
    "polarity",
    "refusals",
    "refused_among",
]

# Present inability, after "I" or "we" (with "am", "'m", "are" or "'re" and "afraid" maybe):
# "can't", "cannot", "won't be able to", "am not able to", "am unable to", "am not sure how to",
# "am not set up to". Not a past failure ("couldn't", "was unable to"): that is a result.
_CANNOT = (
    r"(?:can(?:'t|not| not)|(?:won't|will not) be able to"
    r"|(?:'m|am|'re|are) (?:afraid (?:i |we )?)?(?:can(?:'t|not| not)|(?:not |un)able to"
    r"|not sure how to|not set up to|not allowed to))"
)
# "We don't handle refunds": a refusal, but also a no to "do you handle refunds?".
_DONT = r"(?:don't|do not) (?:really )?"
# Verbs of service: what a bot declines, not what it reports failing at ("find", "book",
# "refund" report a result; "do" offers another time as often: "we can't do Tuesday"). "Help"
# before a verb in -ing or "but" is the idiom: "I can't help recommending the lamb".
_SERVICE = r"(?:help(?!\s+(?:but\b|\w+ing\b))|assist|handle|answer|deal with|take care of)\b"
_SUBJECT = r"\b(?:i|we)\s*(?:really |actually |unfortunately )?"
_DONT_DECLINE = re.compile(rf"{_SUBJECT}{_DONT}{_SERVICE}", re.IGNORECASE)
_DECLINE = re.compile(
    rf"{_SUBJECT}{_CANNOT}\s*(?:really |actually )?{_SERVICE}"
    # "That's not something I can help with", "is outside what we can handle"
    rf"|\bnot something (?:that )?(?:i|we) (?:can|am able to|are able to) {_SERVICE}"
    rf"|\b(?:outside|beyond) what (?:i|we) (?:can|am able to|are able to) {_SERVICE}"
    r"|\b(?:outside|beyond) (?:my|our) (?:scope|remit)\b",
    re.IGNORECASE,
)
_DECLINE_NEEDS = ("can", "able", "won't", "will not", "don't", "do not", "sure how")
"""A word every match of :data:`_DECLINE` or :data:`_DONT_DECLINE` holds, or of the "outside my
scope" branch (:data:`_SCOPE_NEEDS`; "not something I can", "what I can" hold "can"); see
:func:`~harness.text.words.may_hold`."""
_SCOPE_NEEDS = ("scope", "remit")

# Where a refusal's clause ends: the rest of the sentence says something else ("I can't help with
# railcards, a return is £14.60"; "... because the line is closed"). A word of a hyphened compound
# ends nothing and is no condition ("so-called", "first-class"): the words stand alone (no letter,
# digit, hyphen or apostrophe beside them).
_ALONE = r"(?<![\w'-])(?:{})(?![\w'-])"
_CUT = re.compile(
    r"[,;:(]|\s[-–—]\s|[–—]|" + _ALONE.format("because|but|as|since|so|though|although")
)
# A refusal on a condition asks for what it needs: "without your reference", "until I have ...".
_CONDITION = re.compile(_ALONE.format("without|until|till|unless|before|yet|first"), re.IGNORECASE)
# "Sorry, I can't help with anything else today?": a closing question offering more, when asked.
_ELSE = re.compile(r"(?:\s+you)?(?:\s+with)?\s+anything\s+else\b", re.IGNORECASE)
# A yes/no question about what the bot (or its business) does: "Do you repair carbon frames?",
# "Can you deliver to Galway?" (not "Can I pay by card?", whose refusal says neither).
_YOU = re.compile(r"\b(?:do|does|can|could|will|would|are|is|don't|won't)\s+(?:you|your)\b", re.I)
_NO = re.compile(r"\s*(?:no|nope)\b", re.IGNORECASE)
_QUOTE = re.compile(r"[\"“”]")
# Words beside a refusal that say nothing more: "Sorry, ...", "I'm afraid ...", "Please note ...".
_FILLER = words_of("sorry afraid unfortunately please note really apologies here though")

# A reply that asks the user to say it again: "Could you rephrase?", "Can you say that again?"
_REPHRASE = re.compile(
    r"\b(?:rephrase|reword|say (?:that|it) again|put (?:that|it) another way|ask (?:that|it) "
    r"(?:again|another way|differently))\b",
    re.IGNORECASE,
)

# An apology for not doing something: "Sorry, I could not finish ...", "Unfortunately I was unable
# to get ...". Such a sentence names a request without answering it.
_APOLOGY = re.compile(r"\b(?:sorry|apologi[sz]e|unfortunately)\b", re.IGNORECASE)
_FAILED = re.compile(
    r"\b(?:could(?:n't| not)|can(?:'t|not| not)|(?:was|am|were|is|are)(?:n't| not) able"
    r"|(?:was|am|were|is|are) unable|failed to|did(?:n't| not) manage)\b",
    re.IGNORECASE,
)
_APOLOGY_NEEDS = ("sorry", "apologi", "unfortunately")
"""A word every match of :data:`_APOLOGY` holds (:func:`~harness.text.words.may_hold`: most of
the bot's sentences apologise for nothing, and the pattern's scan costs several times the test)."""


def apologises(text: str) -> bool:
    """``_APOLOGY.search(text)``, the pattern run only on a text that may hold one of its words."""
    return may_hold(text, _APOLOGY_NEEDS) and _APOLOGY.search(text) is not None


def gives_up(sentence: str) -> bool:
    """Whether a sentence apologises for not doing something (a failure or a refusal)."""
    text = sentence.replace("’", "'")
    return apologises(text) and _FAILED.search(text) is not None


def only_apology(text: str) -> bool:
    """Whether a part apologises and says little else: "Sorry about that.", "Sorry, something
    went wrong." (not "Sorry for the wait, the next train is at 14:12")."""
    return apologises(text) and (gives_up(text) or len(words_of(text)) <= 3)


def polarity(request: str) -> int:
    """How a refusal is read for ``request``: :data:`OF_THE_BOT` (a yes/no question about what the
    bot does: a refusal naming what it cannot do, or after a "no", is a no), :data:`YES_NO` (any
    other yes/no question: a refusal after a "no" is a no, "No, sorry, we can't handle card
    payments" for "Can I pay by card?") or 0 (no yes/no question)."""
    if not asks_yes_or_no(request):
        return 0
    return OF_THE_BOT if _YOU.search(request) is not None else YES_NO


YES_NO = 1
OF_THE_BOT = 2


def decline_clause(part: str, *, polar: int = 0) -> str | None:
    """The clause of a part of the bot's reply (a sentence or a clause) in which the bot says it
    cannot help with, assist with, handle, deal with or answer something, up to the next comma,
    dash, colon, "because" or "but": "I can't help with railcards" of "I can't help with
    railcards, a return is £14.60". None when there is none, or it is on a condition ("I can't do
    that without your reference"). With ``polar`` (:func:`polarity`: the request asks yes or
    no), a refusal after a "no" is a no, not a refusal ("No, sorry, we can't handle card payments"
    for "Can I pay by card?"), and for a question about what the bot does (``OF_THE_BOT``) so is
    one saying what it cannot do ("We can't handle carbon frames", "We don't handle refunds" for
    "Do you repair carbon frames?"); the runtime's quoted refusal and "I can't help with that"
    still decline."""
    text = part.replace("’", "'")
    if not may_hold(text, _DECLINE_NEEDS + _SCOPE_NEEDS):
        return None  # most parts say none of these words: the pattern's scan is spared
    found = list(_DECLINE.finditer(text))
    if polar != OF_THE_BOT:
        found += _DONT_DECLINE.finditer(text)
    for match in found:
        if _ELSE.match(text, match.end()) and text.rstrip().endswith("?"):
            continue  # "... if you're sure I can't help you with anything else?" offers more
        cut = _CUT.search(text, match.end())
        clause = text[match.start() : cut.start() if cut else len(text)]
        if _CONDITION.search(clause):
            continue
        if polar and not _QUOTE.search(clause):
            said_no = _NO.match(text) is not None
            named = polar == OF_THE_BOT and words_of(
                text[match.end() : match.start() + len(clause)]
            )
            if said_no or named:
                continue  # "No, we can't ...", "We can't handle carbon frames": a no
        return clause
    return None


def declines(part: str, *, polar: int = 0) -> bool:
    """Whether a part of the bot's reply is a refusal and nothing else
    (:func:`decline_clause`): beside its clause, no content word but an apology's ("Sorry, I
    can't help with that.", ``I can't help with "when's the next one" here.``, "That's not
    something I can help with"). "I can't help with railcards, a return is £14.60" answers; "I
    couldn't find any flights" and "it cannot be refunded" are results, not refusals."""
    clause = decline_clause(part, polar=polar)
    if clause is None:
        return False
    text = part.replace("’", "'")
    start = text.find(clause)
    return words_of(text[:start] + " " + text[start + len(clause) :]) <= _FILLER


def asks_to_rephrase(part: str) -> bool:
    """Whether a part of the bot's reply only asks the user to say it again ("Could you
    rephrase?"): beside a refusal, it answers nothing either."""
    return _REPHRASE.search(part) is not None


def _asks_back(parts: Sequence[str]) -> bool:
    """Whether a part asks the user something back (not to rephrase, not "anything else?"): a
    refusal beside it asks for what it needs ("I can't do that yet. Which card is it on?")."""
    return any(
        part.rstrip().endswith("?") and not asks_to_rephrase(part) and not _ELSE.search(part)
        for part in parts
    )


def _says_no(part: str) -> bool:
    """A part that is a "no" and says nothing else but an apology's words ("No, sorry")."""
    found = _NO.match(part)
    return found is not None and words_of(part[found.end() :]) <= _FILLER


def refusals(claims: Sequence[str], polar: Sequence[int]) -> list[list[bool]]:
    """For each request (``polar``: how a refusal is read for it, :func:`polarity`), which parts
    of the reply (``claims``) decline rather than answer (:func:`declines`); a question back in
    the turn makes none a refusal, and a "no" standing as a part of its own (the clauses of "No,
    sorry, we can't handle pet bookings") none for a yes/no question."""
    plain = [declines(text) for text in claims]
    if not any(plain) or _asks_back(claims):
        return [[False] * len(claims)] * len(polar)
    if any(polar) and any(_says_no(text) for text in claims):
        return [[False] * len(claims) if level else plain for level in polar]
    read = {
        level: [declines(text, polar=level) for text in claims] for level in set(polar) if level
    }
    return [read[level] if level else plain for level in polar]


def only_declines(request: str, said: Sequence[str]) -> bool:
    """Whether what was said to one request is a refusal: every part
    (:func:`~harness.detect._reply_parts.reply_parts`, clauses cut) declines (:func:`declines`),
    apologises for nothing else or asks the user to rephrase, and one part declines: "Sorry, I
    can't help with that.". For the request it quotes, the runtime's refusal takes the rest of
    its message with it: ``I can't help with "..." here.``, then any other answers and the bot's
    ``handoff`` line (where to turn next), which closes the reply.
    Named or not ("that", "it"), the refusal is of the one request; "Sorry, I can't help with
    that, but the next train is at 14:12" answers it, as a question back does."""
    if not any(decline_clause(text) for text in said):
        return False  # most replies decline nothing
    found = reply_parts(said)
    parts = [text for text, _, _, _ in found]
    refused = refusals(parts, [polarity(request)])[0]
    quoted = False
    for j, (text, _, first, _) in enumerate(found):
        quoted = (refused[j] and _QUOTE.search(text) is not None) or (quoted and not first)
        refused[j] = refused[j] or quoted
    return any(refused) and all(
        no or asks_to_rephrase(text) or only_apology(text) or not words_of(text)
        for text, no in zip(parts, refused, strict=True)
    )


def refused_among(requests: int, said: Sequence[str]) -> bool:
    """Whether the bot declined something in a turn of several ``requests``, one of them asking
    for an answer ("Next train to Hull please, and can I get a refund?"): then the turn is
    matched, so that what answers the other parts is not read as the answer to the one declined."""
    return requests > 1 and any(declines(text) for text in said)


def declined_alone(asked: Sequence[frozenset[str]], said: Sequence[str]) -> frozenset[int]:
    """The requests (``asked``: each one's content words) of a turn judged without matching that
    a refusal of the bot declined: the only request, or one whose words the refusal's clause
    repeats, half of them at least."""
    clauses = [c for text in said if (c := decline_clause(text)) is not None]
    if not clauses:
        return frozenset()
    if len(asked) == 1:
        return frozenset({0})
    return frozenset(i for i, words in enumerate(asked) if _names_any(words, clauses))


def names(request: frozenset[str], sentence: frozenset[str]) -> bool:
    """Whether a sentence repeats at least half of a request's content words."""
    return bool(request) and 2 * len(request & sentence) >= len(request)


def _names_any(request: frozenset[str], clauses: Sequence[str]) -> bool:
    return any(names(request, words_of(clause)) for clause in clauses)


def only_gives_up(request: str, said: Sequence[str]) -> bool:
    """Whether nothing was said, or only a refusal (:func:`only_declines`), or only apologies, one
    of them for not doing ``request`` (naming it): "Sorry, I could not finish "...". Sorry,
    something went wrong."."""
    if not said:
        return True
    if only_declines(request, said):
        return True
    if not any(apologises(text) for text in said):
        return False  # the cheap test first: most replies apologise for nothing
    if asks_yes_or_no(request):
        return False  # "Sorry, it cannot be refunded" answers "is it refundable"
    asked = words_of(request)
    claims = [(text, words) for text, words, _, _ in reply_parts(said, clauses=False)]
    return all(apologises(text) for text, _ in claims) and any(
        gives_up(text) and names(asked, words) for text, words in claims
    )


def decline_rows(
    model: AnswerMatcher,
    p: list[list[float]],
    judged: Sequence[int],
    refused: Sequence[Sequence[bool]],
    opens: Sequence[bool],
    asked: Sequence[frozenset[str]],
    claims: Sequence[str],
) -> set[int]:
    """A refusal answers no request, whichever it names or matches ("I can't help with ticket
    prices here"): its parts are taken out of every row of ``p`` (the matcher's probabilities,
    a row for each request in ``judged``; ``refused``: :func:`refusals`; ``asked``: each
    request's content words; ``claims``: the parts). Returned: the requests the bot declined,
    those a refusal matched or whose words its clause repeats, or the only request judged."""
    if not any(any(row) for row in refused):
        return set()  # most replies refuse nothing
    out: set[int] = set()
    for row, i in enumerate(judged):
        for j, no in enumerate(refused[i]):
            if not no:
                continue
            limit = model.threshold if opens[j] else model.later_threshold
            clause = decline_clause(claims[j]) or ""
            if p[row][j] >= limit or _names_any(asked[i], [clause]) or len(judged) == 1:
                out.add(i)
            p[row][j] = 0.0
    return out

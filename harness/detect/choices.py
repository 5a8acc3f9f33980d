"""Stated rules about what the user chose or asked for in between two bot messages.

The issue's failure classes name pairs that share values and wording yet are no repeat: a
confirmation of a new choice, a fact reused for a new request, the next option after "anything
else?". The pair scorer (:mod:`harness.detect.scorer`) cannot always tell them apart from a
repeat, because the difference lies in what the user said, so these rules decide them. Each was
written from false alarms and misses on Schema-Guided Dialogue *train* dialogues not used for
fitting (``docs/journal/detector.md`` says which) and is checked on new text in
``tests/detect/test_failure_classes.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.detect._users import says_any
from harness.detect._wording import rewordings
from harness.detect.acts import message_acts, tagger
from harness.detect.restate import Restatement
from harness.detect.scorer import UserLike, message_values, named_items
from harness.text import Analysis, analyse, normalise, split_sentences, stem

__all__ = [
    "accepted_offer",
    "accepted_option",
    "asks_to_confirm_again",
    "confirms_new_request",
    "offers_another",
    "offers_same_again",
    "restated_part",
    "sentence_asks",
]

_CONFIRM_SURE = 0.5
"""A sentence is a confirmation request when the act tagger gives it at least even odds."""
_NOTIFY = frozenset({"NOTIFY_SUCCESS", "NOTIFY_FAILURE"})
_NEGATION = re.compile(r"\b(?:no|not|without|never|none)\b|n't\b", re.IGNORECASE)
_NO_TROUBLE = re.compile(r"\b(?:no problem|not a problem|no worries)\b", re.IGNORECASE)
"""Set phrases of acknowledgement that hold a negation and negate nothing the message says
("No problem. Please confirm ..."): a closed class."""
_AFTER_COLON = re.compile(r":[\s*_]*([A-Za-z][A-Za-z'-]*)")
"""The word that opens a clause after a colon ("Please confirm: Table for 2 ..."), capitalised
by its place, not because it names something."""
_ANOTHER = re.compile(
    r"\b(?:another|others?|else|different|instead|alternatives?)\b", re.IGNORECASE
)
"""A user asking for another option ("what else is there?", "any other options?")."""
_NONE_ELSE = re.compile(
    r"\b(?:nothing|not anything|none) else\b"
    r"|\bno (?:other|more) (?:options?|alternatives?|choices?)\b",
    re.IGNORECASE,
)
"""A reply saying there is nothing else, a closed class of phrasings ("Nothing else is
missing", "there are no other options"): it offers no other item, whatever new words it uses."""
_AGAIN = re.compile(r"\b(?:again|repeat|remind|once more|one more time)\b", re.IGNORECASE)
"""Asking to hear something again ("what was the other one again?")."""
_ONLY = re.compile(r"\b(?:only|just the one)\b", re.IGNORECASE)
"""A reply saying there is no other option ("that is the only one")."""
_YES = re.compile(
    r"^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|alright|all right|absolutely|definitely|certainly|"
    r"correct|right|perfect|great|please do|go ahead|sounds (?:good|great|perfect)|"
    r"thats? (?:is )?(?:right|correct|fine|great|perfect)|that (?:works|sounds good))\b"
)
"""A reply that accepts, read in its normalised text: a closed class, the interjections and set
phrases of assent, with no word of :data:`_NO`. On the SGD train user turns answering a
confirmation or an offer to act (every 8th dialogue from the fourth, not the scorer's: 2,694
turns), it is right for 1,696 of the 1,697 it matches and finds 89 % of the annotated
``AFFIRM`` / ``AFFIRM_INTENT`` turns."""
_NO = re.compile(r"\b(?:no|not|never|nope|dont|cant|cannot|wont|but)\b")
"""A refusal or a reservation in a reply ("yes, but not now")."""
_OFFERS_TO_ACT = frozenset({"OFFER_INTENT", "CONFIRM"})


def restated_part(found: Restatement, later: str) -> str:
    """The passages of the later message that restate the earlier one (the whole message when
    the match names none)."""
    return " ".join(dict.fromkeys(m.later.span.text for m in found.matches)) or later


def asks_confirmation(text: str) -> bool:
    """A sentence of ``text`` that the act tagger reads as a confirmation request with at least
    even odds (not only as its likeliest act)."""
    model = tagger()
    return any(
        model.scores(s.text).get("CONFIRM", 0.0) >= _CONFIRM_SURE for s in split_sentences(text)
    )


def asks_to_confirm_again(
    earlier: Analysis, later: Analysis, restated: str, between: Sequence[UserLike]
) -> bool:
    """Both messages ask the user to confirm (the later one in its restated part, not in a report
    of the outcome), and the later one's restated part changes nothing: no value the earlier one
    lacks, nothing the user said in between that the earlier one lacks, the same polarity ("with
    subtitles" is not "without subtitles"). Then the user's answer changed nothing and the same
    confirmation is asked again: a repeat, not a confirmation of a new choice, whatever else the
    later message goes on to say (an answer, the outcome)."""
    if "CONFIRM" not in message_acts(earlier.text) or not asks_confirmation(restated):
        return False
    if message_acts(restated) & _NOTIFY:
        return False
    part = analyse(restated)
    if message_values(part) - message_values(earlier) - _placed_capitals(restated, earlier.text):
        return False
    if _negates(earlier.text) != _negates(restated):
        return False
    new = (part.words - earlier.words) | (part.facts - earlier.facts)
    return not any(new & (u.words | u.facts) for u in between)


def _placed_capitals(text: str, earlier: str) -> frozenset[str]:
    """The words that open a clause after a colon in ``text`` and that ``earlier`` uses too, in
    any case and form or in a rewording SGD's writers put in its place (:func:`rewordings`), as
    name values (``word:...``): "Please confirm the following: Booking a table ..." after "a
    reservation for 2" capitalises "Booking" by its place. A word there the earlier message
    does not use ("Chicago" after "Boston", "Lee" after "Park") stays a name, however common."""
    said = {stem(w.split("'")[0]) for w in re.findall(r"[a-z][a-z'-]*", earlier.lower())}
    table = rewordings()
    placed = set()
    for m in _AFTER_COLON.finditer(text):
        word = m.group(1).lower()
        root = stem(word.split("'")[0])  # without a possessive ("Marlowe's" after "Marlowe")
        if root in said or table.get(root, frozenset()) & said:
            placed.add("word:" + word)
    return frozenset(placed)


def _negates(text: str) -> bool:
    """The text holds a negation, set phrases of acknowledgement ("No problem.") aside."""
    return bool(_NEGATION.search(_NO_TROUBLE.sub(" ", text)))


def accepted_offer(earlier: str, between: Sequence[UserLike], later: str) -> bool:
    """The earlier message offered to act or asked to confirm ("Shall I reserve it?"), the user's
    one reply accepted it ("sure"), and the later message asks nothing and offers nothing to act
    on: the later one reports what was done, whatever words it reports it in (SGD's booking
    notices carry no values, so the act tagger reads one that restates the nights and the date
    as an offer)."""
    if len(between) != 1 or "?" in later or message_acts(later) & _OFFERS_TO_ACT:
        return False
    reply = between[0].norm
    if not _YES.search(reply) or _NO.search(reply):
        return False
    # "great" after a report of what was done acknowledges it; an offer beside the report
    # still takes the "yes".
    return sentence_asks(earlier, _OFFERS_TO_ACT)


def accepted_option(earlier: Analysis, between: Sequence[UserLike], later: str) -> bool:
    """The earlier message stated an option with its values (acts ``OFFER`` or ``INFORM``), asked
    nothing and reported nothing done ("Ines has one slot left: Thursday 14 May at 11:00,
    £85."), the user's one reply was a go-ahead
    (:func:`go_ahead`: "book it", "switch to basic"), and the later message opens by saying it
    was done (:func:`reports_done`: "Booked ✓ ...", "All set: ...") and asks nothing: it reports
    the outcome of the user's choice, whatever the act tagger reads in it."""
    if len(between) != 1 or "?" in later or "?" in earlier.text or not earlier.facts:
        return False
    if _STILL_OFFERS.search(later):
        return False  # "Sure, I can book ...": the option offered again, not its outcome
    if not go_ahead(between[0].norm, earlier) or not reports_done(later):
        return False
    # an option offered or stated, not yet done ("I've reset your password" is done already)
    return bool(message_acts(earlier.text) & _STATES) and not reports_done(earlier.text)


_STILL_OFFERS = re.compile(r"\b(?:I|we)\s+(?:can|could)\b", re.I)
_STATES = frozenset({"OFFER", "INFORM"})
"""Acts of a message that offers or states an option."""
_GO_AHEAD_WORDS = 6
"""At most this many words in a go-ahead: a longer reply asks for more than the option."""


def go_ahead(reply: str, earlier: Analysis) -> bool:
    """A short reply (normalised) that accepts what the earlier message stated: assent
    (:data:`_YES`) and, after it, nothing or one imperative whose other content words the earlier
    message uses ("book it", "take both", "switch to basic", "sounds good, book me in"). No
    negation, no question, no value of its own (a new value is a new request)."""
    words = reply.split()
    if not words or len(words) > _GO_AHEAD_WORDS or _NO.search(reply):
        return False
    if _QUESTION_WORDS.match(reply) or any(c.isdigit() for c in reply):
        return False
    if _ASKS_MORE.search(reply):
        return False  # "tell me more", "check it": a request for more, not an acceptance
    assent = _YES.match(reply)
    rest = reply[assent.end() :].split() if assent else words
    if assent and _GO_AHEAD.search(reply) and not rest[1:]:
        return True  # "go ahead", "yes please"
    # a verb and what it acts on ("book it", "switch to basic"): "great, thanks" accepts nothing
    if len(rest) < 2 or _NOT_A_VERB.fullmatch(rest[0]) or rest[0] in _IRREGULAR_DONE:
        return False
    verb = stem(rest[0])
    if rest[0] in _STOPS and verb not in earlier.words:
        return False  # "cancel it", "forget it": a refusal, not an acceptance
    # "one" of "take that one" is a pro-form, not a word the offer must use
    return analyse(" ".join(rest)).words - {verb, "one"} <= earlier.words


_STOPS = frozenset(
    {
        "cancel",
        "forget",
        "leave",
        "skip",
        "drop",
        "undo",
        "stop",
        "hold",
        "pause",
        "scrap",
        "ditch",
        "ignore",
        "wait",
        "delete",
        "remove",
        "hang",
    }
)
_GO_AHEAD = re.compile(r"\b(?:go ahead|please|proceed)\b")
"""An assent that asks for the thing to be done ("go ahead", "yes please", "please do"); "ok" or
"great" alone may only acknowledge what was said."""
_ASKS_MORE = re.compile(
    r"\b(?:tell|show|explain|describe|check|remind|resend|repeat|say|read|list|look|see"
    r"|find|search|compare|more|details?|info|information|again|later)\b"
)
"""A reply that asks to be told, shown or sent something (the verbs of showing, telling and
looking a thing up, and "more", "details", "again", "later"): it asks for more, it does not
accept (a closed class of English; the verbs of doing and booking are the go-aheads)."""
_NOT_A_VERB = re.compile(
    r"the|an?|this|that|these|those|my|your|our|its|i|we|you|it|they|he|she|thanks?|cheers"
    r"|and|any|so|then|just|or|still"
    r"|\w+(?<!e)ed"
)
"""Words that do not open an imperative: the articles, the demonstratives, the possessives, the
subject pronouns, thanks and a past form ("got it", "noted"; not "proceed")."""
_QUESTION_WORDS = re.compile(
    r"(?:what|when|where|which|who|whose|why|how)\b|(?:is|are|was|can|could|do|does|did|will"
    r"|would|should|shall)\s+(?:you|i|we|there|they|he|she)\b"
    r"|(?:is|are|was|can|could|will|would|should)\s+(?:it|that|this)\b"
)
"""A reply that opens as a question (normalised text has no question mark to read); "do it"
opens an imperative."""
_DONE_HEAD = re.compile(r"^\W*((?:[\w'’-]+\s+){0,2}[\w'’-]+)\s*(?:[:!✓✔—–.]|\s-\s)")
"""The first words of a message, up to three, before a colon, a tick, a dash or a full stop."""
_IRREGULAR_DONE = frozenset(
    {"done", "set", "sent", "bought", "got", "made", "paid", "put", "taken", "given"}
)
"""Past participles of English's common irregular verbs of getting a thing done (the regular
ones end in "-ed", not "-eed": "need", "indeed")."""


_REPORTS = _NOTIFY | {"CONFIRM"}
"""Acts of a message that may report what was done. SGD's ``CONFIRM`` asks the user to confirm
before the service is called, but the tagger also gives it to outcomes worded as a confirmation
("Pavel is on his way for 16:30 today"), so it counts here; an offer made again ("I can ...") is
refused before (:func:`accepted_option`)."""


def reports_done(text: str) -> bool:
    """The message opens with a heading of up to three words that holds a past participle
    ("Booked ✓", "All set:", "You're booked ✓", "Done:"), or the act tagger reads an outcome or a
    confirmation in it: it reports what was done."""
    head = _DONE_HEAD.match(text)
    if head is not None and any(
        (w.endswith("ed") and not w.endswith("eed")) or w in _IRREGULAR_DONE
        for w in head.group(1).lower().split()
    ):
        return True
    return bool(message_acts(text) & _REPORTS)


def sentence_asks(text: str, acts: frozenset[str]) -> bool:
    """A sentence of ``text`` is one of ``acts`` (a confirmation request, an offer) and reports
    no outcome: a sentence reporting what was done ("Your table is confirmed for 8 pm."), which
    the act tagger may read as a confirmation as well, asks nothing, while a sentence beside it
    that asks to confirm the next thing ("X is booked. Please confirm Y.") still asks."""
    return any(
        found & acts and not found & _NOTIFY
        for found in (message_acts(s.text) for s in split_sentences(text))
    )


def offers_same_again(earlier: Analysis, later: Analysis, asked: UserLike) -> bool:
    """The user asked for another option (``asked``, not to hear one again) and the later
    message names no item the earlier one does not, without saying there is no other ("that is
    the only one", "nothing else"): the same offer again answers nothing that was asked, so the
    asking excuses no repeat."""
    if not _ANOTHER.search(asked.norm) or _AGAIN.search(asked.norm):
        return False
    if _NEGATION.search(later.text) or _ONLY.search(later.text):
        return False
    return not named_items(later) - named_items(earlier)


def offers_another(
    earlier: Analysis,
    later: Analysis,
    between: Sequence[UserLike],
    restated: str | None = None,
    *,
    asked_first: UserLike | None = None,
) -> bool:
    """A new item in the same template, not a repeat, even with the earlier one's place, date or
    price: the user's last message in between, the one the later message answers, asks for
    another option, and each message names an item the other does not (an older "anything else
    expiring?" answered before asks for nothing the later message gives); or each message answers the user's question about its own item: the user
    named an item (``asked_first``, the message the earlier one answered: "What's my copay for
    lisinopril?") that the earlier message names and the later message's ``restated`` part does
    not use, and in between named one ("And metformin?") that the part names and the earlier
    message does not use. Items are names, capitalised words and words outside the act tagger's
    vocabulary (domain nouns: "camry", "lisinopril"). A later message that says there is nothing
    else (:data:`_NONE_ELSE`: "Nothing else is missing") offers no other item: the user's "is
    anything else missing?" asked about the state of things, not for another option."""
    if not between:
        return False
    first = named_items(earlier)
    if _ANOTHER.search(between[-1].norm):  # the message the later one answers asks for another
        if _NONE_ELSE.search(later.text):
            return False  # the answer is that there is nothing else: no other item offered
        second = named_items(later)
        return bool(second - first) and bool(first - second)
    if restated is None or asked_first is None:
        return False
    part = named_items(analyse(restated))
    # Words either side uses at all, in any case ("Event" in a name, "event" in the other).
    new = part - first - set(normalise(earlier.text).split())
    gone = first - part - set(normalise(restated).split())
    return bool(gone.intersection(asked_first.norm.split())) and says_any(between, new)


def confirms_new_request(earlier: Analysis, later: Analysis, found: Restatement) -> bool:
    """A fact reused for a new request: the later message's restated part asks to confirm a
    request that states values the earlier one lacks, and the earlier one asked no confirmation
    (an address given, later in "To confirm: a cab for 2 to <the address>?")."""
    if found.method == "exact" or "CONFIRM" in message_acts(earlier.text):
        return False
    if not asks_confirmation(restated_part(found, later.text)):
        return False
    return bool(message_values(later, names=False) - message_values(earlier, names=False))

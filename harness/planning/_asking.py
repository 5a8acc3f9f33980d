"""Whether a piece of a message asks something of its own (:mod:`harness.planning.split` reads it
to keep a piece that asks nothing with a request next to it): words that stand for a request
without saying what it asks ("I have a few questions"), acknowledgements learnt from real user
turns ("That sounds good."), a judgement of something named ("The Missing Link is perfect") and a
reply that declines or puts off ("Maybe later.").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness.models._text import content_tokens
from harness.text._shapes import VERBS, WANTS, word_class
from harness.text.words import NEGATIONS, REQUEST_STOPWORDS

__all__ = ["ACKNOWLEDGEMENTS_FILE", "AUX", "QUESTION", "WH", "asks", "asks_something", "declines"]

ACKNOWLEDGEMENTS_FILE = Path(__file__).resolve().parent / "_models" / "acknowledgements.json"
"""Word stems of real user turns that only acknowledge ("sounds", "works", "nope"; and, read only
in a piece that declines, the further stems of turns that decline what was offered: "right",
"want"), learnt from
Schema-Guided Dialogue train user acts by ``python -m tests.planning.build_acknowledgements``
(Rastogi et al., AAAI 2020, CC BY-SA 4.0; the file is distributed under CC BY-SA 4.0 as well)."""

# Words that stand for a request without saying what it asks ("I have a few questions", "could you
# help me with something"), and acknowledgements ("Great, ...", "That sounds good."): a piece of
# these and stop words alone asks nothing; it opens the request after it or closes the one before
# it. The acknowledgements are learnt from real user turns (``ACKNOWLEDGEMENTS_FILE``).
_LEARNT = json.loads(ACKNOWLEDGEMENTS_FILE.read_text(encoding="utf-8"))
_PLACEHOLDER = frozenset(
    content_tokens(
        "question questions thing things something anything stuff matter help hand ask asking"
        " query queries few couple several another other last final quick wonder wondering"
        " great perfect cool awesome alright fine good nice excellent wonderful sure"
        " morning afternoon evening thx ty cheers appreciate appreciated pls plz lot yo"
        " request requests two three four go ahead hurry"
    )
) | frozenset(_LEARNT["words"])
# Content words of requests as well ("tell me my rights"): asking nothing only beside a refusal.
_DECLINING = _PLACEHOLDER | frozenset(_LEARNT["declining"])
# "things to do", "something to eat": what follows the placeholder says what is asked.
_SAYS_WHAT = re.compile(r"\b(?:some|any)?(?:thing|stuff)s?\s++to\s++\w", re.IGNORECASE)
_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Auxiliaries that end the object of a "how many / how much" question.
AUX = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "have", "has", "had", "can", "will", "am"}
)
# Words a question opens with: a piece that starts with one is a clause of its own.
WH = frozenset(
    {"what", "what's", "whats", "when", "when's", "where", "where's", "who", "who's", "whom",
     "which", "why", "how", "how's"}
)  # fmt: skip
# A question inside a request to tell or show: "let me know what I have to do today".
_EMBEDDED = re.compile(
    r"\b(?:let\s++me\s++know|tell\s++me|show\s++me)\s++(?:" + "|".join(sorted(WH)) + r")\s++\w",
    re.IGNORECASE,
)
QUESTION = WH | {"could", "would", "should", "may", "might", "shall"} | AUX
# A verb that links a subject to what is said of it ("Teen Spirit sounds like a good one", "The
# Missing Link is perfect"): a closed class, the copula and the verbs of seeming.
_JUDGED = re.compile(
    r"(?P<subject>[^\W\d][\w'&.-]*+(?:\s++[\w'&.-]++){0,5}?)"
    r"\s++(?:(?:would|will|should|might|could)\s++be|is|are|was|were|sounds|seems|looks)"
    r"\b(?P<predicate>.*)",
    re.IGNORECASE | re.DOTALL,
)
# Words a subject that is no mere name has: a person ("I think it is good"), a question or a
# clause ("tell me if the hotel is good"). Closed classes.
_NOT_NAMED = (
    WH
    | QUESTION
    | NEGATIONS
    | {"i", "me", "you", "we", "us", "my", "your", "our", "if", "whether", "that's", "there"}
)


# A reaction to what was offered ("That would be ideal", "This one is my choice", "Sounds like a
# plan", "Seems nice"): a demonstrative subject, or none before a verb of seeming, a linking verb
# and a short predicate of evaluation (closed classes). A predicate naming a thing ("That is the
# payroll office", "That is my payslip") or a fault ("That is wrong") is no reaction.
_REACTION = re.compile(
    r"(?:(?:that|this|these|those)(?:\s++ones?)?\s++"
    r"(?:(?:would|will|should|might|could)\s++be|is|are|was|were|sounds?|seems?|looks?)"
    r"|(?:that's|thats|sounds|seems|looks))\b(?P<predicate>.*)",
    re.IGNORECASE | re.DOTALL,
)
_REACTION_WORDS = 4
# A reaction's predicate judges: it has a word of evaluation ("ideal", "a good flight", "right up my
# alley", "a fun time"; closed class). One that names a thing ("That is the payroll office",
# "Those are my deductions") or a fault ("That is wrong", "That was slow") is no reaction.
_EVALUATES = word_class(
    "ideal perfect great fine good lovely fair nice excellent wonderful awesome fantastic amazing"
    " brilliant superb decent reasonable right ok okay alright acceptable fun cool best better"
    " interesting delightful delicious charming beautiful yummy tasty fab fabulous terrific"
    " splendid marvellous marvelous neat super winner plan deal pick choice idea option bet"
    " enough feasible convenient affordable"
)
# The endings of a past participle: "this one is broken", "that was declined" report a fault.
_REPORTED = ("ed", "en")
# What a reaction's predicate never has: a question, a negation, a clause ("if", "to", "that",
# "when"), a person other than the speaker's "me"/"my" or a word of wanting or a request verb.
_NOT_REACTION = (
    WH
    | QUESTION
    | NEGATIONS
    | word_class("if to that when i you we it there")
    | WANTS
    | frozenset(VERBS.split("|"))
)


def _reacts(piece: str) -> bool:
    """Whether ``piece`` only reacts to what was offered ("That would be ideal", "That is my
    choice", "Sounds like a plan", with a straight or curly apostrophe): ``_REACTION``'s
    opening, then at most ``_REACTION_WORDS`` words, one of evaluation (``_EVALUATES``), with no
    number and nothing of ``_NOT_REACTION``. A user takes what was offered that way; what they
    ask comes next."""
    reacted = _REACTION.fullmatch(piece.replace("\u2019", "'").strip(" ,;:.!"))
    if reacted is None:
        return False
    said = _WORDS.findall(reacted.group("predicate").lower())
    if said[:1] == ["like"]:
        said = said[1:]  # "sounds like a plan"
    return (
        0 < len(said) <= _REACTION_WORDS
        and not any(w in _NOT_REACTION or w[:1].isdigit() or w.endswith(_REPORTED) for w in said)
        and any(w in _EVALUATES for w in said)
    )


def _judges(piece: str) -> bool:
    """Whether ``piece`` only says that something named is good ("Teen Spirit sounds like a good
    one", "The Missing Link is perfect", "Gloria Bell would be perfect"): a short subject with no
    person, question or clause in it, a linking verb, and what follows asks nothing (all its
    content words acknowledge, none negates). A user picks what was offered that way; what they
    ask comes in the next sentence."""
    judged = _JUDGED.fullmatch(piece)
    if judged is None:
        return False
    subject = _WORDS.findall(judged.group("subject").lower())
    predicate = judged.group("predicate")
    said = _WORDS.findall(predicate.lower())
    return (
        not any(w in _NOT_NAMED for w in subject)
        and not any(w in NEGATIONS or w in WH for w in said)
        and bool(content_tokens(predicate))
        and all(token in _PLACEHOLDER for token in content_tokens(predicate))
        and _SAYS_WHAT.search(predicate) is None
    )


def asks(piece: str, *, reactions: bool = True) -> bool:
    """Whether ``piece`` asks something of its own: it opens with a question word or asks one
    inside "let me know", "tell me" or "show me" ("tell me what I have to do"), or it has a
    content word that does not stand for a request in general ("questions", "things", "help") or
    acknowledge ("great"). With ``reactions`` false, a reaction to what was offered (``_reacts``)
    counts as asking: the matcher keeps it in an agent's examples."""
    words = piece.split(maxsplit=1)
    return (
        (
            bool(words and words[0].lower() in WH)  # "what are the things I have today"
            or _EMBEDDED.search(piece) is not None
            or _SAYS_WHAT.search(piece) is not None
            or any(token not in _PLACEHOLDER for token in content_tokens(piece))
        )
        and not _judges(piece)
        and not (reactions and _reacts(piece))
        and not declines(piece)
    )


# A reply that declines or puts off what was offered ("No, not right now", "Maybe later", "Not
# yet", "Nope, I'm good"): a word of refusing or deferring, and else only these words, stop words
# or acknowledgements (closed classes). "I see" and "I understand" only acknowledge as well.
_REFUSING = frozenset({"no", "not", "nope", "nah", "maybe", "perhaps", "later"})
_DEFERRING = _REFUSING | word_class(
    "yet moment time right now still today currently i'm im good fine ok okay yes yeah"
)
_UNDERSTOOD = frozenset({"see", "understand", "gotcha"})
_DECLINES_WORDS = 8


def declines(piece: str) -> bool:
    """Whether ``piece`` only declines, puts off or acknowledges what was offered (see
    ``_REFUSING``): it asks nothing of its own."""
    words = _WORDS.findall(piece.lower())
    if not words or len(words) > _DECLINES_WORDS or any(w in WH for w in words):
        return False
    if words in (["i", w] for w in _UNDERSTOOD):
        return True
    return any(w in _REFUSING for w in words) and all(
        w in _DEFERRING or w in REQUEST_STOPWORDS or all(t in _DECLINING for t in content_tokens(w))
        for w in words
    )


def asks_something(sentence: str, *, reactions: bool = True) -> bool:
    """Whether ``sentence`` asks something of its own: not only an acknowledgement ("That sounds
    good."), a greeting or words that stand for a request without saying what it asks ("I have a
    question."); with ``reactions`` (the default), not only a reaction to what was offered ("That
    would be ideal.") either."""
    return asks(sentence.strip(" ,;:.!?"), reactions=reactions)

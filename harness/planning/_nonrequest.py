"""Parts of a message that ask nothing of an agent: a greeting, thanks, an apology, a wish ("hope
you're well") or an announcement of what follows ("I have two questions.", "Just a couple of
things before our trip"). Planned alone, such a part became a request of its own that no agent
took, and the reply said "I can't help with ..." beside the real answers; the offline planner
(``harness.planning.rules``) joins it to the request next to it instead, when it routes to no
agent or to that request's agent.

Closed classes of social formulas, read clause by clause: every clause of the part must be one,
or the part is a request (or a statement the planner's other rules read). A clause that asks ("?",
a request verb, a word of wanting, an auxiliary such as "can") is never a formula's tail, so
"Sorry, can you check my bill" and "Thanks, I need a refund" keep their requests.
"""

from __future__ import annotations

import re

from harness.text._shapes import VERBS, WANTS, word_class

__all__ = ["asks_nothing"]

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# A greeting and the words that go with one ("Good morning", "Hello again", "Hey there", "Hi all").
_GREETING = word_class(
    "hi hello hey hiya heya howdy greetings morning afternoon evening good again there all team"
    " folks everyone guys dear"
)
# Words that open thanks or an apology, and the intensifiers inside one ("Thanks so much",
# "Many thanks", "Sorry to bother you").
_THANKS = word_class("thanks thank thx ty cheers appreciated appreciate grateful")
_SORRY = word_class("sorry apologies apologise apologize apology pardon")
_SOFT = word_class("so very much many a lot again you in advance really once i i'm am we're")
# What may follow thanks or an apology: a phrase saying what for ("for the help yesterday", "to
# bother you on a Sunday", "in advance"), never a clause that asks or says something of its own.
_TAIL_OPENS = word_class("for to in about if")
_ANNOUNCED = word_class("question questions thing things query queries request requests")
_HOW_MANY = word_class(
    "a an one two three four few couple several some quick small more other final last of"
    " just i i've ive have got we've we there's there are is a"
)
_WISH = re.compile(
    r"^(?:i\s+)?hope\s+(?:you(?:'re|\s+are)|all(?:'s|\s+is)|this\s+finds|you\s+can\s+help"
    r"|you\s+had|your)\b"
)
# Words a clause that asks has ("can", "would", "need", "book", "?"): it is no formula.
_ASKING = (
    frozenset(VERBS.split("|"))
    | WANTS
    | word_class("can could would will should may might please do does did what when where")
    | word_class("which who why how but because since")
)
# "hope you can help": the one asking word a wish may hold.
_HELP = word_class("can help")
_MOST_WORDS = 10
# A formula is a few short clauses; a longer piece is none, and is not read through (the
# composer asks about every part the parent keeps, the rest of a huge message included).
_MOST_CHARACTERS = 400


def asks_nothing(piece: str) -> bool:
    """Whether ``piece`` only greets, thanks, apologises, wishes well or announces what follows."""
    if len(piece) > _MOST_CHARACTERS or "?" in piece:
        return False
    clauses = [c for c in re.split(r"[.!,;:\n]+", piece.lower()) if c.strip()]
    return bool(clauses) and all(_formula(_WORD.findall(c)) for c in clauses)


def _formula(words: list[str]) -> bool:
    if not words or len(words) > _MOST_WORDS:
        return False
    at = 0
    while at < len(words) and words[at] in _GREETING:
        at += 1
    rest = words[at:]
    if not rest:
        return True
    if _WISH.match(" ".join(rest)):
        return not any(w in _ASKING - _HELP for w in rest)
    if any(w in _ASKING - frozenset(VERBS.split("|")) for w in rest):
        return False
    if (
        rest[0] in _THANKS
        or rest[0] in _SORRY
        or rest[:2] in (["many", "thanks"], ["thank", "you"])
    ):
        k = 0
        while k < len(rest) and (rest[k] in _THANKS or rest[k] in _SORRY or rest[k] in _SOFT):
            k += 1
        return k == len(rest) or rest[k] in _TAIL_OPENS
    if any(w in _ASKING for w in rest):
        return False
    # "I have two questions", "Just a couple of things before our trip", "Three questions if
    # that's ok": a count of questions or things, and a phrase at most.
    k = 0
    while k < len(rest) and rest[k] in _HOW_MANY | word_class("just quick"):
        k += 1
    return (
        0 < k < len(rest)
        and rest[k] in _ANNOUNCED
        and (k + 1 == len(rest) or rest[k + 1] in _TAIL_OPENS | word_class("before for"))
    )

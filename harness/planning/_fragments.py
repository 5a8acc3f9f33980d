"""A piece cut off one request joins that request instead of being refused beside its answer.

"Does the shop sell bike lights, and how much?", "The clinic moved my appointment; why?", "Is
the clinic open late and will they see me?": cut at "and" or a stop, the second piece has no
words of its own to route by, so, planned alone, the parent would say "I can't help with "how
much" here." beside the answer to the request it belongs to: the user reads the refusal as the
bot failing. Such a piece asks nothing of its own; it adds a question about, or a detail of, the
request next to it. So a piece the parent keeps joins the sub-agent entry next to it (the one
before it, else the one after it) when, by closed classes of words, no model:

- it is a question word alone or with one word more that is no content word or a degree or time
  word ("how much", "how often", "how soon", "which one"; not "who won", "how windy",
  "where's Tom": those ask something of their own); or
- it has at most four words, none of them a content word (a negation's "don't" aside), holds
  a question word, does not open with a request's lead and holds no determiner ("why", "what, if
  any", "I don't know why"; not "tell me why", "what should I do then", "where do I need to be",
  "when do I get my next check": those ask something of their own); or
- it has at most six words, opens as a question (an auxiliary, a modal or a question word) and
  points back (``harness.planning._refer``; not "there": "will they see me") but no noun phrase
  before it was one it could stand for, so ``referred`` left it with the parent; a command with
  a verb of its own that points back ("thank him for me", "pay them for me") does not join;

and it does not address the bot ("how are you": that is the parent's).

The joined text is the message's own stretch from the first piece to the end of the second,
when both are found in it in order; else the two texts joined by a comma. A piece with a content
word of its own that routes nowhere ("and order a pizza", "and who won?") is a request of its
own: it stays the parent's, refused, never dropped in silence.
"""

from __future__ import annotations

import re

from harness.models._text import content_tokens
from harness.planning._refer import _pointing
from harness.planning.base import PlanEntry
from harness.text._shapes import AUXILIARIES, LEAD, VERBS, WH_SET, word_class

__all__ = ["joined_fragments"]

_WORD = re.compile(r"[a-z][a-z']*")
_ADDRESS = word_class("you your you're yourself")
_SHORT = 6
"""The most words of a piece that points back and joins its neighbour."""
_GENERIC = 4
"""The most words of a piece of generic words only that joins its neighbour ("why", "what, if
any", "I don't know why")."""
_DEGREE = word_class("much many often long soon far exactly late early")
"""Degree and time words a question word asks with and no more ("how long", "how soon")."""
_REQUEST_LEAD = frozenset(VERBS.split("|")) | word_class("please")
"""Words a request of its own opens with ("let me know ...", "tell me ...")."""
_DETERMINERS = word_class("a an the my our their his her its this these those")
"""Words a noun phrase opens with: a piece holding one names a thing of its own."""
_ASKS = WH_SET | AUXILIARIES
"""Words a question opens with: a question word, an auxiliary or a modal ("will they see me")."""


def joined_fragments(entries: list[PlanEntry], parent: str, message: str) -> list[PlanEntry]:
    """``entries`` with each parent piece that only adds to the sub-agent request next to it
    (the module's docstring says which) joined to that request, for its agent."""
    out = list(entries)
    index = 0
    while index < len(out):
        entry = out[index]
        if entry.agent == parent and _fragment(entry.request):
            before = out[index - 1] if index else None
            after = out[index + 1] if index + 1 < len(out) else None
            if before is not None and before.agent != parent:
                text = _span(message, before.request, entry.request)
                out[index - 1 : index + 1] = [PlanEntry(request=text, agent=before.agent)]
                continue
            if after is not None and after.agent != parent:
                text = _span(message, entry.request, after.request)
                out[index : index + 2] = [PlanEntry(request=text, agent=after.agent)]
                continue
        index += 1
    return out


def _fragment(text: str) -> bool:
    """Whether ``text`` only adds to a request next to it (``joined_fragments``)."""
    opening = LEAD.match(text)
    said = _WORD.findall(text[opening.end() if opening else 0 :].lower().replace("’", "'"))
    words = set(said)
    if not said or words & _ADDRESS:
        return False
    first = said[0]
    if len(said) <= 2 and first in WH_SET:
        # "how much", "how often", "which one"; not "who won", "where's Tom", "how windy".
        return len(said) == 1 or said[1] in _DEGREE or not content_tokens(said[1])
    # A negation's contraction is no content ("I don't know why"); a piece that opens a request
    # of its own ("let me know what I have to do today") or names a thing of its own ("when do I
    # get my next check": generic words, a noun phrase all the same) is not one that adds.
    if not content_tokens(" ".join(w for w in said if not w.endswith("n't"))):
        # At most four words: a longer one of generic words ("what should I do then", "where do
        # I need to be") asks something of its own, about the user's day.
        return (
            len(said) <= _GENERIC
            and bool(words & WH_SET)
            and first not in _REQUEST_LEAD
            and not words & _DETERMINERS
        )
    # A short question only: a longer piece, or a command with a verb of its own ("thank him
    # for me"), that points back is a request of its own.
    if len(said) > _SHORT or first not in _ASKS:
        return False
    pointing = _pointing(text)
    return pointing is not None and pointing[0] != "any"


def _span(message: str, first: str, second: str) -> str:
    """The message's text from ``first`` to the end of ``second`` (both found in order, case
    aside), else the two joined by a comma."""
    lowered = message.lower()
    start = lowered.find(first.lower())
    if start >= 0:
        end = lowered.find(second.lower(), start + len(first))
        if end >= 0:
            return message[start : end + len(second)].strip()
    return f"{first}, {second}"

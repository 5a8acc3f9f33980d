"""A piece cut off one request joins that request instead of being refused beside its answer.

"Does the card have foreign fees, and how much?", "My account has a hold; why?", "What's up with
my 401k and will it roll over?": cut at "and" or a stop, the second piece has no words of its own
to route by, so, planned alone, the parent would say "I can't help with "how much" here." beside
the answer to the request it belongs to: the user reads the refusal as the bot failing. Such a
piece asks nothing of its own; it adds a question about, or a detail of, the request next to it.
So a piece the parent keeps joins the sub-agent entry next to it (the one before it, else the one
after it) when, by closed classes of words, no model:

- it is a question word and at most one word more ("how much", "how often", "which one"), or
  has no content word at all (a negation's "don't" aside) and holds a question word ("why",
  "what, if any", "I don't know how"); and it does not address the bot ("how are you": that
  is the parent's); or
- it has at most six words and points back (``harness.planning._refer``; not "there":
  "will it roll over") but no noun phrase before
  it was one it could stand for, so ``referred`` left it with the parent.

The joined text is the message's own stretch from the first piece to the end of the second,
when both are found in it in order; else the two texts joined by a comma. A piece with a content
word of its own that routes nowhere ("and order a pizza") is a request of its own: it stays the
parent's, refused, never dropped in silence.
"""

from __future__ import annotations

import re

from harness.models._text import content_tokens
from harness.planning._refer import _pointing
from harness.planning.base import PlanEntry
from harness.text._shapes import WH_SET, word_class

__all__ = ["joined_fragments"]

_WORD = re.compile(r"[a-z][a-z']*")
_ADDRESS = word_class("you your you're yourself")
_SHORT = 6
"""The most words of a piece that points back and joins its neighbour."""


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
    said = _WORD.findall(text.lower().replace("’", "'"))
    words = set(said)
    if words & _ADDRESS:
        return False
    if len(said) <= 2 and said[:1] and said[0] in WH_SET:
        return True  # "how much", "how often", "which one"
    # A negation's contraction is no content ("I don't know why").
    if not content_tokens(" ".join(w for w in said if not w.endswith("n't"))):
        return bool(words & WH_SET)
    # A short piece only: a longer one that points back is a request of its own ("I want to
    # find a restaurant there").
    pointing = _pointing(text)
    return pointing is not None and pointing[0] != "any" and len(said) <= _SHORT


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

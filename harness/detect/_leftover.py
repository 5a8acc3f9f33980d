"""A message no request took, left for the one request the matching left out: the bot answered
each request in a message of its own, and the message left over is about the request left out in
words it shares with a sibling request ("Your current plan is the Gold insurance plan." for "what
health plan am I on" beside "switch me to a new insurance plan", answered in its own message), or
scored just under the matcher's limit. The missed-request check (:mod:`harness.detect.missed`)
then does not report that request."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from harness.detect._answer_terms import claim_acts, words_of

__all__ = ["left_for"]

ANSWERING = 0.5
"""A message answers something when one of its sentences is less likely than this to only close
("Anything else?", a goodbye: the acts tagger's :func:`~harness.detect._answer_terms.claim_acts`)."""


def left_for(
    k: int,
    texts: Sequence[str],
    found: Sequence[tuple[str, frozenset[str], bool, str]],
    p: Sequence[Sequence[float]],
    limits: Sequence[float],
    owner: Mapping[int, int],
    *,
    barred: Set[int] = frozenset(),
) -> bool:
    """Whether a part of the bot's reply (:func:`~harness.detect._reply_parts.reply_parts`) the
    matching gave no request answers request ``k``, which it left out. All of these hold:

    - the bot sent at least as many messages that answer something (:data:`ANSWERING`) as there
      are requests: a bot that answers in one message per request and leaves one out sends a
      message fewer, so the counts rule out a drop (one message holding every answer, as most
      real replies are, never releases anything here);
    - no part of the part's message was given to any request: a message left whole, not the rest
      of another request's answer ("... but I need to know the last few transactions");
    - the part shares a word with ``k`` (one it may share with a sibling request, which the
      matcher's second rule holds back, or one the matcher scored under its limit), and it is no
      apology (``barred``: "Sorry, I could not ..." names a request without answering it);
    - every other request it shares a word with was given a part of its own, and every other
      request it is likely to answer (at its limit) was given a part at least as likely, in a
      sentence no third request took part of: the part is no better answer of another request
      that the matching gave something weaker.

    A part sharing no word with any request is left to the matcher's first rule (a wrong-topic
    answer in a message of its own is what a bot that routes a request to the wrong agent sends;
    the journal's "One answer per request" tried releasing those by association)."""
    claims = [text for text, _, _, _ in found]
    wholes = [whole for _, _, _, whole in found]
    message: list[int] = []
    for _, _, first, _ in found:
        message.append(message[-1] + (1 if first else 0) if message else 0)
    answering = {message[j] for j, whole in enumerate(wholes) if claim_acts(whole)[0] < ANSWERING}
    if len(answering) < len(texts):
        return False
    asked = [words_of(t) for t in texts]
    given = set(owner.values())
    taken = {message[j] for j in owner}
    for j, claim in enumerate(claims):
        if j in owner or j in barred or message[j] in taken:
            continue
        said = words_of(claim)
        if not asked[k] & said:
            continue
        others = [m for m in range(len(texts)) if m != k]
        if any(asked[m] & said and m not in given for m in others):
            continue
        if all(_better_own(m, j, p, wholes, owner) for m in others if p[m][j] >= limits[j]):
            return True
    return False


def _better_own(
    m: int,
    j: int,
    p: Sequence[Sequence[float]],
    wholes: Sequence[str],
    owner: Mapping[int, int],
) -> bool:
    """Whether request ``m`` was given a part at least as likely to answer it as part ``j``, in a
    sentence whose parts went to ``m`` or to no request."""
    return any(
        o == m
        and p[m][q] >= p[m][j]
        and all(owner.get(r, m) == m for r in range(len(wholes)) if wholes[r] == wholes[q])
        for q, o in owner.items()
    )

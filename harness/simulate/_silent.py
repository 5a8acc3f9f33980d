"""The requests of a simulated conversation's last turns that got no text at all.

``harness detect`` cannot tell a bot that said nothing in the last turn from a recording that
stopped early, so its missed-request check skips the turns after the bot's last message
(:mod:`harness.detect.missed`). A simulated conversation that ran to its end has no such doubt: the
target completed each of its turns (a deployed bot sent only events, an empty message, or nothing
but a served bot's plan event; a bot in this process answered nothing), so the user asked and got
nothing to read. Each request of such a turn is a ``missed_request``, as it is in any earlier turn
without a bot message: the matching of :func:`~harness.detect.missed.missed_requests` on no text,
so parts of the message that ask for no answer ("Thanks, bye") are still never reported.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from harness.detect.findings import Finding
from harness.detect.missed import CheckedTurn, DeclaredRequest, missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Transcript

__all__ = ["silent_last_turns"]

_WHY = "; the bot sent no text in this turn, though the conversation ran to its end"


def silent_last_turns(
    transcript: Transcript,
    declared: Mapping[int, Sequence[DeclaredRequest]],
    *,
    reported: Sequence[Finding] = (),
    min_confidence: float = 0.0,
) -> list[Finding]:
    """A ``missed_request`` for each request of the user turns after the bot's last message.

    Call it only for a conversation whose every turn the target completed: a recording that
    stops early misses nothing.

    Args:
        transcript: the conversation.
        declared: the scenario's declared requests by turn (other turns are segmented).
        reported: the findings so far; a turn that has a ``missed_request`` already (an
            ``expect`` that found no answer) gets no other.
        min_confidence: as :func:`~harness.detect.missed.missed_requests`'.
    """
    users: dict[int, str] = {}
    for message in transcript.messages:
        if message.role == "user":
            users.setdefault(message.turn, message.text)
    last_reply = max((m.turn for m in transcript.messages if m.role == "bot"), default=0)
    missed = {f.turn for f in reported if f.kind == "missed_request"}
    turns: list[CheckedTurn] = []
    for turn in sorted(users):
        if turn <= last_reply or turn in missed:
            continue
        given = declared.get(turn)
        requests = list(given) if given else _segmented(users[turn])
        turns.append(CheckedTurn(turn, requests, [], bool(given)))
    if not turns:
        return []
    found = missed_requests(
        transcript, declared=declared, min_confidence=min_confidence, turns=turns
    )
    return [dataclasses.replace(f, evidence=f.evidence + _WHY) for f in found]


def _segmented(text: str) -> list[DeclaredRequest]:
    return [DeclaredRequest(text=request.text) for request in segment_requests(text)]

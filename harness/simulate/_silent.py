"""The requests of a simulated conversation's last turns that got no text at all.

``harness detect`` cannot tell a bot that said nothing in the last turn from a recording that
stopped early, so its missed-request check skips the turns after the bot's last message
(:mod:`harness.detect.missed`). A simulated conversation that ran to its end has no such doubt: the
target completed each of its turns (a deployed bot sent only events, an empty message, or nothing
but a served bot's plan event; a bot in this process answered nothing), so the user asked and got
nothing to read. Each request of such a turn is a ``missed_request``, as it is in any earlier turn
without a bot message: the check's own reading of the turns (:func:`~harness.detect.missed.
check_turns` with ``ran_to_end``), so parts of the message that ask for no answer ("Thanks, bye")
are still never reported.

Two readings keep a farewell from failing the run:

- A bot that sent ``endOfConversation`` ended the conversation on purpose: the turns after that
  one are not checked. The turn in which it ended is: a request answered only by
  ``endOfConversation`` is still unanswered.
- A last turn is where users say goodbye, and a bot may rightly answer a goodbye with silence. A
  request that reads as a goodbye (:func:`reads_as_goodbye`) is not reported: the request as a
  whole, or each of its clauses, is a farewell or asks for nothing, one of them a farewell. A
  farewell is what :mod:`harness.detect._farewells` reads as one (a model of *user* farewells,
  fitted on CLINC150's ``goodbye`` utterances and Schema-Guided Dialogue's closing turns against
  every other user utterance of both, and every word of it a farewell's word), with no question
  mark, which the needs model does not find clearly asking for an answer. A request with a
  farewell attached ("Please close my account, bye") is still one. Declared requests are never
  read as goodbyes. (The dialogue-act tagger read goodbyes here until 2026-12-05; fitted on bot
  sentences, it read user imperatives such as "please take care of the refund" as goodbyes:
  ``docs/journal/simulate.md`` gives both readings' figures.)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

from harness.detect._farewells import farewells
from harness.detect.findings import Finding
from harness.detect.missed import CheckedTurn, DeclaredRequest, check_turns, missed_requests
from harness.detect.requests import needs_model, needs_probability
from harness.detect.transcript import Transcript

__all__ = ["reads_as_goodbye", "silent_last_turns"]

_CLAUSE = re.compile(r"[,;.!]+|\band\b", re.IGNORECASE)

_WHY = "; the bot sent no text in this turn, though the conversation ran to its end"
_ASKS = 0.7
"""The needs model's probability from which a request clearly asks for an answer, goodbye or
not ("Can you say goodbye to Anna for me")."""


def silent_last_turns(
    transcript: Transcript,
    declared: Mapping[int, Sequence[DeclaredRequest]],
    *,
    reported: Sequence[Finding] = (),
    min_confidence: float = 0.0,
    ended_at: int | None = None,
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
        ended_at: the turn in which the bot ended the conversation (``endOfConversation``),
            when it did: later turns are not checked.
    """
    last_bot = max((m.turn for m in transcript.messages if m.role == "bot"), default=0)
    if not any(m.role == "user" and m.turn > last_bot for m in transcript.messages):
        return []  # the usual case: the bot spoke in the last turn; nothing to segment again
    turns = check_turns(transcript, declared, ran_to_end=True)
    last_reply = max((t.turn for t in turns if t.said), default=0)
    missed = {f.turn for f in reported if f.kind == "missed_request"}
    silent = [
        t
        for t in turns
        if t.turn > last_reply and t.turn not in missed and (ended_at is None or t.turn <= ended_at)
    ]
    if not silent:
        return []
    found: list[Finding] = []
    for turn in silent:
        asked = (
            turn.requests
            if turn.declared
            else [r for r in turn.requests if not reads_as_goodbye(r.text)]
        )
        if not asked:
            continue
        checked = CheckedTurn(turn.turn, asked, [], turn.declared)
        found += missed_requests(
            transcript, declared=declared, min_confidence=min_confidence, turns=[checked]
        )
    return [dataclasses.replace(f, evidence=f.evidence + _WHY) for f in found]


def reads_as_goodbye(request: str) -> bool:
    """Whether a request reads as a goodbye ("See you", "Have a nice day!", "Thanks, see you"):
    each of its clauses (cut at commas, semicolons, sentence ends and "and") is a farewell or asks
    for nothing ("thanks": under the needs model's own threshold), and the whole request or one of
    its clauses is a farewell (:func:`_goodbye`; the farewell model was fitted on whole
    utterances: "That is all I need. Thank you." reads as one whole, and none of its clauses
    does). "Please close my account, bye" and "Thanks, that's all I need, but can you update my
    booking" are no goodbyes: a clause asks."""
    clauses = [c.strip() for c in _CLAUSE.split(request) if c and c.strip()]
    said_farewell = [_goodbye(c) for c in clauses]
    threshold = needs_model().threshold
    asks_nothing = (
        f or needs_probability(c) < threshold for c, f in zip(clauses, said_farewell, strict=True)
    )
    return (any(said_farewell) or _goodbye(request)) and all(asks_nothing)


def _goodbye(clause: str) -> bool:
    """A farewell: no question mark, the needs model under ``_ASKS``, and the farewell reader's
    reading (:meth:`~harness.detect._farewells.FarewellReader.reads`)."""
    if "?" in clause or needs_probability(clause) >= _ASKS:
        return False
    return farewells().reads(clause)

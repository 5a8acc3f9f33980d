"""A scenario's expected answers, checked against the conversation the scenario produced."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Protocol

from harness.detect.detectors import is_subagent, quote
from harness.detect.findings import Finding
from harness.detect.transcript import Message, Transcript

__all__ = ["Expectation", "check_expectations", "expectation_met"]


class Expectation(Protocol):
    """One request of a scenario turn (``RequestExpectation`` in ``harness.simulate.scenarios``)."""

    @property
    def agent(self) -> str:
        """The sub-agent (or the parent) the request is meant for."""

    @property
    def expect(self) -> str | None:
        """Text the answer must contain (case-insensitive), when the scenario gives one."""


@lru_cache(maxsize=16_384)
def _squash(text: str) -> str:
    return " ".join(text.replace("’", "'").lower().split())


def _hits(bots: Sequence[Message], expect: str) -> list[Message]:
    needle = _squash(expect)
    return [m for m in bots if needle in _squash(m.text)]


def expectation_met(transcript: Transcript, turn: int, expect: str) -> bool:
    """Whether a bot message of ``turn`` contains ``expect`` (ignoring case), the test
    :func:`check_expectations` makes."""
    return bool(_hits(transcript.bot_messages(turn), expect))


def check_expectations(
    transcript: Transcript,
    expectations: Mapping[int, Sequence[Expectation]],
    *,
    findings: Sequence[Finding] = (),
) -> list[Finding]:
    """Check a scenario's expected answers: each given exactly once, by its own agent.

    For every turn's expectations: no bot message containing the expected text is a
    ``missed_request``; two messages from different senders containing it are a ``duplicate``
    (method ``expectation``); a sub-agent other than the expected one giving it is ``wrong_scope``
    (the parent relaying an answer is not). An expectation without text only checks that a
    direct or conversational agent said something.

    Args:
        transcript: the conversation the scenario produced.
        expectations: the expectations of each turn, by 1-based turn number.
        findings: findings already reported (by :func:`detect`); a duplicate of the same messages
            is not reported twice.

    Returns:
        The new findings, ordered by turn.
    """
    seen = {frozenset(f.message_ids) for f in findings if f.kind == "duplicate" and f.message_ids}
    missed = {
        (f.turn, sender) for f in findings if f.kind == "missed_request" for sender in f.senders
    }
    out: list[Finding] = []
    for turn in sorted(expectations):
        bots = transcript.bot_messages(turn)
        for exp in expectations[turn]:
            if exp.expect is None:
                out.extend(_expected_agent(transcript, turn, bots, exp.agent))
                continue
            hits = _hits(bots, exp.expect)
            if not hits:
                if (turn, exp.agent) in missed:
                    continue  # the missed-request check already reported it
                failed = any(r.turn == turn and exp.agent in r.failed for r in transcript.turns)
                out.append(
                    Finding(
                        kind="missed_request",
                        turn=turn,
                        message_ids=(),
                        senders=(exp.agent,),
                        evidence=f"expected {quote(exp.expect)} from {exp.agent}; "
                        f"no bot message in turn {turn} contains it"
                        + (f" ({exp.agent} failed)" if failed else ""),
                    )
                )
                continue
            first = hits[0]
            for later in hits[1:]:
                pair = frozenset((first.id, later.id))
                if later.sender != first.sender and pair not in seen:
                    seen.add(pair)
                    out.append(
                        Finding(
                            kind="duplicate",
                            scope="same_turn",
                            method="expectation",
                            turn=turn,
                            message_ids=(first.id, later.id),
                            senders=(first.sender, later.sender),
                            evidence=f"the answer {quote(exp.expect)} was given twice",
                        )
                    )
            for m in hits:
                if m.sender != exp.agent and is_subagent(m, transcript):
                    out.append(
                        Finding(
                            kind="wrong_scope",
                            turn=turn,
                            message_ids=(m.id,),
                            senders=(m.sender,),
                            evidence=f"{m.sender} gave {quote(exp.expect)}, the answer expected "
                            f"from {exp.agent}",
                        )
                    )
    return out


def _expected_agent(
    transcript: Transcript, turn: int, bots: Sequence[Message], agent: str
) -> list[Finding]:
    """Without expected text: a direct or conversational agent must have said something."""
    if transcript.agent_modes.get(agent) not in ("direct", "conversational"):
        return []  # silent agents and the parent answer through the parent's message
    if any(m.sender == agent for m in bots):
        return []
    return [
        Finding(
            kind="missed_request",
            turn=turn,
            message_ids=(),
            senders=(agent,),
            evidence=f"{agent} was expected to answer in turn {turn} but sent no message",
        )
    ]

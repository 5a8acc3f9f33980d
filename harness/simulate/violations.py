"""Contract violations of a simulated turn's sub-agents, as findings.

The runtime recovers from a sub-agent that breaks its mode's contract (it records the violation on
the ``SubagentResult`` and no longer trusts its ``answered``), so the conversation itself can look
fine: a silent agent with no ``findings`` only leaves the parent with nothing to say. A simulation
reports each violation as a ``contract`` finding, so a CI run fails on it: an error for the
violations that make a result unusable, a warning for the advisory ones
(``subagents.ADVISORY_KINDS``).
"""

from __future__ import annotations

from harness.detect.findings import CONTRACT_KIND, Finding, Severity
from harness.detect.transcript import Transcript
from harness.runtime.parent import Turn

__all__ = ["contract_findings"]


def contract_findings(turn: Turn, transcript: Transcript) -> list[Finding]:
    """A ``contract`` finding for each contract violation of the turn's sub-agent results.

    Args:
        turn: the turn, with its sub-agent results.
        transcript: the conversation so far, for the ids of the agent's messages in the turn.

    Returns:
        One finding per violation, its ``method`` the violation's kind (``missing_output``, ...):
        an error, or a warning for an advisory violation (the result stays usable).
    """
    found: list[Finding] = []
    for result in turn.results:
        if not result.violations:
            continue
        ids = tuple(
            m.id for m in transcript.messages if m.turn == turn.number and m.sender == result.agent
        )
        for violation in result.violations:
            severity, note = Severity.ERROR, ""
            if violation.advisory:
                severity, note = Severity.WARNING, " (advisory: the result stays usable)"
            found.append(
                Finding(
                    kind=CONTRACT_KIND,
                    method=violation.kind.value,
                    turn=turn.number,
                    message_ids=ids,
                    senders=(result.agent,) * max(len(ids), 1),
                    evidence=f"{result.agent} broke its contract: {violation.message}{note}",
                    severity=severity,
                )
            )
    return found

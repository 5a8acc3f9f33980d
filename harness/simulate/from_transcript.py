"""A recorded conversation that went wrong, turned into a scenario that fails until the bot is fixed.

``harness detect`` finds a duplicate in a production transcript; ``harness scenario from-transcript``
writes a scenario whose user turns are that conversation's, so the simulator replays them against
the bot. What went wrong is kept twice: as a comment above each turn (the finding as it was found)
and as checks the simulator runs: every duplicate, silent-mode leak and missed request is found
again by the detectors on the new run, and the turn's requests (from the recorded plan, where the
transcript has one) must each be answered by the agent that took them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from datetime import UTC, datetime

import yaml

from harness.detect.findings import Finding
from harness.detect.transcript import Transcript

__all__ = ["scenario_yaml"]

_UNSAFE_NAME = re.compile(r"[^0-9A-Za-z._-]+")


def scenario_yaml(
    conversations: Sequence[tuple[Transcript, Sequence[Finding]]],
    *,
    source: str,
    bot: str | None = None,
    agents: Collection[str] | None = None,
) -> str:
    """A scenario file (YAML text) with one scenario per conversation.

    Args:
        conversations: each transcript with the findings ``detect`` gave it.
        source: where the transcripts came from, for the file's header.
        bot: the ``bot:`` of the file (a config or ``module:attr``), if known.
        agents: the bot's component names; a recorded request for any other agent is kept as a
            comment, since the scenario runs against this bot (None keeps every request).
    """
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    lines = [
        f"# Made by `harness scenario from-transcript` from {source} on {stamp}.",
        "# The user turns are the recorded conversation's. Run it against the fixed bot:",
        "#   harness simulate THIS_FILE --bot YOUR_BOT",
        "# It fails while any finding below comes back (the detectors run on every turn).",
    ]
    if bot is not None:
        lines.append(f"bot: {_scalar(bot)}")
    lines.append("scenarios:")
    used: set[str] = set()
    for transcript, findings in conversations:
        lines.extend(_scenario(transcript, findings, used, agents))
    return "\n".join(lines) + "\n"


def _scenario(
    transcript: Transcript,
    findings: Sequence[Finding],
    used: set[str],
    agents: Collection[str] | None,
) -> list[str]:
    name = _UNSAFE_NAME.sub("-", transcript.conversation).strip("-") or "conversation"
    base, number = name, 1
    while name in used:
        number += 1
        name = f"{base}-{number}"
    used.add(name)
    by_turn: dict[int, list[Finding]] = {}
    for finding in findings:
        by_turn.setdefault(finding.turn, []).append(finding)
    plans = {record.turn: record.plan for record in transcript.turns}
    out = [f"  - name: {_scalar(name)}", "    turns:"]
    users = [m for m in transcript if m.role == "user"]
    if not users:
        return []
    for message in users:
        for finding in by_turn.get(message.turn, ()):
            out.append(f"      # was: {_describe(finding)}")
        out.append(f"      - user: {_scalar(message.text)}")
        plan = plans.get(message.turn, ())
        known = [p for p in plan if agents is None or p.agent in agents]
        for planned in plan:
            if planned not in known:
                out.append(
                    f"        # recorded request {json.dumps(planned.request)} went to "
                    f"{planned.agent!r}, which this bot does not have"
                )
        if known:
            out.append("        requests:  # as the recorded plan routed them")
            out.extend(f"          - {{agent: {_scalar(p.agent)}}}" for p in known)
    return out


def _describe(finding: Finding) -> str:
    senders = ", ".join(finding.senders)
    what = finding.kind + (f"/{finding.method}" if finding.method else "")
    evidence = " ".join(finding.evidence.split())
    if len(evidence) > 100:
        evidence = evidence[:97] + "..."
    return f"{what} ({finding.severity}) [{senders}]: {evidence}"


def _scalar(text: str) -> str:
    """``text`` as one YAML flow scalar on a line (quoted when it needs to be)."""
    dumped: str = yaml.safe_dump(text, default_flow_style=True, width=1_000_000, allow_unicode=True)
    return dumped.removesuffix("\n...\n").removesuffix("\n")

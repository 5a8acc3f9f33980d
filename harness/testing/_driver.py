"""The test doubles and the conversation driver behind ``harness.testing`` (see its docstring)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from harness.detect.detectors import detect
from harness.detect.expectations import Expectation, check_expectations
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.missed import DeclaredRequest
from harness.detect.transcript import Transcript
from harness.exceptions import RunError
from harness.models import FunctionModel, Model, ScriptedModel
from harness.runtime.loading import load_bot
from harness.runtime.parent import Conversation, Parent, Turn
from harness.simulate.scenarios import RequestExpectation
from harness.transport import InProcessTransport, MockTransport
from subagents import ChildAgent, ConnectedAgent, Mode, ModeName, Subagent, ToolContext

__all__ = [
    "ConversationDriver",
    "FunctionModel",
    "InProcessTransport",
    "MockTransport",
    "ScenarioFailedError",
    "ScriptedModel",
    "fake_subagent",
    "format_findings",
]


class ScenarioFailedError(RunError, AssertionError):
    """A scenario run by the pytest plugin produced error-level findings."""


def fake_subagent(
    name: str,
    *,
    mode: Mode | ModeName = Mode.SILENT,
    outputs: Mapping[str, Any] | None = None,
    description: str | None = None,
    kind: str = "connected",
    delay: float = 0.0,
    error: BaseException | None = None,
    timeout: float = 30.0,
    examples: Sequence[str] = (),
    pass_history: bool = True,
) -> Subagent:
    """A sub-agent that returns fixed outputs (after ``delay``), or raises ``error``.

    A direct or conversational fake "sends" its ``interactionSummary`` as its message.
    """
    fixed = dict(outputs or {})
    seen: list[ToolContext] = []

    async def handler(ctx: ToolContext) -> Mapping[str, Any]:
        seen.append(ctx)
        if delay:
            await asyncio.sleep(delay)
        if error is not None:
            raise error
        return fixed

    common: dict[str, Any] = {
        "name": name,
        "mode": mode,
        "description": description or f"The {name} agent.",
        "handler": handler,
        "timeout": timeout,
        "examples": tuple(examples),
    }
    agent: Subagent
    if kind == "child":
        agent = ChildAgent(**common)
    else:
        agent = ConnectedAgent(pass_history=pass_history, **common)
    return agent


def format_findings(findings: Iterable[Finding], transcript: Transcript) -> str:
    """A readable excerpt: each finding with the messages it names, their senders and texts."""
    by_id = {m.id: m for m in transcript.messages}
    lines: list[str] = []
    for finding in findings:
        head: str = finding.kind
        if finding.method:
            head += f"/{finding.method}"
        if finding.scope:
            head += f" ({finding.scope})"
        lines.append(f"- turn {finding.turn}: {head}: {finding.evidence}")
        for message_id in finding.message_ids:
            message = by_id.get(message_id)
            if message is not None:
                mode = f", {message.mode}" if message.mode else ""
                lines.append(f"    [{message.id}] {message.sender}{mode}: {message.text}")
    return "\n".join(lines)


class ConversationDriver:
    """Drives one conversation with a bot and asserts on what the user received.

    Args:
        bot: a ``Parent``, a config path or ``module:attr``.
        model: overrides the bot's model when ``bot`` is loaded from a path.
        config: detector thresholds; the calibrated defaults when None.
    """

    def __init__(
        self,
        bot: Parent | str | Path,
        *,
        model: Model | str | None = None,
        config: DetectorConfig | None = None,
    ) -> None:
        self.bot = bot if isinstance(bot, Parent) else load_bot(bot, model=model)
        self.config = config or DetectorConfig()
        self.conversation: Conversation = self.bot.conversation()
        self.expectations: dict[int, list[Expectation]] = {}

    @property
    def transcript(self) -> Transcript:
        """Everything said so far."""
        return self.conversation.transcript

    async def send(
        self, text: str, *, expect: Sequence[Expectation | tuple[str, str]] = ()
    ) -> Turn:
        """Send a user message; ``expect`` lists (agent, text the answer contains) pairs."""
        turn = await self.conversation.send(text)
        self.expectations[turn.number] = [
            RequestExpectation(agent=item[0], expect=item[1]) if isinstance(item, tuple) else item
            for item in expect
        ]
        return turn

    def findings(self, *kinds: str) -> list[Finding]:
        """Every finding so far (optionally only some kinds)."""
        declared = {
            turn: [
                DeclaredRequest(
                    text=text, agent=item.agent, words=tuple(getattr(item, "words", ()))
                )
                for item in items
                if (text := getattr(item, "text", None))
            ]
            for turn, items in self.expectations.items()
            if items and all(getattr(item, "text", None) for item in items)
        }
        found = detect(self.transcript, config=self.config, requests=declared)
        found += check_expectations(
            self.transcript,
            {k: v for k, v in self.expectations.items() if v},
            findings=found,
        )
        return [f for f in found if not kinds or f.kind in kinds]

    def _fail_on(self, found: list[Finding], what: str) -> None:
        __tracebackhide__ = True
        errors = [f for f in found if f.severity == "error"]
        if errors:
            raise AssertionError(
                f"{what}: {len(errors)} finding(s)\n" + format_findings(errors, self.transcript)
            )

    def assert_no_duplicates(self) -> None:
        """No two bot messages deliver the same content."""
        __tracebackhide__ = True
        self._fail_on(self.findings("duplicate"), "duplicate messages")

    def assert_each_request_answered_once(self) -> None:
        """Every request of each message got an answer (requests found in the message, or the
        ones ``send(expect=...)`` gives with their ``text``), expected ones exactly once and from
        their agent."""
        __tracebackhide__ = True
        found = self.findings("missed_request", "wrong_scope", "duplicate")
        self._fail_on(found, "requests not answered exactly once")

    def assert_no_silent_leaks(self) -> None:
        """No silent sub-agent messaged the user."""
        __tracebackhide__ = True
        self._fail_on(self.findings("silent_leak"), "silent-mode leaks")

    def assert_clean(self) -> None:
        """No error-level finding of any kind."""
        __tracebackhide__ = True
        self._fail_on(self.findings(), "the conversation has problems")

"""The test doubles and the conversation driver behind ``harness.testing`` (see its docstring)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from harness.detect.checks import TurnChecks
from harness.detect.detectors import detect, detect_async
from harness.detect.embeddings import Embedder
from harness.detect.expectations import Expectation
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.report_parts import confidence_note
from harness.detect.transcript import Message, Transcript
from harness.exceptions import ConfigError, RunError, UsageError
from harness.models import FunctionModel, Model, ScriptedModel
from harness.runtime.loading import load_bot
from harness.runtime.parent import Conversation, Parent, Turn
from harness.simulate.judging import apply_expectations, declared_requests_of
from harness.simulate.runner import failed_calls
from harness.simulate.scenarios import (
    RequestExpectation,
    ScenarioTurn,
    TurnCheckSpec,
    check_names,
    turn_checks,
)
from harness.simulate.violations import contract_findings
from harness.transport import InProcessTransport, MockTransport
from subagents import ChildAgent, ConnectedAgent, Mode, ModeName, Subagent, ToolContext
from subagents.config import validate_options

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


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


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


def _request(item: Expectation | tuple[str, str] | Mapping[str, Any]) -> Expectation:
    if isinstance(item, tuple):
        return RequestExpectation(agent=item[0], expect=item[1])
    if isinstance(item, Mapping):
        return validate_options(RequestExpectation, dict(item), at="expect")
    return item


def _spec(checks: TurnCheckSpec | Mapping[str, Any] | None) -> TurnCheckSpec | None:
    if checks is None or isinstance(checks, TurnCheckSpec):
        return checks
    return validate_options(TurnCheckSpec, dict(checks), at="checks")


def format_findings(findings: Iterable[Finding], transcript: Transcript) -> str:
    """A readable excerpt: each finding with the messages it names, their senders and texts. A
    finding that names no message (a request nobody answered) shows what the bot did send in its
    turn instead, once per turn."""
    by_id = {m.id: m for m in transcript.messages}
    lines: list[str] = []
    shown: set[int] = set()

    def show(message: Message) -> None:
        mode = f", {message.mode}" if message.mode else ""
        lines.append(f"    [{message.id}] {message.sender}{mode}: {message.text}")

    for finding in findings:
        head: str = finding.kind
        if finding.method:
            head += f"/{finding.method}"
        if finding.scope:
            head += f" ({finding.scope})"
        sure = confidence_note(finding)
        evidence = finding.evidence + (f" ({sure})" if sure else "")
        lines.append(f"- turn {finding.turn}: {head}: {evidence}")
        for message_id in finding.message_ids:
            message = by_id.get(message_id)
            if message is not None:
                show(message)
        if not finding.message_ids and finding.turn not in shown:
            shown.add(finding.turn)
            said = [m for m in transcript.messages if m.turn == finding.turn and m.role == "bot"]
            lines.append(
                f"    the bot's messages in turn {finding.turn}:"
                if said
                else "    (no bot message in the turn)"
            )
            for message in said:
                show(message)
    return "\n".join(lines)


class ConversationDriver:
    """Drives one conversation with a bot and asserts on what the user received.

    Args:
        bot: a ``Parent``, a config path or ``module:attr``.
        model: overrides the bot's model when ``bot`` is loaded from a path.
        config: detector thresholds; the calibrated defaults when None.
        meaning: the embedder the missed-request check reads meaning with (``detect``'s
            ``meaning``: :class:`~harness.detect.embeddings.MiniLMEmbedder` or
            :class:`~harness.detect.embeddings.LocalEmbedder`, as ``harness simulate
            --meaning`` loads them); None: the default matcher alone, offline.
    """

    def __init__(
        self,
        bot: Parent | str | Path,
        *,
        model: Model | str | None = None,
        config: DetectorConfig | None = None,
        meaning: Embedder | None = None,
    ) -> None:
        self.bot = bot if isinstance(bot, Parent) else load_bot(bot, model=model)
        self.config = config or DetectorConfig()
        self.meaning = meaning
        """The embedder the missed-request check reads meaning with, or None."""
        self.conversation: Conversation = self.bot.conversation()
        self.expectations: dict[int, list[Expectation]] = {}
        self.checks: dict[int, TurnChecks] = {}
        """Each turn's checks (``send(checks=...)`` and the tool checks of ``expect``)."""
        self.listed: set[int] = set()
        """The turns whose ``expect`` is the scenario turn's own request list (``checks``): as
        ``harness simulate`` reads them, a request without ``expect`` there names what the
        message asks (for the check), not an agent that must speak."""
        self.broken: dict[int, list[Finding]] = {}
        """Each turn's sub-agent contract violations, as ``contract`` findings."""
        self.raised: set[int] = set()
        """The turns whose ``send`` raised (a model or transport error, a sub-agent failing in
        strict mode) and the test caught it: such a turn is not judged as completed (it has no
        expectations or checks, and gets no silent-turn finding; the check's findings stand),
        and every turn before and after it is."""
        self.failed_calls: list[str] = []
        """The sub-agent calls that raised or timed out, and the turns whose parent failed, as
        ``turn N: AGENT failed: WHY`` (``harness simulate`` fails a scenario on them): the user
        got an apology, which may quote the request, so no finding shows them."""

    @property
    def transcript(self) -> Transcript:
        """Everything said so far."""
        return self.conversation.transcript

    async def send(
        self,
        text: str,
        *,
        expect: Sequence[Expectation | tuple[str, str] | Mapping[str, Any]] = (),
        checks: TurnCheckSpec | Mapping[str, Any] | None = None,
    ) -> Turn:
        """Send a user message and note what its turn must get.

        Args:
            text: the user's message.
            expect: the message's requests: (agent, text the answer contains) pairs, or
                ``RequestExpectation``s or mappings with a scenario request's keys (``agent``,
                ``expect``, ``text``, ``words``, ``tools``, ``calls``, ``never_calls``).
            checks: the turn's text checks, with a scenario turn's keys (``expect``, ``not``,
                ``regex``, ``equals``, ``bot``); a ``ScenarioTurn`` brings the tool checks of
                its ``requests`` too.

        Raises:
            ConfigError: ``expect`` or ``checks`` is malformed, or names an agent the bot does
                not have (or a tool its agent lacks), as a scenario file would (before the
                message is sent).
        """
        items = [_request(item) for item in expect]
        spec = _spec(checks)
        named = [(f"expect[{i}]", item) for i, item in enumerate(items)]
        if isinstance(spec, ScenarioTurn):
            named += [(f"checks.requests[{i}]", r) for i, r in enumerate(spec.requests)]
        for where, item in named:
            problem = check_names(self.bot, item)
            if problem:
                raise ConfigError(problem, field=where)
        before = self._last_user_turn()
        try:
            turn = await self.conversation.send(text)
        except UsageError:
            raise  # a mistake in the test (an empty message): the conversation goes on
        except Exception:
            if self._last_user_turn() > before:  # the message was taken: its turn raised
                self.raised.add(self._last_user_turn())
            raise
        self.expectations[turn.number] = items
        if (
            isinstance(spec, ScenarioTurn)
            and items
            and all(any(item is r for r in spec.requests) for item in items)
        ):
            self.listed.add(turn.number)
        self.broken[turn.number] = contract_findings(turn, self.transcript)
        if turn.error:
            self.failed_calls.append(f"turn {turn.number}: {turn.error}")
        self.failed_calls += failed_calls(turn, turn.number)
        requests = {id(r): r for r in items if isinstance(r, RequestExpectation)}
        if isinstance(spec, ScenarioTurn):  # a scenario's turn brings its requests' tool checks
            requests |= {id(r): r for r in spec.requests}
        found = turn_checks(spec, list(requests.values()))
        if found:
            self.checks[turn.number] = found
        return turn

    def _last_user_turn(self) -> int:
        return max((m.turn for m in self.transcript.messages if m.role == "user"), default=0)

    def findings(self, *kinds: str) -> list[Finding]:
        """Every finding so far (optionally only some kinds), judged as ``harness simulate``
        judges a scenario's conversation (:func:`~harness.simulate.judging.apply_expectations`),
        every turn but the ones that raised (``raised``) as a completed one.

        With ``meaning``, called from a running event loop (the assertions in an ``async def``
        test), the embedding runs on a worker thread with its own loop while this call waits:
        ``await`` :meth:`findings_async` there instead to embed on the caller's loop.
        """
        declared = declared_requests_of(self.expectations)
        if self.meaning is not None and _loop_running():
            # A synchronous call inside a running loop (detect() cannot embed there): the
            # embedding gets a loop of its own on a worker thread; findings_async avoids it.
            with ThreadPoolExecutor(max_workers=1) as pool:
                return pool.submit(asyncio.run, self.findings_async(*kinds)).result()
        found = detect(self.transcript, config=self.config, requests=declared, meaning=self.meaning)
        return self._judged(found, kinds)

    async def findings_async(self, *kinds: str) -> list[Finding]:
        """:meth:`findings` for async callers: the check embeds with ``meaning`` on the
        caller's loop (whose embedders run the model on a worker thread, so the loop stays free,
        and an embedder bound to the loop, such as one holding an ``httpx.AsyncClient``, works).
        """
        declared = declared_requests_of(self.expectations)
        found = await detect_async(
            self.transcript, config=self.config, requests=declared, meaning=self.meaning
        )
        return self._judged(found, kinds)

    def _judged(self, found: list[Finding], kinds: Sequence[str]) -> list[Finding]:
        """The detectors' ``found`` judged by the turns' expectations and checks."""
        judged = apply_expectations(
            found,
            self.transcript,
            self.expectations,
            config=self.config,
            completed=True,  # in this process every turn but a raised one completed
            checks=self.checks,
            broken=[f for turn in self.broken.values() for f in turn],
            listed=self.listed,
            raised=self.raised,
        )
        return [f for f in judged if not kinds or f.kind in kinds]

    def _fail_on(self, found: list[Finding], what: str, *, calls: bool = False) -> None:
        """Fail with the error-level findings of ``found`` and, with ``calls``, the failed
        calls."""
        __tracebackhide__ = True
        errors = [f for f in found if f.severity == "error"]
        failed = self.failed_calls if calls else []
        if not errors and not failed:
            return
        counts = [f"{len(errors)} finding(s)"] if errors else []
        counts += [f"{len(failed)} failed call(s)"] if failed else []
        body = [format_findings(errors, self.transcript)] if errors else []
        body += [f"- {line}" for line in failed]
        raise AssertionError(f"{what}: {', '.join(counts)}\n" + "\n".join(body))

    def assert_no_duplicates(self) -> None:
        """No two bot messages deliver the same content."""
        __tracebackhide__ = True
        self._fail_on(self.findings("duplicate"), "duplicate messages")

    def assert_each_request_answered_once(self) -> None:
        """Every request of each message got an answer (requests found in the message, or the
        ones ``send(expect=...)`` gives with their ``text``), expected ones exactly once and from
        their agent, and no sub-agent call failed (an apology that quotes the request is no
        answer)."""
        __tracebackhide__ = True
        found = self.findings("missed_request", "wrong_scope", "duplicate")
        self._fail_on(found, "requests not answered exactly once", calls=True)

    def assert_no_failed_calls(self) -> None:
        """No sub-agent call raised or timed out and no turn's parent failed (``failed_calls``)."""
        __tracebackhide__ = True
        self._fail_on([], "failed calls", calls=True)

    def assert_checks_pass(self) -> None:
        """Every check given with ``send`` passed: the turns' text checks and the requests'
        tool checks (a tool check that cannot be made is a warning, not a failure)."""
        __tracebackhide__ = True
        self._fail_on(self.findings("failed_check"), "checks failed")

    def assert_no_silent_leaks(self) -> None:
        """No silent sub-agent messaged the user."""
        __tracebackhide__ = True
        self._fail_on(self.findings("silent_leak"), "silent-mode leaks")

    def assert_clean(self) -> None:
        """No error-level finding of any kind, and no failed call (``failed_calls``)."""
        __tracebackhide__ = True
        self._fail_on(self.findings(), "the conversation has problems", calls=True)

"""Applies a scenario's expectations to the check's findings: one place for ``harness simulate``
(:func:`~harness.simulate.runner.run_scenario`) and ``ConversationDriver`` (and through it the
pytest plugin), so the two cannot judge one conversation differently.

A scenario turn lists its requests; each may give its ``text`` (declared to the missed-request
check, which then does not segment the message itself), the ``expect``-ed text of its answer, and
tool checks. :func:`declared_requests_of` gives the check its declared requests;
:func:`apply_expectations` then turns the check's findings into the scenario's:

- a turn whose every request gives ``expect`` but not every one its ``text``
  (:func:`judged_by_expectations`) is judged by its expectations alone: the check's
  ``missed_request`` findings there are dropped;
- a request given with its ``text`` whose ``expect`` came is not also reported by the check
  (:func:`without_answered`);
- the expectations are checked (:func:`~harness.detect.expectations.check_expectations`), and the
  turns' text and tool checks run;
- the sub-agents' ``contract`` findings are added;
- a conversation that ran to its end has its silent last turns' requests reported
  (:func:`~harness.simulate._silent.silent_last_turns`).

The expectations and checks stand in for the check only where they are checked: a conversation
that stopped early (a model or transport error) keeps the check's findings and gets no
expectation findings, as which of its turns completed is not always known (a deployed bot).
A caller that knows which turns raised (``ConversationDriver``, in this process, where a test may
catch the error and go on) names them instead (``raised``): only those turns are left as the check
found them, and every other turn is judged.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from harness.detect.checks import TurnChecks, run_checks
from harness.detect.expectations import Expectation, check_expectations, expectation_met
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.missed import DeclaredRequest, reports_request
from harness.detect.transcript import Transcript
from harness.simulate._silent import silent_last_turns

__all__ = [
    "apply_expectations",
    "declared_requests_of",
    "judged_by_expectations",
    "without_answered",
]


def declared_requests_of(
    requests: Mapping[int, Sequence[Expectation]],
) -> dict[int, list[DeclaredRequest]]:
    """The requests declared to the missed-request check, by 1-based turn: those of the turns
    whose every request gives its ``text`` (the check segments the other turns' messages
    itself), each with its agent and ``words``."""
    out: dict[int, list[DeclaredRequest]] = {}
    for turn, items in requests.items():
        texts = [getattr(item, "text", None) for item in items]
        if items and all(texts):
            out[turn] = [
                DeclaredRequest(
                    text=text or "", agent=item.agent, words=tuple(getattr(item, "words", ()))
                )
                for item, text in zip(items, texts, strict=True)
            ]
    return out


def judged_by_expectations(requests: Sequence[Expectation]) -> bool:
    """Whether a turn with these requests is checked by their expectations alone: every one
    gives ``expect`` but not every one gives ``text``, so the expectations say what each
    request is and what answers it, and the requests the missed-request check finds in the
    message itself (the listed ones and any other) are not reported."""
    return (
        bool(requests)
        and all(r.expect for r in requests)
        and not all(getattr(r, "text", None) for r in requests)
    )


def without_answered(
    findings: Sequence[Finding],
    transcript: Transcript,
    expectations: Mapping[int, Sequence[Expectation]],
) -> list[Finding]:
    """``findings`` less the missed-request check's finding for each request given with its
    ``text`` whose ``expect`` came (the expected text is in a bot message of its turn): the
    scenario says what answers it, so one report does not also say nothing did."""
    answered = [
        (turn, DeclaredRequest(text=text, agent=item.agent))
        for turn, items in expectations.items()
        for item in items
        if (text := getattr(item, "text", None))
        and item.expect
        and expectation_met(transcript, turn, item.expect)
    ]
    return [
        f
        for f in findings
        if not any(f.turn == turn and reports_request(f, request) for turn, request in answered)
    ]


def apply_expectations(
    found: Sequence[Finding],
    transcript: Transcript,
    requests: Mapping[int, Sequence[Expectation]],
    *,
    config: DetectorConfig,
    completed: bool,
    checks: Mapping[int, TurnChecks] | None = None,
    broken: Sequence[Finding] = (),
    listed: Container[int] | None = None,
    ended_at: int | None = None,
    raised: Container[int] = (),
) -> list[Finding]:
    """The findings of a scenario's conversation: the check's ``found`` judged by the
    scenario's requests (see the module docstring), ordered by turn.

    Args:
        found: the detectors' findings for ``transcript``, given the requests of
            :func:`declared_requests_of` ``(requests)``.
        transcript: the conversation.
        requests: each turn's requests as given (a scenario turn's ``requests``, or
            ``ConversationDriver.send``'s ``expect``), by 1-based turn.
        config: the detector settings ``found`` was found with (the enabled kinds, the
            missed-request check's reporting level).
        completed: the conversation ran to its end (every turn it was given completed, though
            a sub-agent call or the parent's own step may have failed in one): its expectations
            and checks are applied, and its silent last turns reported. A conversation that
            stopped early keeps the check's findings as they are.
        checks: each turn's text and tool checks.
        broken: the sub-agents' contract violations (``contract`` findings).
        listed: the turns whose requests are a scenario turn's own list, where a request
            without ``expect`` names what the message asks (for the check); in the other turns
            (``ConversationDriver.send(expect=[("agent", None)])``) it names an agent that must
            say something. None: every turn is listed (a scenario file's).
        ended_at: the turn in which the bot ended the conversation (``endOfConversation``),
            when it did: later silent turns are not reported.
        raised: the turns that raised, in a conversation that went on after them (a
            ``ConversationDriver`` test that caught the error): they are not judged as completed
            (no expectations, checks or silent-turn finding there; the check's findings stand),
            and the other turns are.
    """
    findings = list(found)
    findings += broken  # the sub-agents' contract violations, in the turns that completed
    if completed:
        requests = {n: items for n, items in requests.items() if n not in raised}
        checks = {n: c for n, c in (checks or {}).items() if n not in raised}
        expected = {n for n, items in requests.items() if judged_by_expectations(items)}
        findings = [f for f in findings if not (f.kind == "missed_request" and f.turn in expected)]
        given = {
            n: [item for item in items if item.expect]
            for n, items in requests.items()
            if any(item.expect for item in items)
        }
        findings = without_answered(findings, transcript, given)
        checked = {
            n: [item for item in items if item.expect]
            if listed is None or n in listed
            else list(items)
            for n, items in requests.items()
        }
        findings += check_expectations(
            transcript, {n: items for n, items in checked.items() if items}, findings=findings
        )
        findings += run_checks(transcript, dict(checks))
        if "missed_request" in config.kinds:
            # Last turns without a word from the bot missed their requests (harness detect
            # cannot tell them from a recording that stopped early).
            silent = silent_last_turns(
                transcript,
                declared_requests_of(requests),
                reported=findings,
                min_confidence=config.missed_min_confidence,
                ended_at=ended_at,
            )
            findings += [f for f in silent if f.turn not in raised]
    findings.sort(key=lambda f: f.turn)
    return findings

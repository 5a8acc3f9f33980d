"""The missed-request check: every request of a user message is addressed by something the bot said.

It does not read the runtime's plan to know what was asked. It takes the requests from the user's
message itself (:func:`~harness.detect.requests.segment_requests`), or from a scenario that
declares them, and looks for each in the bot's messages of that turn: a request is addressed when
a sentence the bot sent shares its distinctive content words (the words no other request of the
message has; "left" and "used" for two questions about PTO days). So a transcript recorded from a
deployed bot, with no plan at all, gets the same findings as an in-process run.

When the turn's plan is known, it is compared with the requests: a missed request that the plan
dropped, or merged into another agent's request, says so in its evidence, and names the planner
as its cause hint (``Finding.cause``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from harness.detect.findings import DEFAULT_BOILERPLATE, Finding
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord
from harness.text import content_words, extract_facts, normalise, split_claims, strip_markdown

__all__ = ["DeclaredRequest", "missed_requests", "plan_gaps", "unanswered"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclaredRequest:
    """A request a scenario declares for a user message (its ``requests:`` entry)."""

    text: str
    """The request as it would be asked on its own."""
    agent: str | None = None
    """The component expected to answer it, when the scenario names one."""
    words: tuple[str, ...] = ()
    """Words an answer to it contains; the request's own content words when empty."""


# "W-2", "e-mail", "24/7": one word each, so that a request for a W-2 has a word to look for.
_JOINED = re.compile(r"(?<=[^\W_])[-/](?=[^\W_])")


def _content(text: str) -> frozenset[str]:
    return content_words(_JOINED.sub("", text))


def _needs(text: str, words: Iterable[str]) -> frozenset[str]:
    listed = frozenset(w for word in words for w in _content(word))
    return listed or _content(text)


def unanswered(requests: Sequence[DeclaredRequest], said: Sequence[str]) -> list[int]:
    """The indexes of the requests that nothing in ``said`` addresses.

    Args:
        requests: the requests of one user message.
        said: the texts of the bot's messages in that turn.

    Each sentence (claim) the bot sent goes to the request whose distinctive content words it
    shares most of (the words no other request of the message has; all of a request's words
    when every one is shared); a request no sentence went to is unanswered. So an answer that
    mentions the other request's subject in passing does not answer it, and a sentence about
    something nobody asked answers nothing. A sentence sharing no word with any request can
    still answer one request that asks for what it gives: an amount ("what is my salary" and
    "Your gross pay is $3,250") or a date ("when ..."). Closing boilerplate is ignored.
    """
    needed = [_needs(r.text, r.words) for r in requests]
    said_in = [needed[i] | _content(r.text) for i, r in enumerate(requests)]
    distinctive = []
    for index, words in enumerate(needed):
        others = frozenset().union(*(w for j, w in enumerate(said_in) if j != index))
        distinctive.append((words - others) or words)
    answered: set[int] = set()
    unclaimed: list[str] = []  # sentences that share no word with any request at all
    for text, claim in _claims(said):
        scores = [len(d & claim) / len(d) if d else 0.0 for d in distinctive]
        best = max(scores, default=0.0)
        if best > 0.0:
            answered.update(i for i, score in enumerate(scores) if score == best)
        elif not any(claim & words for words in said_in):
            unclaimed.append(text)
    missing = [i for i, d in enumerate(distinctive) if d and i not in answered]
    # An answer in the bot's own words still gives what was asked for: an amount for "what is
    # my salary", a date for "when". Each such sentence stands for one request of that kind.
    for index in list(missing):
        wanted = _answer_kinds(requests[index].text)
        match = next((t for t in unclaimed if wanted & _fact_kinds(t)), None)
        if match is not None:
            unclaimed.remove(match)
            missing.remove(index)
    return missing


# What a question asks for, by the facts that answer it (harness.text.facts kinds).
_WHEN = frozenset({"date", "weekday", "month", "time", "year"})
_AMOUNT = frozenset({"money", "number", "percent"})
_ASKS_AMOUNT = re.compile(
    r"\bhow (?:much|many)\b|\b(?:salary|pay|paycheck|income|cost|price|fees?|balance|amount|owe"
    r"|total|figure|rate)\b",
    re.IGNORECASE,
)
_ASKS_WHEN = re.compile(r"\bwhen\b|\bwhat (?:time|day|date)\b", re.IGNORECASE)


def _answer_kinds(request: str) -> frozenset[str]:
    kinds: frozenset[str] = frozenset()
    if _ASKS_WHEN.search(request):
        kinds |= _WHEN
    if _ASKS_AMOUNT.search(request):
        kinds |= _AMOUNT
    return kinds


def _fact_kinds(text: str) -> frozenset[str]:
    return frozenset(f.kind for f in extract_facts(text))


def _claims(said: Sequence[str]) -> list[tuple[str, frozenset[str]]]:
    """Each sentence the bot said with its content words, boilerplate closers left out."""
    out = []
    for text in said:
        for claim in split_claims(strip_markdown(text)):
            if _is_boilerplate(claim.text):
                continue
            words = _content(claim.text)
            if words:
                out.append((claim.text, words))
    return out


_BOILERPLATE = frozenset(normalise(text) for text in DEFAULT_BOILERPLATE)


def _is_boilerplate(text: str) -> bool:
    return normalise(text) in _BOILERPLATE


def plan_gaps(
    requests: Sequence[DeclaredRequest], plan: Sequence[PlannedRequest]
) -> dict[int, tuple[str, PlannedRequest | None]]:
    """How the plan treated each request, by index: the plan entry that covers it (the one
    holding most of its content words, at least half of them) and what went wrong, if anything.

    An entry covering two or more requests merged them; a request no entry covers was dropped.
    Requests the plan gave an entry of their own have an empty reason.
    """
    entries = [_content(p.request) for p in plan]
    owner: dict[int, int] = {}
    for index, request in enumerate(requests):
        words = _content(request.text)
        if not words:
            continue
        best, share = -1, 0.0
        for e, entry in enumerate(entries):
            covered = len(words & entry) / len(words)
            if covered > share:
                best, share = e, covered
        if share >= 0.5:
            owner[index] = best
    gaps: dict[int, tuple[str, PlannedRequest | None]] = {}
    for index, request in enumerate(requests):
        if not _content(request.text):
            continue
        if index not in owner:
            gaps[index] = ("the plan has no entry for it", None)
            continue
        planned = plan[owner[index]]
        shared = sum(1 for e in owner.values() if e == owner[index])
        reason = (
            f"the plan merged it with {shared - 1} other request(s) into "
            f"{_quote(planned.request)} for {planned.agent}"
            if shared > 1
            else ""
        )
        gaps[index] = (reason, planned)
    return gaps


def _plan_detail(
    transcript: Transcript, record: TurnRecord, gap: tuple[str, PlannedRequest | None] | None
) -> str:
    """What the plan adds to a missed request: dropped, merged, its agent failed or claimed it."""
    if gap is None:
        return ""
    reason, entry = gap
    if entry is None:
        return reason
    agent = entry.agent
    said = any(m.sender == agent for m in transcript.bot_messages(record.turn))
    details = [reason] if reason else [f"planned for {agent}"]
    if agent in record.failed:
        details.append(f"{agent} failed")
    elif (
        agent in record.answered_by
        and not said
        and transcript.agent_modes.get(agent) in ("direct", "conversational")
    ):
        details.append(f"{agent} said answered but sent no message")
    return "; ".join(details)


def missed_requests(
    transcript: Transcript,
    *,
    declared: Mapping[int, Sequence[DeclaredRequest]] | None = None,
) -> list[Finding]:
    """A ``missed_request`` finding for each request of a user message nothing addressed.

    Args:
        transcript: the conversation.
        declared: the requests of some turns, by 1-based turn number (a scenario's
            ``requests:`` with their ``text``); other turns are segmented.

    Returns:
        The findings, in turn order.
    """
    declared = declared or {}
    plans = {record.turn: record for record in transcript.turns}
    by_turn: dict[int, list[Message]] = {}
    users: dict[int, Message] = {}
    for m in transcript.messages:
        if m.role == "bot":
            by_turn.setdefault(m.turn, []).append(m)
        elif m.turn not in users:
            users[m.turn] = m
    findings: list[Finding] = []
    last_reply = max(by_turn, default=0)
    for turn in sorted(users):
        requests = list(declared.get(turn) or _segmented(users[turn].text))
        said = [m.text for m in by_turn.get(turn, [])]
        if not said and turn > last_reply:
            continue  # a recording that stops early (its error is reported) misses nothing
        if len(requests) < 2 and turn not in declared:
            # One request: whatever the bot said addresses it, unless it said nothing.
            missing = [] if said else [i for i, r in enumerate(requests) if _content(r.text)]
        else:
            missing = unanswered(requests, said)
        if not missing:
            continue
        record = plans.get(turn)
        gaps = plan_gaps(requests, record.plan) if record is not None and record.plan else {}
        for index in missing:
            why = "no bot message in the turn addresses it"
            if record is not None and record.plan:
                detail = _plan_detail(transcript, record, gaps.get(index))
                why += f" ({detail})" if detail else ""
            cause = _plan_cause(gaps.get(index))
            findings.append(_finding(turn, requests[index], why, cause))
    return findings


def _plan_cause(gap: tuple[str, PlannedRequest | None] | None) -> str | None:
    """The cause hint a plan gives a missed request: the planner dropped it or merged it."""
    if gap is None:
        return None
    reason, entry = gap
    if entry is None:
        return "the planner dropped it, so no agent was asked"
    if reason:
        return (
            f"the planner merged it into one plan entry with another request, so {entry.agent} "
            "was given several requests as one and answered only part"
        )
    return None


def _segmented(text: str) -> list[DeclaredRequest]:
    return [DeclaredRequest(text=r.text) for r in segment_requests(text)]


def _finding(turn: int, request: DeclaredRequest, why: str, cause: str | None = None) -> Finding:
    return Finding(
        kind="missed_request",
        turn=turn,
        message_ids=(),
        senders=(request.agent,) if request.agent else (),
        evidence=f"{_quote(request.text)}: {why}",
        cause=cause,
    )


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'

"""The missed-request check: every request of a user message is addressed by something the bot said.

It does not read the runtime's plan to know what was asked. It takes the requests from the user's
message itself (:func:`~harness.detect.requests.segment_requests`), or from a scenario that
declares them, and looks for each in the bot's messages of that turn: a request is addressed when
some part of a sentence the bot sent is given to it by the learned matcher of
:mod:`harness.detect.answers` (a sentence is cut into its clauses, where "and", "but" or "however" joins two
statements, and between two values: :mod:`harness.detect._reply_parts`, so one
sentence can answer two requests, one part each; each part addresses at most one request, unless
it very clearly answers two). So a
transcript recorded from a deployed bot, with no plan at all, gets the same findings as an
in-process run. Parts of the message that ask for no answer ("Thanks, that sounds great";
:func:`~harness.detect.requests.needs_answer`) are matched but never reported, and an apology that
names a request ("Sorry, I could not finish ...") does not answer it, unless the request is a
yes/no question ("Sorry, it cannot be refunded" answers "is it refundable"). One sentence with a
yes or a no may answer two yes/no questions ("Yes, it is both free and dog-friendly"), and one
sentence with room for two answers, a value or a classification of the kind each asks for, two
requests ("It's a folk music event at 40 Harbor Road"; :mod:`harness.detect._units`).

When the turn's plan is known, it is compared with the requests: a missed request that the plan
dropped, or merged into another agent's request, says so in its evidence, and names the planner
as its cause hint (``Finding.cause``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from harness.detect._asked import yes_or_no_questions
from harness.detect._declines import (
    declined_alone,
    refused_among,
)
from harness.detect._declines import only_gives_up as _only_gives_up
from harness.detect._matched_turn import _match, _Matched, answer_terms
from harness.detect._meaning import (
    Meanings,
    WantedTexts,
    semantic_confidence,
)
from harness.detect._plan_gaps import _plan_cause, _plan_detail, _quote, plan_gaps
from harness.detect._together import not_heard
from harness.detect._value_lists import value_list
from harness.detect._worded import asked_for_detail, worded_to_ask
from harness.detect.answers import (
    words_of,
)
from harness.detect.findings import Finding
from harness.detect.requests import Request, needs_answer, segment_requests
from harness.detect.transcript import Message, Transcript
from harness.text import content_words
from harness.text._records import slot_maker

__all__ = [
    "CheckedTurn",
    "DeclaredRequest",
    "answer_terms",
    "check_texts",
    "check_turns",
    "judge",
    "missed_requests",
    "plan_gaps",
    "reports_request",
    "unanswered",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclaredRequest:
    """A request a scenario declares for a user message (its ``requests:`` entry)."""

    text: str
    """The request as it would be asked on its own."""
    agent: str | None = None
    """The component expected to answer it, when the scenario names one."""
    words: tuple[str, ...] = ()
    """Words an answer to it contains; the request's own content words when empty."""
    yes_or_no: bool = field(default=False, compare=False)
    """Set by the check on a request it segmented from the user's message, when the request is a
    yes/no question said whole, in a sentence ending with "?" or no mark
    (:func:`~harness.detect._asked.yes_or_no_questions`): it then asks for an answer whatever
    :func:`~harness.detect.requests.needs_answer` reads ("Has UA 15 boarded yet": an id is a word
    the needs model never saw). Not compared: it says how the request was read, not what it asks,
    so such a request equals ``DeclaredRequest(text=...)`` of its text. A declared request is
    always judged, so it means nothing there."""
    asks: bool = field(default=False, compare=False)
    """Whether the check read this segmented request as asking by the worded-request rule
    (:func:`~harness.detect._worded.worded_to_ask`: "Room service at 8 please", "Parking permit
    for my new car?", "Could housekeeping bring two towels", in a message with another request
    where the bot did not just ask the user for a detail), or as an item of a list of values
    (:func:`~harness.detect._value_lists.value_list`: "Gym opening hours on Sunday, pool opening
    hours on Sunday", where the bot did not just ask the user for details). It says how the
    request was read, not whether it asks: ``False`` on a question the needs model reads as asking, and on every
    :attr:`yes_or_no` one. Not compared, as :attr:`yes_or_no`; it means nothing on a declared
    request."""


def unanswered(
    requests: Sequence[DeclaredRequest], said: Sequence[str], min_confidence: float = 0.0
) -> list[int]:
    """The indexes of the requests that nothing in ``said`` addresses.

    Args:
        requests: the requests of one user message.
        said: the texts of the bot's messages in that turn.
        min_confidence: leave out the requests the check is less sure than this are unanswered.

    Each sentence (claim) the bot sent may address one request: the learned matcher of
    :mod:`harness.detect.answers` gives how likely each sentence addresses each request, and a
    request is unanswered when no assignment of the sentences to the requests leaves one for it.
    So an answer that mentions another request's subject in passing does not answer it twice,
    an answer in the bot's own words still counts, and a sentence about something nobody asked
    answers nothing. How sure the check is that a request left out is unanswered is
    :func:`judge`'s; with ``min_confidence`` the check abstains below it. A request
    that declares its ``words`` is answered exactly when a sentence that is not a refusal has one
    of them (and is always sure): "I can't help with flights." answers no request declaring
    ``flights`` (:mod:`harness.detect._declines`). Closing boilerplate is ignored.
    """
    return sorted(i for i, sure in judge(requests, said).items() if sure >= min_confidence)


def judge(
    requests: Sequence[DeclaredRequest], said: Sequence[str], meanings: Meanings | None = None
) -> dict[int, float]:
    """Every request the matching leaves without an answer, with how sure that is (0 to 1),
    reported or not: :func:`unanswered` without the abstention. With ``meanings`` (the check
    under ``--semantic``), how sure is the semantic confidence's, which also reads how close in
    meaning the request is to the sentences (:mod:`harness.detect._meaning`)."""
    return _match(requests, said).missing(meanings)


def missed_requests(
    transcript: Transcript,
    *,
    declared: Mapping[int, Sequence[DeclaredRequest]] | None = None,
    min_confidence: float = 0.0,
    meanings: Meanings | None = None,
    turns: Sequence[CheckedTurn] | None = None,
) -> list[Finding]:
    """A ``missed_request`` finding for each request of a user message nothing addressed.

    Args:
        transcript: the conversation.
        declared: the requests of some turns, by 1-based turn number (a scenario's
            ``requests:`` with their ``text``); other turns are segmented.
        min_confidence: report only the requests the check is at least this sure are
            unanswered (:func:`judge`); ``matcher().report_threshold`` is the level calibrated
            on the development sets for at most 1 % of fully answered turns flagged, at a cost
            in missed requests found (docs/journal/simulate.md gives the trade-off curve). 0 reports
            every one.
        meanings: the vectors of the requests and the bot's sentences (the check under
            ``--semantic``; :func:`check_texts` says which texts). The semantic finding
            confidence then says how sure each finding is, and one below its
            ``release_threshold`` is not reported; its ``report_threshold`` is the abstaining
            level. None: the default check.
        turns: the transcript's turns as :func:`check_turns` read them (with these
            ``declared``), when the caller has them already (``detect`` under ``--semantic``,
            which segmented each message to know what to embed); None: read here.

    Returns:
        The findings, in turn order.
    """
    declared = declared or {}
    plans = {record.turn: record for record in transcript.turns}
    findings: list[Finding] = []
    if meanings is not None:
        min_confidence = max(min_confidence, semantic_confidence(meanings.model).release_threshold)
    for checked in _turns(transcript, declared) if turns is None else turns:
        turn, requests = checked.turn, checked.requests
        matching = _matching_of(checked)
        missing = matching.missing(meanings)
        record = plans.get(turn)
        gaps = plan_gaps(requests, record.plan) if record is not None and record.plan else {}
        for index, sure in sorted(missing.items()):
            if sure < min_confidence:
                continue
            why = "no bot message in the turn addresses it"
            if record is not None and record.plan:
                detail = _plan_detail(transcript, record, gaps.get(index))
                why += f" ({detail})" if detail else ""
            cause = _plan_cause(gaps.get(index))
            if cause is None and index in _declined(matching, checked.said):
                cause = "the bot declined it"
            findings.append(_finding(turn, requests[index], why, cause, score=sure))
    return findings


class CheckedTurn(NamedTuple):
    """One user turn as the check reads it."""

    turn: int
    """Its 1-based number."""
    requests: list[DeclaredRequest]
    """Its requests: declared, or segmented from the user's message."""
    said: list[str]
    """What the bot said in it, message by message."""
    declared: bool
    """Whether the requests were declared."""


class _MatchedTurn(CheckedTurn):
    """A :class:`CheckedTurn` with its matching done (:func:`check_turns`), which reads no
    meaning: :func:`check_texts` and :func:`missed_requests` read it instead of matching the turn
    again."""

    matched: _TurnMatching  # set once, by check_turns


def check_turns(
    transcript: Transcript,
    declared: Mapping[int, Sequence[DeclaredRequest]] | None = None,
    *,
    ran_to_end: bool = False,
) -> list[CheckedTurn]:
    """The user turns the check judges, each message segmented and each turn matched once (pass
    them on to :func:`check_texts` and :func:`missed_requests` to do neither again).

    The user turns after the bot's last message are left out (a recording that stops early
    misses nothing), unless ``ran_to_end`` says the conversation did not stop early (a simulated
    one that ran to its end): then they are judged on nothing said."""
    out: list[CheckedTurn] = []
    for turn in _turns(transcript, declared or {}, ran_to_end=ran_to_end):
        kept = _MatchedTurn(*turn)
        kept.matched = _turn_matching(turn.requests, turn.said, declared=turn.declared)
        out.append(kept)
    return out


def check_texts(
    transcript: Transcript,
    declared: Mapping[int, Sequence[DeclaredRequest]] | None = None,
    *,
    turns: Sequence[CheckedTurn] | None = None,
    model: str = "wordllama",
) -> list[str]:
    """The texts whose meaning the check reads under ``--semantic``, once each, in order: the
    requests, sentences (parts) and messages of the turns where the matching leaves a request
    out (found by judging each turn once without meaning; the others read none). ``turns``:
    the transcript's :func:`check_turns` (with these ``declared``), when the caller has them;
    ``model``: the embedder's ``meaning_model`` (the confidence that judging reads)."""
    wanted = WantedTexts(model=model)
    for turn in check_turns(transcript, declared) if turns is None else turns:
        _matching_of(turn).missing(wanted)
    return list(wanted.wanted)


def _turns(
    transcript: Transcript,
    declared: Mapping[int, Sequence[DeclaredRequest]],
    *,
    ran_to_end: bool = False,
) -> list[CheckedTurn]:
    """Per user turn to check: its number, its requests (declared or segmented), what the bot
    said in it and whether the requests were declared."""
    by_turn: dict[int, list[Message]] = {}
    users: dict[int, Message] = {}
    prompts: dict[int, list[str]] = {}  # what the bot said since the user's message before
    since: list[str] = []
    for m in transcript.messages:
        if m.role == "bot":
            by_turn.setdefault(m.turn, []).append(m)
            since.append(m.text)
            continue
        if m.turn not in users:
            users[m.turn] = m
            prompts[m.turn] = since
        since = []
    out = []
    last_reply = max(by_turn, default=0)
    kept = [turn for turn in sorted(users) if by_turn.get(turn) or turn <= last_reply or ran_to_end]
    # Every message cut into its pieces first, in one pass, then each read further (which
    # pieces ask, yes/no questions, lists of values) in another: the same work in another
    # order, about 6 % less CPU for 100,000 messages than both steps message by message (the
    # cutting's tables and code stay in the processor's caches, then the readers'). Only the
    # cutting is done ahead: it alone is read of every message.
    cut = {turn: segment_requests(users[turn].text) for turn in kept if not declared.get(turn)}
    earlier: list[str] = []
    for turn in sorted(users):
        said = [m.text for m in by_turn.get(turn, [])]
        text = users[turn].text
        if not said and turn > last_reply and not ran_to_end:
            earlier.append(text)
            continue  # a recording that stops early (its error is reported) misses nothing
        given = declared.get(turn)
        if given:
            requests = list(given)
        else:
            pieces = _segmented(text, prompts=prompts[turn], pieces=cut[turn])
            requests = _heard_again(pieces, earlier)
        out.append(CheckedTurn(turn, requests, said, bool(given)))
        earlier.append(text)
    return out


def _heard_again(requests: list[DeclaredRequest], earlier: Sequence[str]) -> list[DeclaredRequest]:
    """``requests`` without a piece saying the user did not hear what was said ("sorry I missed
    that", :func:`~harness.detect._together.not_heard`) when another piece asks an earlier user
    message's question again (two or more content words, every one of them the earlier
    message's): that one asks for the answer again. Beside a new question ("when's the *last*
    coach" after "when's the next coach") the piece is a request of its own, and stays."""
    if len(requests) < 2 or not earlier or not any(not_heard(r.text) for r in requests):
        return requests  # nearly every turn: the cheap test first
    asked = [content_words(t) for t in earlier]
    for r in requests:
        if not_heard(r.text):
            continue
        words = content_words(r.text)
        for before in asked:
            if len(words) >= 2 and words <= before:
                return [r for r in requests if not not_heard(r.text)]
    return requests


def _missing(
    requests: Sequence[DeclaredRequest],
    said: Sequence[str],
    *,
    declared: bool,
    meanings: Meanings | None = None,
) -> dict[int, float]:
    """The requests of one turn nothing in ``said`` addresses, with how sure that is.

    Parts of a segmented message that ask for no answer ("Thanks, that sounds great") are matched
    like the others, so that they take the sentences that go with them, but never reported."""
    return _turn_matching(requests, said, declared=declared).missing(meanings)


@dataclass(frozen=True, slots=True, kw_only=True)
class _TurnMatching:
    """:func:`_missing` up to reading meaning."""

    requests: Sequence[DeclaredRequest]
    declared: bool
    alone: dict[int, float] | None
    """One request to judge: whether only an apology for it was said (None: several)."""
    matched: _Matched | None
    """Several: the turn's matching."""

    def missing(self, meanings: Meanings | None) -> dict[int, float]:
        """:func:`_missing`'s result, reading ``meanings`` if given; the parts of a segmented
        message that ask for no answer (:func:`~harness.detect.requests.needs_answer`) left
        out."""
        if self.matched is not None:
            missing = self.matched.missing(meanings)
        elif self.alone:
            missing = self.alone
        else:
            return {}  # most turns: nothing left out
        return {i: sure for i, sure in missing.items() if self.declared or _asks(self.requests[i])}


@slot_maker(_TurnMatching)
def _made(
    requests: Sequence[DeclaredRequest],
    declared: bool,
    alone: dict[int, float] | None,
    matched: _Matched | None,
) -> _TurnMatching:
    """``_TurnMatching(requests=requests, ...)``, made through its slots (one per user turn;
    :func:`~harness.text._records.slot_maker`)."""
    return _TurnMatching(requests=requests, declared=declared, alone=alone, matched=matched)


def _turn_matching(
    requests: Sequence[DeclaredRequest], said: Sequence[str], *, declared: bool
) -> _TurnMatching:
    if declared or _asking(requests) > 1 or refused_among(len(requests), said):
        return _made(requests, declared, None, _match(requests, said))
    # One request asking for an answer: whatever the bot said addresses it, unless it said
    # nothing or only that it could not do it. (A part asking for none is left out when the
    # turn's result is read: _TurnMatching.missing.)
    alone = {
        i: 1.0 for i, r in enumerate(requests) if _only_gives_up(r.text, said) and words_of(r.text)
    }
    return _made(requests, declared, alone, None)


def _asking(requests: Sequence[DeclaredRequest]) -> int:
    """Whether two of a segmented message's requests ask for an answer (:func:`needs_answer`):
    2 when they do (the turn is matched), else less. The count stops at two, and once the
    requests left could not make two (most messages of two requests that open with thanks or a
    yes); the others are read, if at all, when the turn's result is."""
    if len(requests) < 2:
        return len(requests)  # one request is judged alone, whether it asks or not
    count = 0
    left = len(requests)
    for r in requests:
        if count + left < 2:
            break  # the rest cannot make two
        left -= 1
        if _asks(r):
            count += 1
            if count == 2:
                break
    return count


def _matching_of(turn: CheckedTurn) -> _TurnMatching:
    """The turn's matching: :func:`check_turns`' when it did it, else done now (also for a turn
    copied with ``_replace``, which carries no matching)."""
    stored: _TurnMatching | None = getattr(turn, "matched", None)
    if stored is not None:
        return stored
    return _turn_matching(turn.requests, turn.said, declared=turn.declared)


def _declined(matching: _TurnMatching, said: Sequence[str]) -> frozenset[int]:
    """The requests of a turn (its ``matching``, the bot's messages ``said``) the bot declined."""
    if matching.matched is not None:
        return matching.matched.declined
    return declined_alone([words_of(r.text) for r in matching.requests], said)


def _segmented(
    text: str, *, prompts: Sequence[str] = (), pieces: Sequence[Request] | None = None
) -> list[DeclaredRequest]:
    """The requests of a user's message (``prompts``: what the bot said since the user's message
    before; when the bot asked the user for a detail there, a phrase worded as a request may be
    the answer: :attr:`DeclaredRequest.asks`). The prompts are read only when a part is worded
    as a request and the needs model reads it as asking nothing (the act tagger is not run on
    every bot message before every user message). ``pieces``: ``segment_requests(text)``, when
    the caller has it."""
    requests = segment_requests(text) if pieces is None else pieces
    polar = yes_or_no_questions(text, ((r.start, r.end) for r in requests))
    several = len(requests) > 1
    answering: bool | None = None
    out = []
    for r, yes_or_no in zip(requests, polar, strict=True):
        if yes_or_no:
            out.append(DeclaredRequest(text=r.text, yes_or_no=True))
            continue
        if several and not needs_answer(r.text) and worded_to_ask(text, r.text, r.end):
            if answering is None:
                answering = asked_for_detail(prompts)
            if not answering:
                out.append(DeclaredRequest(text=r.text, asks=True))
                continue
        items = value_list(r.text) if not several else None
        if items is not None:  # "Swim lesson price, lane swim times and sauna opening hours"
            if answering is None:
                answering = asked_for_detail(prompts)
            if not answering:
                # each item names a value to be told: it asks, whatever the needs model reads
                # of a bare noun phrase (the model learned those as slot values, "for 4 people")
                out.extend(DeclaredRequest(text=item, asks=True) for item in items)
                continue
            # the bot just asked the user for details ("which fields should it show?"): the
            # list is the details given, read whole as any other part
        out.append(_request(r.text))
    return out


def _asks(request: DeclaredRequest) -> bool:
    """Whether a segmented request asks for an answer of its own."""
    return request.yes_or_no or request.asks or needs_answer(request.text)


@slot_maker(DeclaredRequest)
def _request(text: str) -> DeclaredRequest:
    """``DeclaredRequest(text=text)``, the same object, its fields set through their slots
    rather than by the frozen class's ``__init__`` (one ``object.__setattr__`` per field: about
    four times the cost, for each request of every user message of a long conversation); the
    later fields are their defaults (:func:`~harness.text._records.slot_maker`)."""
    return DeclaredRequest(text=text)


def reports_request(finding: Finding, request: DeclaredRequest) -> bool:
    """Whether ``finding`` is this check's ``missed_request`` for ``request`` (of its turn)."""
    return (
        finding.kind == "missed_request"
        and finding.senders == ((request.agent,) if request.agent else ())
        and finding.evidence.startswith(f"{_quote(request.text)}: ")
    )


def _finding(
    turn: int,
    request: DeclaredRequest,
    why: str,
    cause: str | None = None,
    *,
    score: float | None = None,
) -> Finding:
    """``score``: how sure the check is that the request went unanswered (0 to 1)."""
    return Finding(
        kind="missed_request",
        turn=turn,
        message_ids=(),
        senders=(request.agent,) if request.agent else (),
        evidence=f"{_quote(request.text)}: {why}",
        score=score,
        cause=cause,
    )

"""The duplicate-message detector: every bot message against every earlier one of the conversation.

Candidates come from one index of the conversation's bot messages (:mod:`._candidates`), so each
message meets a bounded number of candidates and the cost grows with the number of messages, not
with its square. Each candidate is then compared claim by claim (:mod:`harness.detect.restate`)
and the learned pair scorer decides (:mod:`harness.detect.scorer`); pairs become findings in
:mod:`._clusters`.

Across turns a repeat is right when the user asked for it again ("what was the total again?",
"remind me", a short question about the same subject: :mod:`._users`), and short messages without
facts (closers, holding messages: "Anything else?", "Let me check that.") only count within one
turn, unless a short statement is resent unprompted ("Your card is frozen." after the turn's
reply: :func:`._around._resent`). A message sent three times is one finding that names all three.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from harness.detect._analysis import (
    JOBS,
    KEPT,
    Ends,
    forks,
    roomy,
    shrinking,
    steps,
    take_all,
    take_next,
    worker_processes,
)
from harness.detect._around import (
    _Around,
    _asks_several,
    _contained,
    _resent,
    _same_words,
    _verbatim,
    contained_restatement,
)
from harness.detect._candidates import (
    _MAX_CANDIDATES,
    _SMALL,
    Entry,
    Pair,
    _Index,
    _Memo,
)
from harness.detect._clusters import evidence_facts, findings_of, quote
from harness.detect._excuses import asked_again, confirms_choice, only_closes
from harness.detect._folds import folded, relayed
from harness.detect._meanwhile import Meanwhile, beside
from harness.detect._pair_bounds import PAIR_BOUNDS
from harness.detect._recaps import RECAP_TURNS, _recap, moves_on
from harness.detect._screen import (
    WORDING_FREE,
    screen,
    unworded_features,
    worded,
)
from harness.detect._updates import new_stage, new_state
from harness.detect._users import _User, _Users
from harness.detect._wording import _wording
from harness.detect.choices import confirms_new_request, offers_another, restated_part
from harness.detect.embeddings import embed_messages
from harness.detect.findings import DetectorConfig, Finding, Scope
from harness.detect.restate import ClaimMatch, Restatement, Thresholds, _may_restate
from harness.detect.scorer import (
    PairContext,
    PairScorer,
    first_bounds,
    pair_features,
    scorer,
    semantic_scorer,
    swapped_words,
    user_bounds,
    with_cosine,
)
from harness.detect.transcript import Transcript
from harness.text import Analysis, normalise

if TYPE_CHECKING:
    from harness.detect.judge import ModelJudge

__all__ = [
    "PARALLEL_MESSAGES",
    "Entry",
    "Pair",
    "conversation_pairs",
    "embed_messages",
    "evidence_facts",
    "find_duplicates",
    "findings_of",
    "quote",
    "thresholds",
    "worker_processes",
]


def thresholds(config: DetectorConfig) -> Thresholds:
    return Thresholds(
        paraphrase=config.sentence_threshold,
        wording=config.containment_threshold,
        near=config.near_threshold,
        cover=config.cover_threshold,
        strict=config.strict_threshold,
    )


def _different_requests(a: Entry, b: Entry) -> bool:
    if not a.request or not b.request or a.request == b.request:
        return False
    wa, wb = set(a.request.split()), set(b.request.split())
    return len(wa & wb) / len(wa | wb) < 0.8


def compare_entry(
    entry: Entry,
    index: _Index,
    users: _Users,
    limits: Thresholds,
    vectors: Mapping[int, Sequence[float]] | None = None,
    semantic: float = 1.1,
    closers: frozenset[str] = frozenset(),
    *,
    window: int | None = None,
    memo: _Memo | None = None,
    close: list[Pair] | None = None,
    pair_model: PairScorer | None = None,
    record: list[tuple[Pair, list[float]]] | None = None,
    leads: bool = False,
) -> list[Pair]:
    """The earlier messages of the conversation that ``entry`` restates (and, into ``close``
    when given, the pairs that came close, for a judge). ``leads``: another bot message of its
    turn follows it."""
    memo = memo or _Memo()
    pairs: list[Pair] = []
    # The candidates ruled out by the bound or turned down after the comparison: a message that
    # relays its own turn's answer is asked whether it folds any of them in (:mod:`._folds`).
    passed: list[Entry] = []
    if not entry.text.claims:
        return pairs
    turn = entry.message.turn
    model = pair_model if pair_model is not None else _default_model(vectors)
    # Pairs the scorer cannot call duplicates, whatever the comparison finds, skip it (only when
    # nothing but the decision is wanted: no close pairs, no recorded features), and so do the
    # candidates of earlier turns linked by little (:data:`~._candidates._LINKED`).
    bound = close is None and record is None and not model.cosine
    candidates = index.candidates(entry, weak=not bound)
    if vectors is not None and entry.index in vectors:
        # Embeddings find rewordings that share no words: the recent messages are candidates too.
        seen = {id(c) for c in candidates}
        candidates += [e for e in index.entries[-_MAX_CANDIDATES:] if id(e) not in seen]
        candidates.sort(key=lambda e: e.index)
    # Newest first: an earlier copy of a text already decided gets the same decision (a message
    # sent many times is compared once, not once per copy).
    decided: dict[tuple[str, str, str], bool] = {}
    start = index.first.get(turn)
    before = [e.message.text for e in index.entries[start:]] if start is not None else []
    around = _Around(entry, users, replied=bool(before), leads=leads, before=before)
    screening = screen(model) if bound else None
    if screening is not None and not screening.active:
        screening = None
    for other in reversed(candidates):
        if window is not None and turn - other.message.turn > window:
            continue
        scope: Scope = "same_turn" if other.message.turn == turn else "cross_turn"
        copy_key = (other.text.norm, scope, other.request)
        if copy_key in decided and other.text.norm and record is None:
            if decided[copy_key]:
                found = memo.restates(other.text, entry.text, limits, False)
                if found is not None:
                    pairs.append(Pair(other, entry, scope, found))
            continue
        if bound and vectors is None and _restates_nothing(other, entry, scope, around, closers):
            decided[copy_key] = False
            continue
        strict = _different_requests(other, entry)
        # A pair the bound rules out goes on only when it may be a recap's restatement
        # (:func:`._recaps._recap`, a stated rule the bound does not read): its claims are
        # compared, and it is dropped unless the rule takes it.
        ruled_out = screening is not None and around.screened(other, scope, strict, screening)
        context = around.context(other, scope, strict) if bound and not ruled_out else None
        if context is not None and not _reachable(model, other, entry, users, context, around):
            ruled_out = True
        if ruled_out and not around.recaps(other):
            decided[copy_key] = False
            passed.append(other)
            continue
        # Every step below that can find a restatement must be one :func:`_restates_nothing`
        # knows (it decides the pairs none of them can find before the screen): a new step that
        # reads texts sharing no fact and fewer than two content words goes there too.
        found = memo.restates(other.text, entry.text, limits, strict)
        if found is None and scope == "same_turn":
            found = _same_closer(other.text, entry.text, closers)
        if found is None and _contained(other, entry, around.before, around.asked, around.said):
            found = contained_restatement(other.text, entry.text)
        if found is None and vectors is not None and not strict:
            found = _semantic(other, entry, vectors, semantic)
        if found is None and not strict:
            found = memo.spelled(other.text, entry.text, limits)
        if found is None and not strict:
            found = memo.borderline(other.text, entry.text, limits)
        if found is None:
            decided[copy_key] = False
            continue
        closing = scope == "cross_turn" and (only_closes(other) or only_closes(entry))
        if closing and record is None:
            # A closer sent again in another turn is no repeat, whatever the features say.
            decided[copy_key] = False
            if close is not None:
                close.append(Pair(other, entry, scope, found))
            continue
        if context is None:
            context = around.context(other, scope, strict)
        unworded = _unworded(other, entry, found, users, context, around) if bound else None
        recapped = around.recaps(other) and _recap(other, entry, found, context[1])
        if ruled_out and not recapped:
            decided[copy_key] = False
            passed.append(other)
            continue
        if unworded is not None and not recapped and not model.may_reach(unworded, WORDING_FREE):
            decided[copy_key] = False
            passed.append(other)
            continue
        if unworded is None:
            features = _features(other, entry, found, users, context)
        else:  # completed, not made again
            features = worded(unworded, _wording(other.text.text, entry.text.text))
        if model.cosine:
            features = _cosine_feature(features, other, entry, vectors)
        duplicate = (
            not closing
            and (
                model.duplicate(features)
                or _verbatim(other, entry)
                or _resent(other, entry, around.replied, around.asked)
                or _contained(other, entry, around.before, around.asked, around.said)
                or recapped
            )
            and not _excused(
                other, entry, found, features, users, index, context, recapped, around.replied
            )
        )
        if record is not None:
            record.append((Pair(other, entry, scope, found), features))
        decided[copy_key] = duplicate
        if duplicate:
            if found.score == 0.0 and not found.later_cover:
                found = replace(found, score=round(model.probability(features), 3))
            pairs.append(Pair(other, entry, scope, found))
        else:
            if close is not None:
                close.append(Pair(other, entry, scope, found))
            passed.append(other)
    # (not while recording: a fit reads the scorer's rows, not the stated rules' decisions)
    if passed and record is None and (relays := relayed(pairs)):
        pairs += _folds_of(entry, passed, relays, index, users, limits, memo, around)
        pairs.sort(key=lambda p: p.earlier.index, reverse=True)
    pairs.reverse()
    return pairs


def _folds_of(
    entry: Entry,
    passed: Sequence[Entry],
    relays: Sequence[Pair],
    index: _Index,
    users: _Users,
    limits: Thresholds,
    memo: _Memo,
    around: _Around,
) -> list[Pair]:
    """The earlier turns' messages ``passed`` over (ruled out before or by the scorer) that
    ``entry``, taken as relaying messages of its own turn (``relays``), restates in its other
    claims (:func:`._folds.folded`), and no stated rule excuses."""
    out: list[Pair] = []
    for other in passed:
        if not 0 < entry.message.turn - other.message.turn <= RECAP_TURNS:
            continue  # compared only when the rule may take it
        if only_closes(other) or only_closes(entry):
            continue
        strict = _different_requests(other, entry)
        if strict:
            continue
        found = memo.restates(other.text, entry.text, limits, strict)
        if found is None:
            continue
        context = around.context(other, "cross_turn", strict)
        if not folded(other, entry, found, relays, context[1]):
            continue
        features = _features(other, entry, found, users, context)
        if not _excused(
            other, entry, found, features, users, index, context, False, around.replied
        ):
            out.append(Pair(other, entry, "cross_turn", found))
    return out


def _excused(
    other: Entry,
    entry: Entry,
    found: Restatement,
    features: list[float],
    users: _Users,
    index: _Index,
    context: tuple[PairContext, list[_User]],
    recapped: bool,
    replied: bool,
) -> bool:
    """Whether a stated rule asked after the scorer turns the pair down."""
    return bool(
        asked_again(features, other, entry, users, found, context[1])
        or confirms_choice(other, entry, found, users, index.entries)
        or (
            not recapped
            and offers_another(
                other.text,
                entry.text,
                users.spanning(other.message.turn, entry.message.turn),
                restated_part(found, entry.message.text),
                asked_first=users.of_turn(other.message.turn),
            )
        )
        or (
            confirms_new_request(other.text, entry.text, found)
            and _new_request_between(other, entry, users)
        )
        or swapped_words(other.message.text, entry.message.text)
        or new_state(other.text, entry.text, replied=replied)
        # New status words excuse no word-for-word repeat: it stays one whatever status words
        # it adds, unless another rule here excuses it (the user asked again, ...).
        or (new_stage(other.text, entry.text) and not _verbatim(other, entry))
        or moves_on(found)
    )


def _restates_nothing(
    other: Entry, entry: Entry, scope: Scope, around: _Around, closers: frozenset[str]
) -> bool:
    """Whether no step of :func:`compare_entry` can find a restatement of ``other`` in ``entry``
    (without embeddings), so that the pair is no duplicate whatever the screen, the pair bound
    or the scorer say: it is decided before them. Cheaper than the screen, and about a third of
    the candidate pairs (mostly the always-compared messages of the turn and the one before).

    Exact, by what each step needs: the claim comparison (:func:`~.restate.compare`) finds
    nothing in two texts that differ and share no fact and fewer than two content words (its own
    first test, :func:`~.restate._may_restate`), and then reports the claims not checked, so the
    spelled values (:meth:`._Memo.spelled`) find nothing either; the near misses
    (:func:`~.restate.borderline`) make the same first test. The closer of the same turn
    (:func:`_same_closer`) and the small message contained whole (:func:`._around._contained`)
    read other things, and are asked here. ``tests/detect/test_restates_nothing.py`` compares
    the findings with those of every pair screened."""
    earlier, later = other.text, entry.text
    if earlier.norm == later.norm or _may_restate(earlier, later):
        return False
    if scope == "same_turn" and _same_closer(earlier, later, closers) is not None:
        return False
    return not _contained(other, entry, around.before, around.asked, around.said)


def _new_request_between(earlier: Entry, later: Entry, users: _Users) -> bool:
    """Whether ``later`` may confirm a new request the user made after ``earlier``
    (:func:`~harness.detect.choices.confirms_new_request` is asked only then): a user message
    stands between the two; or, within one turn, ``later`` asks a question (a confirmation asks:
    a fact looked up for the request, then "To confirm: ... at <that address>?"), the turn's user
    message asks two things or more (the first answered by ``earlier``, the second confirmed by
    ``later``), or ``later`` states a status ``earlier`` does not (news about the request, left to
    that rule as before). A statement of the same turn after a single request, with no new
    status, confirms no new request: it relays or restates the answer."""
    turn = later.message.turn
    if earlier.message.turn != turn or "?" in later.message.text:
        return True
    if any(k.startswith("state:") for k in later.text.facts - earlier.text.facts):
        return True
    user = users.of_turn(turn)
    return user is not None and _asks_several(user.text)


def _default_model(vectors: Mapping[int, Sequence[float]] | None) -> PairScorer:
    """The shipped scorer; with embeddings, the one that reads their cosine as well."""
    return semantic_scorer() if vectors is not None else scorer()


def _cosine_feature(
    features: list[float],
    earlier: Entry,
    later: Entry,
    vectors: Mapping[int, Sequence[float]] | None,
) -> list[float]:
    """The features with the pair's embedding cosine appended (the ``--semantic`` scorer's)."""
    vectors = vectors or {}
    return with_cosine(features, vectors.get(earlier.index), vectors.get(later.index))


def _same_closer(earlier: Analysis, later: Analysis, closers: frozenset[str]) -> Restatement | None:
    """Two messages of one turn that both carry the same short claim without facts ("Anything
    else I can help with?"): the user reads it twice."""
    b = later.claims[-1]
    if b.facts or not b.norm or len(b.words) > _SMALL:
        return None
    if not (b.span.text.rstrip().endswith("?") or b.norm in closers):
        return None  # a closer asks or offers ("Anything else?"); others are content
    for a in earlier.claims[-1:]:
        if a.norm == b.norm or (a.norm in closers and b.norm in closers):
            return Restatement(
                method="exact",
                score=1.0,
                matches=(ClaimMatch(a, b, 1.0, frozenset()),),
                facts=frozenset(),
                earlier_cover=round(a.weight / (earlier.weight or 1), 3),
                later_cover=round(b.weight / (later.weight or 1), 3),
            )
    return None


def _features(
    other: Entry,
    entry: Entry,
    found: Restatement,
    users: _Users,
    context: tuple[PairContext, list[_User]],
) -> list[float]:
    """The pair scorer's features of a candidate pair (what the user said in the last few turns
    between the two messages included; ``context``: :meth:`_Around.context`)."""
    where, between = context
    return pair_features(
        other.text, entry.text, found, where, between, users.of_turn(other.message.turn)
    )


def _reachable(
    model: PairScorer,
    other: Entry,
    entry: Entry,
    users: _Users,
    context: tuple[PairContext, list[_User]],
    around: _Around | None = None,
) -> bool:
    """Whether the pair may be a duplicate, before comparing its claims: an exact repeat may, and
    so may a pair whose features, bounded over every restatement the comparison could find and
    every word-sequence ratio (:func:`feature_bounds`), may reach the scorer's threshold. Only a
    pair the full comparison would not report is refused: every later step keeps a pair only if
    the scorer calls it a duplicate or it is :func:`_verbatim`. In two stages: the bound with
    the features that read both the user's messages and the pair left free rules out most pairs
    (:func:`first_bounds`); the others get those features too (:func:`user_bounds`)."""
    if _verbatim(other, entry, around.padded if around is not None else None):
        return True
    if around is not None and (
        _resent(other, entry, around.replied, around.asked)
        or _contained(other, entry, around.before, around.asked, around.said)
    ):
        return True
    where, between = context
    features, widened = first_bounds(other.text, entry.text, where, between)
    if not model.may_reach(features, widened):
        return False
    first = users.of_turn(other.message.turn)
    widened = user_bounds(features, widened, other.text, entry.text, between, first)
    return model.may_reach(features, widened)


def _unworded(
    other: Entry,
    entry: Entry,
    found: Restatement,
    users: _Users,
    context: tuple[PairContext, list[_User]],
    around: _Around,
) -> list[float] | None:
    """:func:`unworded_features` of the pair (its claims compared; the costliest feature left
    not made: the scorer skips a pair that cannot reach it, :func:`worded` completes the others);
    None for an exact or verbatim repeat (which :func:`_verbatim` decides, not the scorer)."""
    if _same_words(other, entry) or _verbatim(other, entry, around.padded):
        return None
    if _contained(other, entry, around.before, around.asked, around.said):
        return None
    where, between = context
    first = users.of_turn(other.message.turn)
    return unworded_features(other.text, entry.text, found, where, between, first)


def _semantic(
    a: Entry, b: Entry, vectors: Mapping[int, Sequence[float]], threshold: float
) -> Restatement | None:
    """Two messages whose embeddings are at least ``threshold`` close and whose facts agree."""
    if a.index not in vectors or b.index not in vectors:
        return None
    cosine = sum(x * y for x, y in zip(vectors[a.index], vectors[b.index], strict=True))
    if cosine < threshold:
        return None
    fa, fb = a.text.strong, b.text.strong
    if fa != fb and not (fa <= fb or fb <= fa):
        return None
    return Restatement(
        method="semantic",
        score=round(cosine, 3),
        matches=(),
        facts=fa & fb,
        earlier_cover=1.0,
        later_cover=1.0,
    )


def conversation_pairs(
    transcript: Transcript,
    config: DetectorConfig,
    *,
    vectors: Mapping[int, Sequence[float]] | None = None,
    close: list[Pair] | None = None,
    pair_model: PairScorer | None = None,
    record: list[tuple[Pair, list[float]]] | None = None,
    meanwhile: Meanwhile | None = None,
) -> list[Pair]:
    """Every (earlier, later) pair of bot messages where the later restates the earlier.

    ``pair_model`` replaces the shipped pair scorer; ``record``, when given, receives every
    candidate pair the scorer looked at with its features (for fitting and measuring).

    Inside :func:`worker_processes`, a long conversation's analysis and comparisons are spread
    over worker processes (each message's analysis depends on its text alone; each message is
    compared with the messages before it, which each worker holds: the pairs, and so the
    findings, are the same as in one process).

    ``meanwhile``, when given, is done once (:mod:`._meanwhile`): with worker processes, by a
    worker forked before the analysis, which then runs in one process fewer, and beside the
    comparison until it is done; with none, here, after the comparison. What it raises is
    raised here, as is what a comparison worker raises."""
    alone = close is not None or record is not None or vectors is not None or not forks()
    if (kept := KEPT.get()) is not None:
        kept.clear()  # the last conversation's: freed before this one's are made
    bots = sum(1 for message in transcript.messages if message.role != "user")
    jobs = 1 if alone or bots < PARALLEL_MESSAGES else JOBS.get()
    # With two processes the parent analyses alone beside the worker doing ``meanwhile``, which
    # then takes the last shares of the analysis if it is done first (no core left idle).
    helping = jobs == 2 and meanwhile is not None and not meanwhile.done
    ends = Ends.of(transcript.messages) if helping else None
    # Each bot message's screen sketch is made by the comparison, for the messages it meets:
    # most pairs are decided before the screen (:func:`_restates_nothing`), so only about
    # three in five messages need one (real-100000: 31,267 sides made in the two comparison
    # processes, against 47,028 when the analysis sketched every message).
    with beside(meanwhile, fork=jobs > 1, then=ends.helped if ends else None) as aside:
        if ends is not None and aside is not None:
            ends.helper = aside.collect
        run = _Run(
            steps=steps(
                transcript,
                jobs - 1 if aside else jobs,
                ends=ends if aside else None,
                # before the comparison's processes fork; while the checks' worker ends its
                # last share of the analysis, when it took any
                before_waiting=(lambda: _made_before_forking(pair_model, vectors))
                if jobs > 1
                else None,
            ),
            limits=thresholds(config),
            closers=frozenset(normalise(p) for p in config.boilerplate),
            window=config.cross_turn_window,
            semantic=config.semantic_threshold,
            vectors=vectors,
            pair_model=pair_model,
        )
        if kept is not None:
            kept.append(run)
        if jobs > 1 and sum(1 for s in run.steps if isinstance(s, Entry)) >= PARALLEL_MESSAGES:
            pairs = _pairs_in_processes(run, jobs)
        else:
            pairs = run.pairs(0, len(run.steps), close=close, record=record)
    if meanwhile is not None:
        meanwhile()  # done already when a worker did it
    return pairs


@dataclass(frozen=True, slots=True)
class _Run:
    """One conversation's comparison: its messages analysed, in order, and the settings."""

    steps: list[Entry | _User]
    limits: Thresholds
    closers: frozenset[str]
    window: int | None
    semantic: float
    vectors: Mapping[int, Sequence[float]] | None
    pair_model: PairScorer | None

    def pairs(
        self,
        start: int,
        stop: int,
        *,
        close: list[Pair] | None = None,
        record: list[tuple[Pair, list[float]]] | None = None,
        progress: _Progress | None = None,
    ) -> list[Pair]:
        """The pairs whose later message is among ``steps[start:stop]``.

        ``progress``, when given, holds what this process indexed for an earlier slice: a
        slice after it goes on from there instead of indexing the conversation again."""
        if progress is None or not 0 <= progress.position <= start:
            progress = _Progress()
        index, users, memo = progress.index, progress.users, progress.memo
        for step in self.steps[progress.position : start]:  # before: indexed, not compared
            if isinstance(step, Entry):
                index.add(step)
            else:
                users.add(step)
        progress.position = -1  # unusable until this slice is done
        pairs: list[Pair] = []
        steps = self.steps
        for at in range(start, stop):
            step = steps[at]
            if not isinstance(step, Entry):
                users.add(step)
                continue
            after = steps[at + 1] if at + 1 < len(steps) else None
            pairs += compare_entry(
                step,
                index,
                users,
                self.limits,
                self.vectors,
                self.semantic,
                self.closers,
                window=self.window,
                memo=memo,
                close=close,
                pair_model=self.pair_model,
                record=record,
                leads=isinstance(after, Entry) and after.message.turn == step.message.turn,
            )
            index.add(step)
        progress.position = stop
        return pairs


@dataclass(slots=True)
class _Progress:
    """What one process has indexed of a conversation: the bot messages and the user's
    messages of ``steps[:position]`` (-1: a slice was left unfinished), and its memo."""

    index: _Index = field(default_factory=_Index)
    users: _Users = field(default_factory=_Users)
    memo: _Memo = field(default_factory=_Memo)
    position: int = 0
    pid: int = field(default_factory=os.getpid)
    """The process it belongs to (a forked worker starts its own)."""


# --- worker processes -------------------------------------------------------------------------


def _made_before_forking(
    pair_model: PairScorer | None, vectors: Mapping[int, Sequence[float]] | None
) -> None:
    """What each of the comparison's processes would make for itself on first use, made once in
    this process before they fork, so that they inherit it: the pair scorer's screen and its
    bound over each of the comparison's feature bounds (compiled Python code: about 0.08 s in
    each process), and the request reader that :func:`._around._asks_several` loads (about
    0.01 s). The scorer is :func:`compare_entry`'s: ``pair_model``, else the default for
    ``vectors``. Made after this process's analysis, while the checks' worker ends its last
    share of it."""
    model = pair_model if pair_model is not None else _default_model(vectors)
    from harness.detect import requests  # noqa: F401  (loaded here, inherited by the forks)

    if model.cosine:  # a scorer that reads the cosine is asked without the screen and bounds
        return
    screen(model)
    if model.trees:
        for widened in (*PAIR_BOUNDS, WORDING_FREE):
            model.bound(widened)


PARALLEL_MESSAGES = 2_000
"""Bot messages a conversation needs before its analysis and comparisons are spread over
processes (below, starting the processes costs more than it saves)."""
_SLICES_PER_JOB = 16
"""Slices of the conversation per process: whichever process is free takes the next one, so the
processes end together (each goes on from its own last slice's index: :class:`_Progress`)."""
_FORKED: list[_Run] = []
"""The conversation the forked workers compare (set in the parent just before they start)."""
_PROGRESS: list[_Progress] = []
"""What this process has indexed for its slices so far (see :func:`_compare_slice`)."""


def _compare_slice(bounds: tuple[int, int]) -> list[tuple[int, int, Scope, Restatement]]:
    """The pairs of one slice, as message indices (the parent holds the entries), in a worker
    or in the parent. A process's slices come in order, so each goes on from the index its last
    one left (a forked worker starts its own)."""
    if not _PROGRESS or _PROGRESS[0].pid != os.getpid():
        _PROGRESS[:] = [_Progress()]
    pairs = _FORKED[0].pairs(*bounds, progress=_PROGRESS[0])
    return [(p.earlier.index, p.later.index, p.scope, p.found) for p in pairs]


_NEXT: list[Any] = []
"""The next slice no process has taken: a ``multiprocessing.Value`` the processes share."""


def _compare_slices(bounds: Sequence[tuple[int, int]]) -> dict[int, list[Any]]:
    """The next slice no process has taken, compared, until none is left (by number). A process
    takes a slice only when free (none waits queued for a busy worker): they end together."""
    found: dict[int, list[Any]] = {}
    while (k := take_next(_NEXT[0], len(bounds))) is not None:
        found[k] = _compare_slice(bounds[k])
    return found


def _pairs_in_processes(run: _Run, jobs: int) -> list[Pair]:
    """:meth:`_Run.pairs` over the whole conversation in slices of fewer and fewer bot messages
    (:func:`~harness.detect._analysis.shrinking`), compared by ``jobs - 1`` forked workers and
    this process (:func:`_compare_slices`); the pairs joined in order."""
    bots = [i for i, step in enumerate(run.steps) if isinstance(step, Entry)]
    cuts = shrinking(len(bots), jobs * _SLICES_PER_JOB)
    starts = sorted({bots[at] for at in cuts if 0 < at < len(bots)})
    bounds = list(zip([0, *starts], [*starts, len(run.steps)], strict=True))
    context = multiprocessing.get_context("fork")
    _FORKED[:] = [run]
    _PROGRESS.clear()
    _NEXT[:] = [context.Value("i", 0)]
    found: dict[int, list[Any]] = {}
    try:
        pool = roomy(ProcessPoolExecutor(max_workers=max(1, jobs - 1), mp_context=context))
        with pool:
            futures = [pool.submit(_compare_slices, bounds) for _ in range(max(1, jobs - 1))]
            try:
                found.update(_compare_slices(bounds))
            except BaseException:
                take_all(_NEXT[0], len(bounds))  # the workers stop after their current slice
                raise
            for future in futures:
                found.update(future.result())
    finally:
        _FORKED.clear()
        _PROGRESS.clear()
        _NEXT.clear()
    entries = {step.index: step for step in run.steps if isinstance(step, Entry)}
    return [
        Pair(entries[earlier], entries[later], scope, found_pair)
        for k in range(len(bounds))
        for earlier, later, scope, found_pair in found[k]
    ]


def find_duplicates(
    transcript: Transcript,
    config: DetectorConfig,
    *,
    vectors: Mapping[int, Sequence[float]] | None = None,
    pair_model: PairScorer | None = None,
    meanwhile: Meanwhile | None = None,
) -> list[Finding]:
    """The duplicate findings of one conversation (clusters of one message sent several times
    are one finding). ``meanwhile`` is done once, by a worker process beside the analysis and
    the comparison when there are workers (see :func:`conversation_pairs`)."""
    return findings_of(
        conversation_pairs(
            transcript, config, vectors=vectors, pair_model=pair_model, meanwhile=meanwhile
        ),
        config.cover_threshold,
    )


async def judged_duplicates(
    transcript: Transcript,
    config: DetectorConfig,
    judge: ModelJudge,
    *,
    vectors: Mapping[int, Sequence[float]] | None = None,
) -> list[Finding]:
    """:func:`find_duplicates`, plus the borderline pairs ``judge`` calls duplicates (a pair it
    could not decide is left as the rules decided it, and counted in ``judge.undecided``)."""
    close: list[Pair] = []
    pairs = conversation_pairs(transcript, config, vectors=vectors, close=close)
    users = {m.turn: m.text for m in transcript.messages if m.role == "user"}
    for pair in close[: judge.max_pairs]:
        first, last = pair.earlier.message.turn, pair.later.message.turn
        said = [users[t] for t in range(first + 1, last + 1) if t in users]
        verdict = await judge.decide(pair.earlier.message.text, pair.later.message.text, said)
        if verdict is not None and verdict.duplicate:
            found = replace(pair.found, reason=verdict.reason)
            pairs.append(Pair(pair.earlier, pair.later, pair.scope, found))
    pairs.sort(key=lambda p: (p.later.index, p.earlier.index))
    return findings_of(pairs, config.cover_threshold)

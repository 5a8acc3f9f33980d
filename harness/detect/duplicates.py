"""The duplicate-message detector: every bot message against every earlier one of the conversation.

Candidates come from one index of the conversation's bot messages by fact and by content word
(words common to many messages are left out of it), so each message meets a bounded number of
candidates and the cost grows with the number of messages, not with its square. Each candidate
is then compared claim by claim (:mod:`harness.detect.restate`).

Across turns a repeat is right when the user asked for it again ("what was the total again?",
"remind me", a short question about the same subject), and short messages without facts
(closers, holding messages: "Anything else?", "Let me check that.") only count within one turn.
A message sent three times is one finding that names all three.
"""

from __future__ import annotations

import gc
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from harness.detect.acts import greeting, message_acts
from harness.detect.findings import DetectorConfig, Finding, Highlight, Scope, request_key
from harness.detect.restate import ClaimMatch, Restatement, Thresholds, borderline, compare
from harness.detect.scorer import (
    FEATURES,
    PairContext,
    PairScorer,
    pair_features,
    scorer,
    semantic_scorer,
    swapped_words,
    with_cosine,
)
from harness.detect.transcript import Message, Transcript
from harness.text import Analysis, analyse, analysed_part, content_words, normalise

if TYPE_CHECKING:
    from harness.detect.embeddings import Embedder
    from harness.detect.judge import ModelJudge

__all__ = [
    "Entry",
    "Pair",
    "conversation_pairs",
    "embed_messages",
    "find_duplicates",
    "findings_of",
    "paused_gc",
    "quote",
    "thresholds",
]

_MAX_CANDIDATES = 64
"""Candidates compared per message, the most similar first."""
_COMMON_POSTING = 48
_RARE = 16
_COMMON_RECENT = 32
"""How many of the latest messages stating a common fact are candidates by that fact."""
_EXACT_RECENT = 8
"""How many of the latest copies of the same text are candidates."""
_ASK_TURNS = 4
"""How many turns back a user message may have asked for an answer again."""
"""A fact in at most this many earlier messages is rare: alone, it makes a message a candidate."""
"""A content word already in this many messages is too common to find candidates by."""
_SMALL = 8
"""A message without specific facts and with at most this many content words is small (a closer,
a holding message): it only counts as a duplicate within one turn."""


def quote(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


def thresholds(config: DetectorConfig) -> Thresholds:
    return Thresholds(
        paraphrase=config.sentence_threshold,
        wording=config.containment_threshold,
        near=config.near_threshold,
        cover=config.cover_threshold,
        strict=config.strict_threshold,
    )


@dataclass(slots=True, eq=False)
class Entry:
    """A bot message with its analysis."""

    index: int
    """Its position among the transcript's messages."""
    message: Message
    text: Analysis
    request: str = ""
    small: bool = False


@dataclass(frozen=True, slots=True)
class Pair:
    """A later message restating an earlier one."""

    earlier: Entry
    later: Entry
    scope: Scope
    found: Restatement


# --- the user's side: did they ask again? -----------------------------------------------------

_REASK = re.compile(
    r"\b(?:again|repeat|remind me|one more time|once more|say (?:that|it|this)|come again|"
    r"didn'?t (?:catch|get|see|hear|understand)|missed (?:that|it|the)|what (?:\w+ )?(?:was|were)|"
    r"what did (?:you|it|they) say|pardon|resend|re-send|recap|can you go over|"
    r"lost (?:it|that|track))\b"
    r"|^\s*+(?:sorry|what|huh|eh|pardon)\s*+[?!.]*+\s*+$"  # possessive: linear in white space
    r"|^\s*(?:sorry|pardon|excuse me)\b[^.!]*\?",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"\?|^\s*(?:what|when|where|which|who|how|why|is|are|was|were|do|does|did|can|could|will|"
    r"would|should|has|have)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^\s*(?:ok(?:ay)?,?\s*)?(?:can|could|would|will) (?:you|it|we|i)\b|\bplease\b",
    re.IGNORECASE,
)
_CAPABILITIES = re.compile(
    r"\bwhat (?:else )?(?:can|could|do|will) (?:you|it|this bot|the bot) (?:help|do|offer|assist)"
    r"|\bhow (?:else )?(?:can|could|do) you help\b|\bwhat (?:are|is) (?:you|this)\b"
    r"|\bwho (?:are|is) (?:you|this)\b|\bwhat (?:services|options|things)\b",
    re.IGNORECASE,
)
"""The user asks what the bot is or does: a greeting that introduces it answers that."""
_ASKING = frozenset(
    content_words(
        "help need want know tell like find give show check look see wonder ask please could "
        "would say repeat again remind sorry info information detail details quick question "
        "send resend recap go over mean exactly"
    )
)


@dataclass(slots=True)
class _User:
    text: str
    turn: int
    words: frozenset[str] = field(default=frozenset())
    reask: bool = False
    question: bool = False
    norm: str = ""
    facts: frozenset[str] = frozenset()
    capabilities: bool = False
    """It asks what the bot is or can do."""
    request: bool = False
    """It asks for something to be done ("book the 6:15", "can it be after 2pm?", "yes")."""
    plan: frozenset[str] = frozenset()
    """The request keys the turn's plan routed, when known."""

    @classmethod
    def of(cls, message: Message) -> _User:
        text = analysed_part(message.text)  # the analysis budget: a long message's start
        words = content_words(text) - _ASKING
        return cls(
            text=text,
            turn=message.turn,
            words=frozenset(words),
            reask=bool(_REASK.search(text)),
            question=bool(_QUESTION.search(text)),
            norm=normalise(text),
            facts=analyse(message.text).facts,
            request=not _QUESTION.search(text) or bool(_REQUEST.search(text)),
            capabilities=bool(_CAPABILITIES.search(text)),
        )


class _Users:
    """The user messages so far, in turn order, found by turn in O(log n)."""

    def __init__(self) -> None:
        self.items: list[_User] = []
        self.turns: list[int] = []

    def add(self, user: _User) -> None:
        self.items.append(user)
        self.turns.append(user.turn)

    def between(self, after: int, upto: int) -> list[_User]:
        """The user messages of turns ``after + 1`` to ``upto``."""
        return self.items[bisect_right(self.turns, after) : bisect_right(self.turns, upto)]

    def of_turn(self, turn: int) -> _User | None:
        position = bisect_right(self.turns, turn) - 1
        return self.items[position] if position >= 0 and self.turns[position] == turn else None


_MEMO_SIZE = 65_536


class _Memo:
    """Comparisons already made: relays, closers and repeated answers meet the same texts again.

    Keys are the analyses' ids; the entry holds the analyses, so their ids cannot be reused."""

    def __init__(self) -> None:
        self.found: dict[
            tuple[int, int, bool], tuple[Analysis, Analysis, Restatement | None, bool]
        ] = {}

    def _compare(
        self, earlier: Analysis, later: Analysis, limits: Thresholds, strict: bool
    ) -> tuple[Analysis, Analysis, Restatement | None, bool]:
        key = (id(earlier), id(later), strict)
        known = self.found.get(key)
        if known is not None and known[0] is earlier and known[1] is later:
            return known
        found, checked = compare(earlier, later, limits, strict=strict)
        if len(self.found) >= _MEMO_SIZE:
            self.found.clear()
        known = self.found[key] = (earlier, later, found, checked)
        return known

    def restates(
        self, earlier: Analysis, later: Analysis, limits: Thresholds, strict: bool
    ) -> Restatement | None:
        return self._compare(earlier, later, limits, strict)[2]

    def borderline(
        self, earlier: Analysis, later: Analysis, limits: Thresholds
    ) -> Restatement | None:
        """:func:`borderline`, skipping the template test the comparison already made."""
        checked = self._compare(earlier, later, limits, False)[3]
        return borderline(earlier, later, templates_checked=checked)


# --- the conversation -------------------------------------------------------------------------


class _Index:
    """The conversation's bot messages so far, by fact, content word and exact text."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.postings: dict[str, list[int]] = {}
        self.exact: dict[str, list[int]] = {}

    def add(self, entry: Entry) -> None:
        position = len(self.entries)
        self.entries.append(entry)
        for key in entry.text.strong | entry.text.words:
            self.postings.setdefault(key, []).append(position)
        if entry.text.norm:
            self.exact.setdefault(entry.text.norm, []).append(position)

    def candidates(self, entry: Entry) -> list[Entry]:
        counts: Counter[int] = Counter()
        text = entry.text
        postings = self.postings
        # Sorted keys: the counter's order, and so the choice among tied candidates, is the same
        # in every run.
        for key in sorted(text.strong):
            posting = postings.get(key)
            if posting is None:
                continue
            if len(posting) <= _RARE:
                # A rare fact ("T-5521") says more than one many messages state ("2026"), which
                # only counts for the latest messages that state it.
                counts.update(posting)
                counts.update(posting)
            else:
                counts.update(posting[-_COMMON_RECENT:])
        for key in sorted(text.words):
            posting = postings.get(key)
            if posting is not None and len(posting) <= _COMMON_POSTING:
                counts.update(posting)
        # The latest copies of the same text: older copies join the finding through them.
        for position in self.exact.get(text.norm, ())[-_EXACT_RECENT:]:
            counts[position] += 100
        # The messages of this turn and the one before are always compared (relays, retries).
        entries = self.entries
        for position in range(len(entries) - 1, max(-1, len(entries) - 1 - _MAX_CANDIDATES), -1):
            if entries[position].message.turn < entry.message.turn - 1:
                break
            counts[position] += 2
        if len(counts) > _MAX_CANDIDATES:
            found = [p for p, score in counts.most_common(_MAX_CANDIDATES) if score >= 2]
        else:
            found = [p for p, score in counts.items() if score >= 2]
        found.sort()
        return [entries[p] for p in found]


def _entry(index: int, message: Message) -> Entry:
    text = analyse(message.text)
    small = not text.strong and len(text.words) <= _SMALL
    return Entry(
        index=index,
        message=message,
        text=text,
        request=request_key(message.request) if message.request else "",
        small=small,
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
) -> list[Pair]:
    """The earlier messages of the conversation that ``entry`` restates (and, into ``close``
    when given, the pairs that came close, for a judge)."""
    memo = memo or _Memo()
    pairs: list[Pair] = []
    if not entry.text.claims:
        return pairs
    turn = entry.message.turn
    candidates = index.candidates(entry)
    if vectors is not None and entry.index in vectors:
        # Embeddings find rewordings that share no words: the recent messages are candidates too.
        seen = {id(c) for c in candidates}
        candidates += [e for e in index.entries[-_MAX_CANDIDATES:] if id(e) not in seen]
        candidates.sort(key=lambda e: e.index)
    # Newest first: an earlier copy of a text already decided gets the same decision (a message
    # sent many times is compared once, not once per copy).
    decided: dict[tuple[str, str, str], bool] = {}
    model = pair_model if pair_model is not None else _default_model(vectors)
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
        strict = _different_requests(other, entry)
        found = memo.restates(other.text, entry.text, limits, strict)
        if found is None and scope == "same_turn":
            found = _same_closer(other.text, entry.text, closers)
        if found is None and vectors is not None and not strict:
            found = _semantic(other, entry, vectors, semantic)
        if found is None and not strict:
            found = memo.borderline(other.text, entry.text, limits)
        if found is None:
            decided[copy_key] = False
            continue
        closing = scope == "cross_turn" and (_closing(other) or _closing(entry))
        if closing and record is None:
            # A closer sent again in another turn is no repeat, whatever the features say.
            decided[copy_key] = False
            if close is not None:
                close.append(Pair(other, entry, scope, found))
            continue
        features = _features(other, entry, found, users, scope, strict)
        if model.cosine:
            features = _cosine_feature(features, other, entry, vectors)
        duplicate = (
            not closing
            and (model.duplicate(features) or _verbatim(other, entry))
            and not _asked_again(features, other, entry, users)
            and not _confirms_choice(other, entry, found, users)
            and not swapped_words(other.message.text, entry.message.text)
        )
        if record is not None:
            record.append((Pair(other, entry, scope, found), features))
        decided[copy_key] = duplicate
        if duplicate:
            if found.score == 0.0 and not found.later_cover:
                found = replace(found, score=round(model.probability(features), 3))
            pairs.append(Pair(other, entry, scope, found))
        elif close is not None:
            close.append(Pair(other, entry, scope, found))
    pairs.reverse()
    return pairs


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


_AGAIN = re.compile(
    r"\b(?:again|repeat|remind me|one more time|once more|say (?:that|it) again|come again|"
    r"didn'?t (?:catch|get|hear)|missed (?:that|it)|pardon|resend|re-send|lost track)\b",
    re.IGNORECASE,
)
"""An explicit cue of asking again (unlike "what was ...?", which also asks the first time)."""
_SAME_QUESTION = FEATURES.index("same_question")
_REASK_ON_TOPIC = FEATURES.index("reask_on_topic")
_SAME_REQUEST = FEATURES.index("same_request_again")


def _asked_again(features: Sequence[float], other: Entry, entry: Entry, users: _Users) -> bool:
    """The user asked for it again: the plan routed the same request again, the user asked the
    same question again, asked again about what is repeated ("what was the balance again?"), or
    used an explicit cue of asking again ("again", "repeat", "remind me") naming at most three words
    in the last few turns, or asked again right after it, naming at most two words ("sorry, can
    you repeat that?", "what was the total again?": the topic may be a synonym), or asked what
    the bot is or can do, which a greeting introducing it answers. These are the
    issue's definition of a requested repeat, not learned; any other repeat, exact ones
    included, is left to the scorer."""
    if features[_SAME_REQUEST] or features[_SAME_QUESTION] or features[_REASK_ON_TOPIC]:
        return True
    asked = users.of_turn(entry.message.turn)
    if asked is not None and asked.capabilities and greeting(entry.message.text):
        return True  # "what can you help with?" answered by the introduction again
    turn = other.message.turn
    between = users.between(turn, entry.message.turn)
    if any(len(u.words) <= 3 and _AGAIN.search(u.text) for u in between[-_ASK_TURNS:]):
        return True  # "when is the third one coming again?"
    if entry.message.turn != turn + 1:
        return False
    return any(u.reask and len(u.words) <= 2 for u in users.between(turn, turn + 1))


_DONE = frozenset({"NOTIFY_SUCCESS", "NOTIFY_FAILURE", "CONFIRM"})
_CLOSING = frozenset({"REQ_MORE", "GOODBYE"})


def _closing(entry: Entry) -> bool:
    """A small message that only closes ("Anything else I can help with?"): sent again in
    another turn, it is no repeat. A greeting is not a closing, though the act tagger, which
    learned no greeting act, reads "How can I help you today?" as one."""
    text = entry.message.text
    return entry.small and message_acts(text) <= _CLOSING and not greeting(text)


_GREETING_WORDS = 4
"""A greeting of at least this many words, sent again or inside a later message, is a repeat
however small ("Hi!" alone is not compared that way)."""


def _verbatim(other: Entry, entry: Entry) -> bool:
    """The earlier message, not a small one unless a greeting, stands word for word in the later
    one: an exact repeat, which only the user's asking again excuses."""
    norm = other.text.norm
    if not norm or f" {norm} " not in f" {entry.text.norm} ":
        return False
    return not other.small or (
        greeting(other.message.text) and len(norm.split()) >= _GREETING_WORDS
    )


def _confirms_choice(other: Entry, entry: Entry, found: Restatement, users: _Users) -> bool:
    """The earlier message asked the user something (a question, or a confirmation request
    without a question mark: "Please verify the following: ..."), the user answered, and the
    later message confirms it or reports how it went, done or failed (by its dialogue acts): a
    confirmation or an outcome, not a repeat. An exact repeat confirms nothing."""
    if found.method == "exact":
        return False
    if "?" not in other.message.text[-200:] and "CONFIRM" not in message_acts(other.message.text):
        return False
    turn = other.message.turn
    if not users.between(turn, entry.message.turn):
        return False
    return bool(message_acts(entry.message.text) & _DONE)


def _features(
    other: Entry, entry: Entry, found: Restatement, users: _Users, scope: Scope, strict: bool
) -> list[float]:
    """The pair scorer's features of a candidate pair (what the user said in the last few turns
    between the two messages included)."""
    turn = entry.message.turn
    between = users.between(max(other.message.turn, turn - _ASK_TURNS), turn)
    again = bool(other.request) and (
        other.request == entry.request or any(other.request in u.plan for u in between)
    )
    context = PairContext(
        same_turn=scope == "same_turn",
        turns_apart=turn - other.message.turn,
        same_sender=other.message.sender == entry.message.sender,
        different_requests=strict,
        same_request_again=again,
    )
    return pair_features(
        other.text, entry.text, found, context, between, users.of_turn(other.message.turn)
    )


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
) -> list[Pair]:
    """Every (earlier, later) pair of bot messages where the later restates the earlier.

    ``pair_model`` replaces the shipped pair scorer; ``record``, when given, receives every
    candidate pair the scorer looked at with its features (for fitting and measuring)."""
    limits = thresholds(config)
    closers = frozenset(normalise(p) for p in config.boilerplate)
    index = _Index()
    users = _Users()
    memo = _Memo()
    pairs: list[Pair] = []
    window = config.cross_turn_window
    plans = {
        planned.turn: frozenset(request_key(p.request) for p in planned.plan)
        for planned in transcript.turns
    }
    for position, message in enumerate(transcript.messages):
        if message.role == "user":
            user = _User.of(message)
            user.plan = plans.get(message.turn, frozenset())
            users.add(user)
            continue
        if not message.text.strip():
            continue
        entry = _entry(position, message)
        pairs += compare_entry(
            entry,
            index,
            users,
            limits,
            vectors,
            config.semantic_threshold,
            closers,
            window=window,
            memo=memo,
            close=close,
            pair_model=pair_model,
            record=record,
        )
        index.add(entry)
    return pairs


def find_duplicates(
    transcript: Transcript,
    config: DetectorConfig,
    *,
    vectors: Mapping[int, Sequence[float]] | None = None,
    pair_model: PairScorer | None = None,
) -> list[Finding]:
    """The duplicate findings of one conversation (clusters of one message sent several times
    are one finding)."""
    return findings_of(
        conversation_pairs(transcript, config, vectors=vectors, pair_model=pair_model)
    )


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused, for a command's process only (the library never
    switches it: that is process-wide state the caller owns). The detector builds many small
    objects and no cycles, and on long conversations the collector's passes cost a fifth of the
    time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


async def judged_duplicates(
    transcript: Transcript,
    config: DetectorConfig,
    judge: ModelJudge,
    *,
    vectors: Mapping[int, Sequence[float]] | None = None,
) -> list[Finding]:
    """:func:`find_duplicates`, plus the borderline pairs ``judge`` calls duplicates."""
    close: list[Pair] = []
    pairs = conversation_pairs(transcript, config, vectors=vectors, close=close)
    users = {m.turn: m.text for m in transcript.messages if m.role == "user"}
    for pair in close[: judge.max_pairs]:
        first, last = pair.earlier.message.turn, pair.later.message.turn
        said = [users[t] for t in range(first + 1, last + 1) if t in users]
        verdict = await judge.judge(pair.earlier.message.text, pair.later.message.text, said)
        if verdict.duplicate:
            found = replace(pair.found, reason=verdict.reason)
            pairs.append(Pair(pair.earlier, pair.later, pair.scope, found))
    pairs.sort(key=lambda p: (p.later.index, p.earlier.index))
    return findings_of(pairs)


_WEAKEST = {"exact": 0, "near": 1, "semantic": 2, "containment": 3}


def findings_of(pairs: Sequence[Pair]) -> list[Finding]:
    """Findings from pairs. Messages that all restate each other (a message sent three times,
    a relay and its repeat) are one finding naming every one of them; every pair inside counts."""
    linked = {(p.earlier.index, p.later.index) for p in pairs}
    by_text: dict[str, dict[int, Entry]] = {}
    for pair in pairs:
        if _copies(pair):
            copies = by_text.setdefault(pair.earlier.text.norm, {})
            copies.setdefault(pair.earlier.index, pair.earlier)
            copies.setdefault(pair.later.index, pair.later)
    groups: list[list[Pair]] = []
    members: list[dict[int, Entry]] = []
    """Each group's messages by index, in the order they joined."""
    exact_member = {index: norm for norm, copies in by_text.items() for index in copies}
    exact_groups: dict[str, int] = {}
    member_of: dict[int, list[int]] = {}
    """The groups (by number) each message (by index) belongs to."""
    for pair in pairs:
        norm = exact_member.get(pair.earlier.index)
        if norm is not None and _copies(pair):
            if norm not in exact_groups:
                exact_groups[norm] = len(groups)
                for index in by_text[norm]:
                    member_of.setdefault(index, []).append(len(groups))
                groups.append([])
                members.append(dict(by_text[norm]))
            groups[exact_groups[norm]].append(pair)
            continue
        # Only the groups the earlier message belongs to can take the pair.
        later = pair.later.index
        for number in member_of.get(pair.earlier.index, ()):
            group, people = groups[number], members[number]
            if later in people:
                group.append(pair)
                break
            if all((index, later) in linked for index in people):
                group.append(pair)
                people[later] = pair.later
                member_of.setdefault(later, []).append(number)
                break
        else:
            member_of.setdefault(pair.earlier.index, []).append(len(groups))
            member_of.setdefault(later, []).append(len(groups))
            groups.append([pair])
            members.append({pair.earlier.index: pair.earlier, later: pair.later})
    return [
        _finding(group, list(people.values()))
        for group, people in zip(groups, members, strict=True)
    ]


def _copies(pair: Pair) -> bool:
    """The two messages are the same text (once normalised)."""
    return pair.found.method == "exact" and pair.earlier.text.norm == pair.later.text.norm


def _finding(group: list[Pair], people: list[Entry]) -> Finding:
    people = sorted(people, key=lambda e: e.index)
    first = max(group, key=lambda p: _WEAKEST.get(p.found.method, 0))
    scope: Scope = "same_turn" if all(p.scope == "same_turn" for p in group) else "cross_turn"
    found = first.found
    highlights: list[Highlight] = []
    seen: set[tuple[str, str]] = set()
    for pair in group:
        for match in pair.found.matches:
            for entry, claim in ((pair.earlier, match.earlier), (pair.later, match.later)):
                key = (entry.message.id, claim.span.text)
                if key not in seen:
                    seen.add(key)
                    highlights.append(Highlight(message_id=entry.message.id, text=claim.span.text))
    later_turn = max(e.message.turn for e in people)
    return Finding(
        kind="duplicate",
        scope=scope,
        method=found.method,
        turn=later_turn,
        message_ids=tuple(e.message.id for e in people),
        senders=tuple(e.message.sender for e in people),
        score=found.score,
        evidence=_evidence(first, len(people)),
        highlights=tuple(highlights),
    )


def _evidence(pair: Pair, count: int) -> str:
    """Why, in one line: what is restated, with which facts (highlights carry the passages)."""
    found = pair.found
    parts: list[str] = []
    if count > 2:
        parts.append(f"sent {count} times")
    if pair.scope == "cross_turn":
        parts.append(f"turn {pair.later.message.turn} repeats turn {pair.earlier.message.turn}")
    if found.reason:
        parts.append(f"judged a duplicate: {found.reason}")
    elif found.method == "exact" and _copies(pair):
        parts.append(f"the same text: {quote(pair.later.message.text)}")
    elif found.matches:
        match = max(found.matches, key=lambda m: m.earlier.weight)
        restated = f"restates {quote(match.earlier.span.text)}"
        if len(found.matches) > 1:
            restated += f" (+{len(found.matches) - 1} more)"
        parts.append(restated)
    else:
        parts.append(f"embeddings {found.score:.2f} close, the same facts")
    facts = evidence_facts(found.facts)
    if facts and found.method != "exact":
        parts.append("facts: " + ", ".join(facts[:6]))
    return "; ".join(parts)


def evidence_facts(keys: frozenset[str]) -> list[str]:
    """The shared facts worth quoting, sorted: names are quoted in the passages already; a value
    that is part of another quoted value ("48" of "48 hour") adds nothing; status words ("open",
    "approved") only when no specific fact was shared, since a status alone is weak evidence."""
    values = {k.partition(":")[2]: k.partition(":")[0] for k in keys}
    values = {v: kind for v, kind in values.items() if kind not in ("name", "acronym") and v}
    specific = {v for v, kind in values.items() if kind != "state"}
    shown = specific or set(values)
    return sorted(v for v in shown if not any(v != other and v in other.split() for other in shown))


# --- embeddings -------------------------------------------------------------------------------


async def embed_messages(
    transcript: Transcript, embedder: Embedder, config: DetectorConfig
) -> dict[int, list[float]]:
    """Unit vectors of every bot message with content, by message index."""
    indices: list[int] = []
    texts: list[str] = []
    for position, message in enumerate(transcript.messages):
        if message.role != "bot" or not message.text.strip():
            continue
        if len(analyse(message.text).words) < config.min_words:
            continue
        indices.append(position)
        texts.append(message.text)
    if not texts:
        return {}
    unique = list(dict.fromkeys(texts))
    vectors = await embedder.embed(unique)
    if len(vectors) != len(unique):
        raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(unique)} texts")
    by_text: dict[str, list[float]] = {}
    for text, vector in zip(unique, vectors, strict=True):
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        by_text[text] = [x / norm for x in vector]
    return {position: by_text[text] for position, text in zip(indices, texts, strict=True)}

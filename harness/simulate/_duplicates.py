"""The duplicate-message detector: exact, near, containment and semantic, within and across turns.

Every bot message is compared with the earlier messages of its turn and of a bounded window of recent
turns, never with the whole transcript: candidates come from one index of the window's content words, so
the cost grows with the number of messages, not with its square.

A pair is a duplicate only when both messages state the same facts (numbers, dates, names, status
words). Pairs tagged with different requests must be near-verbatim. Across turns, a repeat is fine
when the user asked again, and boilerplate closers only count when one turn sends two.
"""

from __future__ import annotations

import math
import operator
import re
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.simulate._compare import (
    Limits,
    Match,
    compare,
    content_text,
    limits,
    quote,
    restated_units,
)
from harness.simulate._text import (
    BoilerplateIndex,
    TextFeatures,
    boilerplate_index,
    facts_agree,
    features,
    jaccard,
    normalise,
)
from harness.simulate.detectors import DetectorConfig, Finding, Scope, request_key
from harness.transcript import Message, Transcript

if TYPE_CHECKING:
    from harness.simulate.embeddings import Embedder

__all__ = [
    "Limits",
    "Match",
    "MessageText",
    "Turn",
    "Window",
    "compare",
    "embed_messages",
    "find_duplicates",
    "limits",
    "match_against",
    "restated_units",
    "turns_of",
]

_REPEAT_ASK = re.compile(
    r"\b(?:again|repeat|remind me|one more time|didn'?t (?:catch|get|see)|say (?:that|it) again|"
    r"what was (?:it|that)|come again|missed (?:that|it))\b",
    re.IGNORECASE,
)
_MAX_CANDIDATES = 200
_USER_PARTS = re.compile(r"[?;]|,?\s+\b(?:and|also|plus)\b\s+|\.\s", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return text.split()


# Words of a request that say nothing about its topic ("can you help me find ...").
_ASKING = frozenset(
    _words(
        """
    help need want know tell like get find give show check look see let wonder wondering ask
    figure info information please could would current much many time year repeat again
    remind say day hour week month
    """
    )
)


@dataclass(slots=True, eq=False)
class MessageText:
    """A bot message with its precomputed text features."""

    index: int
    message: Message
    text: TextFeatures
    request: str = ""
    request_tokens: frozenset[str] = frozenset()


@dataclass(slots=True)
class User:
    """What the user said in a turn, analysed only when a cross-turn repeat needs it."""

    text: str
    index: int
    boilerplate: BoilerplateIndex
    _tokens: frozenset[str] | None = None
    _parts: tuple[frozenset[str], ...] | None = None

    @property
    def tokens(self) -> frozenset[str]:
        if self._tokens is None:
            self._tokens = features(self.text, self.boilerplate).tokens
        return self._tokens

    @property
    def parts(self) -> tuple[frozenset[str], ...]:
        """The topic words of each request in the message ("... and ...")."""
        if self._parts is None:
            self._parts = tuple(
                features(part, self.boilerplate).tokens for part in _USER_PARTS.split(self.text)
            )
        return self._parts

    @property
    def norm(self) -> str:
        return normalise(self.text)

    @property
    def asks_again(self) -> bool:
        return bool(_REPEAT_ASK.search(self.text))


@dataclass(slots=True)
class Turn:
    """One turn: its user message and its bot messages."""

    number: int
    user: User | None = None
    plan_keys: frozenset[str] = frozenset()
    items: list[MessageText] = field(default_factory=list)


_INDEX_ABOVE = 64
"""The window indexes its messages by content word once it holds more than this many; below,
comparing word sets with each message of the window directly is cheaper than keeping an index."""
_INDEX_DOWN_TO = 32
"""The index is dropped when eviction brings the window down to this many messages."""


_Compared = tuple[TextFeatures, TextFeatures, DetectorConfig, Match | None]
_COMPARED_SIZE = 65_536
"""How many comparisons a window remembers (it forgets them all when full)."""


class Window:
    """The current turn and the recent ones, with one index of their messages by content word.

    Turns enter at the end and leave from the front, so every posting list is in message order
    and a leaving turn's messages are at the front of each list: eviction is O(its words). A small
    window (a few messages a turn) has no index: its messages are scanned directly.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.turns: deque[Turn] = deque()
        self.by_number: dict[int, Turn] = {}
        self.postings: dict[str, deque[MessageText]] = {}
        self.exact: dict[str, deque[MessageText]] = {}
        self.count = 0
        """The messages in the window."""
        self.indexed = False
        """Whether ``postings`` and ``exact`` index the window's messages."""
        self._compared: dict[tuple[int, int, bool, int], _Compared] = {}

    def start(self, turn: Turn) -> None:
        """Make ``turn`` the current turn, dropping turns more than ``size`` turns before it."""
        while self.turns and turn.number - self.turns[0].number > self.size:
            self._evict(self.turns.popleft())
        self.turns.append(turn)
        self.by_number[turn.number] = turn

    def add(self, item: MessageText) -> None:
        """Add a message of the current turn (after it has been checked)."""
        self.turns[-1].items.append(item)
        self.count += 1
        if self.indexed:
            self._index(item)
        elif self.count > _INDEX_ABOVE:
            self.indexed = True
            for turn in self.turns:
                for other in turn.items:
                    self._index(other)

    def _index(self, item: MessageText) -> None:
        for token in item.text.tokens:
            self.postings.setdefault(token, deque()).append(item)
        if item.text.key:
            self.exact.setdefault(item.text.key, deque()).append(item)

    def _evict(self, turn: Turn) -> None:
        del self.by_number[turn.number]
        self.count -= len(turn.items)
        if not self.indexed:
            return
        if self.count <= _INDEX_DOWN_TO:
            self.indexed = False
            self.postings.clear()
            self.exact.clear()
            return
        for item in turn.items:
            for token in item.text.tokens:
                self._pop(self.postings, token)
            if item.text.key:
                self._pop(self.exact, item.text.key)

    @staticmethod
    def _pop(index: dict[str, deque[MessageText]], key: str) -> None:
        entries = index[key]
        entries.popleft()
        if not entries:
            del index[key]

    def compare(
        self, earlier: TextFeatures, later: TextFeatures, config: DetectorConfig, *, strict: bool
    ) -> Match | None:
        """:func:`compare`, remembered while the window lives: the same texts meet again (an
        answer and its relays, closers, repeated answers)."""
        key = (id(earlier), id(later), strict, id(config))
        known = self._compared.get(key)
        # The entry holds the objects, so their ids cannot have been reused by others.
        if known is not None and known[0] is earlier and known[1] is later and known[2] is config:
            return known[3]
        match = compare(earlier, later, config, strict=strict)
        if len(self._compared) >= _COMPARED_SIZE:
            self._compared.clear()
        self._compared[key] = (earlier, later, config, match)
        return match

    def candidates(self, item: MessageText, config: DetectorConfig) -> list[MessageText]:
        """Messages in the window sharing enough content words with ``item`` to be compared."""
        floor = 0.9 * min(
            config.near_threshold, config.sentence_threshold * config.containment_threshold
        )
        text = item.text
        weight = text.weight
        if not self.indexed:
            return self._scan(text, floor)
        postings = self.postings
        counts: dict[MessageText, int] = {}
        get = counts.get
        for token in text.tokens:
            entries = postings.get(token)
            if entries is not None:
                for other in entries:
                    counts[other] = get(other, 0) + 1
        out = [
            other
            for other, shared in counts.items()
            if shared >= floor * (min(other.text.weight, weight) or 1)
        ]
        if text.key:
            out.extend(o for o in self.exact.get(text.key, ()) if o not in counts)
        if len(out) > _MAX_CANDIDATES:
            out.sort(key=lambda o: -counts.get(o, 1 << 20))
            out = out[:_MAX_CANDIDATES]
        out.sort(key=lambda o: o.index)
        return out

    def _scan(self, text: TextFeatures, floor: float) -> list[MessageText]:
        """:meth:`candidates` of a window without an index (never more than ``_INDEX_ABOVE``)."""
        tokens, key, weight = text.tokens, text.key, text.weight
        out: list[MessageText] = []
        for turn in self.turns:
            for other in turn.items:
                other_text = other.text
                shared = len(tokens & other_text.tokens)
                if shared:
                    if shared >= floor * (min(other_text.weight, weight) or 1):
                        out.append(other)
                elif key and other_text.key == key:
                    out.append(other)
        out.sort(key=lambda o: o.index)
        return out


# --- the transcript walk ----------------------------------------------------------------------


def turns_of(transcript: Transcript, boilerplate: BoilerplateIndex) -> Iterator[Turn]:
    """The turns in order, each with its user message and its bot messages' features.

    The bot messages are in ``items``; :meth:`Window.add` indexes them.
    """
    plans = {record.turn: record.plan for record in transcript.turns}
    current: Turn | None = None
    for index, message in enumerate(transcript.messages):
        if current is None or message.turn != current.number:
            if current is not None:
                yield current
            current = Turn(number=message.turn)
            plan = plans.get(message.turn, ())
            current.plan_keys = frozenset(request_key(p.request) for p in plan)
        if message.role == "user":
            current.user = User(message.text, index, boilerplate)
            continue
        if not message.text.strip():
            continue
        item = MessageText(index=index, message=message, text=features(message.text, boilerplate))
        if message.request:
            item.request = request_key(message.request)
            item.request_tokens = frozenset(item.request.split())
        current.items.append(item)
    if current is not None:
        yield current


def _different_requests(a: MessageText, b: MessageText) -> bool:
    if not a.request or not b.request or a.request == b.request:
        return False
    return jaccard(a.request_tokens, b.request_tokens) < 0.8


def _asked_again(
    earlier: Turn,
    later: Turn,
    a: MessageText,
    b: MessageText,
    config: DetectorConfig,
    vectors: Mapping[int, Sequence[float]] | None,
    repeated: frozenset[str],
) -> bool:
    """The user's later message asked for the earlier answer again, so repeating it is right.

    Decided from the plan when the messages carry requests (the same request again), else from
    the user's words: the later message is the same as the earlier one, or enough of its topic
    words appear in the repeated content (``repeated``) or the earlier request, or it asks to
    repeat ("again", "remind me"), or (with an embedder) the two user messages mean the same.
    """
    before, after = earlier.user, later.user
    if after is None:
        return False
    if before is not None and after.norm and after.norm == before.norm:
        return True
    if a.request and (a.request == b.request or a.request in later.plan_keys):
        return True
    asked = after.tokens - _ASKING
    # The earlier question counts where it asked about the repeated content (or asked one thing).
    parts = [p for p in (before.parts if before is not None else ()) if p]
    if len(parts) > 1:
        parts = [p for p in parts if p & repeated]
    topic = repeated | a.request_tokens | frozenset().union(*parts)
    shared = asked & topic
    if asked and len(shared) / len(asked) >= config.asked_again_threshold:
        return True
    if after.asks_again and (not asked or shared):
        return True
    if vectors is None or before is None:
        return False
    if before.index in vectors and after.index in vectors:
        return (
            _dot(vectors[before.index], vectors[after.index])
            >= config.asked_again_semantic_threshold
        )
    return False


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two unit vectors."""
    return float(sum(map(operator.mul, a, b)))


def find_duplicates(
    transcript: Transcript,
    config: DetectorConfig,
    *,
    vectors: Mapping[int, Sequence[float]] | None = None,
) -> list[Finding]:
    """Every bot message that repeats an earlier one of its turn or of the recent turns.

    Args:
        transcript: the conversation.
        config: thresholds, window and boilerplate.
        vectors: message embeddings by message index, for ``semantic`` duplicates.
    """
    boilerplate = boilerplate_index(tuple(config.boilerplate))
    window = Window(config.cross_turn_window)
    findings: list[Finding] = []
    repeats: dict[int, set[int]] = {}
    for turn in turns_of(transcript, boilerplate):
        items = turn.items
        turn.items = []
        window.start(turn)
        for item in items:
            if item.text.holding:
                findings.extend(_holding_twice(item, turn))
            else:
                matches = match_against(item, window, config, vectors)
                findings.extend(_findings(item, turn.number, matches, repeats))
            window.add(item)
        findings.extend(_boilerplate_twice(turn))
    return findings


def match_against(
    item: MessageText,
    window: Window,
    config: DetectorConfig,
    vectors: Mapping[int, Sequence[float]] | None = None,
) -> list[tuple[MessageText, Match, Scope]]:
    """The earlier messages of the window (its current turn included) that ``item`` repeats."""
    text = item.text
    if not text.key or text.holding:
        return []
    turn = window.turns[-1]
    candidates = window.candidates(item, config)
    if vectors is not None and item.index in vectors:
        seen = {c.index for c in candidates}
        candidates += [o for t in window.turns for o in t.items if o.index not in seen]
        candidates.sort(key=lambda o: o.index)
    matches: list[tuple[MessageText, Match, Scope]] = []
    for other in candidates:
        if not other.text.key:
            continue
        scope: Scope = "same_turn" if other.message.turn == turn.number else "cross_turn"
        if scope == "cross_turn" and text.weight < config.min_words:
            continue
        strict = _different_requests(other, item)
        if strict and scope == "cross_turn":
            continue
        if vectors is not None and other.index in vectors and item.index in vectors:
            cosine = _dot(vectors[other.index], vectors[item.index])
            match = compare(other.text, text, config, strict=strict, cosine=cosine)
        else:
            match = window.compare(other.text, text, config, strict=strict)
        if match is None:
            continue
        if scope == "cross_turn":
            units = restated_units(other.text, text, limits(config)) or text.sentences
            repeated = frozenset().union(*(u.tokens for u in units))
            other_turn = window.by_number[other.message.turn]
            if _asked_again(other_turn, turn, other, item, config, vectors, repeated):
                continue
        matches.append((other, match, scope))
    return matches


def _findings(
    item: MessageText,
    turn: int,
    matches: list[tuple[MessageText, Match, Scope]],
    repeats: dict[int, set[int]],
) -> list[Finding]:
    """One finding per earlier message repeated, skipping earlier messages that themselves only
    repeat one already reported (the sub-agent's answer, not also the parent's relay of it)."""
    if not matches:
        return []
    matches.sort(key=lambda m: m[0].index)
    kept: list[tuple[MessageText, Match, Scope]] = []
    for other, match, scope in matches:
        earlier = repeats.get(other.index, set())
        if any(k[0].index in earlier or _same_content(k[0], other) for k in kept):
            continue
        kept.append((other, match, scope))
    repeats[item.index] = {other.index for other, _, _ in matches}
    out = []
    for other, match, scope in kept:
        prefix = "" if scope == "same_turn" else f"turn {turn} repeats turn {other.message.turn}: "
        out.append(
            Finding(
                kind="duplicate",
                scope=scope,
                method=match.method,
                turn=turn,
                message_ids=(other.message.id, item.message.id),
                senders=(other.message.sender, item.message.sender),
                score=match.score,
                evidence=prefix + match.evidence,
            )
        )
    return out


def _same_content(a: MessageText, b: MessageText) -> bool:
    """Two earlier messages that say the same thing: the later one is reported against the first."""
    if a.text.key == b.text.key:
        return True
    return facts_agree(a.text.facts, b.text.facts) and jaccard(a.text.tokens, b.text.tokens) >= 0.9


def _holding_twice(item: MessageText, turn: Turn) -> list[Finding]:
    norm = normalise(item.message.text)
    for other in turn.items:
        if other.text.holding and normalise(other.message.text) == norm:
            return [
                Finding(
                    kind="duplicate",
                    scope="same_turn",
                    method="exact",
                    turn=turn.number,
                    message_ids=(other.message.id, item.message.id),
                    senders=(other.message.sender, item.message.sender),
                    score=1.0,
                    evidence=f"the same holding message twice: {quote(item.message.text)}",
                )
            ]
    return []


def _boilerplate_twice(turn: Turn) -> list[Finding]:
    """A closer is fine once per turn; two in one turn (from any messages) is a duplicate."""
    first: MessageText | None = None
    out: list[Finding] = []
    for item in turn.items:
        if not item.text.boilerplate:
            continue
        if first is None:
            first = item
            continue
        a = " ".join(s.norm for s in first.text.boilerplate)
        b = " ".join(s.norm for s in item.text.boilerplate)
        if first.text.key and first.text.key == item.text.key:
            continue  # the whole message is already an exact duplicate
        out.append(
            Finding(
                kind="duplicate",
                scope="same_turn",
                method="exact" if a == b else "near",
                turn=turn.number,
                message_ids=(first.message.id, item.message.id),
                senders=(first.message.sender, item.message.sender),
                score=1.0 if a == b else None,
                evidence="a boilerplate closer twice in one turn: "
                f"{quote(first.text.boilerplate[-1].text)} / "
                f"{quote(item.text.boilerplate[-1].text)}",
            )
        )
    return out


# --- embeddings -------------------------------------------------------------------------------


async def embed_messages(
    transcript: Transcript, embedder: Embedder, config: DetectorConfig
) -> dict[int, list[float]]:
    """Unit vectors of every bot message's content (boilerplate removed) and of every user
    message, by message index."""
    boilerplate = boilerplate_index(tuple(config.boilerplate))
    indices: list[int] = []
    texts: list[str] = []
    for index, message in enumerate(transcript.messages):
        if not message.text.strip():
            continue
        if message.role == "user":
            indices.append(index)
            texts.append(message.text)
            continue
        found = features(message.text, boilerplate)
        if not found.key or found.weight < config.min_words:
            continue
        indices.append(index)
        texts.append(content_text(found))
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
    return {index: by_text[text] for index, text in zip(indices, texts, strict=True)}

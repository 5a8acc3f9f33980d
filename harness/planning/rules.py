"""The offline planner: clauses of the message routed by the sub-agents' words, no model at all.

It splits a multi-intent message into its requests (``harness.planning.split``) and routes each in
two steps. Whether a piece goes to a sub-agent at all is decided twice: by the offline model's
router (some word of the piece must weigh enough in some agent's description, examples or tool
names) and by a calibrated out-of-scope decision over the matcher's figures
(``harness.planning.scope``); a piece that fails either stays with the parent, as an entry of its
own, unless it only states something before a request, whose scene it then is (``_with_scene``).
Which agent it
goes to is the matcher's call (``harness.planning.match``: the request against each agent's
description, instructions, tools and examples; with an ``embedder``, sentence embeddings as well,
``harness.planning.semantic``). Every request keeps an entry of its own, also when two go to one
agent (the runtime sends that agent one call carrying both).

Like every text analysis, it reads at most ``harness.text.ANALYSIS_BUDGET`` characters of a
message (its start, cut at a space): the work per message is bounded, so one huge message never
holds the event loop that other conversations share. The runtime makes the rest the parent's own
plan entry (``harness.runtime.parts.plan_requests``), so it is answered, not left out.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from harness.exceptions import MissingExtraError
from harness.models._choice import agent_router
from harness.models._text import _LEAD, _SPLIT, Router, content_tokens
from harness.models.base import AgentCard
from harness.planning._answers import answer_entry
from harness.planning._cuts import JOINER
from harness.planning._fragments import joined_fragments
from harness.planning._nonrequest import asks_nothing
from harness.planning._refer import referred
from harness.planning.base import Plan, PlanEntry, PlanInput, Planner
from harness.planning.concepts import ConceptTable
from harness.planning.match import AgentMatcher, agent_matcher
from harness.planning.semantic import SemanticMatcher, TextEmbedder
from harness.planning.split import opens_question, split_request_parts
from harness.text._shapes import VERBS, WORD, states, word_class
from harness.text.claims import analysed_part
from harness.text.words import stem
from subagents import Usage

__all__ = ["RulesPlanner"]

log = logging.getLogger("harness")
_SEMANTIC_CACHE = 8
T = TypeVar("T")

_PLAIN_GAP = re.compile(r"[ \t.,;:!]*")
# The stems of the request verbs ("searching", "I'm looking for ...") and the words of wanting
# or interest ("I'm interested in ...", "I'm in the mood for ...", "I fancy ..."): a statement
# with one of them asks (closed classes).
_ASKS_STEMS = frozenset(stem(v) for v in VERBS.split("|")) | frozenset(
    stem(w) for w in word_class("look search seek interested hoping keen eager mood fancy craving")
)

MEANING_GATE = 0.5
"""The closeness of meaning (the best agent's ``top3_text_concepts``) that sends a request on
when none of its words is in the agents' texts (chosen on the development split)."""

INLINE_ANALYSIS = 2_000
"""Messages up to this many characters are analysed on the event loop (well under a
millisecond); longer ones in a worker thread."""


class RulesPlanner(Planner):
    """Deterministic, offline planner (the default with the offline ``rules`` model).

    Args:
        route_threshold: the minimum routing score for a clause to go to a sub-agent; clauses below
            it are handled by the parent itself.
        embedder: optional sentence embeddings to pick the agent with (for example
            ``harness.detect.embeddings.LocalEmbedder()``, the ``embeddings`` extra, or
            ``MiniLMEmbedder()``, the ``minilm`` extra, which routes a bot whose subject the
            concept table never saw better than the words alone; each with its own lexical weight,
            ``harness.planning.semantic.LEXICAL_WEIGHTS``, and 1.0 for an embedder that table
            does not name). When its extra is missing, the planner warns once and routes with
            the lexical matcher alone.
        lexical_weight: how much the lexical matcher's score adds to the embedding score; the
            default (None) is the embedder's own (``semantic.lexical_weight_for``).
        scope_threshold: the lowest probability that a request is for some sub-agent at all
            (``harness.planning.scope``) for it to go to one; under it, the parent keeps it. The
            default (None) is the own threshold of the scope model that judges the request
            (``AgentMatcher.scope_for``), calibrated to keep every in-scope development request;
            a value applies to either model; 0 turns it off,
            higher values keep more out-of-scope requests with the parent and lose some in-scope
            ones (docs/models.md gives both figures; docs/journal/models.md how they were measured).
        concepts: the concept table the matcher may use (``harness.planning.concepts``): ``True``
            for the one that ships, ``False`` for none, or a table of your own. The matcher uses
            it only for a bot whose own texts it tells apart better than their words do.
    """

    def __init__(
        self,
        *,
        route_threshold: float = 0.9,
        embedder: TextEmbedder | None = None,
        scope_threshold: float | None = None,
        concepts: ConceptTable | bool = True,
        lexical_weight: float | None = None,
    ) -> None:
        self.route_threshold = route_threshold
        self.lexical_weight = lexical_weight
        self.concepts = concepts
        self.embedder = embedder
        self.scope_threshold = scope_threshold
        self._semantic: dict[tuple[AgentCard, ...], SemanticMatcher] = {}

    async def plan(self, given: PlanInput) -> Plan:
        given = replace(given, message=analysed_part(given.message))
        if given.awaiting and not given.active_agent:
            # The value an agent asked for ("£20" after "How much do you want to top up?")
            # completes the request it asked about, for the same agent (``_answers``).
            entry = answer_entry(given.message, given.awaiting, given.agents)
            if entry is not None:
                return Plan(entries=(entry,), usage=Usage(requests=1))
        router = agent_router(given.agents)
        if given.active_agent:
            holder = given.active_agent
            entries = await _analysed(
                len(given.message), lambda: self._floor_plan(given, router, holder)
            )
        else:
            threshold = self.route_threshold
            scoped = self._scoped(given.agents)
            requests, to_route = await _analysed(
                len(given.message),
                lambda: _requests(
                    given.message, router, threshold, self._meant(given.agents), scoped
                ),
            )
            agents = await self._agents(given.agents, to_route)
            entries = [
                PlanEntry(request=request, agent=agents.get(request) or given.parent)
                for request in requests
            ]
            # A request that routes nowhere but points back to an earlier one's object ("...,
            # and how much is it?") goes to that one's agent (``_refer``).
            entries = referred(entries, given.parent)
            # A piece that only adds a question or a detail to the request next to it ("...,
            # and why?") joins that request instead of being refused beside its answer.
            entries = joined_fragments(entries, given.parent, given.message)
        # Counted as one request, as the offline model counts each step it answers.
        return Plan(entries=tuple(entries), usage=Usage(requests=1))

    async def _agents(
        self, cards: tuple[AgentCard, ...], requests: dict[str, str]
    ) -> dict[str, str | None]:
        """The sub-agent for each request (by embeddings when there is an embedder), routed on
        the part of it that asks (``requests`` maps each request's text to that part)."""
        if not requests:
            return {}
        matcher, limit = self._gate(cards)
        asks = list(requests.items())
        if limit is None or limit > 0.0:
            asks = await _analysed(
                sum(len(a) for _, a in asks),
                lambda: [(r, a) for r, a in asks if matcher.sent_on(a, limit)],
            )
            if not asks:
                return {}
        if self.embedder is not None:
            try:
                semantic = self._semantic.get(cards)
                if semantic is None:
                    if len(self._semantic) >= _SEMANTIC_CACHE:
                        self._semantic.clear()
                    semantic = await SemanticMatcher.build(
                        cards,
                        self.embedder,
                        concepts=self.concepts,
                        lexical_weight=self.lexical_weight,
                    )
                    self._semantic[cards] = semantic
                ranked = await semantic.scores([a for _, a in asks])
            except MissingExtraError as exc:
                log.warning("the planner routes without embeddings: %s", exc)
                self.embedder = None
            else:
                return {r: s[0][0] if s else None for (r, _), s in zip(asks, ranked, strict=True)}
        return await _analysed(
            sum(len(a) for _, a in asks),
            lambda: {request: matcher.best(a) for request, a in asks},
        )

    def _gate(self, cards: tuple[AgentCard, ...]) -> tuple[AgentMatcher, float | None]:
        """The matcher of ``cards`` and the out-of-scope gate's threshold (0: no gate; None: the
        threshold of the scope model that judges each request, ``AgentMatcher.scope_for``)."""
        return agent_matcher(cards, concepts=self.concepts), self.scope_threshold

    def _scoped(self, cards: tuple[AgentCard, ...]) -> Callable[[str], bool]:
        """Whether the out-of-scope gate (``harness.planning.scope``) lets a request go to some
        sub-agent, the gate ``_agents`` applies; the matcher is built at the first question."""
        if not cards:
            return lambda _: False

        def scoped(text: str) -> bool:
            matcher, limit = self._gate(cards)
            return matcher.sent_on(text, limit)

        return scoped

    def _meant(self, cards: tuple[AgentCard, ...]) -> Callable[[str], str | None]:
        """The agent whose texts a request's meaning (``harness.planning.concepts``) is close
        enough to for it to go on though none of its words is theirs (None: no agent's)."""
        if self.concepts is False:
            return lambda _: None
        matcher = agent_matcher(cards, concepts=self.concepts)

        def meant(text: str) -> str | None:
            agent, closeness = matcher.closest_in_meaning(text)
            return agent if closeness >= MEANING_GATE else None

        return meant

    def _floor_plan(self, given: PlanInput, router: Router, holder: str) -> list[PlanEntry]:
        """Split a message for an agent that holds the floor: its part, and the other requests.

        A part goes elsewhere only when it is clearly another agent's (it scores at least the
        threshold there, and less than half of that for the floor holder). Everything else is the
        holder's: answers such as "Maple Hall", "yes" or "It's 123456789, the one for my paycheck".
        A stretch with a content word that no part covers is a part of its own (``_unplanned``),
        as it is without a floor holder.
        """
        entries: list[PlanEntry] = []
        # As without a floor holder, a stretch of the message no part covers (none, unless the
        # cut lost one) is a part of its own: nothing the user wrote is left out in silence.
        parts = _unplanned(given.message, [(part, part) for part in _parts(given.message)])
        for part, _ in parts:
            agent = holder
            ranked = router.scores(part)
            if ranked and content_tokens(part):
                best, score = ranked[0]
                own = next((s for name, s in ranked if name == holder), 0.0)
                if best != holder and score >= self.route_threshold and own < score / 2:
                    agent = best
            _add(entries, part, agent)
        if all(entry.agent == holder for entry in entries):
            # Nothing to split off: the floor holder gets the message as the user wrote it.
            return [PlanEntry(request=given.message.strip(), agent=holder)]
        return entries


async def _analysed(size: int, work: Callable[[], T]) -> T:
    """``work()``, the analysis of ``size`` characters: in a worker thread past ``INLINE_ANALYSIS``.

    The analysis is CPU work; in a worker thread, however long it takes, the event loop that every
    conversation shares keeps answering (the interpreter's switch interval gives it its turns).
    A short message is analysed in place: the thread hop would cost more than its analysis.
    """
    if size <= INLINE_ANALYSIS:
        return work()
    return await asyncio.to_thread(work)


def _requests(
    message: str,
    router: Router,
    threshold: float,
    meant: Callable[[str], str | None],
    scoped: Callable[[str], bool],
) -> tuple[list[str], dict[str, str]]:
    """The message's requests, and for those of them that go to some sub-agent the part of each
    to route on (``split_request_parts``): some word of it weighs enough in some agent's texts,
    or its meaning is close to some agent's (``meant`` names that agent). ``scoped`` is the
    out-of-scope gate's answer for a piece (``RulesPlanner._scoped``)."""

    def worded(piece: str) -> bool:
        return router.best(piece, minimum=threshold) is not None

    def starts_request(piece: str, previous: str) -> bool:
        # Cut off by a bare comma, a piece with no agent's word whose meaning is the previous
        # request's agent's is more of that request ("book a flight from Miami, FL to ..."),
        # unless it opens as a question does; one whose meaning is another agent's is a request
        # of its own.
        if worded(piece):
            return True
        agent = meant(piece)
        return agent is not None and (opens_question(piece) or agent != meant(previous))

    parts = split_request_parts(message, starts_request)
    found = [worded(asks) or meant(asks) is not None for _, asks in parts]
    # The gate is asked only where ``_with_scene`` reads its answer: a piece planned as written
    # that only states.
    kept = [
        goes and text == asks and _only_states(asks) and not scoped(asks)
        for goes, (text, asks) in zip(found, parts, strict=True)
    ]
    parts = _with_scene(message, parts, found, kept)
    parts = _social_joined(
        message, parts, lambda piece: router.best(piece, minimum=threshold) or meant(piece)
    )
    parts = _unplanned(message, parts)
    to_route = {text: asks for text, asks in parts if worded(asks) or meant(asks) is not None}
    return [text for text, _ in parts], to_route


def _with_scene(
    message: str, parts: list[tuple[str, str]], found: list[bool], kept: list[bool]
) -> list[tuple[str, str]]:
    """``parts`` with each statement that goes to no agent ("There is an urgency to go out.",
    ``harness.text._shapes.states``) put before the request after it, as the scene it sets:
    planned alone, it would be an entry of its own that asks nothing, and cut the request it
    introduces in two. The joined text is the message's own, from the statement to the end of
    the request, when both are found in it in order.

    A statement goes to no agent when no agent's words or meaning is found in it (``found``),
    or when they are but the out-of-scope gate keeps it with the parent (``kept``: "It is my
    first time in town." shares "town" with a car-hire agent). The second kind sets the scene
    only when both it and the request were planned as written (no list marker, lead-in or
    connective taken off either) and nothing but sentence ends, commas and spaces stand between
    them, in one line: a list item, a line of its own or a piece after "btw" or "also" is a
    request of its own that the parent answers."""
    out: list[tuple[str, str]] = []
    scene: list[str] = []
    strict = False  # some statement of the scene is a ``kept`` one
    at = 0  # where the message is searched from: each search goes on from the last (linear)
    for (text, asks), words, gated in zip(parts, found, kept, strict=True):
        if (not words and states(asks)) or (gated and text == asks and _only_states(asks)):
            scene.append(text)
            strict = strict or gated
            continue
        if scene:
            start = message.find(scene[0], at)
            end = message.find(text, start) if start >= 0 else -1
            plain = text == asks and _plainly_before(message, scene, start, end)
            if end >= 0 and (not strict or plain):
                out.append((message[start : end + len(text)], asks))
                at = end + len(text)
            elif strict:
                out += [(piece, piece) for piece in scene]
                out.append((text, asks))
            else:
                out.append((" ".join([*scene, text]), asks))
            scene, strict = [], False
        else:
            out.append((text, asks))
    if scene:
        out += [(text, text) for text in scene]
    return out


def _social_joined(
    message: str, parts: list[tuple[str, str]], agent_of: Callable[[str], str | None]
) -> list[tuple[str, str]]:
    """``parts`` with each part that only greets, thanks, apologises, wishes well or announces
    what follows (``harness.planning._nonrequest.asks_nothing``: "Sorry to bother you.", "I have
    two questions.") joined to the request after it, or to the one before it when it ends the
    message: planned alone, it was a request no agent takes, and the reply said it could not
    help with it. The joined part is routed on what the request asks, as before; its text is
    the message's own from the first part to the last when they are found in it in order.

    Only a part that goes to no agent (``agent_of``: the agent its words or meaning name) is
    joined, or one whose agent is the agent of the request it would join: "Sorry about my card
    being declined." names a topic, and before another agent's request it stays a request of
    its own."""
    social = [asks_nothing(asks) and asks_nothing(text) for text, asks in parts]
    if len(parts) < 2 or not any(social):
        return parts
    # Each part's agent is asked once: routing a piece is the costly step here.
    agents = {i: agent_of(asks) for i, (_, asks) in enumerate(parts) if social[i]}
    for i in [i for i, agent in agents.items() if agent is not None]:
        after = [j for j in range(i + 1, len(parts)) if not social[j]]
        before = [j for j in range(i) if not social[j]]
        target = after[0] if after else before[-1] if before else None
        if target is not None and target not in agents:
            agents[target] = agent_of(parts[target][1])
        social[i] = target is not None and agents[target] == agents[i]
    out: list[tuple[str, str]] = []
    waiting: list[str] = []  # social parts before the next request
    at = 0  # where the message is searched from: each search goes on from the last (linear)
    for (text, asks), joins in zip(parts, social, strict=True):
        if joins:
            waiting.append(text)
            continue
        if waiting:
            text, at = _joined(message, [*waiting, text], at)
            waiting = []
        else:
            found = message.find(text, at)
            at = found + len(text) if found >= 0 else at
        out.append((text, asks))
    if waiting:
        if not out:
            return parts
        text, asks = out[-1]
        out[-1] = (_joined(message, [text, *waiting], _start(message, text, at))[0], asks)
    return out


def _joined(message: str, texts: list[str], at: int) -> tuple[str, int]:
    """The message's own text from the first of ``texts`` to the end of the last, when each is
    found in it from ``at`` on after the one before, and where it ends; else the texts joined
    with spaces, and ``at``."""
    start = message.find(texts[0], at)
    end = start
    for text in texts:
        found = message.find(text, end) if end >= 0 else -1
        if found < 0:
            return " ".join(texts), at
        end = found + len(text)
    return message[start:end], end


def _start(message: str, text: str, end: int) -> int:
    """Where ``text``, found in ``message`` ending at or before ``end``, starts (0 if not)."""
    found = message.rfind(text, 0, end)
    return max(found, 0)


# The joining words and commas at the start of a lost stretch ("as well as reset ...").
_JOINED = re.compile(r"^(?:" + JOINER.pattern + r"[\s,]*+)+", re.IGNORECASE)


def _unplanned(message: str, parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``parts`` with each stretch of ``message`` that no planned text covers and that has a
    content word put in as a request of its own, where it stands in the message: none, unless the
    split lost a piece. Each is routed as any other (or kept with the parent, an entry of its
    own), so no part of what the user wrote is left out of the plan in silence.

    Each planned text is looked for in the message from where the one before it ended (linear);
    what lies between the texts found is what was lost. Only the lost words are planned, never
    again a piece already planned, and a request written twice is lost the second time when only
    one text holds it. The joining words a cut takes out ("as well as", ``JOINER``) are no
    request's words; a stretch made only of them, stop words and punctuation is no request. A
    text the split wrote anew (not the message's own) is not looked for: its words count as
    planned."""
    found: list[tuple[int, int, int]] = []  # (start, end, index in parts)
    elsewhere: set[str] = set()  # the words of the texts not found in the message
    at = 0
    for k, (text, _) in enumerate(parts):
        start = message.find(text, at) if text else -1
        if start < 0:
            elsewhere.update(content_tokens(text))
            continue
        found.append((start, start + len(text), k))
        at = start + len(text)
    lost: list[tuple[int, str]] = []  # (index in parts to put it before, lost text)
    at = 0
    for start, end, k in [*found, (len(message), len(message), len(parts))]:
        piece = _JOINED.sub("", message[at:start].lstrip(" ,;:.!?\n\t")).rstrip(" ,;:\n\t")
        words = content_tokens(JOINER.sub(" ", piece))
        if words and not elsewhere.issuperset(words):
            lost.append((k, piece))
        at = max(at, end)
    if not lost:
        return parts
    out: list[tuple[str, str]] = []
    for k, part in enumerate(parts):
        out += [(piece, piece) for before, piece in lost if before == k]
        out.append(part)
    out += [(piece, piece) for before, piece in lost if before == len(parts)]
    return out


def _only_states(text: str) -> bool:
    """Whether ``text`` only states (``states``), asks no question ("I fancy seeing a show?") and
    has no request verb or word of wanting or interest (``_ASKS_STEMS``)."""
    return (
        states(text)
        and not text.rstrip().endswith("?")
        and not any(stem(w) in _ASKS_STEMS for w in WORD.findall(text.lower()))
    )


def _plainly_before(message: str, scene: list[str], start: int, end: int) -> bool:
    """Whether the ``scene`` statements, the first found at ``start``, follow each other and
    the request found at ``end`` with only sentence ends, commas and spaces between, in one
    line."""
    at = start
    for piece in scene:
        found = message.find(piece, at)
        if found < 0 or found > end or not _PLAIN_GAP.fullmatch(message[at:found]):
            return False
        at = found + len(piece)
    return at <= end and _PLAIN_GAP.fullmatch(message[at:end]) is not None


def _add(entries: list[PlanEntry], request: str, agent: str) -> None:
    """Append a planned request, joined to the previous one when it goes to the same agent."""
    if entries and entries[-1].agent == agent:
        entries[-1] = PlanEntry(request=f"{entries[-1].request} and {request}", agent=agent)
    else:
        entries.append(PlanEntry(request=request, agent=agent))


def _parts(text: str) -> list[str]:
    """A message cut at sentence ends and joining words, keeping content-free parts ("yes").

    ``split_clauses`` glues those onto a neighbour, which is right without a floor holder; with
    one, "yes" is its answer and must not travel with the next request.
    """
    pieces = (_LEAD.sub("", piece).strip(" ,;") for piece in _SPLIT.split(text.strip()) if piece)
    return [piece for piece in pieces if piece] or [text.strip()]

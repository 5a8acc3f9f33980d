"""The offline composer: the parent's reply by rules, no network, no key.

It relays what the user has not received: silent findings, the findings of a request an agent
handed back, and for an unanswered request with nothing to relay, a route to another agent or a
sentence saying the parent cannot help with it. A handed-back request goes to another agent only
when the planner, asked to plan that request alone, gives it to that agent: the agent that handed
it back was the planner's choice for it, and a word it shares with another agent's description
(a "week" in "four-day work weeks", a "vacation") makes no better one. It follows a rule keyed on the parent's
instructions, read by the SDK's one instruction reader (:mod:`harness.text.instructions`): when the
system prompt tells it to check ``answered``, it leaves answered requests alone; when it does not (a
naive parent), or when a sentence tells it to repeat or summarise the sub-agents' answers (which it
obeys, as an LLM would likely do), it restates them. The restating emulates a failure reported in
public issues of agent frameworks (a parent repeating what its sub-agents already told the user);
the contrast with the good parent is there by construction, so the simulator has duplicates to
catch. It is not a measurement of how a real LLM parent behaves.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from harness.composing.base import (
    ComposeInput,
    Composer,
    Composition,
    ResultView,
    Route,
    quote_each,
)
from harness.detect import farewells
from harness.models._text import Router, content_tokens
from harness.planning import PlanEntry, PlanInput, Planner, RulesPlanner
from harness.planning._nonrequest import asks_nothing
from harness.planning.match import agent_matcher
from harness.text import quote
from harness.text.instructions import checks_answered, repeats_answers
from subagents import Usage

__all__ = ["RulesComposer"]

_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening))\b", re.IGNORECASE)
_THANKS = re.compile(r"\b(thanks|thank you|cheers)\b", re.IGNORECASE)
_BYE_WORDS = "bye|goodbye|see you"
_BYE = re.compile(rf"\b({_BYE_WORDS})\b", re.IGNORECASE)
# A goodbye the farewell reader is asked about: "Good night." is one when the reader reads the
# part as a farewell, never inside a request ("a good night's sleep", "Good night shift staff").
_NAMES_FAREWELL = re.compile(rf"\b({_BYE_WORDS}|good ?night)\b", re.IGNORECASE)
_SORRY = re.compile(r"\b(sorry|apolog\w*|pardon)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=256)
def _honours_answered(system: str) -> bool:
    """True when the parent's system prompt checks ``answered`` and no sentence of it tells the
    parent to repeat its sub-agents' answers (the composer obeys that sentence)."""
    # Cached: every compose step asks this of the same (long) system prompt.
    return checks_answered(system) and repeats_answers(system) is None


class RulesComposer(Composer):
    """Deterministic, offline composer for the demo, the samples and the tests.

    Args:
        route_threshold: the minimum routing score for an open question to go to another
            sub-agent (the threshold of the default planner); below it the parent says it cannot
            help with it.
        planner: the planner whose routing decides where a handed-back request may go: the
            parent's own offline planner when the parent builds this composer, else a
            ``RulesPlanner`` with ``route_threshold``.
    """

    def __init__(self, *, route_threshold: float = 0.9, planner: Planner | None = None) -> None:
        self.route_threshold = route_threshold
        self.planner = planner or RulesPlanner(route_threshold=route_threshold)

    async def _planned_routes(
        self, question: str, given: ComposeInput, exclude: set[str]
    ) -> tuple[list[tuple[str, str | None]], Usage]:
        """Where each part of a handed-back ``question`` goes, as the planner plans it alone:
        (request, agent) pairs, the agent None for a part the parent keeps. A question the
        planner gives one agent goes whole; one it splits goes part by part. A part whose agent
        is in ``exclude`` (the agent that handed it back, or one that already had it) goes to the
        planner's next choice (``_next_choice``) when the planner, given that part and the other
        agents, sends it there too."""
        parent = given.parent
        plan = await self.planner.plan(
            PlanInput(parent=parent, message=question, agents=given.agents)
        )
        usage = plan.usage
        entries = list(plan.entries) or [PlanEntry(request=question, agent=parent)]
        whole = len({entry.agent for entry in entries}) == 1
        rest = tuple(card for card in given.agents if card.name not in exclude)
        out: list[tuple[str, str | None]] = []
        for entry in entries:
            request = question if whole else entry.request
            agent: str | None = entry.agent
            if agent in exclude:
                agent = self._next_choice(request, given, exclude)
                if agent is not None:
                    again = await self.planner.plan(
                        PlanInput(parent=parent, message=request, agents=rest)
                    )
                    usage = usage + again.usage
                    if {e.agent for e in again.entries} != {agent}:
                        agent = None
            out.append((request, None if agent in (None, parent) or agent in exclude else agent))
        return out, usage

    def _next_choice(self, request: str, given: ComposeInput, exclude: set[str]) -> str | None:
        """The best-scoring agent outside ``exclude`` by the offline planner's own scores, when
        it fits well: its score is at least half the best agent's (the ratio by which that
        planner calls a part "clearly another agent's" when an agent holds the floor). A word
        shared with another agent's description scores far below that; None for a planner that
        is not the offline one, whose scores are not known."""
        if not isinstance(self.planner, RulesPlanner):
            return None
        ranked = agent_matcher(given.agents, concepts=self.planner.concepts).scores(request)
        if not ranked or ranked[0][1] <= 0.0:
            return None
        top = ranked[0][1]
        return next((n for n, s in ranked if n not in exclude and s >= top / 2), None)

    async def compose(self, given: ComposeInput) -> Composition:
        context = given
        honours_answered = _honours_answered(given.system)
        parts: list[str] = []
        routes: list[Route] = []
        usage = Usage(requests=1)
        tried: dict[str, set[str]] = {}
        for routed_request, routed_agent in context.routed:
            tried.setdefault(_norm(routed_request), set()).add(routed_agent)
        seen: set[str] = set()
        handled = _handled(context.results)
        kept: list[tuple[int, str]] = []  # (part, request) the parent cannot help with
        for own in context.own_requests:
            reply, refused = _own_reply(own, asked=_asked(own, context.user_message))
            if refused:
                kept.append((len(parts), own))
            parts.append(reply)
        for result in context.results:
            if result.status in ("failed", "timed_out"):
                # Per request: each one the call carried, by its own text, unless another
                # agent's result this turn already answers it.
                parts.append(_could_not_finish(result, handled))
                continue
            questions = list(result.open_questions)
            if result.request_answers:
                # Per request: an answered one is left alone, an unanswered one is relayed from
                # its findings, or (with none) routed or apologised for like an open question.
                if result.mode == "silent" and result.findings:
                    parts.append(result.findings)
                answered_some = any(a.answered for a in result.request_answers)
                if answered_some and not honours_answered and result.interaction_summary:
                    parts.append(f"To sum up: {result.interaction_summary}")
                for item in result.request_answers:
                    if item.answered:
                        continue
                    if item.findings and result.mode != "silent":
                        parts.append(item.findings)
                    elif not item.findings:
                        questions.append(item.request)
            elif result.mode == "silent":
                if result.findings:
                    parts.append(result.findings)
                elif result.error:
                    # Broken, nothing to relay: the request is apologised for, unless the agent
                    # handed it back as an open question (taken up below).
                    parts.append(_could_not_finish(result, handled | _kept(result, handled)))
            elif result.answered:
                if not honours_answered and result.interaction_summary:
                    parts.append(f"To sum up: {result.interaction_summary}")
            elif result.sent and (result.said_answered or not result.broke_contract):
                # The user read what it sent, and either the agent holds that it answered (even
                # in outputs that broke the contract) or its outputs kept the contract (a
                # conversational agent still talking with them holds the floor; a direct one's
                # messages are its part): the parent never says them, or its findings, again.
                pass
            elif result.findings and not _restates(result.findings, result.sent):
                # Not answered, and nothing it sent is the answer: its findings are to relay.
                parts.append(result.findings)
            elif result.error:
                # Outputs that broke the contract, and nothing it sent answers the request (a
                # holding message at most, or a conversational agent's question, whose floor the
                # broken result dropped): relay what it meant to tell the user, or say that part
                # could not be done (unless it handed the request back as open questions). A
                # conversational agent's summary tells of the dialogue, not the user.
                summary = result.interaction_summary
                talking = result.mode == "conversational" and result.sent
                if (
                    summary
                    and summary.strip()
                    and not talking
                    and not _restates(summary, result.sent)
                ):
                    parts.append(summary)
                else:
                    parts.append(_could_not_finish(result, handled | _kept(result, handled)))
            for question in questions:
                key = _norm(question)
                if key in seen:
                    continue
                seen.add(key)
                had_it = tried.setdefault(key, set())
                others = had_it - {result.agent}
                if key in handled or _pending(key, others, context.results):
                    continue  # another agent answered this request, or has it still
                if _apologised(key, others, context.results):
                    continue  # another agent failed on it: "try again later" is said once
                targets: list[tuple[str, str | None]] = [(question, None)]
                if context.agents and context.steps_left > 0:
                    targets, spent = await self._planned_routes(
                        question, context, had_it | {result.agent}
                    )
                    usage = usage + spent
                for request, target in targets:
                    if target is not None:
                        routes.append(Route(request=request, agent=target))
                        had_it.add(target)
                        tried.setdefault(_norm(request), set()).add(target)
                    else:
                        reply, refused = _own_reply(request)
                        if refused:
                            kept.append((len(parts), request))
                        parts.append(reply)
        if kept and context.handoff:
            # Once per reply when it cannot help with a request, and last: where to turn next
            # closes the reply, after every answer relayed.
            parts.append(context.handoff)
        message = " ".join(_once(parts)).strip()
        if not message and context.own_requests:
            # Only parts that ask nothing and need no answer of their own ("Hi, I have a couple
            # of questions."): the parent greets and invites them rather than saying nothing.
            greeted = any(_GREETING.search(own) for own in context.own_requests)
            message = "Hello! How can I help?" if greeted else "How can I help?"
        return Composition(message=message, routes=tuple(routes), usage=usage)


def _once(parts: Sequence[str]) -> list[str]:
    """The reply's parts, each said once: a part with the same content words as an earlier one
    (two silent agents relaying the same findings, one question asked for two requests) is left
    out. A part of no content words is kept as it is."""
    said: set[str] = set()
    kept: list[str] = []
    for part in parts:
        if not part:
            continue
        key = _norm(part)
        if key and key in said:
            continue
        said.add(key)
        kept.append(part)
    return kept


def _pending(key: str, agents: set[str], results: Sequence[ResultView]) -> bool:
    """Whether one of ``agents`` (others the request ``key``, normalised, went to this turn) has
    returned no result for it yet: the request is theirs still. When each of them has returned
    and none answered it (two agents both handing back a request planned to both), it is taken
    up here once, not left out in silence."""
    returned = {
        result.agent
        for result in results
        if key in _norms(result.each_request) or key in _norms(result.open_questions)
    }
    return bool(agents - returned)


def _apologised(key: str, agents: set[str], results: Sequence[ResultView]) -> bool:
    """Whether one of ``agents`` failed or timed out on the request ``key`` (normalised): its
    apology ("try again later") is the request's reply, so a hand-back of it by another agent
    adds no "can't help" beside it."""
    return any(
        result.agent in agents and result.error and key in _norms(result.each_request)
        for result in results
    )


def _could_not_finish(result: ResultView, handled: set[str]) -> str:
    """The apology for a result that gives the user nothing (a failed or timed-out call, or
    outputs that broke the contract with nothing to relay), per request it carried, leaving out
    those another result of the turn answers; "" when none is left."""
    lost = [r for r in result.each_request if _norm(r) not in handled]
    if not lost:
        return ""
    what = "timed out" if result.status == "timed_out" else "failed"
    return (
        f"Sorry, I could not finish {quote_each(lost)}: the {result.agent} service {what}. "
        "Please try again later."
    )


def _kept(result: ResultView, handled: set[str]) -> set[str]:
    """The requests (normalised) of a result whose outputs broke the contract that its apology
    leaves out, though no other result answers them: those its own outputs say it answered with a
    message the user read (``answered``, or an ``answeredRequests`` item), and those it handed
    back in ``openQuestions``, which are taken up as open questions instead.

    A handed-back question is matched to its request by meaning, as far as words tell: by the
    router the composer routes requests with, over the call's requests. When the outputs said
    nothing was answered and the call carried one request, any question is that request handed
    back, whatever its words. When the words cannot tell which request a question is (no shared
    word, or a tie), the requests it may be are left out only if another agent answered the
    question this turn: then the user has an answer, and an apology would contradict it.
    """
    requests = result.each_request
    kept: set[str] = set()
    if result.sent:  # an answer needs a message: a claim without one is no answer
        kept.update(_norm(r) for r in result.said_answered_requests)
        if result.said_answered:
            kept.update(_norm(r) for r in requests)
    questions = result.open_questions
    if not questions:
        return kept
    claimed = result.said_answered or bool(result.said_answered_requests)
    if not claimed and len(requests) == 1:
        return kept | {_norm(requests[0])}
    exact = _norms(requests)
    router = Router([(str(i), (), (r,)) for i, r in enumerate(requests)])
    for question in questions:
        if _norm(question) in exact:
            kept.add(_norm(question))
            continue
        ranked = router.scores(question)
        best = ranked[0][1] if ranked else 0.0
        candidates = [requests[int(name)] for name, score in ranked if score == best]
        if best > 0 and len(candidates) == 1:
            kept.add(_norm(candidates[0]))
        elif _norm(question) in handled:
            kept.update(_norm(r) for r in candidates)
    return kept


def _handled(results: Sequence[ResultView]) -> set[str]:
    """The requests (normalised) some usable result of the turn answers: one its agent answered
    itself, or one with findings for the parent to relay."""
    handled: set[str] = set()
    for result in results:
        if result.status in ("failed", "timed_out") or result.error:
            continue
        if result.request_answers:
            pairs = zip(result.each_request, result.request_answers, strict=False)
            handled.update(_norm(r) for r, a in pairs if a.answered or a.findings)
        elif result.answered or (result.mode == "silent" and result.findings):
            open_ = {_norm(q) for q in result.open_questions}
            handled.update(_norm(r) for r in result.each_request if _norm(r) not in open_)
    return handled


def _norm(text: str) -> str:
    return " ".join(content_tokens(text))


def _norms(texts: Sequence[str]) -> set[str]:
    return {_norm(t) for t in texts}


def _restates(text: str, sent: Sequence[str]) -> bool:
    """Whether ``text`` says again one of the messages the user already read (same words)."""
    return _norm(text) in _norms(sent)


def _social(text: str) -> str:
    """The parent's answer to a greeting, thanks or goodbye in ``text`` ("" for none)."""
    if _GREETING.search(text):
        return "Hello! How can I help?"
    if _THANKS.search(text):
        return "You're welcome!"
    if _BYE.search(text):
        return "Goodbye!"
    return ""


def _asked(piece: str, message: str) -> bool:
    """Whether ``piece`` is asked in ``message``: a question mark closes it there ("Sorry?",
    "Pardon?"; the planner's entries leave the mark out). A piece not found word for word is
    asked when the message holds a question mark anywhere (the safe reading)."""
    at = message.lower().find(piece.strip().lower())
    if at < 0 or not piece.strip():
        return "?" in message
    return re.match(r"[\s\"')\]]*\?", message[at + len(piece.strip()) :]) is not None


def _farewell(text: str, *, asked: bool = False) -> bool:
    """Whether ``text`` says goodbye ("Bye!", "Thanks, bye", "See you later"): it names a goodbye
    and the farewell reader (``harness.detect.farewells``, fitted on users' farewells) reads it
    as one, and it is not asked ("Bye?")."""
    return not asked and _NAMES_FAREWELL.search(text) is not None and farewells().reads(text)


def _own_reply(text: str, *, asked: bool = False) -> tuple[str, bool]:
    """The parent's reply to a request of its own, and whether it says it cannot help: a
    greeting, thanks or goodbye alone, a farewell (``_farewell``) or, unless ``asked`` (a
    question mark closed ``text`` in the user's message), a part that asks nothing
    (``asks_nothing``: "Sorry to bother you.", "Thanks so much for the help yesterday.", "I
    have two questions.") is answered, acknowledged or left out, never refused; anything else
    the parent cannot help with here (the bot's ``handoff`` line, when it has one, closes the
    reply: ``compose``; none by default: where to turn next differs from an airline to a bank,
    so only the bot can say it). Each reader runs once per part."""
    if _farewell(text, asked=asked):
        return ("You're welcome! Goodbye!" if _THANKS.search(text) else "Goodbye!"), False
    if not asked and asks_nothing(text):
        # Thanks or an apology is acknowledged; a greeting, a wish or "I have two questions."
        # is left out: the answers beside it are the reply to it (``compose`` greets when
        # nothing else is said).
        if _THANKS.search(text):
            return "You're welcome!", False
        return ("No problem." if _SORRY.search(text) else ""), False
    social = _social(text)
    if social and not content_tokens(text):
        return social, False
    unhelpful = f'I can\'t help with "{quote(text).rstrip("?.!")}" here.'
    # A greeting's "How can I help?" after a refusal reads oddly.
    if social == "Hello! How can I help?":
        return unhelpful, True
    return f"{unhelpful} {social}".strip(), True

"""The offline default model: deterministic rules, no network, no key.

It does the sub-agents' job an LLM does in this SDK, plainly: it calls the best-matching tool for
each request it is given (when that tool changes something and the request does not ask for the
change, a tool that reads if the request only names the change or the two tie on its words, or
none: ``harness.models._actions``), each request with its own call, except that requests whose
calls would be the same tool with the same arguments share one call, credited to each of them and
said once; it sends direct answers with the send tool and returns the
contract's outputs, one answer per request when a call carries several. Which request an answer
answers is read per request by the kind of value it asks (``harness.models._credit``): an
answer made for one request is credited to another it answers as well (a call made for a request
keeps its credit); a reading tool that names the kind asked is called for a request no tool
matched, and its answer is said only when it answers that request. Planning and composing are not a
model's job here: the offline planner is ``harness.planning.RulesPlanner`` and the offline composer
``harness.composing.RulesComposer`` (a ``Parent`` on this model uses both).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from harness.models._actions import (
    acts,
    asks_by_question,
    asks_for_change,
    base_forms,
    is_question,
    mentions_change,
    names_action,
    request_form,
)
from harness.models._answer import given_value, join_answer, strip_marks, unmarked
from harness.models._arguments import fill
from harness.models._asking import for_action, question_for
from harness.models._choice import (
    TOOL_MINIMUM,
    acting,
    acting_description,
    choose,
    lone_tool,
    read_by_question,
    stated,
    tool_router,
    typed,
)
from harness.models._credit import (
    answers,
    asked_kind,
    carries,
    names_all,
    names_topic,
    only_reads,
    tells,
)
from harness.models._text import Router, split_clauses, split_commands
from harness.models.base import (
    ActContext,
    ChatMessage,
    Model,
    ModelRequest,
    ModelResponse,
    ToolCall,
    ToolDefinition,
)
from instructions.contract import (
    ANSWERED,
    ANSWERED_REQUESTS,
    CONVERSATIONAL,
    FINDINGS,
    INTERACTION_SUMMARY,
    OPEN_QUESTIONS,
    SCOPED_REQUEST,
    SILENT,
    join_requests,
)
from subagents import Usage

__all__ = ["RulesModel"]

_SEND_TOOL = "send_message_to_user"
_NO_TOOL_SUMMARY = "No tool called: none of this agent's tools does what was asked."
"""The interaction summary of a direct or conversational agent that called no tool."""


class RulesModel(Model):
    """Deterministic, offline model for the demo, the samples and the tests.

    Args:
        route_threshold: the minimum routing score for a clause to go to a sub-agent; clauses below
            it are handled by the parent itself.
    """

    name = "rules"

    def __init__(self, *, route_threshold: float = 0.9) -> None:
        self.route_threshold = route_threshold

    async def request(self, request: ModelRequest) -> ModelResponse:
        context = request.context
        if isinstance(context, ActContext):
            return self._act(request, context)
        raise TypeError(
            "RulesModel answers sub-agents' act requests only; plan with "
            "harness.planning.RulesPlanner and compose with harness.composing.RulesComposer"
        )

    # --- act ------------------------------------------------------------------------------------

    def _act(self, request: ModelRequest, context: ActContext) -> ModelResponse:
        given = context
        # The working text: what the user typed, with no mark of an answer in it
        # (``_answer.unmarked``), and each answer the call carries as data joined to its request.
        context = _with_answers(context)
        answered = _answered(request.messages, context)
        if answered is not None:
            # The user's answer to the question a conversational agent holding the floor asked
            # completes the request it asked about: the same action, read with the value.
            context = replace(context, scoped_request=answered, continuing=False)
        if context == given:
            return self._act_on(request, context)
        # What the agent reports and passes on names the requests as it was given them, with
        # no mark of the working text.
        return _restored(self._act_on(request, context), context, given)

    def _act_on(self, request: ModelRequest, context: ActContext) -> ModelResponse:
        tool_results = [m for m in request.messages if m.role == "tool"]
        usage = Usage(requests=1)
        if not tool_results or (request.messages and request.messages[-1].role == "user"):
            calls, asking = self._plan(request.tools, context)
            if calls:
                return ModelResponse(tool_calls=tuple(calls), usage=usage, model=self.name)
            told = _told(context, asking)
            if told:
                # The agent asks the user itself, as any agent that may message the user does:
                # the question is its message, never an open question for the parent to route.
                call = ToolCall(id="call_send_0", name=_SEND_TOOL, arguments={"text": told})
                return ModelResponse(tool_calls=(call,), usage=usage, model=self.name)
            handed = list(context.requests) or [context.scoped_request]
            out = self._outputs(
                context,
                texts=[],
                done=False,
                open_q=_asked_or_handed(handed, asking if _relays(context) else {}),
                per={},
                asking=asking,
            )
            if INTERACTION_SUMMARY in out:
                # Nothing was said to the user: the summary says so, and the request is handed
                # back as an open question (the contract wants a summary that is not empty).
                out[INTERACTION_SUMMARY] = _NO_TOOL_SUMMARY
            return ModelResponse(output=out, usage=usage, model=self.name)
        texts: list[str] = []
        open_q: list[str] = []
        per: dict[int, list[str]] = {}  # the answers of each request, by its index
        made: list[tuple[str, tuple[int, ...]]] = []  # each answer, and the requests it was for
        done = True
        sent = any(m.name == _SEND_TOOL for m in tool_results)
        asked = context.requests or (context.scoped_request,)
        tried: list[str] = []  # requests a tool was tried for by the kind they ask, in vain
        by_kind: set[int] = set()  # requests a tool called for the kind they ask answered
        for message in tool_results:
            if message.name == _SEND_TOOL:
                continue
            text, item_done, item_open = _parse_tool_result(message.content or "")
            if (message.tool_call_id or "").endswith(_BY_KIND):
                # A tool called for the kind of value a request asks (``_kind_picks``): its
                # answer is said only when it answers that request, and credited only to it.
                number = _request_indexes(message.tool_call_id)[0]
                parts = (asked[number], *split_clauses(asked[number]))
                if not (text and item_done and any(answers(p, text) for p in parts)):
                    tried.append(asked[number])
                    continue
                by_kind.add(number)
            if text:
                # One call serves each request it was made for. A text two reading calls
                # returned alike is said once; two changes are confirmed twice, even in the
                # same words ("The card is blocked." for two cards).
                again = not acts(message.name or "")
                if not (again and text in texts):
                    texts.append(text)
                if item_done:
                    made.append((text, _request_indexes(message.tool_call_id)))
                for number in _request_indexes(message.tool_call_id) if item_done else ():
                    given = per.setdefault(number, [])
                    if not (again and text in given):
                        given.append(text)
            done = done and item_done
            open_q.extend(q for q in item_open if q not in open_q)
        for pending in _unmatched(request, set(per)):
            open_q.append(pending)
        # An answer made for one request may answer another of the turn (``_credit``): credit
        # is added, never taken from the call made for a request.
        if not context.continuing and context.requests:
            before = {n: list(t) for n, t in per.items()}
            per = _credit(asked, per, made)
            # Only what the added credit answers leaves the open questions: the request, or
            # the clause of it the added answer answers; a clause no tool answered stays.
            covered: set[str] = set()
            for number, given in per.items():
                added = [t for t in given if t not in before.get(number, [])]
                if number in by_kind:
                    added = given
                if not added:
                    continue
                if number not in by_kind:
                    covered.add(asked[number])  # ``_credit`` added it for the whole request
                covered.update(
                    c
                    for c in (asked[number], *split_clauses(asked[number]))
                    if any(answers(c, t, siblings=True) for t in added)
                )
            open_q = [q for q in open_q if q not in covered]
        open_q.extend(q for q in tried if q not in open_q and q not in {asked[n] for n in per})
        # A change not made for want of a required value: the user is asked for each value
        # (``_merged_calls``), and the request is not answered.
        asking = self._plan(request.tools, context)[1]
        if asking and not _relays(context):
            # Nowhere to ask the user (a team member's call): handed back, as before.
            open_q.extend(asked[n] for n in sorted(asking) if asked[n] not in open_q)
            asking = {}
        if asking:
            # The questions reach the user in the agent's own message, or in the findings the
            # parent relays (``_outputs``), never as open questions: only a request no question
            # was worth asking for is handed back.
            done = False
            open_q = [q for q in open_q if q not in {asked[n] for n in asking if asking[n]}]
            open_q.extend(
                asked[n] for n in sorted(asking) if not asking[n] and asked[n] not in open_q
            )
        told = _told(context, asking)
        if tried and not texts and not sent:
            # Nothing to tell: as when no tool is called, the request is handed back.
            done = False
            open_q = open_q or list(asked)
        reply = " ".join([*texts, told]).strip()
        if context.can_message_user and reply and not sent:
            call = ToolCall(
                id=f"call_send_{len(tool_results)}", name=_SEND_TOOL, arguments={"text": reply}
            )
            return ModelResponse(tool_calls=(call,), usage=usage, model=self.name)
        return ModelResponse(
            output=self._outputs(
                context, texts=[*texts, told], done=done, open_q=open_q, per=per, asking=asking
            ),
            usage=usage,
            model=self.name,
        )

    def _pick_tools(self, tools: Sequence[ToolDefinition], context: ActContext) -> list[ToolCall]:
        return self._plan(tools, context)[0]

    def _plan(
        self, tools: Sequence[ToolDefinition], context: ActContext
    ) -> tuple[list[ToolCall], dict[int, list[str]]]:
        """The calls for the turn, and by request index the questions that ask the user for the
        required values a call it needs lacks (``_merged_calls``)."""
        own = [t for t in tools if t.name != _SEND_TOOL]
        if not own:
            return [], {}
        if len(own) == 1 and (context.continuing or context.mode == CONVERSATIONAL):
            said = acting_description(own[0])
            named = (acts(own[0].name) or bool(said)) and mentions_change(
                context.scoped_request, own[0].name, description=said
            )
            # A statement gives a change no values ("I topped up £20 yesterday"), nor moves
            # money (``acting``).
            statement = acting(own[0]) and typed(own[0]) and stated(context.scoped_request)
            if (named or statement) and not context.continuing:
                return [], {}  # a change the request only names is not made (``_actions``)
            call = _call(own[0], context.scoped_request, 0)
            missing = _questions(own[0], call)
            if missing and not context.continuing:
                # A required value the request does not give is asked for, not passed as {}.
                text = context.scoped_request
                worth = _worth_asking(own[0], text, text)
                return [], {0: [q for _, q in missing] if worth else []}
            return [call], {}
        router = tool_router(own)
        requests = context.requests or (context.scoped_request,)
        message = " ".join(requests)
        # Each clause of each request gets its best tool (``choose``). Only when no request
        # matches does the agent's only tool serve them (``lone_tool``): a request no tool
        # matched beside one that matched is handed back (``_unmatched``), not given the tool.
        picks = [_clause_picks(own, router, text, message) for text in requests]
        if len(own) == 1 and not any(picks):
            for number, text in enumerate(requests):
                if lone_tool(own[0], text):
                    picks[number] = [(own[0], text, 0, message)]
        calls, asking = _merged_calls(picks, several=bool(context.requests), router=router)
        kind, lacking = _kind_picks(own, requests, picks, calls, several=bool(context.requests))
        return calls + kind, {**asking, **lacking}

    def _outputs(
        self,
        context: ActContext,
        *,
        texts: list[str],
        done: bool,
        open_q: list[str],
        per: Mapping[int, list[str]],
        asking: Mapping[int, list[str]],
    ) -> dict[str, Any]:
        text = " ".join(texts).strip()
        silent = context.mode == SILENT
        # Each question once: two requests for one change share its questions ("top up my
        # wallet. Top up my wallet please."); the first of them carries them.
        first: dict[str, int] = {}
        for number in sorted(asking):
            for question in asking[number]:
                first.setdefault(question, number)
        if silent:
            # A silent agent's questions are part of the findings the parent relays.
            text = " ".join([text, *first]).strip()
        # A request whose change lacks a value is not answered: its item carries the questions
        # that ask for the values, as the findings the parent relays.
        answers = [
            {
                "request": item,
                ANSWERED: bool(per.get(number)) and not silent and number not in asking,
                FINDINGS: " ".join(
                    [
                        *(per.get(number, ()) if silent else ()),
                        *(q for q in asking.get(number, ()) if first[q] == number),
                    ]
                ),
            }
            for number, item in enumerate(context.requests)
        ]
        if silent:
            out: dict[str, Any] = {ANSWERED: False, FINDINGS: text, OPEN_QUESTIONS: open_q}
        else:
            answered = bool(text) and done
            if answers:
                answered = answered and all(a[ANSWERED] for a in answers)
            out = {ANSWERED: answered, INTERACTION_SUMMARY: text, OPEN_QUESTIONS: open_q}
            if context.mode == CONVERSATIONAL:
                out[SCOPED_REQUEST] = context.scoped_request
        if answers:
            out[ANSWERED_REQUESTS] = answers
        return out

    # --- compose --------------------------------------------------------------------------------


_Pick = tuple[ToolDefinition, str, int, str]
"""A tool chosen for a request: the tool, the clause its arguments come from, the clause's index,
and the whole request (a count, a month or a day the clause does not name is read there:
"how many rides did I do in May and how much did they cost" is one call)."""


def _credit(
    requests: Sequence[str],
    per: Mapping[int, list[str]],
    made: Sequence[tuple[str, tuple[int, ...]]],
) -> dict[int, list[str]]:
    """Each request's answers, with credit added per request by what it asks
    (``harness.models._credit``): a request that asks for a kind of value (a price, a time, a
    place, a length of time) and whose own calls' answers carry none of it is credited as well
    with an answer made for another request of the turn that answers it (``answers``: "a
    tune-up costs $45" beside a booking). Credit is only added: a call made for a request keeps
    its credit, whatever its answer carries."""
    out = {number: list(texts) for number, texts in per.items()}
    for number, request in enumerate(requests):
        kind = asked_kind(request)
        if kind is None:
            # A question of no kind of value that no call answered is credited with an answer
            # made for another request of the turn that names its thing (``names_topic``: a
            # cancellation that states the refund policy answers "what's your refund policy?").
            told = [
                text
                for text, made_for in made
                if set(made_for) - {number} and names_topic(request, text)
            ]
            if told and number not in out:
                out[number] = told
            continue
        mine = out.get(number, [])
        if any(carries(text, kind) and names_all(request, text) for text in mine):
            continue
        for text, made_for in made:
            others = set(made_for) - {number}
            if others and text not in mine and answers(request, text, siblings=True):
                mine.append(text)
        if mine:
            out[number] = mine
    return out


_BY_KIND = ".kind"
"""The end of the id of a call made for the kind of value a request asks (``_kind_picks``)."""


def _kind_picks(
    own: Sequence[ToolDefinition],
    requests: Sequence[str],
    picks: Sequence[list[_Pick]],
    calls: Sequence[ToolCall],
    *,
    several: bool,
) -> tuple[list[ToolCall], dict[int, list[str]]]:
    """A call for each request no tool matched that asks with a question word for a kind of
    value (``_credit.asked_kind``: "when's dinner served", "how much is a tune-up"), to the
    agent's one tool that reads and whose name or description tells that kind ("Opening hours
    and meal times", ``_credit.tells``). None when no tool or several tell it, or when the same
    call is already made for another request (its answer is read for this one too). Its answer
    counts only if it answers the request (``_act``)."""
    made = {(c.name, json.dumps(c.arguments, sort_keys=True)) for c in calls}
    out: list[ToolCall] = []
    lacking: dict[int, list[str]] = {}  # the questions for a tool the request gives too little
    for number, text in enumerate(requests):
        kind = asked_kind(text, strong=True)
        if picks[number] or kind is None:
            continue
        telling = [
            t
            for t in own
            if not acting(t)
            and only_reads(t.name, t.description)
            and tells(t.name, t.description, kind)
        ]
        if len(telling) != 1:
            continue
        call = _call(telling[0], text, 0)
        missing = _questions(telling[0], call)
        if missing:
            # "when is the show on?" names no show: asked for, never a call with no value.
            lacking[number] = [q for _, q in missing]
            continue
        if (call.name, json.dumps(call.arguments, sort_keys=True)) in made:
            continue
        suffix = f"{number if several else 0}{_BY_KIND}"
        out.append(
            ToolCall(id=f"call_{call.name}_{suffix}", name=call.name, arguments=call.arguments)
        )
    return out, lacking


def _questions(tool: ToolDefinition, call: ToolCall) -> list[tuple[str, str]]:
    """Each required value ``call`` of ``tool`` lacks, with the question that asks the user for
    it."""
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    return [
        (name, question_for(name, props[name], tool.description, tool=tool.name))
        for name in tool.parameters.get("required", [])
        if name in props and name not in call.arguments
    ]


def _named(
    asked: Sequence[tuple[ToolDefinition, ToolCall, list[tuple[str, str]]]],
) -> list[list[str]]:
    """The questions of each asked call in ``asked``; a question another tool of the same turn
    also asks names its action (``_asking.for_action``: "How much do you want to top up?"),
    so one reply never shows two identical questions for two actions."""
    askers: dict[str, set[str]] = {}
    for tool, _, missing in asked:
        for _, question in missing:
            askers.setdefault(question, set()).add(tool.name)
    return [
        [
            for_action(q, name, tool.name, call.arguments) if len(askers[q]) > 1 else q
            for name, q in missing
        ]
        for tool, call, missing in asked
    ]


def _clause_picks(
    own: Sequence[ToolDefinition], router: Router, text: str, message: str
) -> list[_Pick]:
    """Each clause of the request ``text`` with the tool ``choose`` gives it; a tool is picked
    again only with other arguments ("reset my VPN password and my email password"). A count, a
    date or a time a clause does not name is read from ``message``, all the requests of the
    turn."""
    picks: list[_Pick] = []
    seen: set[str] = set()
    for index, clause in enumerate(split_commands(text)):
        tool = choose(own, router, clause, message)
        if tool is None:
            continue
        key = _key(tool, clause, message)
        if key not in seen:
            seen.add(key)
            picks.append((tool, clause, index, message))
    return picks


def _merged_calls(
    picks: Sequence[list[_Pick]], *, several: bool, router: Router | None = None
) -> tuple[list[ToolCall], dict[int, list[str]]]:
    """Each request's picks as calls, one per distinct tool and arguments in the turn: requests
    whose picks are the same tool with the same arguments share one call, made for each of them
    (its id keeps their indexes). Any other pick of a tool that reads is a call of its own. The
    picks of one tool that changes something are one call whose arguments are read from all
    their clauses ("Two adults" and "a child for Saturday please" buy the tickets once), and a
    change the requests do not give every required value for is not made: with the calls, by
    request index, the questions that ask the user for each value it lacks
    (``_asking.question_for``: "Which animal do you mean?")."""
    merged: dict[str, tuple[_Pick, list[int]]] = {}
    for number, request_picks in enumerate(picks):
        for pick in request_picks:
            tool, text, _, whole = pick
            key = _key(tool, text, whole)
            if acting(tool) and key not in merged:
                # A change picked again with values that do not contradict the first pick's is
                # the same change ("Two adults" and "a child for Saturday please").
                key = next((k for k in merged if _complements(merged[k][0], pick)), key)
            if key not in merged:
                merged[key] = (pick, [number])
            else:
                (first, clause, index, _), numbers = merged[key]
                if text not in clause:
                    clause = f"{clause}, {text}"
                merged[key] = ((first, clause, index, whole), numbers)
                if number not in numbers:
                    numbers.append(number)
    ordered = sorted(merged.values(), key=lambda item: (min(item[1]), item[0][2]))
    calls: list[ToolCall] = []
    asking: dict[int, list[str]] = {}
    made: list[tuple[_Pick, list[int], ToolCall, list[tuple[str, str]]]] = []
    for pick, numbers in ordered:
        tool, text, index, whole = pick
        call = _call(tool, text, index, sorted(numbers) if several else (), whole=whole)
        made.append((pick, numbers, call, _questions(tool, call)))
    # Asked only of a request that asks for what the tool does; else (a tool chosen for a
    # shared word: "when is the next train from St Pancras?" beside ``buy_ticket``) the
    # request is handed back as before, no question. A change the request gives no value at
    # all, beside another tool sharing its words, is no sure choice ("two seats for The Book of
    # Mormon ... please" names nothing ``cancel_seats`` takes).
    asked = [
        (pick, numbers, call, missing)
        for pick, numbers, call, missing in made
        if missing
        and _worth_asking(
            pick[0],
            pick[1],
            pick[3],
            rivals=not call.arguments and _rivals(router, pick[0], pick[1]),
        )
    ]
    worded = _named([(pick[0], call, missing) for pick, _, call, missing in asked])
    for (_, numbers, _, _), questions in zip(asked, worded, strict=True):
        for number in numbers:
            given = asking.setdefault(number, [])
            given.extend(q for q in questions if q not in given)
    for _, numbers, call, missing in made:
        if missing:
            for number in numbers:
                asking.setdefault(number, [])
            continue
        calls.append(call)
    return calls, asking


# A polite request anywhere in a request ("I was charged anyway, can you refund it").
_POLITE = re.compile(r"\b(?:can|could|would|will) you\b|\bplease\b", re.IGNORECASE)


def _rivals(router: Router | None, tool: ToolDefinition, text: str) -> bool:
    """Whether another tool of the agent shares a word with ``text`` beside ``tool``."""
    if router is None:
        return False
    return any(n != tool.name and score > 0 for n, score in router.scores(base_forms(text)))


def _worth_asking(tool: ToolDefinition, text: str, whole: str, *, rivals: bool = False) -> bool:
    """Whether the user is asked for the values ``tool`` lacks for the clause ``text`` of the
    request ``whole``: a change is asked about only when the request asks for it (by its verb,
    ``_actions.asks_for_change`` / ``asks_by_question``, or worded as a request,
    ``_actions.request_form``: "I want a refund for my booking"); a tool that reads when the
    clause is a question or is worded as a request (and so a tool that acts only by its
    description, asked a question: ``_choice.read_by_question``). Not for a statement ("bike
    51877 has a flat tyre" beside a tool of stations)."""
    texts = (text, whole) if whole else (text,)
    if acting(tool) and not read_by_question(tool, text):
        # Only the change the request asks for: worded as a request, it names the tool's action
        # ("I want a refund"); a tool chosen for a shared noun ("two seats in the stalls
        # please" beside ``cancel_seats``) is no sure choice, and the request is handed back.
        said = acting_description(tool)
        return any(
            asks_for_change(t, tool.name, description=said)
            or asks_by_question(t, tool.name, description=said)
            or (request_form(t) and (names_action(t, tool.name, description=said) or not rivals))
            or (_POLITE.search(t) is not None and names_action(t, tool.name, description=said))
            for t in texts
        )
    return is_question(text) or any(request_form(t) for t in texts)


def _asked_or_handed(requests: Sequence[str], asking: Mapping[int, list[str]]) -> list[str]:
    """The open questions of a turn with no call: each request the agent asks the user no
    question about (none worth asking: ``_worth_asking``), handed back. A request it asks
    about is not handed back: its questions reach the user in the agent's message or its
    findings (``_told``, ``RulesModel._outputs``)."""
    return [r for n, r in enumerate(requests) if not asking.get(n) and r not in requests[:n]]


def _answered(messages: Sequence[ChatMessage], context: ActContext) -> str | None:
    """The request a conversational agent holding the floor asked the user about, completed
    with the value the user's message gives (``_answer.join_answer``; with each earlier answer
    to its questions too: "rent a car, answer: 4 days, answer: Monday"); None when the agent
    asked nothing or the message gives no value."""
    if not context.continuing:
        return None
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    if not users:
        return None
    said = [
        (m.role, unmarked(m.content))
        for m in messages[: users[-1]]
        if m.role in ("user", "assistant") and m.content and not m.tool_calls
    ]
    values: list[str] = []
    message = context.scoped_request
    while len(said) >= 2 and said[-2][0] == "user" and said[-1][1].rstrip().endswith("?"):
        (_, text), (_, question) = said[-2], said[-1]
        value = given_value(message, framing=f"{text} {question}".split())
        if value is None:
            return None
        values.insert(0, value)
        said = said[:-2]
        if len(said) < 2 or given_value(text) is None:
            request = text
            for value in values:
                request = join_answer(request, value)
            return request
        message = text
    return None


def _with_answers(context: ActContext) -> ActContext:
    """``context`` with its requests as the model reads them: no typed text carries a mark of an
    answer, and each of ``context.answers`` is joined to the request it completes (to the one
    request of a call that carries one, whatever text it names)."""
    scoped = unmarked(context.scoped_request)
    requests = tuple(unmarked(r) for r in context.requests)
    given = requests
    for answer in context.answers:
        if requests:
            if answer.request not in given:
                continue
            at = given.index(answer.request)
            requests = (
                *requests[:at],
                join_answer(requests[at], answer.value),
                *requests[at + 1 :],
            )
        else:
            scoped = join_answer(scoped, answer.value)
    if requests != given:
        # Numbered again from the requests, as the call's ``scopedRequest`` was made, rather
        # than by finding a request's text in it: one request's text may hold another's.
        scoped = join_requests(requests)
    if scoped == context.scoped_request and requests == context.requests:
        return context
    return replace(context, scoped_request=scoped, requests=requests)


def _restored(response: ModelResponse, working: ActContext, given: ActContext) -> ModelResponse:
    """``response`` with the requests of the ``working`` context named as ``given`` them (the
    scoped request echoed, each ``answeredRequests`` item, a request handed back) and every mark
    of an answer taken out of what it says and passes to tools."""
    names = {working.scoped_request: given.scoped_request}
    names.update(zip(working.requests, given.requests, strict=False))

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, strip_marks(value))
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        return value

    output = response.output
    if isinstance(output, Mapping):
        output = clean(dict(output))
        if SCOPED_REQUEST in output:
            output[SCOPED_REQUEST] = given.scoped_request
    calls = tuple(replace(c, arguments=clean(dict(c.arguments))) for c in response.tool_calls)
    text = None if response.text is None else strip_marks(response.text)
    return replace(response, output=output, tool_calls=calls, text=text)


def _relays(context: ActContext) -> bool:
    """Whether the agent's questions reach the user: in its own message, its findings (a silent
    agent) or its requests' items (a call with several requests)."""
    return context.can_message_user or context.mode == SILENT or bool(context.requests)


def _told(context: ActContext, asking: Mapping[int, list[str]]) -> str:
    """The questions the agent asks the user in its own message: all of them, when it may
    message the user and the call carries one request; "" otherwise (a silent agent's
    questions are findings, and a call with several requests gives each request's questions as
    its item's findings, for the parent to relay)."""
    if not context.can_message_user or context.requests:
        return ""
    return " ".join(dict.fromkeys(q for n in sorted(asking) for q in asking[n]))


def _complements(first: _Pick, other: _Pick) -> bool:
    """Whether ``other`` picks the tool of ``first`` with no argument of a value other than the
    one ``first`` gives it."""
    if first[0].name != other[0].name:
        return False
    one = _call(first[0], first[1], 0, whole=first[3]).arguments
    two = _call(other[0], other[1], 0, whole=other[3]).arguments
    return all(one[name] == value for name, value in two.items() if name in one)


def _key(tool: ToolDefinition, text: str, whole: str = "") -> str:
    """A tool and the arguments ``_call`` gives it for ``text``: calls alike have the same key."""
    return tool.name + json.dumps(_call(tool, text, 0, whole=whole).arguments, sort_keys=True)


def _call(
    tool: ToolDefinition,
    text: str,
    index: int,
    requests: Sequence[int] = (),
    *,
    whole: str = "",
) -> ToolCall:
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    required: Sequence[str] = tool.parameters.get("required", [])
    # Each argument from the part of the request its name asks for (``_arguments.fill``).
    args = fill(props, required, text, tool=tool.name, whole=whole, about=tool.description)
    # A call that carries several requests keeps the indexes of the requests it is made for in
    # its id ("call_x_1.0", "call_x_0+1.0").
    numbers = "+".join(str(n) for n in requests)
    suffix = f"{numbers}.{index}" if any(requests) or len(requests) > 1 else str(index)
    return ToolCall(id=f"call_{tool.name}_{suffix}", name=tool.name, arguments=args)


def _request_indexes(call_id: str | None) -> tuple[int, ...]:
    """The indexes of the requests a tool call was made for (kept in its id by ``_call``)."""
    numbers, dot, _ = (call_id or "").rpartition("_")[2].partition(".")
    found = tuple(int(n) for n in numbers.split("+") if n.isdigit()) if dot else ()
    return found or (0,)


def _parse_tool_result(content: str) -> tuple[str, bool, list[str]]:
    if content.startswith("error:"):
        return "", True, []
    if content.lstrip()[:1] not in ("{", '"'):  # plain text: not worth a failing json.loads
        return content, True, []
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return content, True, []
    if isinstance(data, dict) and "text" in data:
        return (
            str(data["text"]),
            bool(data.get("done", True)),
            [str(q) for q in data.get(OPEN_QUESTIONS, [])],
        )
    if isinstance(data, str):
        return data, True, []
    return content, True, []


def _unmatched(request: ModelRequest, served: set[int]) -> list[str]:
    """Clauses of the scoped request that no tool matches (they become open questions), except
    those of a request the agent's only tool answered when nothing matched (``served``, the
    requests with an answer: ``lone_tool``)."""
    context = request.context
    if not isinstance(context, ActContext) or context.continuing:
        return []
    own = [t for t in request.tools if t.name != _SEND_TOOL]
    clauses = split_commands(context.scoped_request)
    if len(clauses) < 2 or not own:
        return []
    router = tool_router(own)
    unmatched = [c for c in clauses if router.best(base_forms(c), minimum=TOOL_MINIMUM) is None]
    if len(own) > 1 or not unmatched or context.mode == CONVERSATIONAL:
        # A conversational agent's one call is made for the whole scoped request, not for the
        # requests its tool did not match.
        return unmatched
    requests = context.requests or (context.scoped_request,)
    lone = set()
    for number, text in enumerate(requests):
        parts = split_commands(text)
        if number in served and all(p in unmatched for p in parts):
            lone.update(parts)
    return [c for c in unmatched if c not in lone]

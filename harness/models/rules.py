"""The offline default model: deterministic rules, no network, no key.

It does the sub-agents' job an LLM does in this SDK, plainly: it calls the best-matching tool for
each request it is given (between a tool that changes something and one that reads, tied on the
request's words, the one that changes only when the request asks for that change:
``harness.models._actions``); it sends direct answers with the send tool and returns the contract's
outputs, one answer per request when a call carries several. Planning and composing are not a
model's job here: the offline planner is ``harness.planning.RulesPlanner`` and the offline composer
``harness.composing.RulesComposer`` (a ``Parent`` on this model uses both).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from harness.models._actions import acts, asks_for_change, is_question, without_change
from harness.models._text import Router, split_clauses
from harness.models.base import (
    ActContext,
    AgentCard,
    Model,
    ModelRequest,
    ModelResponse,
    ToolCall,
    ToolDefinition,
)
from harness.text._shapes import word_class
from harness.text.words import keyword_texts, words_of_name
from instructions.contract import (
    ANSWERED,
    ANSWERED_REQUESTS,
    CONVERSATIONAL,
    FINDINGS,
    INTERACTION_SUMMARY,
    OPEN_QUESTIONS,
    SCOPED_REQUEST,
    SILENT,
)
from subagents import Usage

__all__ = ["RulesModel"]

_SEND_TOOL = "send_message_to_user"
_TOOL_MINIMUM = 0.5
"""The lowest routing score at which a tool matches a request's clause."""
# A clause that opens with one of these and has no verb of being names a thing ("my email
# password"), not a statement ("the money is for rent").
_DETERMINERS = word_class("my our your his her their the this that these those a an")
_VERBS_OF_BEING = word_class("is are was were am be been being has have had")
_ONE_WORD = 1.5
"""Below this score an agent's lone tool shares one word with a request (each scores 1)."""
_NEAR_TIE = 0.8
"""A tool scoring at least this share of the best tool's score ties with it on words."""


def _card_texts(card: AgentCard) -> list[str]:
    """The agent's name, description and keywords, a name or a tool name read as its words
    (``harness.text.words.keyword_texts``)."""
    keywords = [t for k in card.keywords for t in keyword_texts(k)]
    return [words_of_name(card.name), card.description, *keywords]


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
        tool_results = [m for m in request.messages if m.role == "tool"]
        usage = Usage(requests=1)
        if not tool_results or (request.messages and request.messages[-1].role == "user"):
            calls = self._pick_tools(request.tools, context)
            if calls:
                return ModelResponse(tool_calls=tuple(calls), usage=usage, model=self.name)
            return ModelResponse(
                output=self._outputs(
                    context, texts=[], done=False, open_q=[context.scoped_request], per={}
                ),
                usage=usage,
                model=self.name,
            )
        texts: list[str] = []
        open_q: list[str] = []
        per: dict[int, list[str]] = {}  # the answers of each request, by its index
        done = True
        sent = any(m.name == _SEND_TOOL for m in tool_results)
        for message in tool_results:
            if message.name == _SEND_TOOL:
                continue
            text, item_done, item_open = _parse_tool_result(message.content or "")
            if text:
                texts.append(text)
                if item_done:
                    per.setdefault(_request_index(message.tool_call_id), []).append(text)
            done = done and item_done
            open_q.extend(item_open)
        for pending in _unmatched(request):
            open_q.append(pending)
        reply = " ".join(texts).strip()
        if context.can_message_user and reply and not sent:
            call = ToolCall(
                id=f"call_send_{len(tool_results)}", name=_SEND_TOOL, arguments={"text": reply}
            )
            return ModelResponse(tool_calls=(call,), usage=usage, model=self.name)
        return ModelResponse(
            output=self._outputs(context, texts=texts, done=done, open_q=open_q, per=per),
            usage=usage,
            model=self.name,
        )

    def _pick_tools(self, tools: Sequence[ToolDefinition], context: ActContext) -> list[ToolCall]:
        own = [t for t in tools if t.name != _SEND_TOOL]
        if not own:
            return []
        if context.continuing or (len(own) == 1 and context.mode == CONVERSATIONAL):
            return [_call(own[0], context.scoped_request, 0)]
        router = _tool_router(own)
        calls: list[ToolCall] = []
        # Each request gets its own tool call (a call that carries several requests numbers them,
        # and the call id keeps the request's index); each clause of one request gets its tool,
        # and within a request a tool is called again only with other arguments ("reset my VPN
        # password and my email password"), never twice alike.
        requests = context.requests or (context.scoped_request,)
        # A tool that changes something runs once for a message unless a later clause asks for
        # its change again ("block my card, I lost it" blocks the card once; the planner may send
        # the reason on as a request of its own) or names only another thing for it ("reset my
        # VPN password and my email password").
        acted: set[str] = set()
        for number, text in enumerate(requests):
            chosen: set[str] = set()
            found: list[ToolCall] = []
            for index, clause in enumerate(split_clauses(text)):
                tool = _choose(own, router, clause)
                if tool is None:
                    continue
                call = _call(tool, clause, index, number if context.requests else 0)
                key = tool.name + json.dumps(call.arguments, sort_keys=True)
                if key in chosen:
                    continue
                if acts(tool.name, tool.description):
                    if tool.name in acted and not _asks_again(tool, clause):
                        continue
                    acted.add(tool.name)
                chosen.add(key)
                found.append(call)
            calls.extend(found)
        if not calls and len(own) == 1:
            # Nothing matched by its words: an agent with one tool uses it for each request
            # (a request another of the call's requests matched is left open instead), but a
            # tool that changes something not for a question that does not ask for its change
            # ("can I bring my dog on the train?" logs no lost-property report).
            tool = own[0]
            for number, text in enumerate(requests):
                if (
                    acts(tool.name, tool.description)
                    and is_question(text)
                    and not asks_for_change(text, tool.name, tool.description)
                ):
                    continue
                calls.append(_call(tool, text, 0, number if context.requests else 0))
        return calls

    def _outputs(
        self,
        context: ActContext,
        *,
        texts: list[str],
        done: bool,
        open_q: list[str],
        per: Mapping[int, list[str]],
    ) -> dict[str, Any]:
        text = " ".join(texts).strip()
        silent = context.mode == SILENT
        answers = [
            {
                "request": item,
                ANSWERED: bool(per.get(number)) and not silent,
                FINDINGS: " ".join(per.get(number, ())) if silent else "",
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


def _call(tool: ToolDefinition, text: str, index: int, request: int = 0) -> ToolCall:
    props: Mapping[str, Any] = tool.parameters.get("properties", {})
    required: Sequence[str] = tool.parameters.get("required", [])
    args: dict[str, Any] = {}
    for name, schema in props.items():
        wanted = name in required or name in ("request", "query", "text", "question", "message")
        if wanted and schema.get("type", "string") == "string":
            args[name] = text
    # A call that carries several requests keeps the request's index in the id ("call_x_1.0").
    suffix = f"{request}.{index}" if request else str(index)
    return ToolCall(id=f"call_{tool.name}_{suffix}", name=tool.name, arguments=args)


def _request_index(call_id: str | None) -> int:
    """The index of the request a tool call was made for (kept in its id by ``_call``)."""
    number, dot, _ = (call_id or "").rpartition("_")[2].partition(".")
    return int(number) if dot and number.isdigit() else 0


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


def _unmatched(request: ModelRequest) -> list[str]:
    """Clauses of the scoped request that no tool matches (they become open questions)."""
    context = request.context
    if not isinstance(context, ActContext) or context.continuing:
        return []
    own = [t for t in request.tools if t.name != _SEND_TOOL]
    clauses = split_clauses(context.scoped_request)
    if len(clauses) < 2 or not own:
        return []
    router = _tool_router(own)
    return [c for c in clauses if _choose(own, router, c) is None]


def _choose(tools: Sequence[ToolDefinition], router: Router, text: str) -> ToolDefinition | None:
    """The best-matching tool for ``text`` (``Router.best``), except between a tool that changes
    something and one that reads that tie on its words (``_NEAR_TIE``): the one that changes when
    ``text`` asks for that change (``_actions.asks_for_change``), else the one that reads ("what
    seat am I in?" between ``change_seat`` and ``current_seat``). The words of a change the request
    does not ask for are not counted for the tie ("is my ticket still open?": ``ticket_status``).
    An agent's lone tool that changes something is not matched by a question that does not ask
    for its change and shares one word with it ("can I bring my dog on the train?" and
    ``report_lost_item``, by "train" alone). None when nothing matches.
    """
    ranked = [(name, score) for name, score in router.scores(text) if score >= _TOOL_MINIMUM]
    if not ranked:
        return None
    by_name = {t.name: t for t in tools}
    best, top = by_name[ranked[0][0]], ranked[0][1]
    if not acts(best.name, best.description):
        for name, score in ranked[1:]:
            tool = by_name[name]
            if score < _NEAR_TIE * top:
                break
            if asks_for_change(text, tool.name, tool.description):
                return tool
        return best
    if asks_for_change(text, best.name, best.description):
        return best
    if len(tools) == 1:
        # With one tool every shared word scores 1 (``Router``): a question that shares a single
        # word with it ("train") is not matched by its words, and the fallback below decides.
        return None if is_question(text) and top < _ONE_WORD else best
    reading = [by_name[name] for name, _ in ranked[1:]]
    reading = [t for t in reading if not acts(t.name, t.description)]
    if not reading:
        return best
    plain = dict(router.scores(without_change(text, best.name, best.description)))
    for tool in sorted(reading, key=lambda t: -plain[t.name]):
        if plain[tool.name] > 0 and plain[tool.name] >= _NEAR_TIE * plain[best.name]:
            return tool
    return best


def _asks_again(tool: ToolDefinition, clause: str) -> bool:
    """Whether ``clause`` asks a tool that changes something, already called for the message, to
    run again: it asks for the change itself, or it is only another thing for the change, with
    no verb of its own ("and my email password")."""
    if asks_for_change(clause, tool.name, tool.description):
        return True
    words = clause.lower().split()
    return bool(words) and words[0] in _DETERMINERS and not _VERBS_OF_BEING.intersection(words)


def _tool_router(tools: Sequence[ToolDefinition]) -> Router:
    return _cached_tool_router(tuple((t.name, t.description, t.keywords) for t in tools))


@functools.lru_cache(maxsize=256)
def _cached_tool_router(tools: tuple[tuple[str, str, tuple[str, ...]], ...]) -> Router:
    return Router(
        [(name, [name.replace("_", " "), desc, *words], ()) for name, desc, words in tools]
    )


@functools.lru_cache(maxsize=64)
def agent_router(agents: tuple[AgentCard, ...]) -> Router:
    """The router over sub-agents' words (the offline planner routes requests with it too)."""
    return Router([(a.name, _card_texts(a), a.examples) for a in agents])

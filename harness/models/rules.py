"""The offline default model: deterministic rules, no network, no key.

It does the sub-agents' job an LLM does in this SDK, plainly: it calls the best-matching tool for
each request it is given (when that tool changes something and the request does not ask for the
change, a tool that reads if the request only names the change or the two tie on its words, or
none: ``harness.models._actions``); it sends direct answers with the send tool and returns the contract's
outputs, one answer per request when a call carries several. Planning and composing are not a
model's job here: the offline planner is ``harness.planning.RulesPlanner`` and the offline composer
``harness.composing.RulesComposer`` (a ``Parent`` on this model uses both).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from harness.models._actions import acts, asks_for_change, mentions_change
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
_NO_TOOL_SUMMARY = "No tool called: none of this agent's tools does what was asked."
"""The interaction summary of a direct or conversational agent that called no tool."""
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
            out = self._outputs(
                context, texts=[], done=False, open_q=[context.scoped_request], per={}
            )
            if INTERACTION_SUMMARY in out:
                # Nothing was said to the user: the summary says so, and the request is handed
                # back as an open question (the contract wants a summary that is not empty).
                out[INTERACTION_SUMMARY] = _NO_TOOL_SUMMARY
            return ModelResponse(output=out, usage=usage, model=self.name)
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
            named = acts(own[0].name) and mentions_change(context.scoped_request, own[0].name)
            if named and not context.continuing:
                return []  # a change the request only names is not made (``_actions``)
            return [_call(own[0], context.scoped_request, 0)]
        router = _tool_router(own)
        calls: list[ToolCall] = []
        # Each request gets its own tool call (a call that carries several requests numbers them,
        # and the call id keeps the request's index); each clause of one request gets its tool,
        # and within a request a tool is called again only with other arguments ("reset my VPN
        # password and my email password"), never twice alike.
        requests = context.requests or (context.scoped_request,)
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
                chosen.add(key)
                found.append(call)
            calls.extend(found)
        if not calls and len(own) == 1:
            # Nothing matched by its words: an agent with one tool uses it for each request
            # (a request another of the call's requests matched is left open instead), but not
            # for a request that names the tool's change without asking for it.
            for number, text in enumerate(requests):
                if acts(own[0].name) and mentions_change(text, own[0].name):
                    continue
                calls.append(_call(own[0], text, 0, number if context.requests else 0))
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
    return [c for c in clauses if router.best(c, minimum=_TOOL_MINIMUM) is None]


def _choose(tools: Sequence[ToolDefinition], router: Router, text: str) -> ToolDefinition | None:
    """The best-matching tool for ``text`` (``Router.best``), except when it changes something
    (``_actions.acts``) and ``text`` does not ask for that change (``_actions.asks_for_change``):

    - ``text`` names the change without asking for it (``_actions.mentions_change``: "is my ticket
      still open?", "did you freeze my membership?", "someone renewed my loan"): the best tool
      that reads and shares a word with ``text``, or None (nothing is changed; the agent hands
      the request back);
    - a tool that reads ties with it on words (``_NEAR_TIE``): the best such tool ("what seat am
      I in?" between ``change_seat`` and ``current_seat``).

    None when nothing matches."""
    scores = router.scores(text)
    ranked = [(name, score) for name, score in scores if score >= _TOOL_MINIMUM]
    if not ranked:
        return None
    by_name = {t.name: t for t in tools}
    best, top = by_name[ranked[0][0]], ranked[0][1]
    if not acts(best.name) or asks_for_change(text, best.name):
        return best
    if mentions_change(text, best.name):
        return next((by_name[n] for n, score in scores if score > 0 and not acts(n)), None)
    for name, score in ranked[1:]:
        if score < _NEAR_TIE * top:
            break
        if not acts(name):
            return by_name[name]
    return best


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

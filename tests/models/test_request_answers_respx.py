"""Per-request answers with an OpenAI backend mocked by respx: a sub-agent given two requests in
one call answers one itself and hands the other back in ``answeredRequests``.

The backend below answers as a model following the generated instructions would; the tests check
what the SDK sends it (the numbered requests, the schema that requires ``answeredRequests``, the
per-request results in the parent's reply request) and what reaches the user.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import respx

from harness import ChildAgent, Mode, Parent
from harness.composing import RulesComposer
from harness.models.openai import OpenAIModel
from tests.core.test_request_answers import PAYDAY, REQUESTS, W2, FixedPlanner
from tests.models.fake_openai import caller_of, completion, message, schema_of, tool_call

URL = "https://api.openai.com/v1/chat/completions"
SEND = "send_message_to_user"
PARENT_REPLY = f"About your W-2: {W2}"


def _backend(seen: list[dict[str, Any]]) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        caller = caller_of(body)
        if caller == "reply":
            return httpx.Response(
                200, json=completion(message({"message": PARENT_REPLY, "route": []}))
            )
        sent = any(m["role"] == "tool" for m in body["messages"])
        if not sent:  # first step: tell the user the payday, with the send tool
            return httpx.Response(
                200, json=completion(message(tool_calls=[tool_call(SEND, {"text": PAYDAY})]))
            )
        outputs = {
            "answered": False,
            "interactionSummary": PAYDAY,
            "openQuestions": [],
            "answeredRequests": [
                {"request": REQUESTS[0], "answered": True, "findings": ""},
                {"request": REQUESTS[1], "answered": False, "findings": W2},
            ],
        }
        return httpx.Response(200, json=completion(message(outputs)))

    return answer


def _bot(model: OpenAIModel, **options: Any) -> Parent:
    """The helpdesk, its payroll agent on ``model``; ``options`` go to the parent."""
    payroll = ChildAgent(
        name="payroll",
        mode=Mode.DIRECT,
        description="Pay dates and tax forms.",
        model=model,
    )
    return Parent(
        name="helpdesk",
        model=model,
        subagents=[payroll],
        planner=FixedPlanner(*((r, "payroll") for r in REQUESTS)),
        **options,
    )


async def test_the_sub_agent_is_asked_for_each_request_and_the_offline_composer_relays_one(
    httpx2_mock: respx.Router,
) -> None:
    seen: list[dict[str, Any]] = []
    httpx2_mock.post(URL).mock(side_effect=_backend(seen))
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test")
    bot = _bot(model, composer=RulesComposer())
    turn = await bot.conversation().send("when is payday and where is my W-2")
    await bot.aclose()
    first = seen[0]
    assert caller_of(first) == "payroll_outputs"
    schema = schema_of(first)
    assert schema is not None and "answeredRequests" in schema["required"]
    given = json.loads(first["messages"][-1]["content"])
    assert given["scopedRequest"] == "(1) when is payday; (2) where is my W-2"
    assert "answeredRequests" in first["messages"][0]["content"]  # the generated instructions
    assert [(m.sender, m.text) for m in turn.messages] == [("payroll", PAYDAY), ("helpdesk", W2)]
    assert len(seen) == 2  # the sub-agent's two steps; the reply was composed offline


async def test_the_llm_composer_is_shown_each_request_and_whether_it_was_answered(
    httpx2_mock: respx.Router,
) -> None:
    seen: list[dict[str, Any]] = []
    httpx2_mock.post(URL).mock(side_effect=_backend(seen))
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test")
    bot = _bot(model)
    turn = await bot.conversation().send("when is payday and where is my W-2")
    await bot.aclose()
    [reply] = [body for body in seen if caller_of(body) == "reply"]
    payload = json.loads(reply["messages"][-1]["content"].split("\n", 1)[1])
    [result] = payload["results"]
    assert result["answeredRequests"] == [
        {"request": REQUESTS[0], "answered": True, "findings": ""},
        {"request": REQUESTS[1], "answered": False, "findings": W2},
    ]
    assert "`answeredRequests`" in reply["messages"][0]["content"]  # the top-level instruction
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("payroll", PAYDAY),
        ("helpdesk", PARENT_REPLY),
    ]

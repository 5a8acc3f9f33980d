"""An LLM sub-agent (OpenAI backend mocked by respx) asks the user for a value; the user's next
message gives it, and the sub-agent receives it as data, ``userAnswers`` beside its
``scopedRequest``, which stays the user's request. A seed library, written for this test."""

from __future__ import annotations

import json
from typing import Any

import httpx
import respx

from harness import ChildAgent, Mode, Parent
from harness.composing import RulesComposer
from harness.models.openai import OpenAIModel
from harness.planning import RulesPlanner
from tests.models.fake_openai import caller_of, completion, message, tool_call

URL = "https://api.openai.com/v1/chat/completions"
SEND = "send_message_to_user"
QUESTION = "How many seed packets would you like to borrow?"


def _backend(seen: list[dict[str, Any]]) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        assert caller_of(body) == "seeds_outputs"
        last = body["messages"][-1]
        if last["role"] == "user":
            given = json.loads(last["content"])
            answers = given.get("userAnswers", [])
            text = f"Booked {answers[0]['value']} packets." if answers else QUESTION
            return httpx.Response(
                200, json=completion(message(tool_calls=[tool_call(SEND, {"text": text})]))
            )
        said = [m for m in body["messages"] if m["role"] == "assistant"][-1]
        text = json.loads(said["tool_calls"][0]["function"]["arguments"])["text"]
        outputs = {"answered": text != QUESTION, "interactionSummary": text, "openQuestions": []}
        return httpx.Response(200, json=completion(message(outputs)))

    return answer


async def test_the_llm_sub_agent_receives_the_answer_beside_the_request(
    httpx2_mock: respx.Router,
) -> None:
    seen: list[dict[str, Any]] = []
    httpx2_mock.post(URL).mock(side_effect=_backend(seen))
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test")
    seeds = ChildAgent(
        name="seeds",
        mode=Mode.DIRECT,
        description="Lends seed packets from the community seed library.",
        model=model,
    )
    bot = Parent(
        name="library",
        model=model,
        subagents=[seeds],
        planner=RulesPlanner(),
        composer=RulesComposer(),
    )
    chat = bot.conversation()
    first = await chat.send("borrow seed packets from the seed library")
    second = await chat.send("4")
    await bot.aclose()
    assert [m.text for m in first.messages] == [QUESTION]
    assert [m.text for m in second.messages] == ["Booked 4 packets."]
    given = json.loads(seen[2]["messages"][-1]["content"])
    request = "borrow seed packets from the seed library"
    assert given["scopedRequest"] == request
    assert given["userAnswers"] == [{"request": request, "question": QUESTION, "value": "4"}]
    assert "answer:" not in json.dumps(seen)

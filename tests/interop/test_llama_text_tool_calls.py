"""Tool calls a real server writes as text are read as calls (part of ``make interop``).

llama-cpp-python's server with Qwen2.5-Coder-1.5B-Instruct and the model's own chat template
(no ``--chat_format``) answers ``tool_choice: auto`` with the call written as JSON text in
``content``; only a forced ``tool_choice`` gives a real ``tool_calls`` entry. The OpenAI backend
must read the text as a call (``text_tool_calls``, on by default) and still get the forced one.

The server and the model are installed by ``python -m tests.llm.qwen`` (``make interop`` and
``make eval-llm`` run it; 1.1 GB). Without them the tests are skipped with the reason;
``make interop`` sets ``HARNESS_REQUIRE_LLAMA=1``, which turns the skip into a failure. CI's
``make test`` does not install the model, so there they are skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from harness.models import ChatMessage, ModelRequest, ToolDefinition
from harness.models.openai import OpenAIModel
from tests.llm import qwen
from tests.llm.server import LlamaServer

NEXT_PAYDAY = ToolDefinition(
    name="next_payday",
    description="When the next paycheck (payday) arrives: the date you get paid next.",
    parameters={"type": "object", "properties": {}, "required": []},
)
PTO_BALANCE = ToolDefinition(
    name="pto_balance",
    description="How many paid time off (vacation) days are left this year.",
    parameters={"type": "object", "properties": {}, "required": []},
)
REQUEST = ModelRequest(
    agent="payroll",
    system="You are the payroll assistant of Contoso. Use the tools to answer.",
    messages=(ChatMessage(role="user", content="When is my next payday?"),),
    tools=(NEXT_PAYDAY, PTO_BALANCE),
)
SETTINGS = {"temperature": 0, "seed": 42, "max_tokens": 128, "timeout": 1800, "max_retries": 0}
"""Repeatable answers; a long timeout for 2 shared cores; no retry (a retried request would be
queued behind the one the client gave up on)."""


@pytest.fixture(scope="module")
def llama_url() -> Iterator[str]:
    missing = qwen.installed()
    if missing is not None:
        reason = f"{missing}; run `python -m tests.llm.qwen` (1.1 GB)"
        if os.environ.get("HARNESS_REQUIRE_LLAMA") == "1":
            pytest.fail(f"{reason} (HARNESS_REQUIRE_LLAMA=1 requires the llama-cpp test to run)")
        pytest.skip(reason)
    server = LlamaServer(qwen.venv_python(), qwen.MODEL, qwen.WORK / "interop-server.log")
    with server:
        yield f"{server.url}/v1"


async def ask(url: str, **settings: object) -> tuple[str | None, list[str]]:
    model = OpenAIModel(qwen.MODEL.stem, base_url=url, settings={**SETTINGS, **settings})
    try:
        response = await model.request(REQUEST)
    finally:
        await model.aclose()
    return response.text, [call.name for call in response.tool_calls]


async def test_a_call_written_as_text_is_read_as_a_call(llama_url: str) -> None:
    # What the server sent: with the reading off, the call stays the text it was written as.
    text, calls = await ask(llama_url, text_tool_calls=False)
    assert calls == []
    assert text is not None and "next_payday" in text
    # The same request (temperature 0, same seed) with the reading on: a call, and no text.
    text, calls = await ask(llama_url)
    assert calls == ["next_payday"]
    assert text is None


async def test_a_forced_tool_choice_gives_the_call(llama_url: str) -> None:
    _, calls = await ask(llama_url, tool_choice="pto_balance")
    assert calls == ["pto_balance"]

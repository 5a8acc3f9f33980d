"""Tool calls a server wrote as text in ``content`` (llama.cpp with a model's own chat template) are
read as calls when they name an offered tool; anything else stays text. Opt-out by a setting."""

from __future__ import annotations

import json

import pytest

from harness.models import ToolCall
from harness.models._text_calls import read_text_tool_calls
from harness.models.openai import OpenAIModel
from tests.models._requests import OUTPUTS, act_request
from tests.models.fake_openai import FakeOpenAI, message

TOOLS = {"lookup", "payroll_outputs"}


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # Qwen2.5's form, one and two calls.
        ('<tool_call>\n{"name": "lookup", "arguments": {"q": "payday"}}\n</tool_call>',
         [("lookup", {"q": "payday"})]),
        ('<tool_call>{"name": "lookup", "arguments": {"q": "a"}}</tool_call>\n'
         '<tool_call>{"name": "lookup", "arguments": {"q": "b"}}</tool_call>',
         [("lookup", {"q": "a"}), ("lookup", {"q": "b"})]),
        # A bare object, "parameters" for "arguments", a list, a fenced block, the wire form.
        ('{"name": "lookup", "parameters": {"q": "x"}}', [("lookup", {"q": "x"})]),
        ('[{"name": "lookup", "arguments": {}}]', [("lookup", {})]),
        ('```json\n{"name": "lookup", "arguments": {"q": "x"}}\n```', [("lookup", {"q": "x"})]),
        ('{"type": "function", "function": {"name": "lookup", "arguments": "{\\"q\\": \\"x\\"}"}}',
         [("lookup", {"q": "x"})]),
    ],
)  # fmt: skip
def test_calls_written_as_text_are_read(content: str, expected: list[object]) -> None:
    assert read_text_tool_calls(content, TOOLS) == expected


@pytest.mark.parametrize(
    "content",
    [
        "Your next payday is Friday. I used the lookup tool.",  # prose naming a tool
        '{"name": "Dana", "arguments": {}}',  # not an offered tool
        '{"name": "lookup", "arguments": {"q": "x"}, "answered": true}',  # more than a call
        'Sure: <tool_call>{"name": "lookup", "arguments": {}}</tool_call>',  # prose around it
        '{"name": "lookup", "arguments": ["q"]}',  # arguments not an object
        '{"name": "lookup", "arguments": {"q": ',  # cut off
        "[" * 5000 + "]" * 5000,  # deep nesting is not a call, and no crash
        "",
    ],
)
def test_anything_else_stays_text(content: str) -> None:
    assert read_text_tool_calls(content, TOOLS) is None


def test_no_tools_offered_means_no_calls() -> None:
    assert read_text_tool_calls('{"name": "lookup", "arguments": {}}', ()) is None


async def test_the_backend_runs_a_tool_call_written_as_text(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(
        '<tool_call>\n{"name": "lookup", "arguments": {"q": "payday"}}\n</tool_call>'
    )
    model = OpenAIModel("qwen", base_url=fake.url, settings={"output_mode": "tools"})
    response = await model.request(act_request())
    await model.aclose()
    assert response.tool_calls == (
        ToolCall(id=response.tool_calls[0].id, name="lookup", arguments={"q": "payday"}),
    )
    assert response.text is None and response.output is None


async def test_an_answer_written_as_a_text_call_is_the_answer(fake: FakeOpenAI) -> None:
    """In ``tools`` mode the structured answer is itself a function; written as text it is still
    the answer, not a tool call."""
    call = {"name": "payroll_outputs", "arguments": OUTPUTS}
    fake.responder = lambda body: message(json.dumps(call))
    model = OpenAIModel("qwen", base_url=fake.url, settings={"output_mode": "tools"})
    response = await model.request(act_request())
    await model.aclose()
    assert response.tool_calls == ()
    assert response.output == OUTPUTS


async def test_the_setting_turns_the_reading_off(fake: FakeOpenAI) -> None:
    text = '{"name": "lookup", "arguments": {"q": "payday"}}'
    fake.responder = lambda body: message(text)
    model = OpenAIModel("qwen", base_url=fake.url, settings={"text_tool_calls": False})
    response = await model.request(act_request(output_schema=None, output_name=None))
    await model.aclose()
    assert response.tool_calls == ()
    assert response.text == text

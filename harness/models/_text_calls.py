"""Tool calls a server wrote as text: read them as calls.

Some OpenAI-compatible servers return a model's tool call in the message's ``content`` instead of
``tool_calls``: llama.cpp's server with a model's own chat template answers ``tool_choice: auto``
this way (Qwen2.5 writes ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``; others write
the bare JSON object, or a list of them, sometimes in a Markdown code fence). The OpenAI backend
reads such text as calls when the request offered tools and the text names one of them, so a bot
on such a server still runs its tools. ``ModelSettings(text_tool_calls=False)`` turns this off.

Only a text that is nothing but calls is read as calls: a reply that merely mentions a tool's name
in prose, or JSON whose ``name`` is not an offered tool, stays text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

__all__ = ["TextToolCall", "read_text_tool_calls"]

TextToolCall = tuple[str, dict[str, Any]]
"""A tool's name and its arguments."""

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
_FENCE = re.compile(r"\A```(?:json|tool_call)?[ \t]*\n(.*)\n```\Z", re.DOTALL)
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")


def read_text_tool_calls(content: str | None, tools: Collection[str]) -> list[TextToolCall] | None:
    """The tool calls ``content`` consists of, or None when it is not (only) tool calls.

    Args:
        content: the message's text.
        tools: the names of the tools the request offered; a call to any other name is not one.
    """
    if not content or not tools:
        return None
    text = content.strip()
    tagged = _TAGGED.findall(text)
    if tagged:
        # Everything outside the tags must be white space: no prose around the calls.
        if _TAGGED.sub("", text).strip():
            return None
        bodies = tagged
    else:
        fenced = _FENCE.match(text)
        bodies = [fenced.group(1).strip() if fenced else text]
    calls: list[TextToolCall] = []
    for body in bodies:
        found = _calls_in(body, tools)
        if found is None:
            return None
        calls.extend(found)
    return calls or None


def _calls_in(body: str, tools: Collection[str]) -> list[TextToolCall] | None:
    if not body.startswith(("{", "[")):
        return None
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, RecursionError):
        return None
    items = data if isinstance(data, list) else [data]
    calls = []
    for item in items:
        call = _call(item, tools)
        if call is None:
            return None
        calls.append(call)
    return calls


def _call(item: Any, tools: Collection[str]) -> TextToolCall | None:
    if not isinstance(item, dict):
        return None
    # The OpenAI wire shape, written out as text: {"type": "function", "function": {...}}.
    function = item.get("function")
    if isinstance(function, dict):
        item = function
    name = item.get("name")
    if not isinstance(name, str) or name not in tools:
        return None
    if set(item) - {"name", "type", "id", *_ARGUMENT_KEYS}:
        return None  # more than a call: an answer that happens to have a "name"
    arguments: Any = {}
    for key in _ARGUMENT_KEYS:
        if key in item:
            arguments = item[key]
            break
    if isinstance(arguments, str):  # the OpenAI wire form: arguments as a JSON string
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (json.JSONDecodeError, RecursionError):
            return None
    if not isinstance(arguments, dict):
        return None
    return name, arguments

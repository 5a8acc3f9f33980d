"""What one chat-completions attempt sends, given the request, the output mode and the settings.

Kept apart from ``openai.py`` (which owns the client, the retries, the fallbacks and the parsing)
so that the whole mapping from a ``ModelRequest`` to the request body reads in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.models._wire import (
    chat_messages,
    output_tool,
    response_format,
    schema_instruction,
    schema_name,
    tool_params,
)
from harness.models.base import ModelRequest
from harness.models.settings import ModelSettings, OutputMode

__all__ = ["repair_prompt", "request_params"]

_CHOICES = ("auto", "required", "none")


def _tool_choice(
    request: ModelRequest,
    schema: Mapping[str, Any] | None,
    mode: OutputMode,
    settings: ModelSettings,
    names: set[str],
) -> Any:
    if mode == "tools" and schema is not None and not request.tools:
        choice = schema_name(request)  # the answer function is the only tool: force it
    elif mode == "tools" and schema is not None:
        choice = settings.tool_choice or "required"  # a real tool, or the answer function
    else:
        choice = settings.tool_choice or "auto"
    if choice in _CHOICES:
        return choice
    # A forced function is sent only to the requests that have it.
    return {"type": "function", "function": {"name": choice}} if choice in names else "auto"


def request_params(
    request: ModelRequest,
    schema: Mapping[str, Any] | None,
    mode: OutputMode,
    repair: list[dict[str, Any]],
    settings: ModelSettings,
    *,
    null_content: bool,
) -> dict[str, Any]:
    """The keyword arguments of ``chat.completions.create`` (without ``model`` and ``timeout``).

    Args:
        request: the request.
        schema: its output schema as sent (with the agent-name enum), or None.
        mode: the output mode in use.
        repair: the bad answer and the repair message, for a repair attempt.
        settings: the model's settings; unset ones are not sent.
        null_content: send ``content: null`` (else ``""``) on tool-calling assistant messages.
    """
    system = request.system
    tools = tool_params(request.tools) if request.tools else []
    params: dict[str, Any] = {}
    if schema is not None:
        if mode != "json_schema":
            system += schema_instruction(request, schema, mode)
        if mode == "tools":
            tools.append(output_tool(request, schema))
        fmt = response_format(request, mode, schema)
        if fmt is not None:
            params["response_format"] = fmt
    messages = chat_messages(system, request.messages, null_content=null_content)
    params["messages"] = messages + repair
    if tools:
        params["tools"] = tools
        names = {tool["function"]["name"] for tool in tools}
        params["tool_choice"] = _tool_choice(request, schema, mode, settings, names)
        if settings.parallel_tool_calls is not None:
            params["parallel_tool_calls"] = settings.parallel_tool_calls
    for key in ("temperature", "seed", "max_tokens", "top_p"):
        value = getattr(settings, key)
        if value is not None:
            params[key] = value
    if settings.extra_body:
        params["extra_body"] = dict(settings.extra_body)
    if settings.extra_headers:
        params["extra_headers"] = dict(settings.extra_headers)
    return params


def repair_prompt(request: ModelRequest, reason: str, *, kind: str, mode: OutputMode) -> str:
    """The message that sends an unusable answer back, saying why."""
    if kind == "tool":
        return (
            f"Your last tool call could not be used: {reason}. Call the tool again with its "
            "arguments as one valid JSON object."
        )
    name = schema_name(request)
    how = f"call the `{name}` function with" if mode == "tools" else "answer again with only"
    return (
        f"Your last answer could not be used: {reason}. Please {how} a JSON object that matches "
        f"the `{name}` schema: every required field, with the right types, and no other fields."
    )

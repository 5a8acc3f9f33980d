"""Chat-completions wire format: ``ModelRequest`` to request JSON, and checks of what comes back.

Kept apart from ``openai.py`` because it needs no SDK: the cassettes of ``replay.py`` and the tests
use the same normalisation, and structured outputs are validated here against their JSON schema
(with ``jsonschema`` when it is installed, else with a small checker for the strict-mode subset
this SDK's schemas use: objects, required keys, no extra keys, and the basic types).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness.models.base import (
    ChatMessage,
    ModelRequest,
    ToolCall,
    ToolDefinition,
)

__all__ = [
    "PRICES",
    "canonical_json",
    "chat_messages",
    "estimate_cost",
    "loads_checked",
    "loads_lenient",
    "output_tool",
    "response_format",
    "schema_errors",
    "schema_instruction",
    "schema_name",
    "tool_params",
    "with_missing_nulls",
]

PRICES: Mapping[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
}
"""List prices in USD per 1M tokens (input, output), without cached-input or batch discounts."""

_SNAPSHOT = re.compile(r"-\d{4}-\d{2}-\d{2}$")
_NAME = re.compile(r"[^A-Za-z0-9_-]")


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the same text for the same value on any Python."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def estimate_cost(
    models: Sequence[str],
    input_tokens: int,
    output_tokens: int,
    prices: Mapping[str, tuple[float, float]],
) -> float | None:
    """Estimated cost in USD, from the first of ``models`` with a known price; None if none has.

    A dated snapshot (``gpt-4o-mini-2024-07-18``) is priced as its model (``gpt-4o-mini``).
    """
    for name in models:
        if not name:
            continue
        price = prices.get(name) or prices.get(_SNAPSHOT.sub("", name))
        if price is not None:
            return (input_tokens * price[0] + output_tokens * price[1]) / 1_000_000
    return None


def _tool_call_json(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": json.dumps(dict(call.arguments))},
    }


def chat_messages(
    system: str, messages: Sequence[ChatMessage], *, null_content: bool = True
) -> list[dict[str, Any]]:
    """The ``messages`` array: the system prompt, then each ``ChatMessage``.

    An assistant message that only calls tools has ``content: null`` (the OpenAI form), or ``""``
    with ``null_content=False`` for servers that reject ``null``.
    """
    out: list[dict[str, Any]] = []
    if system:
        out.append({"role": "system", "content": system})
    for message in messages:
        if message.role == "tool":
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": message.tool_call_id or "",
                    "content": message.content or "",
                }
            )
        elif message.role == "assistant":
            content = message.content
            if content is None and not null_content:
                content = ""
            item: dict[str, Any] = {"role": "assistant", "content": content}
            if message.tool_calls:
                item["tool_calls"] = [_tool_call_json(c) for c in message.tool_calls]
            elif message.content is None:
                item["content"] = ""
            out.append(item)
        else:
            out.append({"role": "user", "content": message.content or ""})
    return out


def tool_params(tools: Sequence[ToolDefinition]) -> list[dict[str, Any]]:
    """The ``tools`` array (function tools, non-strict: tool schemas come from user code)."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": dict(tool.parameters) or {"type": "object", "properties": {}},
                "strict": False,
            },
        }
        for tool in tools
    ]


def schema_name(request: ModelRequest) -> str:
    """A ``json_schema.name`` OpenAI accepts (letters, digits, ``_``, ``-``; at most 64)."""
    return _NAME.sub("_", request.output_name or "output")[:64]


def response_format(
    request: ModelRequest,
    mode: str = "json_schema",
    schema: Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """``response_format`` for a request with an output schema, in an output mode.

    ``json_schema``: strict structured outputs. ``json_object``: JSON mode, with the schema under
    ``schema`` (llama.cpp turns it into a grammar; OpenAI reads the schema from the prompt).
    ``tools`` and ``prompt`` send none.
    """
    schema = request.output_schema if schema is None else schema
    if schema is None:
        return None
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": schema_name(request), "schema": dict(schema), "strict": True},
        }
    if mode == "json_object":
        return {"type": "json_object", "schema": dict(schema)}
    return None


def output_tool(request: ModelRequest, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The function tool whose arguments are the structured answer (``tools`` mode)."""
    return {
        "type": "function",
        "function": {
            "name": schema_name(request),
            "description": "Give your final answer: call this with the answer as its arguments.",
            "parameters": dict(schema),
            "strict": True,
        },
    }


def schema_instruction(request: ModelRequest, schema: Mapping[str, Any], mode: str) -> str:
    """The text added to the system prompt when the schema is not enforced by the API alone."""
    name = schema_name(request)
    if mode == "tools":
        how = f"When you have the final answer, call the `{name}` function with it as arguments"
    else:
        how = "Your final answer must be only a JSON object, with no text around it"
    return (
        f"\n\n{how}. It must match this JSON schema (every required field, with the right "
        f"types, and no other fields):\n{json.dumps(dict(schema), ensure_ascii=False)}\n"
    )


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def loads_lenient(text: str) -> Any:
    """Parse JSON as servers really send it.

    Raw control characters inside strings (a newline a small model typed into a value) are
    accepted; a Markdown code fence around the object is removed; text around a single JSON
    object is ignored when the whole text is not JSON.

    Raises:
        json.JSONDecodeError: when no JSON value can be read.
    """
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        return _shallow(json.loads(text, strict=False), text)
    except RecursionError:
        raise _too_deep(text) from None
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            raise
        try:
            return _shallow(json.loads(text[start : end + 1], strict=False), text)
        except RecursionError:
            raise _too_deep(text) from None
        except json.JSONDecodeError:
            pass
        raise


def loads_checked(text: str) -> Any:
    """``json.loads(text)``, refusing JSON deeper than ``MAX_JSON_DEPTH`` with a ``JSONDecodeError``."""
    try:
        return _shallow(json.loads(text), text)
    except RecursionError:
        raise _too_deep(text) from None


MAX_JSON_DEPTH = 64
"""How deeply a model's JSON answer may nest. Real outputs and tool arguments nest a few levels; a
deeper answer is a model misbehaving, reported as such (never a ``RecursionError`` later on, when
the answer is validated or copied)."""


def _too_deep(text: str) -> json.JSONDecodeError:
    return json.JSONDecodeError(f"the JSON nests deeper than {MAX_JSON_DEPTH} levels", text, 0)


def _shallow(value: Any, text: str) -> Any:
    """``value``, or a ``JSONDecodeError`` when it nests deeper than ``MAX_JSON_DEPTH``."""
    level: list[Any] = [value]
    for _ in range(MAX_JSON_DEPTH):
        inner = [
            item
            for node in level
            if isinstance(node, (dict, list))
            for item in (node.values() if isinstance(node, dict) else node)
            if isinstance(item, (dict, list))
        ]
        if not inner:
            return value
        level = inner
    raise _too_deep(text)


# --- structured-output validation ---------------------------------------------------------------
# Error texts go back to the model in the repair message, so they quote values as JSON, never as
# Python reprs ('None', 'True').

_validators: dict[str, Any] = {}


def _where(path: Sequence[Any]) -> str:
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    return f"`{where}`" if where else "the answer"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _phrase(
    kind: str, path: Sequence[Any], expected: Any, value: Any, schema: Mapping[str, Any]
) -> str:
    where = _where(path)
    if kind == "type":
        return f"{where} must be of type {_short(expected)}, not {_short(value)}"
    if kind == "required" and isinstance(value, dict):
        missing = ", ".join(f"`{name}`" for name in expected if name not in value)
        return f"{where} is missing the required field(s) {missing}"
    if kind == "additionalProperties" and isinstance(value, dict):
        props = schema.get("properties", {})
        extra = ", ".join(f"`{name}`" for name in value if name not in props)
        return f"{where} has field(s) the schema does not allow: {extra}"
    if kind == "enum":
        return f"{where} must be one of {_short(expected)}, not {_short(value)}"
    return f"{where} breaks the schema's {kind} rule ({_short(expected)})"


def _jsonschema_errors(schema: Mapping[str, Any], value: Any) -> list[str] | None:
    try:
        import jsonschema  # type: ignore[import-untyped]
    except ImportError:
        return None
    key = canonical_json(schema)
    validator = _validators.get(key)
    if validator is None:
        cls = jsonschema.validators.validator_for(schema)
        validator = cls(schema)
        _validators[key] = validator
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    phrases = [
        _phrase(str(e.validator), list(e.absolute_path), e.validator_value, e.instance, e.schema)
        for e in errors
    ]
    return list(dict.fromkeys(phrases))  # one "required" error per missing field says it twice


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
}


def _type_ok(expected: Any, value: Any) -> bool:
    names = [expected] if isinstance(expected, str) else list(expected)
    return any(
        isinstance(value, _TYPES.get(name, (object,)))
        and not (name in ("integer", "number") and isinstance(value, bool))
        for name in names
    )


def _basic_errors(schema: Mapping[str, Any], value: Any, path: list[Any]) -> list[str]:
    expected = schema.get("type")
    if expected is not None and not _type_ok(expected, value):
        return [_phrase("type", path, expected, value, schema)]
    if "enum" in schema and value not in schema["enum"]:
        return [_phrase("enum", path, schema["enum"], value, schema)]
    errors: list[str] = []
    if isinstance(value, dict):
        props: Mapping[str, Any] = schema.get("properties", {})
        required = list(schema.get("required", []))
        if any(name not in value for name in required):
            errors.append(_phrase("required", path, required, value, schema))
        if schema.get("additionalProperties") is False and any(n not in props for n in value):
            errors.append(_phrase("additionalProperties", path, False, value, schema))
        for name, sub in props.items():
            if name in value:
                errors += _basic_errors(sub, value[name], [*path, name])
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            errors += _basic_errors(schema["items"], item, [*path, index])
    return errors


def with_missing_nulls(schema: Mapping[str, Any], value: Any) -> Any:
    """``value`` with each missing required field whose schema allows null set to null (at any
    depth: in objects by their ``properties``, in arrays by their ``items``); ``value`` itself when
    none is missing (it is never changed in place).

    OpenAI's strict structured outputs need every field required, so an optional field is written
    as a required one that may be null (``"type": ["string", "null"]``). A model that leaves such a
    field out (a server that does not enforce the schema, ``json_object`` or ``prompt`` mode) said
    the same as null: the answer is read so, not sent back for repair.
    """
    if isinstance(value, dict):
        props: Mapping[str, Any] = schema.get("properties") or {}
        filled: dict[str, Any] | None = None
        for name in schema.get("required") or ():
            sub = props.get(name)
            if name not in value and isinstance(sub, Mapping) and _allows_null(sub):
                filled = filled if filled is not None else dict(value)
                filled[name] = None
        for name, sub in props.items():
            if name in value and isinstance(sub, Mapping):
                inner = with_missing_nulls(sub, value[name])
                if inner is not value[name]:
                    filled = filled if filled is not None else dict(value)
                    filled[name] = inner
        return value if filled is None else filled
    items = schema.get("items")
    if isinstance(value, list) and isinstance(items, Mapping):
        inner_items = [with_missing_nulls(items, item) for item in value]
        if any(new is not old for new, old in zip(inner_items, value, strict=True)):
            return inner_items
    return value


def _allows_null(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` accepts null: its ``type`` is or lists ``"null"``, or a branch of its
    ``anyOf`` / ``oneOf`` does."""
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(
        isinstance(branch, Mapping) and _allows_null(branch)
        for key in ("anyOf", "oneOf")
        for branch in schema.get(key) or ()
    )


def schema_errors(
    schema: Mapping[str, Any], value: Any, *, use_jsonschema: bool = True
) -> list[str]:
    """Why ``value`` does not match ``schema``, in words fit for the model (empty when it does)."""
    if use_jsonschema:
        errors = _jsonschema_errors(schema, value)
        if errors is not None:
            return errors
    return _basic_errors(schema, value, [])

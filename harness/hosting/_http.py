"""HTTP plumbing shared by the bot endpoint, the exposed agents and the channel: errors, bodies.

Every refusal is a JSON body in the Bot Framework's error shape, ``{"error": {"code", "message"}}``,
so a client always learns what was wrong. Bodies are read with a size limit and parsed here, before
any SDK sees them: a bad request gets a 4xx, never a 500. A long body is parsed on a worker thread
(``sized``), not on the event loop every conversation shares.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from harness.exceptions import UsageError
from harness.hosting._offloop import sized

__all__ = [
    "MAX_JSON_DEPTH",
    "BodyError",
    "error_response",
    "json_depth",
    "read_json_object",
    "unavailable_response",
]

MAX_JSON_DEPTH = 64
"""The deepest nesting of objects and arrays accepted in a request body (activities use about 5)."""


def json_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """The nesting depth of a parsed JSON value, counted without recursion; stops past ``limit``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


class BodyError(UsageError):
    """A request body that cannot be used, with the HTTP status and error code to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def response(self) -> web.Response:
        return error_response(self.status, self.code, self.message)


def error_response(status: int, code: str, message: str) -> web.Response:
    """A JSON error response: ``{"error": {"code": code, "message": message}}``."""
    return web.json_response({"error": {"code": code, "message": message}}, status=status)


def unavailable_response(message: str, *, retry_after: int) -> web.Response:
    """A 503 ``ServiceUnavailable`` error with ``Retry-After: retry_after`` (seconds)."""
    response = error_response(503, "ServiceUnavailable", message)
    response.headers["Retry-After"] = str(max(1, int(retry_after)))
    return response


def _parse(raw: bytes) -> tuple[Any, int]:
    data = json.loads(raw)
    return data, json_depth(data)


async def read_json_object(request: web.Request, *, max_bytes: int) -> dict[str, Any]:
    """Read a request body that must be one JSON object of at most ``max_bytes`` bytes.

    Raises:
        BodyError: 413 when too large, 415 when not JSON, 400 when malformed or not an object.
    """
    if request.content_length is not None and request.content_length > max_bytes:
        raise BodyError(
            413,
            "PayloadTooLarge",
            f"the body has {request.content_length} bytes; the limit is {max_bytes}",
        )
    if request.content_type != "application/json" and not request.content_type.endswith("+json"):
        raise BodyError(
            415, "UnsupportedMediaType", f"expected application/json, got {request.content_type}"
        )
    try:
        raw = await request.read()  # bounded by the application's client_max_size
    except web.HTTPRequestEntityTooLarge as exc:
        raise BodyError(413, "PayloadTooLarge", f"the body exceeds {max_bytes} bytes") from exc
    if len(raw) > max_bytes:
        raise BodyError(413, "PayloadTooLarge", f"the body exceeds {max_bytes} bytes")
    if not raw.strip():
        raise BodyError(400, "BadArgument", "the body is empty; expected a JSON object")
    try:
        data, depth = await sized(len(raw), _parse, raw)
    except UnicodeDecodeError as exc:
        raise BodyError(400, "BadArgument", "the body is not UTF-8 text") from exc
    except RecursionError as exc:
        raise BodyError(
            400, "BadArgument", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels"
        ) from exc
    except json.JSONDecodeError as exc:
        raise BodyError(
            400,
            "BadArgument",
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
        ) from exc
    if not isinstance(data, dict):
        raise BodyError(400, "BadArgument", f"expected a JSON object, got {type(data).__name__}")
    if depth > MAX_JSON_DEPTH:
        raise BodyError(400, "BadArgument", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels")
    return data

"""Record real model traffic once to a cassette, then replay it offline (docs/models.md).

``ReplayModel`` in *record* mode wraps a real model and saves every request/response pair; in
*replay* mode it answers from the cassette with no network, so regression tests of real LLM
behaviour run in CI without a key. A request that is not in the cassette fails clearly, showing
the closest recorded request and how the two differ.

Cassette format: JSONL (UTF-8), one exchange per line, in the order they happened::

    {"key": "<sha256>", "request": {...}, "response": {...}}
    {"key": "<sha256>", "request": {...}, "error": {"type": "ModelBehaviorError", "message": ...}}

- ``request`` is the normalised request: ``agent``, ``system``, ``messages`` (each with
  ``role`` and, when set, ``content``, ``tool_calls`` as ``{id, name, arguments}``,
  ``tool_call_id``, ``name``), ``tools`` (``{name, description, parameters}``),
  ``output_schema`` and ``output_name``. Timeouts and the structured ``context`` (facts the
  prompt already holds) are left out.
- ``key`` is the SHA-256 of the request's canonical JSON (sorted keys, no spaces, UTF-8): the same
  across runs and Python versions. On loading, keys are computed again from ``request``.
- ``response``: ``text``, ``tool_calls``, ``output``, ``refusal``, ``usage`` (``requests``,
  ``input_tokens``, ``output_tokens``, ``cost_usd``) and ``model``.
- ``error``: a ``ModelBehaviorError`` or ``ModelRequestError`` the model raised, replayed as such.

Only requests and responses are written: never an API key, a header or a client setting. A request
recorded several times is answered in the recorded order (past the last, with the last again).
"""

from __future__ import annotations

import asyncio
import difflib
import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from harness.exceptions import ConfigError, ModelBehaviorError, ModelRequestError
from harness.models._wire import canonical_json
from harness.models.base import Model, ModelRequest, ModelResponse, ModelSetupError, ToolCall
from subagents import Usage

__all__ = [
    "CassetteMissError",
    "ReplayModel",
    "normalise_request",
    "recording",
    "request_key",
]

_MAX_DIFF_LINES = 40


class CassetteMissError(ModelSetupError):
    """A replayed request is not in the cassette.

    A ``ModelSetupError`` (not a ``ModelBehaviorError``), so the parent does not quietly fall
    back to another plan: the turn fails, or the sub-agent's result says why.

    Attributes:
        cassette: the cassette file.
        key: the missing request's key.
        closest_line: the line of the closest recorded request, when there is one.
    """

    def __init__(self, message: str, *, cassette: str, key: str, closest_line: int | None) -> None:
        self.cassette = cassette
        self.key = key
        self.closest_line = closest_line
        super().__init__(message, attempts=0)


def _call_json(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "name": call.name, "arguments": dict(call.arguments)}


def normalise_request(request: ModelRequest) -> dict[str, Any]:
    """The request as a cassette stores it (what the model is shown; no timeout, no context)."""
    messages: list[dict[str, Any]] = []
    for message in request.messages:
        item: dict[str, Any] = {"role": message.role}
        if message.content is not None:
            item["content"] = message.content
        if message.tool_calls:
            item["tool_calls"] = [_call_json(c) for c in message.tool_calls]
        if message.tool_call_id is not None:
            item["tool_call_id"] = message.tool_call_id
        if message.name is not None:
            item["name"] = message.name
        messages.append(item)
    return {
        "agent": request.agent,
        "system": request.system,
        "messages": messages,
        "tools": [
            {"name": t.name, "description": t.description, "parameters": dict(t.parameters)}
            for t in request.tools
        ],
        "output_schema": None if request.output_schema is None else dict(request.output_schema),
        "output_name": request.output_name,
    }


def request_key(normalised: Mapping[str, Any]) -> str:
    """The stable key of a normalised request: SHA-256 of its canonical JSON."""
    return hashlib.sha256(canonical_json(normalised).encode("utf-8")).hexdigest()


def _response_json(response: ModelResponse) -> dict[str, Any]:
    usage = response.usage
    return {
        "text": response.text,
        "tool_calls": [_call_json(c) for c in response.tool_calls],
        "output": None if response.output is None else dict(response.output),
        "refusal": response.refusal,
        "usage": {
            "requests": usage.requests,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cost_usd": usage.cost_usd,
        },
        "model": response.model,
    }


def _response_from_json(data: Mapping[str, Any]) -> ModelResponse:
    usage = data.get("usage") or {}
    return ModelResponse(
        text=data.get("text"),
        tool_calls=tuple(
            ToolCall(id=c["id"], name=c["name"], arguments=c.get("arguments") or {})
            for c in data.get("tool_calls") or ()
        ),
        output=data.get("output"),
        refusal=data.get("refusal"),
        usage=Usage(
            requests=int(usage.get("requests", 0)),
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            cost_usd=usage.get("cost_usd"),
        ),
        model=str(data.get("model") or ""),
    )


def _error_json(exc: ModelBehaviorError | ModelRequestError) -> dict[str, Any]:
    if isinstance(exc, ModelBehaviorError):
        return {
            "type": "ModelBehaviorError",
            "message": str(exc),
            "agent": exc.agent,
            "body": exc.body,
        }
    return {
        "type": "ModelRequestError",
        "message": str(exc),
        "status": exc.status,
        "attempts": exc.attempts,
    }


def _error_from_json(data: Mapping[str, Any]) -> ModelBehaviorError | ModelRequestError:
    message = str(data.get("message", "recorded model error"))
    if data.get("type") == "ModelBehaviorError":
        return ModelBehaviorError(message, agent=data.get("agent"), body=data.get("body"))
    return ModelRequestError(
        message, status=data.get("status"), attempts=int(data.get("attempts") or 1)
    )


def _lines(normalised: Mapping[str, Any]) -> list[str]:
    """The request as lines, for similarity and a readable diff."""
    lines = [
        f"agent: {normalised.get('agent')}",
        f"output_name: {normalised.get('output_name')}",
        f"output_schema: {canonical_json(normalised.get('output_schema'))}",
    ]
    for tool in normalised.get("tools", []):
        lines.append(f"tool {tool.get('name')}: {canonical_json(tool)}")
    lines += [f"system: {line}" for line in str(normalised.get("system", "")).splitlines()]
    for index, message in enumerate(normalised.get("messages", []), 1):
        head = f"message {index} ({message.get('role')})"
        for line in str(message.get("content", "")).splitlines() or [""]:
            lines.append(f"{head}: {line}")
        for call in message.get("tool_calls", []):
            lines.append(f"{head} calls {call.get('name')}: {canonical_json(call)}")
    return lines


def _what(normalised: Mapping[str, Any]) -> str:
    return f"the {normalised.get('output_name') or 'text'} request of {normalised.get('agent')!r}"


class _Entry:
    __slots__ = ("data", "line", "lines", "request")

    def __init__(self, request: Mapping[str, Any], data: Mapping[str, Any], line: int) -> None:
        self.request = request
        self.data = data
        self.line = line
        self.lines: list[str] | None = None


def _load(path: Path) -> tuple[dict[str, list[_Entry]], list[_Entry]]:
    if not path.is_file():
        raise ConfigError("no such cassette file", file=str(path))
    by_key: dict[str, list[_Entry]] = {}
    entries: list[_Entry] = []
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigError(
                    f"not a cassette line (invalid JSON: {exc.msg})", file=str(path), line=number
                ) from exc
            if (
                not isinstance(record, dict)
                or not isinstance(record.get("request"), dict)
                or not ("response" in record or "error" in record)
            ):
                raise ConfigError(
                    "a cassette line needs 'request' and 'response' (or 'error')",
                    file=str(path),
                    line=number,
                )
            # Lines written while requests still named their step ("task") match without it.
            request = {k: v for k, v in record["request"].items() if k != "task"}
            entry = _Entry(request, record, number)
            by_key.setdefault(request_key(request), []).append(entry)
            entries.append(entry)
    return by_key, entries


class ReplayModel(Model):
    """Answers from a cassette (replay), or records a real model's traffic to one (record).

    Args:
        cassette: the JSONL cassette file (format in the module docstring).
        mode: ``replay`` (default) serves the cassette with no network; ``record`` calls
            ``wrapped`` and writes every exchange, starting a new cassette.
        wrapped: the model to record (record mode only).

    Attributes:
        misses: in replay mode, every request that was not in the cassette.
        recorded: in record mode, how many exchanges were written.

    Raises:
        ConfigError: for a missing or malformed cassette in replay mode, or a record mode
            without a model to record.
    """

    def __init__(
        self,
        cassette: str | Path,
        *,
        mode: Literal["replay", "record"] = "replay",
        wrapped: Model | None = None,
    ) -> None:
        self.path = Path(cassette)
        self.mode = mode
        self.wrapped = wrapped
        self.misses: list[CassetteMissError] = []
        self.recorded = 0
        self._served: dict[str, int] = {}
        self._lock = asyncio.Lock()
        self._by_key: dict[str, list[_Entry]] = {}
        self._entries: list[_Entry] = []
        if mode == "record":
            if wrapped is None:
                raise ConfigError(
                    "record mode needs the model to record (wrapped=)", field="wrapped"
                )
            self.name = f"record:{wrapped.name}"
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text("", encoding="utf-8")
        elif mode == "replay":
            self.name = f"replay:{self.path.name}"
            self._by_key, self._entries = _load(self.path)
        else:
            raise ConfigError(f"unknown mode {mode!r}; use 'replay' or 'record'", field="mode")

    def __len__(self) -> int:
        """How many exchanges the cassette holds (replay) or were recorded (record)."""
        return len(self._entries) if self.mode == "replay" else self.recorded

    async def request(self, request: ModelRequest) -> ModelResponse:
        normalised = normalise_request(request)
        key = request_key(normalised)
        if self.mode == "record":
            return await self._record(request, normalised, key)
        entries = self._by_key.get(key)
        if not entries:
            miss = self._miss(normalised, key)
            self.misses.append(miss)
            raise miss
        index = self._served.get(key, 0)
        self._served[key] = index + 1
        data = entries[min(index, len(entries) - 1)].data
        if "error" in data:
            raise _error_from_json(data["error"])
        return _response_from_json(data["response"])

    async def _record(
        self, request: ModelRequest, normalised: dict[str, Any], key: str
    ) -> ModelResponse:
        assert self.wrapped is not None
        try:
            response = await self.wrapped.request(request)
        except (ModelBehaviorError, ModelRequestError) as exc:
            await self._append({"key": key, "request": normalised, "error": _error_json(exc)})
            raise
        await self._append(
            {"key": key, "request": normalised, "response": _response_json(response)}
        )
        return response

    async def _append(self, record: Mapping[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
        async with self._lock:  # one line at a time: concurrent sub-agents record together
            await asyncio.to_thread(self._write, line)
            self.recorded += 1

    def _write(self, line: str) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line)

    def _miss(self, normalised: Mapping[str, Any], key: str) -> CassetteMissError:
        wanted = _lines(normalised)
        head = f"{_what(normalised)} is not in the cassette {self.path} (key {key[:12]})"
        best: _Entry | None = None
        best_ratio = -1.0
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(wanted)
        for entry in self._candidates(normalised):
            if entry.lines is None:
                entry.lines = _lines(entry.request)
            matcher.set_seq1(entry.lines)
            if matcher.real_quick_ratio() <= best_ratio or matcher.quick_ratio() <= best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio > best_ratio:
                best, best_ratio = entry, ratio
        if best is None or best.lines is None:
            message = f"{head}; the cassette is empty"
            return CassetteMissError(message, cassette=str(self.path), key=key, closest_line=None)
        diff = list(
            difflib.unified_diff(
                best.lines,
                wanted,
                fromfile=f"recorded (line {best.line})",
                tofile="requested",
                n=1,
                lineterm="",
            )
        )
        if len(diff) > _MAX_DIFF_LINES:
            diff = [*diff[:_MAX_DIFF_LINES], f"... ({len(diff) - _MAX_DIFF_LINES} more diff lines)"]
        message = (
            f"{head}\nclosest recorded: {_what(best.request)} at line {best.line} "
            f"(similarity {best_ratio:.2f})\n"
            + "\n".join(diff)
            + "\nre-record the cassette if the prompts changed on purpose"
        )
        return CassetteMissError(message, cassette=str(self.path), key=key, closest_line=best.line)

    def _candidates(self, normalised: Mapping[str, Any]) -> Iterator[_Entry]:
        same = [
            e
            for e in self._entries
            if e.request.get("output_name") == normalised.get("output_name")
            and e.request.get("agent") == normalised.get("agent")
        ]
        yield from same or self._entries

    def check(self) -> None:
        """Check the recorded model (a replay needs nothing)."""
        if self.wrapped is not None:
            self.wrapped.check()

    async def aclose(self) -> None:
        """Close the recorded model's resources."""
        if self.wrapped is not None:
            await self.wrapped.aclose()


def recording(model: Model, path: str | Path) -> ReplayModel:
    """Wrap ``model`` so that every exchange is recorded to the cassette ``path`` (``--record``)."""
    return ReplayModel(path, mode="record", wrapped=model)

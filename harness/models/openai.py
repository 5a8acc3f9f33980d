"""The OpenAI model: chat completions with tool calls and structured outputs (docs/models.md).

``OpenAIModel`` answers each request of this SDK (a plan, a sub-agent's step, a reply) with one
chat completion, on the official ``openai`` SDK's async client. It works with OpenAI, Azure OpenAI and any
OpenAI-compatible server (``base_url``).

What goes over the wire for a ``ModelRequest``:

- ``messages``: the system prompt (``request.system``: generated instructions plus the agent's
  own), then each ``ChatMessage``; an assistant message's tool calls carry JSON-encoded arguments
  and a tool result is a ``tool`` message with its ``tool_call_id``.
- ``tools``: one non-strict function tool per ``ToolDefinition`` (the sub-agent's tools and the
  direct agents' ``send_message_to_user``).
- the structured answer (``request.output_schema``: the sub-agent's contract outputs, the
  parent's plan and reply), asked for in the model's output mode (``ModelSettings.output_mode``):
  a strict ``json_schema`` ``response_format`` (the default), ``json_object`` with the schema in
  the prompt and in ``response_format.schema``, a forced function call (``tools``), or the schema
  in the prompt only (``prompt``). A plan's or reply's ``agent`` field is limited to the names a
  route may use. A server error that names ``response_format`` moves the model one mode along
  (``json_schema`` to ``json_object`` to ``prompt``) and the request is sent again; the model
  keeps the new mode (``output_mode``, ``fallbacks``). A server that rejects ``content: null``
  beside tool calls gets ``""`` from then on.
- the settings: temperature, seed, max_tokens, top_p, tool_choice (``auto`` when there are
  tools), parallel tool calls, extra body fields and headers (``ModelSettings``).

Failures, in order: each attempt has a deadline (``request.timeout``, else the model's
``timeout``); HTTP 408/409/429/5xx, connection errors, timeouts and unparseable response bodies are
retried with exponential backoff and jitter, waiting what ``retry-after-ms`` / ``Retry-After``
ask; after the last retry (or at once for other statuses, such as 401) ``ModelRequestError`` says
what failed, with ``status`` and ``attempts``. Attempts in a row that got no answer
(``breaker_timeouts``), or requests in a row that spent all their retries and ended on a 429/5xx
answer (``breaker_errors``), open a circuit breaker: for ``breaker_cooldown`` seconds every
request fails at once, and any answer closes it. An answer that cannot be used (malformed JSON,
JSON that breaks the schema, tool arguments that are not a JSON object) gets one repair attempt
(a missing required field whose schema allows null is no break: it reads as null):
the bad answer goes back to the model with the reason, and a second bad answer raises
``ModelBehaviorError`` (the runtime turns it into a ``failed`` sub-agent result). A refusal is
returned as ``ModelResponse.refusal``.

Answers are read leniently: raw control characters inside JSON strings, a Markdown fence around
the JSON, and tool calls without ids (an id is made up, and sent back with the tool's result).

Usage counts every attempt: a retried or failed attempt is one more request (with no tokens, as
the server reports none), a repair one more request with its tokens. ``usage`` on the model totals
all its calls, those that finally failed included. Tokens come from the response; the cost is estimated from list prices per 1M tokens
(``harness.models._wire.PRICES``, overridable with ``prices``) and is None for a model with no
known price: a price is never guessed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from harness.exceptions import (
    ConfigError,
    MissingExtraError,
    ModelBehaviorError,
    ModelRequestError,
)
from harness.models._request import repair_prompt, request_params
from harness.models._retry import (
    AttemptFailed,
    RetryPolicy,
    call_with_retries,
    is_retryable_status,
    retry_after_seconds,
)
from harness.models._slots import ConcurrencyLimit
from harness.models._text_calls import read_text_tool_calls
from harness.models._wire import (
    PRICES,
    estimate_cost,
    loads_lenient,
    schema_errors,
    schema_name,
    with_missing_nulls,
)
from harness.models.base import Model, ModelRequest, ModelResponse, ToolCall
from harness.models.settings import OUTPUT_MODES, ModelSettings, OutputMode
from subagents import Usage

try:
    import openai
    from openai.types.chat import ChatCompletion
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("the OpenAI model", extra="openai") from exc

__all__ = ["OpenAIModel"]

log = logging.getLogger("harness.models")

_LOCAL_KEY = "no-key-needed"
"""Sent as the API key to a custom ``base_url`` when no key is configured."""

_HINTS = {
    401: "check the API key (OPENAI_API_KEY, or AZURE_OPENAI_API_KEY for Azure)",
    403: "the key has no access to this model or organisation",
    404: "check the model name (the deployment name on Azure) and the base URL",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class _Unusable:
    """An answer that cannot be used, and why."""

    reason: str
    body: str
    kind: Literal["output", "tool"] = "output"


@dataclass(slots=True)
class _Attempts:
    """What the attempts of one request spent, and why the last one was refused."""

    usage: Usage = dataclasses.field(default_factory=Usage)
    rejected: Literal["response_format", "null_content"] | None = None


def _what(request: ModelRequest) -> str:
    """How an error names a request: by its output's name (``plan``, ``reply`` ...)."""
    return request.output_name or "text"


def _is_openai_host(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "api.openai.com" or host.endswith(".openai.com")


def _status_reason(exc: openai.APIStatusError) -> str:
    detail = exc.message
    body = exc.body
    if isinstance(body, Mapping) and isinstance(body.get("message"), str):
        detail = body["message"]
    return f"HTTP {exc.status_code}: {detail}"


def _error_text(exc: openai.APIStatusError) -> str:
    body = exc.body
    text = body if isinstance(body, str) else json.dumps(body, default=str)
    return f"{exc.message} {text}"


def _has_null_content(messages: list[dict[str, Any]]) -> bool:
    return any(
        m.get("role") == "assistant" and m.get("tool_calls") and m.get("content") is None
        for m in messages
    )


class OpenAIModel(Model):
    """A model served by the OpenAI chat-completions API (OpenAI, Azure OpenAI or compatible).

    Settings not given as arguments come from the usual environment variables when the client is
    first needed: ``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``OPENAI_ORG_ID``; for Azure
    ``AZURE_OPENAI_ENDPOINT``, ``AZURE_OPENAI_API_KEY`` and ``OPENAI_API_VERSION``. Azure OpenAI
    is used when ``azure_endpoint`` is given, or when ``AZURE_OPENAI_ENDPOINT`` is set and neither
    a base URL nor ``OPENAI_API_KEY`` is.

    Args:
        model: the model name (on Azure, the deployment name unless ``azure_deployment`` is set).
        base_url: an OpenAI-compatible endpoint (``http://127.0.0.1:8000/v1``); such a server may
            need no key.
        api_key: the API key.
        organization: the OpenAI organisation id.
        azure_endpoint: the Azure OpenAI resource endpoint.
        api_version: the Azure OpenAI API version.
        azure_deployment: the Azure deployment, when it differs from ``model``.
        settings: output mode, sampling, limits and extras (``ModelSettings`` or a mapping of its
            keys, as in YAML's ``model_settings``).
        timeout: seconds one attempt may take, unless the request sets its own (overrides
            ``settings.timeout``).
        max_retries: retries after the first attempt, for the failures that may pass (overrides
            ``settings.max_retries``).
        backoff: the first wait between attempts in seconds (doubling, with jitter).
        prices: USD per 1M tokens ``{model: (input, output)}``, added to the built-in list.
        client: an ``openai.AsyncOpenAI`` to use as it is (its own retry settings stay).

    Attributes:
        calls: requests answered or failed so far.
        attempts: HTTP attempts made, retries and repairs included.
        repairs: repair attempts made after unusable answers.
        usage: what every attempt of every call spent, failed calls included.
        output_mode: the structured-output mode in use (after any fallback).
        fallbacks: one line per automatic fallback made, saying why.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        organization: str | None = None,
        azure_endpoint: str | None = None,
        api_version: str | None = None,
        azure_deployment: str | None = None,
        settings: ModelSettings | Mapping[str, Any] | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        backoff: float = 0.5,
        prices: Mapping[str, tuple[float, float]] | None = None,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError(
                "the OpenAI model needs a name, as in openai:gpt-4o-mini", field="model"
            )
        if timeout is not None and timeout <= 0:
            raise ConfigError("timeout must be more than 0 seconds", field="timeout")
        if max_retries is not None and max_retries < 0:
            raise ConfigError("max_retries must be 0 or more", field="max_retries")
        self.settings = ModelSettings.of(settings, timeout=timeout, max_retries=max_retries)
        self.model = model.strip()
        self.name = f"openai:{self.model}"
        self.base_url = base_url
        self.timeout = self.settings.timeout
        self.policy = RetryPolicy(max_retries=self.settings.max_retries, backoff=backoff)
        self.prices: dict[str, tuple[float, float]] = {**PRICES, **(prices or {})}
        self.calls = 0
        self.attempts = 0
        self.repairs = 0
        self.usage = Usage()
        self.output_mode: OutputMode = self.settings.output_mode
        self.null_content = self.settings.null_content
        self.fallbacks: list[str] = []
        limit = self.settings.max_concurrency
        self._limit = ConcurrencyLimit(limit) if limit else None
        retry_timeouts = self.settings.retry_timeouts
        self._retry_timeouts = limit is None if retry_timeouts is None else retry_timeouts
        self._timeouts_in_row = 0
        """Attempts in a row that got no answer: timed out, or the server could not be reached."""
        self._unanswered = ""
        """Why the last of them got none."""
        self._errors_in_row = 0
        """Requests in a row that spent all their retries and ended on an HTTP 429 or 5xx."""
        self._breaker_reason = ""
        """Why the circuit breaker last opened."""
        self._open_until = 0.0
        self._clock = time.monotonic  # tests replace it
        self._api_key = api_key
        self._organization = organization
        self._azure_endpoint = azure_endpoint
        self._api_version = api_version
        self._azure_deployment = azure_deployment
        self._given_client = client
        self._client: openai.AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._sleep = asyncio.sleep

    def __repr__(self) -> str:
        where = f", base_url={self.base_url!r}" if self.base_url else ""
        return f"OpenAIModel({self.model!r}{where})"

    # --- the client -----------------------------------------------------------------------------

    def check(self) -> None:
        """Raise ``ConfigError`` now when no API key (or Azure setting) is configured."""
        if self._given_client is None:
            self._client_options()

    def _client_options(self) -> tuple[bool, dict[str, Any]]:
        """(is Azure, keyword arguments of the client); raises ConfigError for a missing key."""
        env = os.environ
        base_url = self.base_url or env.get("OPENAI_BASE_URL") or None
        organization = self._organization or env.get("OPENAI_ORG_ID") or None
        endpoint = self._azure_endpoint
        if endpoint is None and base_url is None and not env.get("OPENAI_API_KEY"):
            endpoint = env.get("AZURE_OPENAI_ENDPOINT") or None
        common = {"organization": organization, "timeout": self.timeout, "max_retries": 0}
        if endpoint is not None:
            key = self._api_key or env.get("AZURE_OPENAI_API_KEY")
            if not key:
                raise ConfigError(
                    "no API key for Azure OpenAI: set AZURE_OPENAI_API_KEY or pass api_key",
                    field="api_key",
                )
            version = self._api_version or env.get("OPENAI_API_VERSION")
            if not version:
                raise ConfigError(
                    "Azure OpenAI needs an API version: set OPENAI_API_VERSION or pass api_version",
                    field="api_version",
                )
            return True, {
                "azure_endpoint": endpoint,
                "azure_deployment": self._azure_deployment,
                "api_version": version,
                "api_key": key,
                **common,
            }
        key = self._api_key or env.get("OPENAI_API_KEY")
        if not key:
            if base_url is None or _is_openai_host(base_url):
                raise ConfigError(
                    "no API key for the OpenAI model: set OPENAI_API_KEY or pass api_key "
                    "(a base URL to a local OpenAI-compatible server needs none)",
                    field="api_key",
                )
            key = _LOCAL_KEY
        return False, {"api_key": key, "base_url": base_url, **common}

    def _new_client(self) -> openai.AsyncOpenAI:
        azure, options = self._client_options()
        if azure:
            return openai.AsyncAzureOpenAI(**options)
        return openai.AsyncOpenAI(**options)

    def _connect(self) -> openai.AsyncOpenAI:
        if self._given_client is not None:
            return self._given_client
        loop = asyncio.get_running_loop()
        # An HTTP client belongs to the event loop it was first used on; scripts that call
        # run_sync() per message run each on a new loop, so each loop gets its own client.
        if self._client is None or self._client_loop is not loop:
            self._client = self._new_client()
            self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        """Close the HTTP client this model created (a client passed in stays open)."""
        client, self._client = self._client, None
        if client is not None and self._client_loop is asyncio.get_running_loop():
            await client.close()
        self._client_loop = None

    # --- one request ----------------------------------------------------------------------------

    async def request(self, request: ModelRequest) -> ModelResponse:
        """Answer one request with a chat completion (plus one repair call when needed).

        Raises:
            ConfigError: when no API key (or Azure setting) is configured.
            ModelRequestError: when the API fails after the retries, with ``status`` and
                ``attempts``.
            ModelBehaviorError: when the answer is still unusable after one repair attempt.
        """
        client = self._connect()
        self.calls += 1
        schema = request.output_schema
        spent = _Attempts()
        repair: list[dict[str, Any]] = []
        while True:
            completion, mode = await self._create(client, request, schema, repair, spent)
            parsed = self._parse(request, completion, schema, mode)
            if not isinstance(parsed, _Unusable):
                return dataclasses.replace(parsed, usage=spent.usage)
            if repair:
                raise ModelBehaviorError(
                    f"the model's answer to the {_what(request)} request of {request.agent!r} is "
                    f"unusable after one repair attempt: {parsed.reason}",
                    agent=request.agent,
                    body=parsed.body,
                )
            self.repairs += 1
            repair = [
                {"role": "assistant", "content": parsed.body},
                {
                    "role": "user",
                    "content": repair_prompt(request, parsed.reason, kind=parsed.kind, mode=mode),
                },
            ]

    def _fall_back(self, rejected: str, reason: str, mode: OutputMode) -> bool:
        """Move to the next output mode, or send ``""`` contents; False when nothing is left.

        True also when a concurrent request has already moved on: this one is sent again as the
        model now sends them.
        """
        if rejected == "null_content":
            if not self.null_content:
                return True  # another request already switched: send this one again with ""
            self.null_content = False
            self.fallbacks.append(f'content null -> "" ({reason})')
            return True
        position = OUTPUT_MODES.index(mode)
        if mode not in ("json_schema", "json_object") or self.output_mode != mode:
            return self.output_mode != mode  # another request already moved on: try its mode
        following: OutputMode = "json_object" if position == 0 else "prompt"
        self.output_mode = following
        self.fallbacks.append(f"{mode} -> {following} ({reason})")
        return True

    async def _create(
        self,
        client: openai.AsyncOpenAI,
        request: ModelRequest,
        schema: Mapping[str, Any] | None,
        repair: list[dict[str, Any]],
        spent: _Attempts,
    ) -> tuple[ChatCompletion, OutputMode]:
        while True:
            mode = self.output_mode
            try:
                completion = await self._send(
                    client,
                    request,
                    request_params(
                        request, schema, mode, repair, self.settings, null_content=self.null_content
                    ),
                    spent,
                )
            except ModelRequestError as exc:
                rejected, spent.rejected = spent.rejected, None
                if rejected is None or not self._fall_back(rejected, str(exc.__cause__), mode):
                    raise
                continue
            return completion, mode

    async def _send(
        self,
        client: openai.AsyncOpenAI,
        request: ModelRequest,
        params: dict[str, Any],
        spent: _Attempts,
    ) -> ChatCompletion:
        timeout = request.timeout or self.timeout
        can_fall_back = "response_format" in params
        null_sent = self.null_content and _has_null_content(params["messages"])

        def count(usage: Usage) -> None:
            spent.usage = spent.usage + usage
            self.usage = self.usage + usage

        async def attempt() -> ChatCompletion:
            if self._limit is None:
                return await one()
            async with self._limit.slot():
                return await one()

        async def one() -> ChatCompletion:
            if self._clock() < self._open_until:
                raise AttemptFailed(
                    f"{self._breaker_reason}; it is not called again for "
                    f"{self.settings.breaker_cooldown:g}s (the circuit breaker)",
                    retryable=False,
                )
            try:
                async with asyncio.timeout(timeout):
                    result: Any = await client.chat.completions.create(
                        model=self.model, timeout=timeout, **params
                    )
            except asyncio.CancelledError:
                count(
                    Usage(requests=1)
                )  # the caller gave up (a sub-agent's timeout): sent all the same
                raise
            except (TimeoutError, openai.APITimeoutError) as exc:
                count(Usage(requests=1))
                self._no_answer(f"no answer within {timeout:g}s")
                raise AttemptFailed(
                    f"no answer within {timeout:g}s", retryable=self._retry_timeouts
                ) from exc
            except openai.APIStatusError as exc:
                count(Usage(requests=1))
                self._timeouts_in_row = 0  # it answers, if with an error: not hanging
                text = _error_text(exc)
                status = exc.status_code
                if status in (400, 422, 500) and can_fall_back and "response_format" in text:
                    spent.rejected = "response_format"
                elif status in (400, 422, 500) and null_sent and "content" in text:
                    spent.rejected = "null_content"
                reason = _status_reason(exc)
                retryable = spent.rejected is None and is_retryable_status(status)
                if retryable and _counts_as_error(status) and self._error_breaker_tripped():
                    reason = self._still_failing(reason)
                    retryable = False
                raise AttemptFailed(
                    reason,
                    retryable=retryable,
                    status=status,
                    retry_after=retry_after_seconds(exc.response.headers),
                ) from exc
            except openai.APIConnectionError as exc:
                count(Usage(requests=1))
                cause = exc.__cause__ or exc
                reason = f"cannot reach {client.base_url}: {cause}"
                self._no_answer(reason)  # a server that is down counts as one that hangs
                raise AttemptFailed(reason, retryable=True) from exc
            except (ValueError, openai.APIResponseValidationError) as exc:
                count(Usage(requests=1))
                raise AttemptFailed(
                    f"the server's response is not a chat completion ({exc})", retryable=True
                ) from exc
            if not isinstance(result, ChatCompletion):
                count(Usage(requests=1))
                raise AttemptFailed(
                    "the server's response is not a chat completion", retryable=True
                )
            count(self._usage(result))
            self._timeouts_in_row = 0
            self._errors_in_row = 0
            self._open_until = 0.0  # it answers: also an answer to a request sent before it opened
            return result

        def on_attempt(number: int) -> None:
            self.attempts += 1

        def describe(failure: AttemptFailed, attempts: int) -> str:
            tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
            text = (
                f"the OpenAI model {self.model!r} failed on the {_what(request)} request of "
                f"{request.agent!r} after {tries}: {failure.reason}"
            )
            if (
                failure.retry_after is not None
                and failure.retry_after > self.policy.max_retry_after
            ):
                text += f" (the server asked to wait {failure.retry_after:g}s)"
            hint = _HINTS.get(failure.status or 0)
            return f"{text} ({hint})" if hint else text

        try:
            return await call_with_retries(
                attempt,
                policy=self.policy,
                describe=describe,
                on_attempt=on_attempt,
                sleep=self._sleep,
            )
        except ModelRequestError as exc:
            status = exc.status or 0
            spent_retries = exc.attempts > self.policy.max_retries
            counted = spent.rejected is None and _counts_as_error(status)
            # A failed trial after the cooldown has already reopened the breaker.
            if spent_retries and counted and not self._error_breaker_tripped():
                failure = exc.__cause__
                reason = failure.reason if isinstance(failure, AttemptFailed) else str(exc)
                self._failed_request(reason, exc.attempts)
            raise

    def _no_answer(self, reason: str) -> None:
        """Count an attempt that got no answer (it timed out, or the server could not be
        reached); enough in a row open the circuit breaker."""
        self._timeouts_in_row += 1
        self._unanswered = reason
        limit = self.settings.breaker_timeouts
        if limit and self._timeouts_in_row >= limit:
            self._open_breaker(
                f"the model did not answer the last {self._timeouts_in_row} attempts ({reason})",
                f"got no answer {self._timeouts_in_row} times in a row ({reason})",
            )

    def _failed_request(self, reason: str, attempts: int) -> None:
        """Count a request that spent all its retries and ended on an HTTP 429 or 5xx answer;
        enough in a row open the circuit breaker. Counted by request, not by attempt: concurrent
        requests that each meet one 429 in a burst and then pass never open it."""
        self._errors_in_row += 1
        limit = self.settings.breaker_errors
        if limit and self._errors_in_row >= limit:
            if self._errors_in_row == 1:
                said = f"its last request failed after {attempts} attempts"
                logged = f"failed a request after {attempts} attempts ({reason})"
            else:
                said = f"its last {self._errors_in_row} requests failed after all their retries"
                logged = f"failed {self._errors_in_row} requests in a row ({reason})"
            self._open_breaker(f"the model answered with errors only: {said} ({reason})", logged)

    def _error_breaker_tripped(self) -> bool:
        """Whether the error breaker opened and no answer came since: after its cooldown the
        first attempt is a trial, and an error ends its request at once."""
        limit = self.settings.breaker_errors
        return bool(limit) and self._errors_in_row >= limit

    def _still_failing(self, reason: str) -> str:
        """Reopen the breaker after a failed trial attempt (a request already in flight when it
        opened does not extend it); the attempt's reason, saying so."""
        if self._clock() >= self._open_until:
            self._open_breaker(
                f"the model answered with errors only: it still failed after the circuit "
                f"breaker's cooldown ({reason})",
                f"still failed after the cooldown ({reason})",
            )
        return (
            f"{reason}; the model answered with errors only, so it is not called again for "
            f"{self.settings.breaker_cooldown:g}s (the circuit breaker)"
        )

    def _open_breaker(self, reason: str, logged: str) -> None:
        self._open_until = self._clock() + self.settings.breaker_cooldown
        self._breaker_reason = reason
        log.warning(
            "the OpenAI model %r %s; not called for %gs",
            self.model,
            logged,
            self.settings.breaker_cooldown,
        )

    def _usage(self, completion: ChatCompletion) -> Usage:
        usage = completion.usage
        if usage is None:
            return Usage(requests=1)
        return Usage(
            requests=1,
            input_tokens=usage.prompt_tokens or 0,
            output_tokens=usage.completion_tokens or 0,
            cost_usd=estimate_cost(
                (self.model, completion.model),
                usage.prompt_tokens or 0,
                usage.completion_tokens or 0,
                self.prices,
            ),
        )

    def _output(
        self, schema: Mapping[str, Any], text: str, *, why_bad: str | None = None
    ) -> Mapping[str, Any] | _Unusable:
        try:
            output = loads_lenient(text)
        except json.JSONDecodeError as exc:
            why = why_bad or f"is not valid JSON ({exc.msg} at character {exc.pos})"
            return _Unusable(reason=f"the answer {why}", body=text)
        # A required field that may be null and is missing reads as null (OpenAI's strict mode
        # needs every field required: nullable-required is how an optional field is written).
        output = with_missing_nulls(schema, output)
        errors = schema_errors(schema, output)
        if errors:
            return _Unusable(
                reason="the answer does not match the output schema: " + "; ".join(errors[:5]),
                body=text,
            )
        return dict(output)

    def _parse(
        self,
        request: ModelRequest,
        completion: ChatCompletion,
        schema: Mapping[str, Any] | None,
        mode: OutputMode,
    ) -> ModelResponse | _Unusable:
        model = completion.model or self.model
        if not completion.choices:
            return _Unusable(reason="the response has no choices", body="")
        choice = completion.choices[0]
        message = choice.message
        if message.refusal:
            return ModelResponse(refusal=message.refusal, model=model)
        if choice.finish_reason == "content_filter":
            return ModelResponse(
                refusal="the answer was withheld by the content filter", model=model
            )
        answer_name = schema_name(request) if schema is not None and mode == "tools" else None
        answer: str | None = None
        calls: list[ToolCall] = []
        for index, raw in enumerate(message.tool_calls or ()):
            function = getattr(raw, "function", None)
            if function is None:
                return _Unusable(
                    reason=f"tool calls of type {getattr(raw, 'type', None)!r} are not supported",
                    body=raw.model_dump_json(),
                    kind="tool",
                )
            text = function.arguments or "{}"
            if function.name == answer_name:
                answer = text
                continue
            try:
                arguments = loads_lenient(text)
            except json.JSONDecodeError as exc:
                return _Unusable(
                    reason=f"the arguments of the `{function.name}` tool call are not valid JSON "
                    f"({exc.msg} at character {exc.pos})",
                    body=text,
                    kind="tool",
                )
            if not isinstance(arguments, dict):
                return _Unusable(
                    reason=f"the arguments of the `{function.name}` tool call are not a JSON object",
                    body=text,
                    kind="tool",
                )
            # Some servers send tool calls without ids; the id only has to match the result.
            call_id = getattr(raw, "id", None) or f"call_{self.attempts}_{index + 1}"
            calls.append(ToolCall(id=call_id, name=function.name, arguments=arguments))
        content = message.content
        if not calls and answer is None and self.settings.text_tool_calls:
            offered = {tool.name for tool in request.tools}
            if answer_name is not None:
                offered.add(answer_name)
            for index, (name, arguments) in enumerate(read_text_tool_calls(content, offered) or ()):
                content = None  # the text was the calls
                if name == answer_name:
                    answer = json.dumps(arguments)
                    continue
                calls.append(
                    ToolCall(id=f"call_{self.attempts}_{index + 1}", name=name, arguments=arguments)
                )
        if calls:
            return ModelResponse(text=content or None, tool_calls=tuple(calls), model=model)
        if schema is None:
            return ModelResponse(text=content, model=model)
        text = answer if answer is not None else content
        if not text or not text.strip():
            return _Unusable(reason="the answer is empty; a JSON object was expected", body="")
        cut = (
            "is cut off (the model reached its token limit)"
            if choice.finish_reason == "length"
            else None
        )
        output = self._output(schema, text, why_bad=cut)
        if isinstance(output, _Unusable):
            return output
        return ModelResponse(output=output, model=model)


def _counts_as_error(status: int) -> bool:
    """An answer the error breaker counts: 429 (rate limit or quota) or a server error."""
    return status == 429 or status >= 500

"""The OpenAI model: chat completions with tool calls and structured outputs (DESIGN.md section 6).

``OpenAIModel`` answers the three tasks of this SDK (plan, act, compose) with one chat completion
each, on the official ``openai`` SDK's async client. It works with OpenAI, Azure OpenAI and any
OpenAI-compatible server (``base_url``).

What goes over the wire for a ``ModelRequest``:

- ``messages``: the system prompt (``request.system``: generated instructions plus the agent's
  own), then each ``ChatMessage``; an assistant message's tool calls carry JSON-encoded arguments
  and a tool result is a ``tool`` message with its ``tool_call_id``.
- ``tools``: one non-strict function tool per ``ToolDefinition`` (the sub-agent's tools and the
  direct agents' ``send_message_to_user``).
- ``response_format``: strict ``json_schema`` structured output from ``request.output_schema``
  (the sub-agent's contract outputs, the parent's plan and reply).

Failures, in order: each attempt has a deadline (``request.timeout``, else the model's
``timeout``); HTTP 408/409/429/5xx, connection errors, timeouts and unparseable response bodies are
retried with exponential backoff and jitter, waiting what ``retry-after-ms`` / ``Retry-After``
ask; after the last retry (or at once for other statuses, such as 401) ``ModelRequestError`` says
what failed, with ``status`` and ``attempts``. An answer that cannot be used (malformed JSON,
JSON that breaks the schema, tool arguments that are not a JSON object) gets one repair attempt:
the bad answer goes back to the model with the reason, and a second bad answer raises
``ModelBehaviorError`` (the runtime turns it into a ``failed`` sub-agent result). A refusal is
returned as ``ModelResponse.refusal``.

Usage: tokens per call from the response; the cost is estimated from list prices per 1M tokens
(``harness.models._wire.PRICES``, overridable with ``prices``) and is None for a model with no
known price: a price is never guessed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from harness.exceptions import ConfigError, MissingExtraError, ModelBehaviorError
from harness.models._retry import (
    AttemptFailed,
    RetryPolicy,
    call_with_retries,
    is_retryable_status,
    retry_after_seconds,
)
from harness.models._wire import (
    PRICES,
    chat_messages,
    estimate_cost,
    response_format,
    schema_errors,
    schema_name,
    tool_params,
)
from harness.models.base import Model, ModelRequest, ModelResponse, ToolCall
from subagents import Usage

try:
    import openai
    from openai.types.chat import ChatCompletion
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("the OpenAI model", extra="openai") from exc

__all__ = ["OpenAIModel"]

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


def _is_openai_host(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "api.openai.com" or host.endswith(".openai.com")


def _status_reason(exc: openai.APIStatusError) -> str:
    detail = exc.message
    body = exc.body
    if isinstance(body, Mapping) and isinstance(body.get("message"), str):
        detail = body["message"]
    return f"HTTP {exc.status_code}: {detail}"


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
        timeout: seconds one attempt may take, unless the request sets its own.
        max_retries: retries after the first attempt, for the failures that may pass.
        backoff: the first wait between attempts in seconds (doubling, with jitter).
        prices: USD per 1M tokens ``{model: (input, output)}``, added to the built-in list.
        client: an ``openai.AsyncOpenAI`` to use as it is (its own retry settings stay).

    Attributes:
        calls: requests answered or failed so far.
        attempts: HTTP attempts made, retries and repairs included.
        repairs: repair attempts made after unusable answers.
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
        timeout: float = 60.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        prices: Mapping[str, tuple[float, float]] | None = None,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError(
                "the OpenAI model needs a name, as in openai:gpt-4o-mini", field="model"
            )
        if timeout <= 0:
            raise ConfigError("timeout must be more than 0 seconds", field="timeout")
        if max_retries < 0:
            raise ConfigError("max_retries must be 0 or more", field="max_retries")
        self.model = model.strip()
        self.name = f"openai:{self.model}"
        self.base_url = base_url
        self.timeout = timeout
        self.policy = RetryPolicy(max_retries=max_retries, backoff=backoff)
        self.prices: dict[str, tuple[float, float]] = {**PRICES, **(prices or {})}
        self.calls = 0
        self.attempts = 0
        self.repairs = 0
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

    def _new_client(self) -> openai.AsyncOpenAI:
        env = os.environ
        base_url = self.base_url or env.get("OPENAI_BASE_URL") or None
        organization = self._organization or env.get("OPENAI_ORG_ID") or None
        endpoint = self._azure_endpoint
        if endpoint is None and base_url is None and not env.get("OPENAI_API_KEY"):
            endpoint = env.get("AZURE_OPENAI_ENDPOINT") or None
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
            return openai.AsyncAzureOpenAI(
                azure_endpoint=endpoint,
                azure_deployment=self._azure_deployment,
                api_version=version,
                api_key=key,
                organization=organization,
                timeout=self.timeout,
                max_retries=0,
            )
        key = self._api_key or env.get("OPENAI_API_KEY")
        if not key:
            if base_url is None or _is_openai_host(base_url):
                raise ConfigError(
                    "no API key for the OpenAI model: set OPENAI_API_KEY or pass api_key "
                    "(a base URL to a local OpenAI-compatible server needs none)",
                    field="api_key",
                )
            key = _LOCAL_KEY
        return openai.AsyncOpenAI(
            api_key=key,
            organization=organization,
            base_url=base_url,
            timeout=self.timeout,
            max_retries=0,
        )

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
        messages = chat_messages(request.system, request.messages)
        completion = await self._create(client, request, messages)
        usage = self._usage(completion)
        parsed = self._parse(request, completion)
        if isinstance(parsed, _Unusable):
            self.repairs += 1
            messages = [
                *messages,
                {"role": "assistant", "content": parsed.body},
                {"role": "user", "content": _repair_prompt(request, parsed)},
            ]
            completion = await self._create(client, request, messages)
            usage = usage + self._usage(completion)
            parsed = self._parse(request, completion)
            if isinstance(parsed, _Unusable):
                raise ModelBehaviorError(
                    f"the model's answer to the {request.task} request of {request.agent!r} is "
                    f"unusable after one repair attempt: {parsed.reason}",
                    agent=request.agent,
                    body=parsed.body,
                )
        return dataclasses.replace(parsed, usage=usage)

    async def _create(
        self, client: openai.AsyncOpenAI, request: ModelRequest, messages: list[dict[str, Any]]
    ) -> ChatCompletion:
        timeout = request.timeout or self.timeout
        tools = tool_params(request.tools) if request.tools else openai.omit
        fmt: Any = response_format(request) or openai.omit

        async def attempt() -> ChatCompletion:
            try:
                async with asyncio.timeout(timeout):
                    result: Any = await client.chat.completions.create(
                        model=self.model,
                        messages=messages,  # type: ignore[arg-type]
                        tools=tools,  # type: ignore[arg-type]
                        response_format=fmt,
                        timeout=timeout,
                    )
            except (TimeoutError, openai.APITimeoutError) as exc:
                raise AttemptFailed(f"no answer within {timeout:g}s", retryable=True) from exc
            except openai.APIStatusError as exc:
                raise AttemptFailed(
                    _status_reason(exc),
                    retryable=is_retryable_status(exc.status_code),
                    status=exc.status_code,
                    retry_after=retry_after_seconds(exc.response.headers),
                ) from exc
            except openai.APIConnectionError as exc:
                cause = exc.__cause__ or exc
                raise AttemptFailed(
                    f"cannot reach {client.base_url}: {cause}", retryable=True
                ) from exc
            except (ValueError, openai.APIResponseValidationError) as exc:
                raise AttemptFailed(
                    f"the server's response is not a chat completion ({exc})", retryable=True
                ) from exc
            if not isinstance(result, ChatCompletion):
                raise AttemptFailed(
                    "the server's response is not a chat completion", retryable=True
                )
            return result

        def on_attempt(number: int) -> None:
            self.attempts += 1

        def describe(failure: AttemptFailed, attempts: int) -> str:
            tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
            text = (
                f"the OpenAI model {self.model!r} failed on the {request.task} request of "
                f"{request.agent!r} after {tries}: {failure.reason}"
            )
            if (
                failure.retry_after is not None
                and failure.retry_after > self.policy.max_retry_after
            ):
                text += f" (the server asked to wait {failure.retry_after:g}s)"
            hint = _HINTS.get(failure.status or 0)
            return f"{text} ({hint})" if hint else text

        return await call_with_retries(
            attempt,
            policy=self.policy,
            describe=describe,
            on_attempt=on_attempt,
            sleep=self._sleep,
        )

    def _usage(self, completion: ChatCompletion) -> Usage:
        usage = completion.usage
        if usage is None:
            return Usage(requests=1)
        return Usage(
            requests=1,
            input_tokens=usage.prompt_tokens,
            output_tokens=usage.completion_tokens,
            cost_usd=estimate_cost(
                (self.model, completion.model),
                usage.prompt_tokens,
                usage.completion_tokens,
                self.prices,
            ),
        )

    def _parse(
        self, request: ModelRequest, completion: ChatCompletion
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
        calls: list[ToolCall] = []
        for raw in message.tool_calls or ():
            function = getattr(raw, "function", None)
            if function is None:
                return _Unusable(
                    reason=f"tool calls of type {raw.type!r} are not supported",
                    body=raw.model_dump_json(),
                    kind="tool",
                )
            text = function.arguments or "{}"
            try:
                arguments = json.loads(text)
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
            calls.append(ToolCall(id=raw.id, name=function.name, arguments=arguments))
        if calls:
            return ModelResponse(text=message.content or None, tool_calls=tuple(calls), model=model)
        content = message.content
        if request.output_schema is None:
            return ModelResponse(text=content, model=model)
        if not content or not content.strip():
            return _Unusable(reason="the answer is empty; a JSON object was expected", body="")
        try:
            output = json.loads(content)
        except json.JSONDecodeError as exc:
            why = (
                "is cut off (the model reached its token limit)"
                if choice.finish_reason == "length"
                else f"is not valid JSON ({exc.msg} at character {exc.pos})"
            )
            return _Unusable(reason=f"the answer {why}", body=content)
        errors = schema_errors(request.output_schema, output)
        if errors:
            return _Unusable(
                reason="the answer does not match the output schema: " + "; ".join(errors[:5]),
                body=content,
            )
        return ModelResponse(output=output, model=model)


def _repair_prompt(request: ModelRequest, bad: _Unusable) -> str:
    if bad.kind == "tool":
        return (
            f"Your last tool call could not be used: {bad.reason}. Call the tool again with its "
            "arguments as one valid JSON object."
        )
    return (
        f"Your last answer could not be used: {bad.reason}. Answer again with only a JSON object "
        f"that matches the `{schema_name(request)}` schema: every required field, with the right "
        "types, and no other fields."
    )

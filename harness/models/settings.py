"""Settings of a hosted model: how structured outputs are asked for, sampling, limits, extras.

One validated object (``ModelSettings``) that YAML (``parent.model_settings``), Python
(``OpenAIModel(..., settings=...)``) and the CLI (``--model-setting key=value``) all fill, so every
way of configuring a model accepts the same keys and rejects the same mistakes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness.exceptions import ConfigError

__all__ = ["OUTPUT_MODES", "ModelSettings", "OutputMode"]

OutputMode = Literal["json_schema", "json_object", "tools", "prompt"]

OUTPUT_MODES: tuple[OutputMode, ...] = ("json_schema", "json_object", "tools", "prompt")
"""Every structured-output mode, in fallback order: a server that rejects ``response_format``
moves a model one step right (``json_schema`` to ``json_object``, ``json_object`` to ``prompt``)."""


class ModelSettings(BaseModel):
    """What an ``OpenAIModel`` sends besides the prompt. Unset values are not sent at all."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    output_mode: OutputMode = "json_schema"
    """How a structured answer is asked for: ``json_schema`` (strict structured outputs: OpenAI,
    Azure), ``json_object`` (JSON mode, the schema in the prompt and in ``response_format.schema``
    as llama.cpp reads it), ``tools`` (a forced function call whose arguments are the answer) or
    ``prompt`` (the schema in the prompt only; the answer is validated and repaired)."""
    temperature: float | None = Field(default=None, ge=0, le=2)
    """Sampling temperature; 0 with a ``seed`` makes most local servers repeatable."""
    seed: int | None = None
    """A sampling seed."""
    max_tokens: int | None = Field(default=None, gt=0)
    """The longest answer, in tokens."""
    top_p: float | None = Field(default=None, gt=0, le=1)
    """Nucleus sampling."""
    tool_choice: str | None = None
    """``auto`` (the default when a request has tools), ``required``, ``none``, or the name of a
    function to force. In ``tools`` mode a request with no tools of its own forces its answer
    function whatever this says."""
    parallel_tool_calls: bool | None = None
    """Whether the model may call several tools at once (sent only with tools)."""
    timeout: float = Field(default=60.0, gt=0)
    """Seconds one attempt may take, unless the request sets its own (a sub-agent's timeout)."""
    max_retries: int = Field(default=3, ge=0)
    """Retries after the first attempt, for the failures that may pass."""
    retry_timeouts: bool | None = None
    """Retry an attempt that timed out. Default: yes, unless ``max_concurrency`` is set, because
    a server that serves a few requests at a time is most likely still working on the one that
    timed out, and a second copy would only queue behind it."""
    breaker_timeouts: int = Field(default=2, ge=0)
    """A circuit breaker: after this many attempts in a row that got no answer (timed out, or
    the server could not be reached), the model is not called for ``breaker_cooldown`` seconds
    and its requests fail at once (a ``ModelRequestError``). A model that hangs then costs a turn
    about ``breaker_timeouts`` times ``timeout`` (2 minutes by default), not every request's
    retries (about 8 minutes); a server that is down costs two refused connections, not every
    request's retries and their waits. 0: off."""
    breaker_errors: int = Field(default=2, ge=0)
    """The same circuit breaker, for a model that answers but only with errors: after this many
    requests in a row spent all their retries (``max_retries``) and ended on an HTTP 429 or 5xx
    answer (a rejected ``response_format`` the model falls back from aside), it is not called for
    ``breaker_cooldown`` seconds. A model that is down or out of quota then costs a turn two
    requests' retries (a few seconds, or what ``Retry-After`` asks), not the plan's, each
    sub-agent's and the reply's. Requests, not attempts, are counted: a burst of 429s that the
    retries get past never opens it, and an answer to any request, also one sent before it
    opened, closes it. 0: off."""
    breaker_cooldown: float = Field(default=30.0, gt=0)
    """Seconds the breaker stays open; then one attempt is let through: an answer closes it, and
    no answer or an HTTP 429 or 5xx opens it again at once (that request is not retried)."""
    max_concurrency: int | None = Field(default=None, gt=0)
    """At most this many requests in flight to this model at once (a one-slot local server wants
    1). Time spent waiting for a slot does not count against a sub-agent's timeout."""
    null_content: bool = True
    """Send ``content: null`` on an assistant message that only calls tools (the OpenAI form).
    False sends ``""``; a server that rejects ``null`` switches this off by itself."""
    text_tool_calls: bool = True
    """Read a tool call the server wrote as text in the message's content (a JSON object naming an
    offered tool, or Qwen's ``<tool_call>`` block; llama.cpp's server answers ``tool_choice: auto``
    so with a model's own chat template) as a call. Only content that is nothing but calls to
    tools the request offered is read so. False keeps such content as text."""
    extra_body: dict[str, Any] = Field(default_factory=dict)
    """More JSON fields for every request (server-specific options such as ``top_k``)."""
    extra_headers: dict[str, str] = Field(default_factory=dict)
    """More HTTP headers for every request."""

    @classmethod
    def of(cls, value: ModelSettings | Mapping[str, Any] | None, **more: Any) -> ModelSettings:
        """Settings from a mapping (YAML, CLI) or settings, updated with ``more``.

        Raises:
            ConfigError: for an unknown key or a bad value, naming the key.
        """
        data: dict[str, Any] = {}
        if isinstance(value, ModelSettings):
            data = value.model_dump(exclude_unset=True)
        elif value is not None:
            data = dict(value)
        data.update({k: v for k, v in more.items() if v is not None})
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error["loc"]) or "model_settings"
            if error["type"] == "extra_forbidden":
                import difflib

                known = ", ".join(cls.model_fields)
                close = difflib.get_close_matches(where, list(cls.model_fields), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                message = f"unknown model setting {where!r}{hint}; known settings: {known}"
            else:
                message = f"model setting {where!r}: {error['msg']}"
            raise ConfigError(message, field=f"model_settings.{where}") from exc

"""Models: the interface, the offline rules model, test doubles, OpenAI and record/replay.

``resolve_model`` turns a model name from a config or the CLI into a ``Model``: ``rules`` (the
offline default), ``openai:<model>`` (extra ``openai``) or ``replay:<cassette>``.
"""

from __future__ import annotations

from typing import Any

from harness.exceptions import ConfigError
from harness.models.base import (
    ActContext,
    AgentCard,
    ChatMessage,
    ComposeContext,
    Model,
    ModelRequest,
    ModelResponse,
    PlanContext,
    ResultView,
    ToolCall,
    ToolDefinition,
)
from harness.models.rules import RulesModel
from harness.models.scripted import FunctionModel, ScriptedModel

__all__ = [
    "ActContext",
    "AgentCard",
    "ChatMessage",
    "ComposeContext",
    "FunctionModel",
    "Model",
    "ModelRequest",
    "ModelResponse",
    "PlanContext",
    "ResultView",
    "RulesModel",
    "ScriptedModel",
    "ToolCall",
    "ToolDefinition",
    "resolve_model",
]


def resolve_model(spec: Model | str | None, **options: Any) -> Model:
    """Turn a model name (or a ``Model``, or None for the default) into a ``Model``.

    Args:
        spec: ``rules``, ``openai:<model>``, ``replay:<cassette>``, a ``Model`` or None (rules).
        **options: passed to the model's constructor (``base_url``, ``api_key``, ...).

    Raises:
        ConfigError: for an unknown model name.
        MissingExtraError: when the model needs an extra that is not installed.
    """
    if isinstance(spec, Model):
        return spec
    if spec is None or spec == "rules":
        return RulesModel()
    if spec.startswith("openai:"):
        from harness.models.openai import OpenAIModel

        return OpenAIModel(spec.split(":", 1)[1], **options)
    if spec.startswith("replay:"):
        from harness.models.replay import ReplayModel

        return ReplayModel(spec.split(":", 1)[1], **options)
    raise ConfigError(
        f"unknown model {spec!r}; use 'rules', 'openai:<model>' or 'replay:<cassette>'",
        field="model",
    )

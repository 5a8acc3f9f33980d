"""Models: the interface, the offline rules model, test doubles, OpenAI and record/replay.

``resolve_model`` turns a model name from a config or the CLI into a ``Model``: ``rules`` (the
offline default), ``openai:<model>`` (extra ``openai``), ``replay:<cassette>`` or a prefix added
with ``register_model`` (``harness.models.registry``).
"""

from __future__ import annotations

from harness.models.base import (
    ActContext,
    AgentCard,
    ChatMessage,
    Model,
    ModelRequest,
    ModelResponse,
    ModelSetupError,
    ToolCall,
    ToolDefinition,
)
from harness.models.registry import (
    ModelFactory,
    check_model_name,
    model_names,
    register_model,
    resolve_model,
    unregister_model,
)
from harness.models.rules import RulesModel
from harness.models.scripted import FunctionModel, ScriptedModel

__all__ = [
    "ActContext",
    "AgentCard",
    "ChatMessage",
    "FunctionModel",
    "Model",
    "ModelFactory",
    "ModelRequest",
    "ModelResponse",
    "ModelSetupError",
    "RulesModel",
    "ScriptedModel",
    "ToolCall",
    "ToolDefinition",
    "check_model_name",
    "model_names",
    "register_model",
    "resolve_model",
    "unregister_model",
]

"""connected-agent harness: parent/sub-agent chat bots that do not repeat themselves.

The root API is small: build a ``Parent`` with ``ChildAgent`` / ``ConnectedAgent`` sub-agents (or
``load_bot`` a YAML config), open a ``Conversation`` and ``send`` messages; every message lands in a
``Transcript`` attributed to its sender.
"""

from harness._loading import load_bot, run_sync
from harness._version import __version__
from harness.exceptions import (
    ConfigError,
    ContractViolationError,
    HarnessError,
    ModelBehaviorError,
    RunError,
    UsageError,
)
from harness.models import (
    FunctionModel,
    Model,
    ModelRequest,
    ModelResponse,
    RulesModel,
    ScriptedModel,
)
from harness.parent import Conversation, Parent, Turn
from harness.transcript import Message, PlannedRequest, Transcript, TurnRecord
from subagents import (
    ChildAgent,
    ConnectedAgent,
    Mode,
    Reply,
    SubagentResult,
    Tool,
    ToolContext,
)

__all__ = [
    "ChildAgent",
    "ConfigError",
    "ConnectedAgent",
    "ContractViolationError",
    "Conversation",
    "FunctionModel",
    "HarnessError",
    "Message",
    "Mode",
    "Model",
    "ModelBehaviorError",
    "ModelRequest",
    "ModelResponse",
    "Parent",
    "PlannedRequest",
    "Reply",
    "RulesModel",
    "RunError",
    "ScriptedModel",
    "SubagentResult",
    "Tool",
    "ToolContext",
    "Transcript",
    "Turn",
    "TurnRecord",
    "UsageError",
    "__version__",
    "load_bot",
    "run_sync",
]

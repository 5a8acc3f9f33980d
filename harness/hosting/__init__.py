"""Hosting: serve a parent as a Bot Framework bot, talk to bots as a channel, remote agents.

``create_app`` / ``serve`` run a ``Parent`` behind ``POST /api/messages`` on the Bot Framework SDK
(``botbuilder``) or the Microsoft 365 Agents SDK (``agents-sdk``); both adapters share one core,
``HarnessBot``. ``EndpointTarget`` is the simulator's channel for any live bot. With ``expose`` a host
serves its sub-agents over HTTP, and a ``ConnectedAgent`` with a ``url`` calls them remotely.

Everything here needs the ``hosting`` extra (aiohttp and botbuilder) or, for the Agents SDK adapter,
the ``agents-sdk`` extra.
"""

from harness.exceptions import MissingExtraError

try:
    import aiohttp  # noqa: F401 - checked here so the error names the extra
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("hosting", extra="hosting") from exc

from harness.hosting._open import open_store
from harness.hosting.app import DEFAULT_MAX_BODY_BYTES, DRAIN_KEY, AdapterName, create_app, serve
from harness.hosting.core import HarnessBot, OutgoingMessage
from harness.hosting.remote import remote_outputs
from harness.hosting.storage import (
    FileStore,
    LeaseLostError,
    SqliteStore,
    StateStore,
)
from harness.simulate.endpoint import EndpointTarget, ReceivedActivity

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "DRAIN_KEY",
    "AdapterName",
    "EndpointTarget",
    "FileStore",
    "HarnessBot",
    "LeaseLostError",
    "OutgoingMessage",
    "ReceivedActivity",
    "SqliteStore",
    "StateStore",
    "create_app",
    "open_store",
    "remote_outputs",
    "serve",
]

"""Connected agents: independent agents with their own model, optionally given the parent's history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from subagents._base import Subagent, _ModeField
from subagents._errors import ConfigError
from subagents.contract import Kind

__all__ = ["ConnectedAgent"]


@dataclass(frozen=True, kw_only=True)
class ConnectedAgent(Subagent):
    """An independent sub-agent with its own model, instructions and tools.

    ``pass_history`` is on by default, as Copilot Studio's "Pass conversation history to this agent".
    With it off the agent receives only its inputs: it provably never sees earlier turns.
    With ``url`` set it is a remote agent served by another harness host (``harness serve --expose``).
    """

    kind: ClassVar[Kind] = Kind.CONNECTED

    mode: _ModeField = _ModeField()  # noqa: RUF009 (a descriptor, shared by design)
    """How it communicates: a ``Mode`` or its name (read back as a ``Mode``)."""
    # Declared again (same place, same default) so type checkers read ``mode`` as a ``Mode`` here
    # too; mypy does not carry a descriptor field's read type into a dataclass subclass.

    pass_history: bool = True
    """Send the parent's conversation history with each call."""
    url: str | None = None
    """Endpoint of a remote harness host exposing this agent; None runs it in-process."""
    retries: int = 2
    """Retries for a remote call on connection errors and 5xx answers."""
    token_env: str | None = None
    """The environment variable holding the bearer token for this remote agent's host.

    None sends ``HARNESS_AGENT_TOKEN`` (when set); naming one per host keeps each host's token
    away from the others.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.url is not None and not self.url.startswith(("http://", "https://")):
            raise ConfigError("url must be an http(s) URL", field="url")
        if self.retries < 0:
            raise ConfigError("retries must be 0 or more", field="retries")
        if self.token_env is not None:
            if self.url is None:
                raise ConfigError("token_env needs a url", field="token_env")
            if not self.token_env.replace("_", "").isalnum() or self.token_env[0].isdigit():
                raise ConfigError(
                    "token_env must be an environment variable name", field="token_env"
                )

    @property
    def receives_history(self) -> bool:
        return self.pass_history

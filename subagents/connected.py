"""Connected agents: independent agents with their own model, optionally given the parent's history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from subagents._base import Subagent, _ModeField
from subagents._checks import retries_problem, token_env_problem, url_problem
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
        problems = (
            ("url", url_problem(self.url)),
            ("retries", retries_problem(self.retries)),
            ("token_env", token_env_problem(self.token_env, url=self.url)),
        )
        for field, problem in problems:
            if problem is not None:
                raise ConfigError(problem, field=field)

    @property
    def receives_history(self) -> bool:
        return self.pass_history

"""Child agents: run inside the parent's runtime and always see the parent's conversation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from subagents._base import Subagent, _ModeField
from subagents._errors import ConfigError
from subagents.contract import Kind

__all__ = ["ChildAgent"]


@dataclass(frozen=True, kw_only=True)
class ChildAgent(Subagent):
    """A sub-agent that runs inside the parent and always receives the parent's history.

    Because it always sees the whole conversation, it needs the ``scopedRequest`` input to know which
    part of it is its own (the linter's HC004).

    Raises:
        ConfigError: when ``pass_history`` is set to False; a child agent cannot opt out of history.
    """

    kind: ClassVar[Kind] = Kind.CHILD

    mode: _ModeField = _ModeField()  # noqa: RUF009 (a descriptor, shared by design)
    """How it communicates: a ``Mode`` or its name (read back as a ``Mode``)."""
    # Declared again (same place, same default) so type checkers read ``mode`` as a ``Mode`` here
    # too; mypy does not carry a descriptor field's read type into a dataclass subclass.

    pass_history: bool = True
    """Always True for a child agent; setting it False is a configuration error."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.pass_history:
            raise ConfigError(
                f"child agent {self.name!r} always receives the parent's history; use a ConnectedAgent "
                "with pass_history=False to keep history from it",
                field="pass_history",
            )

    @property
    def receives_history(self) -> bool:
        return True

"""The modes of a bot's sub-agents, read from its config, for checking a transcript of that bot."""

from __future__ import annotations

from pathlib import Path

from harness.runtime.config_files import load_config

__all__ = ["load_agent_modes"]


def load_agent_modes(path: str | Path) -> dict[str, str]:
    """The mode of every sub-agent of an agent config (this SDK's YAML), by name.

    Raises:
        ConfigError: the config is invalid (with its file, line and field).
    """
    config = load_config(path)
    return {agent.name: str(getattr(agent.mode, "value", agent.mode)) for agent in config.subagents}

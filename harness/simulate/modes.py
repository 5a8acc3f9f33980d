"""The modes of a bot's sub-agents, read from its config, for checking a transcript of that bot."""

from __future__ import annotations

from pathlib import Path

from harness.exceptions import ConfigError
from harness.runtime.config_files import load_config

__all__ = ["load_agent_modes"]


def load_agent_modes(path: str | Path) -> dict[str, str]:
    """The mode of every sub-agent of a bot, by name: from its agent config (this SDK's YAML) or
    from a Python bot given as ``module:attr``.

    Raises:
        ConfigError: the config is invalid (with its file, line and field), or a ``.py`` file was
            given where ``module:attr`` is meant.
    """
    text = str(path)
    if not Path(text).exists() and ":" in text and not text.endswith((".yaml", ".yml")):
        from harness.runtime.loading import load_bot

        bot = load_bot(text)
        return {name: agent.mode.value for name, agent in bot.subagents.items()}
    if text.endswith(".py"):
        raise ConfigError(
            "a Python bot is named as module:attr (for example bot:bot), not by its file; "
            "a path is this SDK's YAML config",
            file=text,
        )
    config = load_config(path)
    return {agent.name: str(getattr(agent.mode, "value", agent.mode)) for agent in config.subagents}

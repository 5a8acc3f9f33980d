"""Shared pieces of the offline model's acting tests: a tool from a name, docstring and typed
properties, the context of one agent call, the model's plan of calls and questions for it, and a
bot written to a temporary folder to talk to over several turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import load_bot, run_sync
from harness.models.base import ActContext, ToolDefinition
from harness.models.rules import RulesModel
from harness.runtime.parent import Conversation


def tool(name: str, doc: str, props: dict[str, str], required: list[str]) -> ToolDefinition:
    """A tool whose arguments are ``props`` (name -> JSON type), ``required`` of them required."""
    schema = {
        "type": "object",
        "properties": {k: {"type": v} for k, v in props.items()},
        "required": required,
    }
    return ToolDefinition(name=name, description=doc, parameters=schema)


def act_context(
    text: str,
    *,
    agent: str = "a",
    mode: str = "direct",
    can_message: bool = True,
    requests: tuple[str, ...] = (),
) -> ActContext:
    """The context of one call of ``agent`` carrying ``text`` (and its ``requests``, if several)."""
    return ActContext(
        agent=agent,
        mode=mode,
        scoped_request=text,
        history=None,
        required_outputs=(),
        can_message_user=can_message,
        requests=requests,
    )


def plan_with(
    tools: list[ToolDefinition], text: str, *, agent: str = "a", mode: str = "direct"
) -> tuple[list[tuple[str, dict[str, Any]]], dict[int, list[str]]]:
    """The offline model's calls (name, arguments) for ``text`` and its questions by call."""
    calls, asking = RulesModel()._plan(tools, act_context(text, agent=agent, mode=mode))
    return [(c.name, dict(c.arguments)) for c in calls], asking


def bot_chat(folder: Path, tools: str, bot: str, mode: str) -> Conversation:
    """A conversation with the bot ``bot`` (YAML with a ``{mode}`` field) whose ``tools.py`` is
    ``tools``, both written to ``folder``."""
    (folder / "tools.py").write_text(tools)
    (folder / "bot.yaml").write_text(bot.format(mode=mode))
    return load_bot(folder / "bot.yaml").conversation()


def say(chat: Conversation, *texts: str) -> list[str]:
    """What the bot said after each of ``texts``, its messages joined."""
    return [" ".join(m.text for m in run_sync(chat.send(t)).messages) for t in texts]

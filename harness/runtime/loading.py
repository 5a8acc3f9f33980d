"""Build a bot from a config file or a ``module:attr`` reference, and the one sync entry point."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from harness.exceptions import ConfigError, UsageError
from harness.models import Model
from harness.runtime.parent import Parent
from subagents.config import load_config

__all__ = ["load_bot", "run_sync"]

T = TypeVar("T")


def load_bot(
    target: str | Path, *, model: Model | str | None = None, **model_options: Any
) -> Parent:
    """Load a bot from a YAML config file or a ``module:attr`` that is a ``Parent``.

    Args:
        target: a config path, or ``package.module:attr`` naming a ``Parent`` (or a function
            returning one).
        model: overrides every model of the bot: the parent's and each sub-agent's own, so a
            run with ``--model rules`` or ``--replay`` never reaches a configured hosted model.
        **model_options: passed to the model's constructor (``base_url`` for OpenAI,
            ``settings`` as a mapping, merged over the config's ``model_settings``, ...).

    Raises:
        ConfigError: for an invalid config, with file, line and field.
    """
    text = str(target)
    path = Path(text)
    if path.suffix in (".yaml", ".yml") or path.exists():
        config = load_config(path)
        spec: Model | str | None = model if model is not None else config.parent.model
        from harness.models import resolve_model

        subagents = config.build_subagents()
        if model is not None:
            subagents = [dataclasses.replace(agent, model=None) for agent in subagents]
        elif config.parent.model_settings:
            # The config's settings belong to the config's model; --model-setting wins.
            given = model_options.get("settings") or {}
            model_options = {
                **model_options,
                "settings": {**config.parent.model_settings, **given},
            }
        return Parent(
            name=config.parent.name,
            instructions=config.parent.instructions,
            subagents=subagents,
            model=resolve_model(spec, **model_options) if model_options else spec,
            generated_instructions=config.parent.generated_instructions,
            strict=config.parent.strict,
            max_compose_steps=config.parent.max_compose_steps,
            duplicate_guard=config.parent.duplicate_guard,
        )
    if ":" in text:
        if model is not None or model_options:
            raise UsageError(
                f"{text!r} is a Python object: build it with the model you want; --model, "
                "--base-url, --record and --replay apply to config files only"
            )
        module_name, attr = text.split(":", 1)
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ConfigError(f"cannot import {module_name!r}: {exc}") from exc
        obj = getattr(module, attr, None)
        if callable(obj) and not isinstance(obj, Parent):
            obj = obj()
        if not isinstance(obj, Parent):
            raise ConfigError(f"{text!r} is not a harness.Parent")
        return obj
    raise ConfigError(f"no such config file: {text}", file=text)


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from synchronous code (scripts, the CLI).

    Raises:
        UsageError: when called inside a running event loop; use ``await`` there instead.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    coroutine.close()
    raise UsageError(
        "run_sync() cannot run inside a running event loop; await the coroutine instead"
    )

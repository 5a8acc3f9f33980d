"""Build a bot from a config file or a ``module:attr`` reference, and the one sync entry point."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import sys
import traceback
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import harness
import instructions
import subagents
from harness.composing import Composer
from harness.exceptions import ConfigError, UsageError
from harness.models import Model, resolve_model
from harness.planning import Planner
from harness.runtime.config_files import build_subagents, load_config
from harness.runtime.parent import Parent

__all__ = ["load_bot", "load_config", "run_sync"]

T = TypeVar("T")


def load_bot(
    target: str | Path,
    *,
    model: Model | str | None = None,
    planner: Planner | None = None,
    composer: Composer | None = None,
    near: Path | None = None,
    **model_options: Any,
) -> Parent:
    """Load a bot from a YAML config file or a ``module:attr`` that is a ``Parent``.

    Args:
        target: a config path, or ``package.module:attr`` naming a ``Parent`` (or a function
            returning one).
        model: overrides every model of the bot: the parent's and each sub-agent's own, so a
            run with ``--model rules`` or ``--replay`` never reaches a configured hosted model.
        planner: the parent's planner (``harness.planning``), for a config file; by default the
            one ``Parent`` picks for its model.
        composer: the parent's composer (``harness.composing``), for a config file; by default
            the one ``Parent`` picks for its model.
        near: a folder a ``module:attr`` is also imported from when the import path (the
            current directory first) has no such module: the folder of the scenario file that
            names the bot.
        **model_options: passed to the model's constructor (``base_url`` for OpenAI,
            ``settings`` as a mapping, merged over the config's ``model_settings``, ...).

    Raises:
        ConfigError: for an invalid config, with file, line and field.
    """
    text = str(target)
    path = Path(text)
    if path.suffix in (".yaml", ".yml") or path.exists():
        config = load_config(path)
        subagents = build_subagents(config)
        settings = dict(config.parent.model_settings)
        spec: Model | str | None = config.parent.model
        if model is not None:
            # --model replaces every model of the bot, and the config's settings went with them.
            subagents = [dataclasses.replace(agent, model=None) for agent in subagents]
            spec, settings = model, {}
        given = model_options.pop("settings", None) or {}
        settings = {**settings, **given}  # --model-setting wins over the config's
        if model_options or (settings and isinstance(spec, Model)):
            spec = resolve_model(
                spec, **model_options, **({"settings": settings} if settings else {})
            )
            settings = {}
        # Every plain-data option of the parent comes from the schema, as Parent validates it.
        options = config.parent.model_dump(exclude={"model", "model_settings"})
        return Parent(
            **options,
            subagents=subagents,
            model=spec,
            model_settings=settings,
            planner=planner,
            composer=composer,
        )
    if ":" in text:
        if model is not None or planner is not None or composer is not None or model_options:
            raise UsageError(
                f"{text!r} is a Python object: build it with the model you want; a model and "
                "model options apply to config files only"
            )
        module_name, attr = text.split(":", 1)
        try:
            module = _import(module_name, near)
        except ImportError as exc:
            raise ConfigError(f"cannot import {module_name!r}: {exc}") from exc
        obj = getattr(module, attr, None)
        if callable(obj) and not isinstance(obj, Parent):
            obj = obj()
        if not isinstance(obj, Parent):
            raise ConfigError(f"{text!r} is not a harness.Parent")
        return obj
    raise ConfigError(f"no such config file: {text}", file=text)


def _import(module_name: str, near: Path | None) -> Any:
    """Import ``module_name``; failing that, and only if ``near`` holds it, from ``near``."""
    try:
        return _import_user_module(module_name)
    except ModuleNotFoundError as exc:
        top = module_name.split(".")[0]
        if near is None or exc.name != top:
            raise
        if not ((near / f"{top}.py").is_file() or (near / top / "__init__.py").is_file()):
            raise
    folder = str(near.resolve())
    sys.path.append(folder)  # after everything else: the import path still wins
    try:
        return _import_user_module(module_name)
    finally:
        sys.path.remove(folder)


_OWN_CODE = tuple(
    str(Path(str(package.__file__)).resolve().parent)
    for package in (harness, subagents, instructions)
)


def _import_user_module(module_name: str) -> Any:
    """Import the user's bot module; an error raised while it runs (a misspelt keyword of
    ``ConnectedAgent``, a bad value) becomes a ``ConfigError`` at the user's line."""
    try:
        return importlib.import_module(module_name)
    except ImportError:
        raise
    except Exception as exc:
        where = _user_line(exc)
        if where is None or (isinstance(exc, ConfigError) and exc.file):
            raise
        message = exc.message if isinstance(exc, ConfigError) else f"{type(exc).__name__}: {exc}"
        field = exc.field if isinstance(exc, ConfigError) else None
        raise ConfigError(message, file=where[0], line=where[1], field=field) from exc


def _user_line(exc: BaseException) -> tuple[str, int] | None:
    """The innermost line of the traceback in the user's own code (not this SDK's, not the
    standard library's import machinery)."""
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        name = frame.filename
        if name.startswith("<") or "importlib" in Path(name).parts:
            continue
        if str(Path(name).resolve()).startswith(_OWN_CODE) or frame.lineno is None:
            continue
        found = (name, frame.lineno)
    return found


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

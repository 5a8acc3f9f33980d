"""Build a bot from a config file or a ``module:attr`` reference, and the one sync entry point."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import importlib
import importlib.machinery
import importlib.util
import sys
import traceback
from collections.abc import Callable, Coroutine
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
            names the bot. A module there whose name is already imported from another file is
            imported from its own file, under a name of its own.
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
        if not hasattr(module, attr):
            where = getattr(module, "__file__", None) or "a folder without __init__.py"
            raise ConfigError(f"{text!r}: module {module_name!r} ({where}) has no {attr!r}")
        obj = getattr(module, attr)
        if callable(obj) and not isinstance(obj, Parent):
            obj = obj()
        if not isinstance(obj, Parent):
            raise ConfigError(f"{text!r} is not a harness.Parent")
        return obj
    raise ConfigError(f"no such config file: {text}", file=text)


def _import(module_name: str, near: Path | None) -> Any:
    """Import ``module_name``; failing that, and only if ``near`` holds it, from ``near``.

    Module names are global in a process: when ``near``'s module of that name is not the one
    already imported (``tests/a/mybot.py`` loaded for one scenario file, then
    ``tests/b/mybot.py`` named by another), ``near``'s file is imported under a name of its own,
    so each file runs on the bot beside it.
    """
    top = module_name.split(".")[0]
    own = _file_in(near, top) if near is not None else None
    if own is not None and _imported_elsewhere(top, own):
        return _import_by_path(module_name, own)
    try:
        module = _import_user_module(module_name)
    except ModuleNotFoundError as exc:
        if own is None or exc.name != top:
            raise
    else:
        if own is None or not _namespace(sys.modules.get(top)):
            return module
        # A folder of that name without ``__init__.py`` somewhere on the import path (a namespace
        # package) does not hide ``near``'s module: Python itself prefers a module to such a
        # folder wherever both are on the path.
        return _import_by_path(module_name, own)
    assert near is not None
    folder = str(near.resolve())
    sys.path.append(folder)  # after everything else: the import path still wins
    try:
        return _import_user_module(module_name)
    finally:
        sys.path.remove(folder)


def _file_in(folder: Path, top: str) -> Path | None:
    """``folder``'s module ``top`` (``top.py``, or a package's ``top/__init__.py``), resolved."""
    for candidate in (folder / f"{top}.py", folder / top / "__init__.py"):
        if candidate.is_file():
            return candidate.resolve()
    return None


def _namespace(module: Any) -> bool:
    """Whether ``module`` is a namespace package: a folder without ``__init__.py``, no file."""
    return (
        module is not None
        and getattr(module, "__file__", None) is None
        and (hasattr(module, "__path__"))
    )


def _imported_elsewhere(top: str, own: Path) -> bool:
    """Whether ``top`` is already imported from another file than ``own`` and the import path
    itself does not lead to that other file (if it does, the import path wins, as always)."""
    loaded = sys.modules.get(top)
    if _namespace(loaded):
        return True  # see ``_import``: a module beats a folder without ``__init__.py``
    where = getattr(loaded, "__file__", None)
    if loaded is None or where is None or Path(where).resolve() == own:
        return False
    found = importlib.machinery.PathFinder.find_spec(top)
    origin = found.origin if found is not None else None
    return origin is None or Path(origin).resolve() != Path(where).resolve()


def _import_by_path(module_name: str, own: Path) -> Any:
    """Import the module (or package) in file ``own`` under a name tied to that file, then
    ``module_name``'s submodules, if any, inside it."""
    digest = hashlib.sha1(str(own).encode("utf-8")).hexdigest()[:12]
    top, _, rest = module_name.partition(".")
    unique = f"_harness_bot_{digest}_{top}"
    if unique not in sys.modules:
        package = [str(own.parent)] if own.name == "__init__.py" else None
        spec = importlib.util.spec_from_file_location(
            unique, own, submodule_search_locations=package
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {own}", name=top)
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        folder = str(own.parent if package is None else own.parent.parent)
        sys.path.append(folder)  # its own sibling imports, as for a module found by the path
        try:
            _run_user_code(lambda: spec.loader.exec_module(module))  # type: ignore[union-attr]
        except BaseException:
            del sys.modules[unique]
            raise
        finally:
            sys.path.remove(folder)
    return _import_user_module(f"{unique}.{rest}" if rest else unique)


_OWN_CODE = tuple(
    str(Path(str(package.__file__)).resolve().parent)
    for package in (harness, subagents, instructions)
)


def _import_user_module(module_name: str) -> Any:
    """Import the user's bot module; an error raised while it runs (a misspelt keyword of
    ``ConnectedAgent``, a bad value) becomes a ``ConfigError`` at the user's line."""
    return _run_user_code(lambda: importlib.import_module(module_name))


def _run_user_code(load: Callable[[], T]) -> T:
    """Run ``load`` (an import of the user's code); see ``_import_user_module``."""
    try:
        return load()
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

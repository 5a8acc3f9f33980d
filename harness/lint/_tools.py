"""Resolve this SDK's ``tools`` references without importing or executing anything.

A reference is ``file.py:function`` (relative to the config) or ``package.module:function``, as
``subagents.config`` imports them at run time. Here the module's source is found on disk (next to
the config, in the working directory, on ``sys.path``; installed top-level packages through their
finders, which import nothing), parsed with :mod:`ast`, and searched for a top-level ``def``,
``class``, assignment or import of that name. A reference that does not resolve is an HC100
finding worded as the runtime's error would be.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from functools import lru_cache
from pathlib import Path

from harness.lint._files import UnreadableFileError, read_config

__all__ = ["forget_tools", "tool_problem"]


def forget_tools() -> None:
    """Drop what earlier runs learnt about tool modules (each lint run starts afresh)."""
    _module_names.cache_clear()
    _top_level_names.cache_clear()


def tool_problem(reference: str, *, config: Path) -> str | None:
    """Why ``reference`` does not resolve, or None when it names a top-level function."""
    return _problem(reference, os.path.dirname(os.fspath(config)) or ".")


def _problem(reference: str, folder: str) -> str | None:
    if ":" not in reference:
        return f"tool {reference!r} must look like 'file.py:function' or 'module:function'"
    module_ref, attr = reference.rsplit(":", 1)
    names = _module_names(module_ref, folder)
    if isinstance(names, str):
        return names
    if names is not None and attr not in names:
        return f"{module_ref!r} has no function {attr!r}"
    return None


@lru_cache(maxsize=1024)
def _module_names(module_ref: str, folder: str) -> frozenset[str] | str | None:
    """The module's top-level names; a problem (str); None when they cannot be read safely."""
    config = Path(folder, "config")
    if module_ref.endswith(".py"):
        source = (config.parent / module_ref).resolve()
        if not source.is_file():
            return f"tool module {module_ref!r} not found next to the config"
    else:
        found = _find_module(module_ref, config.parent.resolve())
        if found is None:
            return f"cannot import tool module {module_ref!r}: no module named {module_ref!r}"
        if not isinstance(found, Path):
            return None  # an extension module: its names cannot be read without importing it
        source = found
    try:
        return _top_level_names(source)
    except (OSError, UnreadableFileError) as exc:
        return f"cannot read tool module {module_ref!r}: {exc}"
    except SyntaxError as exc:
        return f"cannot parse tool module {module_ref!r}: {exc.msg} (line {exc.lineno})"


def _find_module(dotted: str, base: Path) -> Path | str | None:
    """The source file of ``dotted``; a string when its names cannot be read without importing it
    (an extension module, an alias such as ``os.path``); None when it is nowhere."""
    parts = dotted.split(".")
    roots: list[Path] = [base, Path.cwd()]
    roots += [Path(p) for p in sys.path if p and Path(p).is_dir()]
    for root in roots:
        found = _walk_parts(root, parts)
        if found is not None:
            return found
    try:
        spec = importlib.util.find_spec(parts[0])  # a top-level name: nothing is imported
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if len(parts) == 1:
        origin = spec.origin or ""
        return Path(origin) if origin.endswith(".py") else "compiled"
    if not spec.submodule_search_locations:
        return "unknown"  # a module that sets its own attributes (os.path): trust it
    for location in spec.submodule_search_locations:
        found = _walk_parts(Path(location), parts[1:])
        if found is not None:
            return found
    return None


def _walk_parts(root: Path, parts: list[str]) -> Path | str | None:
    folder = root.joinpath(*parts[:-1])
    if not folder.is_dir():
        return None
    module = folder / f"{parts[-1]}.py"
    if module.is_file():
        return module
    package = folder / parts[-1] / "__init__.py"
    if package.is_file():
        return package
    if any(folder.glob(f"{parts[-1]}.*.so")) or any(folder.glob(f"{parts[-1]}.*.pyd")):
        return "compiled"
    return None


@lru_cache(maxsize=256)
def _top_level_names(source: Path) -> frozenset[str]:
    tree = ast.parse(read_config(source), filename=str(source))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)

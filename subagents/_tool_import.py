"""Import a tool function named in a config: ``file.py:function`` or ``package.module:function``.

Its own module so that ``subagents._base`` (Python's string tool references) and
``subagents.config`` (YAML's) share it without importing each other.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from subagents._errors import ConfigError

__all__ = ["import_tool"]


def import_tool(reference: str, base: Path) -> Callable[..., Any]:
    """Import ``file.py:function`` (relative to ``base``) or ``package.module:function``.

    Raises:
        ConfigError: when the module or the function cannot be found (``field="tools"``).
    """
    if ":" not in reference:
        raise ConfigError(
            f"tool {reference!r} must look like 'file.py:function' or 'module:function'",
            field="tools",
        )
    module_ref, attr = reference.rsplit(":", 1)
    if module_ref.endswith(".py"):
        file = (base / module_ref).resolve()
        if not file.is_file():
            raise ConfigError(
                f"tool module {module_ref!r} not found next to the config", field="tools"
            )
        module_name = f"_harness_tools_{abs(hash(str(file)))}"
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, file)
            if spec is None or spec.loader is None:
                raise ConfigError(f"cannot import {module_ref!r}", field="tools")
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(module_ref)
        except ImportError as exc:
            raise ConfigError(
                f"cannot import tool module {module_ref!r}: {exc}", field="tools"
            ) from exc
    function = getattr(module, attr, None)
    if not callable(function):
        raise ConfigError(f"{module_ref!r} has no function {attr!r}", field="tools")
    return function  # type: ignore[no-any-return]

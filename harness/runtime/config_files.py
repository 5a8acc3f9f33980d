"""Config files: read a YAML config, validate it against the bot's schema, import its tools.

The schema (``subagents.config``) is pure data and validation; everything here touches the disk or
imports code, which is why it lives in ``harness`` and not in ``subagents``. ``load_config`` reads
and validates only (it never imports tools), so the linter and ``harness instructions`` can use it
safely; ``build_subagents`` imports the tools and builds the agents; ``harness.load_bot`` does
both and builds the ``Parent``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness._yaml import read_yaml
from harness.exceptions import ConfigError
from subagents import Subagent
from subagents._base import function_in, import_function
from subagents.config import BotConfig, ConfigWarning, locate, validate_yaml
from subagents.contract import REQUIRED_OUTPUTS

__all__ = ["build_subagents", "import_tool", "load_config", "load_yaml"]


def load_yaml(path: str | Path) -> Any:
    """Read a YAML file safely, with line information kept (``LinedDict`` / ``LinedList``).

    Raises:
        ConfigError: when the file is missing, too large, not UTF-8 or not valid YAML, nests too
            deeply or expands too far; with its line.
    """
    return read_yaml(path)


def load_config(path: str | Path) -> BotConfig:
    """Read and validate a config file. Never imports tools.

    Model names are checked against the model registry (``harness.models.register_model``).

    Raises:
        ConfigError: naming the file, the line and the field of the first problem.
    """
    file = Path(path)
    tree = load_yaml(file)
    config = validate_yaml(BotConfig, tree, file, what="a config (with 'parent' and 'subagents')")
    names = [s.name for s in config.subagents]
    if config.parent.name in names:
        raise ConfigError(
            f"the parent and a sub-agent are both named {config.parent.name!r}",
            file=str(file),
            line=locate(tree, ("parent", "name")),
            field="parent.name",
        )
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise ConfigError(
                f"duplicate sub-agent name {name!r}",
                file=str(file),
                line=locate(tree, ("subagents", index, "name")),
                field=f"subagents[{index}].name",
            )
    # Imported here: scenario files are read with ``load_yaml`` without loading the models.
    from harness.models.registry import check_model_name

    models: list[tuple[tuple[str | int, ...], str | None]] = [
        (("parent", "model"), config.parent.model)
    ]
    models += [(("subagents", i, "model"), s.model) for i, s in enumerate(config.subagents)]
    for where, model in models:
        if model is None:
            continue
        try:
            check_model_name(model)
        except ConfigError as exc:
            field = ".".join(f"[{p}]" if isinstance(p, int) else p for p in where)
            raise ConfigError(
                exc.message,
                file=str(file),
                line=locate(tree, where),
                field=field.replace(".[", "["),
            ) from exc
    for index, entry in enumerate(config.subagents):
        if entry.outputs is not None and not entry.outputs:
            required = " and ".join(repr(n) for n in REQUIRED_OUTPUTS[entry.mode])
            warnings.warn_explicit(
                f"subagents[{index}].outputs: {entry.name!r} defines no outputs, so the parent "
                f"cannot tell what it already told the user and will say it again; as a "
                f"{entry.mode.value} agent it needs {required} (harness lint: HC001; "
                f"`harness lint --fix` adds them)",
                ConfigWarning,
                filename=str(file),
                lineno=locate(tree, ("subagents", index, "outputs")) or 1,
            )
    return config.model_copy(update={"source": str(file)})


def build_subagents(config: BotConfig, *, import_tools: bool = True) -> list[Subagent]:
    """Import the tools of a loaded config and build its agent objects.

    Args:
        config: from ``load_config`` (its ``source`` locates ``file.py`` tools and error lines).
        import_tools: False builds the agents without their tools (nothing is imported or
            executed), which is enough to render instructions.

    Raises:
        ConfigError: with the file and line of the offending entry.
    """
    base = Path(config.source).parent if config.source else Path.cwd()
    tree = load_yaml(config.source) if config.source else None
    importer: Callable[[str], Callable[..., Any]] | None = None
    if import_tools:

        def importer(reference: str) -> Callable[..., Any]:
            return import_tool(reference, base)

    return config.build_subagents(import_tool=importer, tree=tree)


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
        return function_in(module, module_ref, attr)
    return import_function(module_ref, attr)

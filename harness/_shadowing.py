"""Detect a user's own ``subagents`` or ``instructions`` package hiding this SDK's.

The SDK ships three top-level packages (``harness``, ``subagents``, ``instructions``). A project
with its own ``subagents/`` folder on ``sys.path`` (its root, when pytest or ``python -m`` runs
there) hides ours, and the first import fails deep inside with ``No module named
'subagents._errors'``. This check runs when ``harness`` is imported and says what happened instead.
It only looks the packages up; it imports nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["ShadowedPackageError", "check_siblings"]

# A file only our package has, to recognise it wherever it is installed.
_MARKERS = {"subagents": "_errors.py", "instructions": "_copilot_studio.py"}


class ShadowedPackageError(ImportError):
    """Another package or module has the name of one of the SDK's own top-level packages."""


def check_siblings() -> None:
    """Raise ``ShadowedPackageError`` when ``subagents`` or ``instructions`` is not ours.

    Raises:
        ShadowedPackageError: naming the package that shadows ours and where it is.
    """
    for name, marker in _MARKERS.items():
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        locations = list(spec.submodule_search_locations or ()) if spec is not None else []
        if spec is not None and spec.origin is None and not locations:
            continue  # a module built in some other way; nothing to tell
        if any((Path(p) / marker).is_file() for p in locations):
            continue
        if spec is None:
            raise ShadowedPackageError(
                f"connected-agent-harness: its '{name}' package is missing; reinstall it",
                name=name,
            )
        found = Path(locations[0] if locations else spec.origin or name)
        if not found.exists():
            continue  # imported from a zip file or a frozen app: nothing on disk to judge by
        raise ShadowedPackageError(
            f"connected-agent-harness: your '{name}' at {found} hides the SDK's own '{name}' "
            f"package; rename yours (harness, subagents and instructions are the SDK's "
            f"top-level packages)",
            name=name,
            path=str(found),
        )

"""Which rules run and how severe they are: ``--select`` / ``--ignore`` and ``[tool.harness.lint]``.

As ruff does, rules are picked by id (``HC004``), by id prefix (``HC00``), by name
(``history-without-scope``) or ``ALL``. ``pyproject.toml`` may set defaults::

    [tool.harness.lint]
    select = ["ALL"]                 # the command line's --select replaces this
    ignore = ["HC013"]               # the command line's --ignore adds to this
    severity = {HC009 = "error"}     # error | warning | info | off
    HC011 = "error"                  # the same, one rule per key

HC100 (invalid-config) and HC101 (nothing-recognised) are always reported unless ignored by name,
id or prefix: a broken file or an empty path must not pass CI because of a ``--select``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.exceptions import UsageError
from harness.lint.model import Severity
from harness.lint.registry import RULES, RULES_BY_ID

__all__ = ["LintSettings", "find_pyproject", "load_settings", "resolve_severities", "select_rules"]

_NAMES = {rule.name: rule.id for rule in RULES}
_OFF = frozenset({"off", "ignore", "none", "disabled"})


@dataclass(frozen=True, slots=True, kw_only=True)
class LintSettings:
    """The linter's configuration from ``pyproject.toml``."""

    select: tuple[str, ...] | None = None
    """Rule codes to run; None runs all."""
    ignore: tuple[str, ...] = ()
    """Rule codes to skip."""
    severities: Mapping[str, Severity] = field(default_factory=dict)
    """Severity per rule id."""
    source: str | None = None
    """The file the settings came from."""


def _expand(code: str) -> set[str]:
    code = code.strip()
    if not code:
        return set()
    if code.upper() == "ALL":
        return set(RULES_BY_ID)
    if code in _NAMES:
        return {_NAMES[code]}
    matches = {rule.id for rule in RULES if rule.id.startswith(code.upper())}
    if not matches:
        known = ", ".join(rule.id for rule in RULES)
        raise UsageError(f"unknown rule id, prefix or name {code!r} (known: {known})")
    return matches


def _split(codes: Iterable[str]) -> list[str]:
    out: list[str] = []
    for item in codes:
        out.extend(part for part in item.split(",") if part.strip())
    return out


def select_rules(
    select: Sequence[str] | None = None, ignore: Sequence[str] | None = None
) -> frozenset[str]:
    """The rule ids to run.

    Args:
        select: codes to run (ids, prefixes, names, ``ALL``; comma-separated items allowed); None
            runs all.
        ignore: codes to skip.

    Raises:
        UsageError: for a code that matches no rule.
    """
    chosen: set[str] = set(RULES_BY_ID)
    if select is not None:
        chosen = set()
        for code in _split(select):
            chosen |= _expand(code)
    ignored: set[str] = set()
    for code in _split(ignore or ()):
        ignored |= _expand(code)
    enabled = chosen - ignored
    enabled |= {"HC100", "HC101"} - ignored
    return frozenset(enabled)


def _severity(value: Any, *, where: str) -> Severity | None:
    text = value.strip().lower() if isinstance(value, str) else ""
    if text in _OFF:
        return None
    try:
        return Severity(text)
    except ValueError:
        raise UsageError(
            f"{where}: severity must be error, warning, info or off, not {value!r}"
        ) from None


def resolve_severities(
    raw: Mapping[str, Any], *, where: str
) -> tuple[dict[str, Severity], set[str]]:
    """Read a severity table: ``{"HC013": "error", "no-outputs": "off"}``.

    Returns:
        The severity per rule id, and the ids turned off.

    Raises:
        UsageError: for an unknown rule or severity.
    """
    severities: dict[str, Severity] = {}
    off: set[str] = set()
    for code, value in raw.items():
        ids = _expand(code)
        level = _severity(value, where=f"{where}.{code}")
        for rule_id in ids:
            if level is None:
                off.add(rule_id)
            else:
                severities[rule_id] = level
    return severities, off


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` or a folder above it."""
    current = start.resolve()
    for folder in (current, *current.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_settings(pyproject: Path | None) -> LintSettings:
    """Read ``[tool.harness.lint]`` from a ``pyproject.toml``.

    Args:
        pyproject: the file; None gives the defaults.

    Raises:
        UsageError: when the file cannot be read or the table is invalid (naming the file).
    """
    if pyproject is None:
        return LintSettings()
    where = f"{pyproject}: [tool.harness.lint]"
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {pyproject}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{pyproject}: invalid TOML: {exc}") from exc
    table = data.get("tool", {}).get("harness", {}).get("lint", {})
    if not isinstance(table, dict):
        raise UsageError(f"{where} must be a table")
    select: tuple[str, ...] | None = None
    ignore: list[str] = []
    raw_severities: dict[str, Any] = {}
    for key, value in table.items():
        if key in ("select", "ignore"):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise UsageError(f"{where}.{key} must be a list of rule codes")
            for code in value:
                _expand(code)
            if key == "select":
                select = tuple(value)
            else:
                ignore.extend(value)
        elif key in ("severity", "severities"):
            if not isinstance(value, dict):
                raise UsageError(f"{where}.{key} must be a table of rule = severity")
            raw_severities.update(value)
        elif key in RULES_BY_ID or key in _NAMES:
            raw_severities[key] = value
        else:
            raise UsageError(
                f"{where}: unknown key {key!r} (expected select, ignore, severity or a rule id)"
            )
    severities, off = resolve_severities(raw_severities, where=where)
    return LintSettings(
        select=select,
        ignore=(*ignore, *sorted(off)),
        severities=severities,
        source=str(pyproject),
    )

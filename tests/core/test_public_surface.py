"""The public surface is narrow and pinned (issue 23): every public package's ``__all__`` is the
list in ``tests/fixtures/public_api.json`` (change both on purpose, with a CHANGELOG line), every
name in it exists, and no project module is imported by a string that the import contracts
cannot see."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINNED = ROOT / "tests" / "fixtures" / "public_api.json"
PROJECT = ("harness", "subagents", "instructions")


def public_packages() -> list[str]:
    """Every package of ours without a private (``_``) part in its dotted name."""
    found = []
    for top in PROJECT:
        for init in sorted((ROOT / top).rglob("__init__.py")):
            parts = init.parent.relative_to(ROOT).parts
            if not any(p.startswith("_") for p in parts) and "templates" not in parts:
                found.append(".".join(parts))
    return found


def test_every_public_package_is_pinned() -> None:
    assert sorted(json.loads(PINNED.read_text(encoding="utf-8"))) == sorted(public_packages())


@pytest.mark.parametrize("package", public_packages())
def test_the_packages_all_is_the_pinned_list(package: str) -> None:
    module = importlib.import_module(package)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{package} has no __all__"
    assert sorted(exported) == json.loads(PINNED.read_text(encoding="utf-8"))[package]
    assert len(set(exported)) == len(exported)
    missing = [name for name in exported if not hasattr(module, name)]
    assert not missing


USER_CODE_LOADERS = {
    "harness/runtime/loading.py",  # a bot given as ``module:attr`` (the user's module)
    "subagents/_base.py",  # a tool given as ``module:function`` in a config (the user's module)
}
"""The files that import a module named at run time: the user's, never one of ours."""


def _string_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """``importlib.import_module(x)`` / ``__import__(x)`` calls: the literal start of ``x`` (a
    string, or an f-string/concatenation that starts with one), or ``""`` when it is computed."""
    hits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in ("import_module", "__import__") or not node.args:
            continue
        arg = node.args[0]
        while isinstance(arg, ast.BinOp):
            arg = arg.left
        if isinstance(arg, ast.JoinedStr) and arg.values:
            arg = arg.values[0]
        literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        hits.append((node.lineno, arg.value if literal else ""))  # type: ignore[union-attr]
    return hits


def test_the_scan_finds_a_string_import() -> None:
    source = (
        'import importlib\nimportlib.import_module("harness.cli.app")\n__import__(f"subagents.{x}")'
    )
    assert [text for _, text in _string_imports(ast.parse(source))] == [
        "harness.cli.app",
        "subagents.",
    ]


def test_no_project_module_is_imported_by_a_string() -> None:
    found = []
    for top in PROJECT:
        for path in sorted((ROOT / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            where = path.relative_to(ROOT).as_posix()
            for line, text in _string_imports(tree):
                computed = not text and where not in USER_CODE_LOADERS
                if computed or text.split(".")[0] in PROJECT:
                    found.append(f"{where}:{line}: {text or '<computed name>'}")
    assert not found

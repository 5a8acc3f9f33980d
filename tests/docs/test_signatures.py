"""The signatures the docs write out (``Parent(*, name, ...)``) name every parameter the code takes,
and no other: a page that lists arguments is read as the whole list."""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness import ConnectedAgent, Parent, load_bot
from subagents import Subagent, validate_outputs

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _documented(page: str, name: str) -> list[str]:
    """The parameter names of the inline ``name(...)`` signature on ``page`` (the one written out
    in full)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    written = re.findall(r"`" + re.escape(name) + r"\(([^`()]*=[^`]*)\)`", text)
    found = [signature for signature in written if "..." not in signature]  # not abridged ones
    assert len(found) == 1, f"{page}: expected one written-out signature of {name}, got {found}"
    parts = (part.strip() for part in found[0].replace("\n", " ").split(","))
    return [part.lstrip("*").split("=")[0].strip() for part in parts if part not in ("", "*")]


def _parameters(function: Callable[..., Any]) -> list[str]:
    return [
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.name != "self" and p.kind is not p.VAR_POSITIONAL
    ]


@pytest.mark.parametrize(
    ("page", "name", "function"),
    [
        ("agents.md", "Parent", Parent.__init__),
        ("agents.md", "load_bot", load_bot),
        ("contract.md", "validate_outputs", validate_outputs),
    ],
)
def test_a_written_out_signature_lists_every_parameter(
    page: str, name: str, function: Callable[..., Any]
) -> None:
    assert _documented(page, name) == _parameters(function)


def test_every_connected_agent_argument_is_in_the_python_table() -> None:
    text = (DOCS / "agents.md").read_text(encoding="utf-8")
    (sentence,) = re.findall(r"`ConnectedAgent` adds (.*?)\.\n\n", text, re.DOTALL)
    own = {f.name for f in dataclasses.fields(ConnectedAgent)} - {
        f.name for f in dataclasses.fields(Subagent)
    }
    assert own and {name for name in own if f"`{name}`" not in sentence} == set()

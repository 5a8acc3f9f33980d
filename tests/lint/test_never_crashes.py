"""Any value of any type anywhere in a config gives findings, never an exception."""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from harness.lint import lint_paths
from tests.lint.conftest import LINT, Writer

SDK = """\
parent:
  name: helpdesk
  instructions: Check answered.
  generated_instructions: false
  duplicate_guard: warn
subagents:
  - name: pto
    kind: child
    mode: silent
    pass_history: true
    generated_instructions: false
    description: Answers PTO questions.
    instructions: Do not respond to the user.
    examples: [how many days]
    tools: ["tools.py:pto"]
    timeout: 30
    inputs: [{name: scopedRequest, description: Its part.}]
    outputs: [{name: answered, description: Always false.}]
"""

ODD_VALUES: list[Any] = [[1, 2], {"a": 1}, None]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*prefix, index)
            yield from _paths(value, (*prefix, index))


def _variants(text: str) -> Iterator[str]:
    yaml = YAML()
    original = yaml.load(text)
    for path in list(_paths(original)):
        for value in ODD_VALUES:
            data = copy.deepcopy(original)
            node = data
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = value
            out = io.StringIO()
            yaml.dump(data, out)
            yield out.getvalue()


def _copilot_files() -> list[Path]:
    workspace = LINT / "workspace" / "Helpdesk"
    return [*sorted(workspace.rglob("agent*.mcs.yml")), workspace / "actions" / "Warehouse.mcs.yml"]


def test_sdk_config_with_any_value_replaced(write: Writer) -> None:
    count = 0
    for text in _variants(SDK):
        path = write("bot.yaml", text)
        lint_paths([path])
        count += 1
    assert count > 60


@pytest.mark.parametrize("source", _copilot_files(), ids=lambda p: p.parent.name)
def test_copilot_file_with_any_value_replaced(write: Writer, source: Path) -> None:
    name = "agents/X/agent.mcs.yml" if source.name == "agent.mcs.yml" else "actions/X.mcs.yml"
    for text in _variants(source.read_text()):
        lint_paths([write(name, text)])


def test_unhashable_keys_and_values(write: Writer) -> None:
    path = write(
        "bot.yaml",
        "parent: {name: x}\n? [a, b]\n: 1\nsubagents:\n  - {name: a, kind: [child], mode: {x: 1}}\n",
    )
    findings = lint_paths([path]).findings
    assert findings and all(f.id == "HC100" for f in findings)

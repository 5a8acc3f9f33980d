"""The contract table (``instructions.contract``) is the one source the rest of the SDK reads.

The generated instructions, the Copilot Studio fragments, the answer schema sent to models, the
default outputs of an agent and the runtime's required outputs must all follow the table, and no
production module spells a contract wire name as its own literal.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from harness.runtime.runner import output_schema
from instructions import (
    AgentView,
    IOView,
    ParentView,
    render_copilot_studio,
    render_subagent_instructions,
)
from instructions import contract as table
from subagents import CONTRACT_INPUTS, CONTRACT_OUTPUTS, REQUIRED_OUTPUTS, ChildAgent, Mode

ROOT = Path(__file__).resolve().parents[2]


def _agent(mode: str, *, outputs: tuple[str, ...] = ()) -> AgentView:
    return AgentView(
        name="pto",
        kind="child",
        mode=mode,
        description="Answers PTO questions.",
        outputs=tuple(IOView(name=name) for name in outputs),
    )


def test_subagents_reexports_the_table() -> None:
    assert CONTRACT_INPUTS == table.INPUTS
    assert CONTRACT_OUTPUTS == table.OUTPUTS
    assert {mode.value: outputs for mode, outputs in REQUIRED_OUTPUTS.items()} == dict(
        table.REQUIRED_BY_MODE
    )
    assert tuple(mode.value for mode in Mode) == table.MODES
    assert set(table.OUTPUT_DESCRIPTIONS) == set(table.OUTPUTS) == set(table.OUTPUT_JSON_TYPES)
    assert set(table.INPUT_DESCRIPTIONS) == set(table.INPUTS)


@pytest.mark.parametrize("mode", table.MODES)
def test_generated_instructions_list_exactly_the_modes_outputs_with_the_tables_words(
    mode: str,
) -> None:
    text = render_subagent_instructions(_agent(mode))
    for name in table.OUTPUTS:
        described = table.OUTPUT_DESCRIPTIONS[name] in text
        assert described == (name in table.REQUIRED_BY_MODE[mode]), name


@pytest.mark.parametrize("mode", table.MODES)
def test_copilot_studio_outputs_follow_the_table_in_order(mode: str) -> None:
    parent = ParentView(name="helpdesk", subagents=(_agent(mode),))
    fragments = list(YAML(typ="safe").load_all(io.StringIO(render_copilot_studio(parent))))
    dialog = next(f for f in fragments if isinstance(f, dict) and "outputType" in f)
    properties = dialog["outputType"]["properties"]
    assert tuple(properties) == table.REQUIRED_BY_MODE[mode]
    for name, prop in properties.items():
        assert prop["description"] == table.OUTPUT_DESCRIPTIONS[name]
        boolean = table.OUTPUT_JSON_TYPES[name]["type"] == "boolean"
        assert prop["type"] == ("Boolean" if boolean else "String")


@pytest.mark.parametrize("mode", table.MODES)
def test_the_answer_schema_sent_to_models_is_the_tables(mode: str) -> None:
    agent = ChildAgent(name="pto", description="Answers PTO questions.", mode=mode)
    schema = output_schema(agent)
    assert schema == table.output_schema(
        mode, descriptions={name: table.OUTPUT_DESCRIPTIONS[name] for name in table.OUTPUTS}
    )
    names = table.schema_outputs(mode)
    assert schema["required"] == names
    assert names[: len(table.REQUIRED_BY_MODE[mode])] == list(table.REQUIRED_BY_MODE[mode])
    for name in names:
        expected = {**table.OUTPUT_JSON_TYPES[name], "description": table.OUTPUT_DESCRIPTIONS[name]}
        assert schema["properties"][name] == expected
    # an agent without declared outputs declares exactly what its schema asks for
    assert list(agent.output_names) == names


def test_a_declared_contract_output_joins_the_schema_after_the_modes() -> None:
    names = table.schema_outputs(table.DIRECT, [table.FINDINGS, "payDate"])
    assert names == [*table.REQUIRED_BY_MODE[table.DIRECT], table.FINDINGS, table.OPEN_QUESTIONS]
    schema = table.output_schema(table.DIRECT, declared=[table.FINDINGS])
    assert "description" not in schema["properties"][table.FINDINGS]
    schema["properties"][table.OPEN_QUESTIONS]["items"]["type"] = "changed"
    assert table.OUTPUT_JSON_TYPES[table.OPEN_QUESTIONS]["items"] == {"type": "string"}


_UNAMBIGUOUS = {
    table.ANSWERED,
    table.SCOPED_REQUEST,
    table.INTERACTION_SUMMARY,
    table.OPEN_QUESTIONS,
}
"""Wire names no other concept shares (``findings`` is also the key of detector reports)."""


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in _UNAMBIGUOUS
        and id(node) not in docstrings
    ]


def test_no_production_module_spells_a_contract_name_itself() -> None:
    table_file = ROOT / "instructions" / "contract.py"
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {value!r}"
        for package in ("harness", "subagents", "instructions")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != table_file
        for line, value in _literals(path)
    ]
    assert offenders == []
    assert len(_literals(table_file)) == len(_UNAMBIGUOUS)

"""What Copilot Studio files declare, read as Copilot Studio reads them (audit s60-audit6,
findings 7, 8 and 10): the type of a contract output, an `inputs` entry against
`inputType.properties`, the display name of an agent, a tab in the indentation (each a maker's edit
to a copy of the VS Code fixture workspace), and where a connected agent's own file is in an
exported solution that holds it (`harness lint` and `harness instructions` read it alike)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from harness._yaml import YamlSyntaxError, parse_yaml
from harness.cli import cli
from harness.lint import lint_paths
from harness.lint.starter import starter_configs
from tests.lint.conftest import COPILOT, LINT

WORKSPACE = LINT / "copilot-studio-vscode" / "WorkspaceWithSubAgents"
CHILD = Path("agents") / "Transfer Funds" / "agent.mcs.yml"


def _copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(WORKSPACE, tmp_path / "ws"))


def _edit(path: Path, change: object) -> None:
    yaml = YAML(typ="rt")
    data = yaml.load(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def _child_with(tmp_path: Path, io: str) -> Path:
    root = _copy(tmp_path)
    path = root / "agents" / "Claims" / "agent.mcs.yml"
    path.parent.mkdir()
    path.write_text(
        "kind: AgentDialog\nbeginDialog:\n  kind: OnToolSelected\n  id: main\n  description: Files"
        " insurance claims. If its answered output is true, the user has already received their"
        " response and it should not be answered again.\n" + io,
        encoding="utf-8",
    )
    return root


def test_answered_typed_as_text_is_reported_at_its_property(tmp_path: Path) -> None:
    root = _child_with(
        tmp_path,
        "outputType:\n  properties:\n    answered:\n      description: True when the user has it.\n"
        "      type: String\n    interactionSummary:\n      description: What it said.\n"
        "      type: String\n",
    )
    found = [f for f in lint_paths([root]).findings if f.id == "HC019"]
    assert [(f.agent, f.line) for f in found] == [("Claims", 10)]  # its `type: String` line
    assert "typed String" in found[0].message and "type: Boolean" in found[0].message


@pytest.mark.parametrize("typed", ["type: Number", "type:\n        kind: Number"])
def test_an_input_typed_wrong_is_reported_at_its_type_not_its_inputs_entry(
    tmp_path: Path, typed: str
) -> None:
    # audit s61-audit7 finding 10: with an `inputs` entry, HC019 pointed at the entry (line 7),
    # which has no type, rather than at the property's `type` (line 14).
    root = _child_with(
        tmp_path,
        "inputs:\n  - kind: AutomaticTaskInput\n    propertyName: scopedRequest\n"
        "    description: Its part of the request.\n"
        "inputType:\n  properties:\n    scopedRequest:\n"
        f"      description: Its part of the request.\n      {typed}\n",
    )
    found = [f for f in lint_paths([root]).findings if f.id == "HC019"]
    assert [(f.agent, f.line) for f in found] == [("Claims", 14)]
    assert found[0].file is not None and found[0].file.endswith("agent.mcs.yml")
    assert "typed Number" in found[0].message


def test_an_input_spelled_differently_in_inputs_and_input_type_is_reported(
    tmp_path: Path,
) -> None:
    root = _child_with(
        tmp_path,
        "inputs:\n  - kind: AutomaticTaskInput\n    propertyName: scopedRequest\n"
        "    description: Its part of the request.\ninputType:\n  properties:\n    scopedrequest:\n"
        "      description: Its part of the request.\n      type: String\n",
    )
    found = [f for f in lint_paths([root]).findings if f.id in ("HC019", "HC021")]
    assert [(f.id, f.agent, f.line, f.severity.value) for f in found] == [
        ("HC021", "Claims", 7, "warning")
    ]
    assert "spelled 'scopedrequest'" in found[0].message
    assert "not filled" not in found[0].message  # not checked in Copilot Studio (review item 3)


def test_an_automatic_input_without_input_type_is_a_warning_as_hc020_is(tmp_path: Path) -> None:
    root = _child_with(
        tmp_path,
        "inputs:\n  - kind: AutomaticTaskInput\n    propertyName: scopedRequest\n"
        "    description: Its part of the request.\n",
    )
    found = [f for f in lint_paths([root]).findings if f.id in ("HC019", "HC021")]
    assert [(f.id, f.agent, f.line, f.severity.value) for f in found] == [
        ("HC021", "Claims", 7, "warning")
    ]


def test_scoped_request_without_its_inputs_entry_is_a_warning(tmp_path: Path) -> None:
    root = _child_with(
        tmp_path,
        "inputType:\n  properties:\n    scopedRequest:\n      description: Its part of the"
        " request.\n      type: String\n",
    )
    found = [f for f in lint_paths([root]).findings if f.id in ("HC019", "HC020")]
    found = [f for f in found if f.agent == "Claims"]
    assert [(f.id, f.line, f.severity.value) for f in found] == [("HC020", 8, "warning")]
    assert "AutomaticTaskInput" in found[0].message


def test_agents_are_named_by_their_component_name_not_their_folder(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    shown = "Payroll & Benefits: FAQ (v2) — Überblick"

    def rename(data: dict[str, dict[str, str]]) -> None:
        data["mcs.metadata"]["componentName"] = shown

    _edit(root / CHILD, rename)
    agents = {f.agent for f in lint_paths([root], select=["ALL"]).findings}
    assert "Transfer Funds" not in agents
    config = starter_configs([root])[0]
    assert f'# Copilot Studio: "{shown}"' in config
    assert 'name: Contoso Checking  # Copilot Studio: "Contoso Checking"' in config


def test_a_tab_in_the_indentation_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / CHILD
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if line.startswith("  kind: OnToolSelected"))
    lines[number] = "\t" + lines[number].lstrip(" ")
    path.write_text("".join(lines), encoding="utf-8")
    (finding,) = [f for f in lint_paths([root]).findings if f.id == "HC100"]
    assert finding.line == number + 1
    assert finding.message == (
        f"invalid YAML: a tab character in the indentation at line {number + 1}; YAML indents "
        "with spaces"
    )


# Review of s60-fixlint, item 2: tabs are legal inside a flow collection, and so in JSON; an error
# there is named as libyaml names it, not as a tab.
@pytest.mark.parametrize(
    "text",
    [
        '{\n\t"kind": "Bot",\n\t"name": "desk"\n\t"id": 1\n}\n',
        "a: {\n\tb: 1,\n\tc: d: e\n}\n",
        "a: [\n\t1,\n\t2\nb: 3\n",
    ],
)
def test_a_tab_in_a_flow_collection_or_json_is_not_named(text: str) -> None:
    with pytest.raises(YamlSyntaxError) as raised:
        parse_yaml(text)
    assert "tab" not in str(raised.value)


def test_a_tab_after_spaces_in_block_indentation_is_named() -> None:
    with pytest.raises(YamlSyntaxError, match="a tab character in the indentation at line 3"):
        parse_yaml("a:\n  b: 1\n  \tc: 2\n")


ORDERS = COPILOT / "solutions" / "order-management"
OWN = "botcomponents/cr26e_Warehouseagent.gpt.default/data"


def test_lint_and_the_starter_name_the_connected_agents_own_file(tmp_path: Path) -> None:
    (hc001,) = [f for f in lint_paths([ORDERS]).findings if f.id == "HC001"]
    assert f"{OWN}, let it message the user" in hc001.message
    (config,) = starter_configs([ORDERS])
    assert f"; its own file: {OWN}\n" in config
    assert f"# assumed: Copilot Studio has no mode; its instructions ({OWN}) let it" in config


def test_the_fragment_of_the_connected_agent_itself_points_at_its_file(tmp_path: Path) -> None:
    (config,) = starter_configs([ORDERS])
    saved = tmp_path / "agents.yaml"
    saved.write_text(config, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["instructions", str(saved), "--format", "copilot-studio"], catch_exceptions=False
    )
    assert result.exit_code == 0
    itself = result.stdout.split('"Warehouse agent", the agent itself', 1)[1]
    assert itself.splitlines()[1] == f"#   file: {OWN}"
    assert "in its own solution" not in result.stdout
    assert (ORDERS / OWN).is_file()

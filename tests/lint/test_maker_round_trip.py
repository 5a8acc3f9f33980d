"""The maker flow of docs/instructions.md on a real workspace (Microsoft's banking sample, with
child agents named with spaces, a connected agent and an external one): the starter config keeps
each agent's Copilot Studio name, file and kind, and the fragments it gives follow them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ruamel.yaml import YAML

from harness.cli import cli
from harness.lint import lint_paths
from harness.lint.starter import copilot_studio_sources, starter_configs
from tests.lint.conftest import LINT

WORKSPACE = LINT / "copilot-studio-vscode" / "WorkspaceWithSubAgents"


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def starter() -> str:
    (config,) = starter_configs([WORKSPACE])
    return config


@pytest.fixture(scope="module")
def fragments(starter: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    config = tmp_path_factory.mktemp("maker") / "agents.yaml"
    config.write_text(starter, encoding="utf-8")
    result = _run("instructions", str(config), "--format", "copilot-studio")
    assert result.exit_code == 0, result.output
    return result.stdout


# -- F1: an external agent stays external ------------------------------------------------------


def test_the_starter_marks_an_external_agent(starter: str) -> None:
    line = next(x for x in starter.splitlines() if "Car_Loan_SME_Agent" in x)
    assert "external agent" in line
    assert "kind: connected  # an external agent (InvokeExternalAgentTaskAction)" in starter


def test_an_external_agent_gets_no_connected_agent_task_dialog(fragments: str) -> None:
    external = fragments.split('# External agent "Car Loan SME Agent"')[1].split("---")[0]
    assert "keep it as it is" in external
    assert "Car Loan SME Agent" not in fragments.split("InvokeConnectedAgentTaskAction")[-1]
    assert "<schema name of the Car" not in fragments
    documents = [d for d in YAML(typ="safe").load_all(fragments) if d]
    names = [d.get("modelDisplayName") for d in documents]
    assert names.count("Contoso Mortgages") == 1
    assert "Car Loan SME Agent" not in names


def test_the_pasted_parent_instructions_clear_hc001_for_the_external_agent(
    fragments: str, tmp_path: Path
) -> None:
    """What the lint asks for an external agent (a sentence naming it in the parent) is what the
    fragments give: pasted as told, the finding is gone."""
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root)
    before = {f.agent for f in lint_paths([root]).findings if f.id == "HC001"}
    assert "Car Loan SME Agent" in before
    parent = next(d for d in YAML(typ="safe").load_all(fragments) if d and "instructions" in d)
    yaml = YAML(typ="rt")
    agent_file = root / "agent.mcs.yml"
    data = yaml.load(agent_file.read_text(encoding="utf-8"))
    data["instructions"] = parent["instructions"]
    with agent_file.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    after = {f.agent for f in lint_paths([root]).findings if f.id in ("HC001", "HC010")}
    assert "Car Loan SME Agent" not in after
    assert "Contoso Checking" not in after  # the parent checks answered now (HC010)


def test_the_external_agent_kept_as_it_is_gets_no_answered_hint_warning() -> None:
    # Its fragment says to keep its TaskDialog as it is: HC009 must not ask for an answered hint
    # an agent without outputs cannot have.
    hc009 = {f.agent for f in lint_paths([WORKSPACE]).findings if f.id == "HC009"}
    assert "Car Loan SME Agent" not in hc009
    assert hc009  # the other agents' descriptions are still checked


# -- F2: names with spaces keep their Copilot Studio name and file -----------------------------


def test_the_starter_keeps_each_agents_copilot_studio_name_and_file(starter: str) -> None:
    sources = copilot_studio_sources(starter)
    assert sources["Balance_Agent"].name == "Balance Agent"
    assert sources["Balance_Agent"].file == "agents/Balance Agent/agent.mcs.yml"
    assert sources["Car_Loan_SME_Agent"].name == "Car Loan SME Agent"
    assert sources["Car_Loan_SME_Agent"].file == "actions/CarLoansSME.mcs.yml"
    assert sources["Car_Loan_SME_Agent"].external
    assert sources["Contoso_Mortgages"].file == (
        "actions/crd1c_agent.component.ContosoMortgages.mcs.yml"
    )
    assert not sources["Contoso_Mortgages"].external
    assert sources["Contoso Checking"].name == "Contoso Checking"  # componentName, not the folder
    assert sources["Contoso Checking"].file == "agent.mcs.yml"


def test_fragments_name_real_files_and_the_makers_display_names(fragments: str) -> None:
    for file in (
        "agents/Balance Agent/agent.mcs.yml",
        "agents/Lost or Stolen Card/agent.mcs.yml",
        "actions/CarLoansSME.mcs.yml",
        "actions/crd1c_agent.component.ContosoMortgages.mcs.yml",
    ):
        assert f"#   file: {file}\n" in fragments
        assert (WORKSPACE / file).is_file()
    assert "_Agent" not in fragments  # no underscored name, in a comment or a text
    assert "Lost_or_Stolen" not in fragments
    assert "modelDisplayName: Contoso Mortgages\n" in fragments
    assert "`Balance Agent`" in fragments  # the parent names its agents as the maker does
    assert "You are Balance Agent, a sub-agent." in fragments


def test_a_config_without_the_comments_keeps_the_placeholders(tmp_path: Path) -> None:
    config = tmp_path / "agents.yaml"
    config.write_text(
        "parent:\n  name: Bank\nsubagents:\n  - name: Balance_Agent\n    kind: child\n"
        "    mode: direct\n  - name: Loans\n    kind: connected\n    mode: direct\n",
        encoding="utf-8",
    )
    assert copilot_studio_sources(config.read_text(encoding="utf-8")) == {}
    out = _run("instructions", str(config), "--format", "copilot-studio").stdout
    assert "VS Code extension: agents/Balance_Agent/agent.mcs.yml" in out
    assert "botSchemaName: <schema name of the Loans agent>" in out


def test_a_renamed_agent_keeps_its_source(starter: str, tmp_path: Path) -> None:
    """The comment follows the name line, so a maker who renames the agent in the config keeps
    the fragment pointing at the same Copilot Studio agent; --agent takes the config's name."""
    config = tmp_path / "agents.yaml"
    config.write_text(starter.replace("name: Balance_Agent ", "name: balance "), encoding="utf-8")
    out = _run("instructions", str(config), "--format", "copilot-studio", "--agent", "balance")
    assert out.exit_code == 0, out.output
    assert '# Child agent "Balance Agent" (kind: AgentDialog)' in out.stdout
    assert "#   file: agents/Balance Agent/agent.mcs.yml" in out.stdout


# -- F13: agents that ask the user questions: a hint, not a mode ------------------------------


def test_agents_that_ask_the_user_questions_keep_their_mode_with_a_hint(starter: str) -> None:
    entries = YAML(typ="safe").load(starter)["subagents"]
    modes = {e["name"]: e["mode"] for e in entries}
    assert modes["Balance_Agent"] == "direct"
    assert modes["Transfer_Funds"] == "direct"
    assert modes["Lost_or_Stolen_Card"] == "direct"
    line = next(x for x in starter.splitlines() if x.strip().startswith("mode:") and "ask" in x)
    assert "its instructions ask the user questions: conversational may fit" in line
    assert all(mode in line for mode in ("silent", "direct", "conversational"))


SUB_AGENT = """\
kind: AgentDialog
displayName: SubAgent
beginDialog:
  kind: OnToolSelected
  id: main
  description: Cancels orders.
settings:
  instructions: |-
    Cancel the order with the cancel tool. If the user has not said which order, ask them for its
    number. Confirm to the user that the order was cancelled and give its reference.
inputs:
  - kind: AutomaticTaskInput
    propertyName: scopedRequest
    description: The specific request this agent should fulfil.
inputType:
  properties:
    scopedRequest: {displayName: scopedRequest, type: String, isRequired: true}
outputType:
  properties:
    answered: {displayName: answered, type: Boolean, isRequired: true}
    interactionSummary: {displayName: interactionSummary, type: String, isRequired: true}
"""


def test_a_one_shot_agent_that_asks_once_stays_direct_for_lint(tmp_path: Path) -> None:
    # Asking once does not make an agent conversational: lint keeps the direct mode its outputs
    # declare (no HC003 for a missing scopedRequest), and the starter only hints.
    workspace = tmp_path / "orders"
    shutil.copytree(LINT / "copilot-studio-vscode" / "connected-workspace", workspace)
    (workspace / "agents" / "SubAgent" / "agent.mcs.yml").write_text(SUB_AGENT, encoding="utf-8")
    assert not [f for f in lint_paths([workspace]).findings if f.id == "HC003"]
    (config,) = starter_configs([workspace])
    entry = next(e for e in YAML(typ="safe").load(config)["subagents"] if e["name"] == "SubAgent")
    assert entry["mode"] == "direct"
    assert "conversational may fit" in config


def test_the_assumed_mode_names_all_three_modes(tmp_path: Path) -> None:
    (config,) = starter_configs([LINT / "workspace"])
    assumed = [x for x in config.splitlines() if "# assumed: Copilot Studio has no mode" in x]
    assert assumed, config
    assert all("silent" in x and "conversational" in x for x in assumed)


# -- the starter goes to stdout or -o, and the hint saves it with -o ------------------------------


def test_the_starter_goes_to_stdout_and_the_explanation_to_stderr() -> None:
    result = _run("instructions", str(WORKSPACE))
    assert result.exit_code == 2
    assert result.stdout.startswith("parent:\n")
    assert YAML(typ="safe").load(result.stdout)["parent"]["name"] == "Contoso Checking"
    assert result.stderr.startswith("error: ")
    # -o, not `>`: in Windows PowerShell 5.1, `>` writes UTF-16
    assert f"`harness instructions {WORKSPACE} -o agents.yaml`" in result.stderr
    assert ">" not in result.stderr
    assert "parent:" not in result.stderr


def test_the_starter_can_be_written_with_o(tmp_path: Path) -> None:
    target = tmp_path / "bank.yaml"
    result = _run("instructions", str(WORKSPACE), "-o", str(target))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"written to {target}" in result.stderr
    assert f"`harness instructions {target} --format copilot-studio`" in result.stderr
    assert YAML(typ="safe").load(target.read_text(encoding="utf-8"))["subagents"]


def test_several_parents_give_one_document_each_on_stdout() -> None:
    folder = LINT.parents[2] / "docs" / "examples" / "copilot-studio"
    result = _run("instructions", str(folder))
    assert result.exit_code == 2
    documents = list(YAML(typ="safe").load_all(result.stdout))
    assert len(documents) == 3
    assert all(d["parent"]["name"] and d["subagents"] for d in documents)
    assert "(agents-1.yaml, agents-2.yaml, agents-3.yaml)" in result.stderr


# -- a ConnectedAgentTool (newer layouts): no file the fragments cannot be pasted into ---------


@pytest.mark.parametrize(
    "workspace",
    [
        LINT / "copilot-studio-vscode" / "CliAgentFixtures" / "FoodLogger",
        LINT / "newer" / "workspaces",
    ],
)
def test_a_connected_agent_tool_gets_the_classic_fragment_with_a_placeholder(
    workspace: Path, tmp_path: Path
) -> None:
    (config,) = starter_configs([workspace])
    assert ", ConnectedAgentTool, " in config
    path = tmp_path / "agents.yaml"
    path.write_text(config, encoding="utf-8")
    result = _run("instructions", str(path), "--format", "copilot-studio")
    assert result.exit_code == 0, result.output
    assert "Keep its action.botSchemaName" not in result.stdout
    assert "#   file: " not in result.stdout  # neither botdefinition.json nor settings.mcs.yml
    assert "botSchemaName: <schema name of the " in result.stdout
    assert "#   VS Code extension: actions/" in result.stdout


def test_sources_name_only_files_a_fragment_is_pasted_into() -> None:
    sources = copilot_studio_sources(
        'parent:\n  name: P  # Copilot Studio: "P", settings.mcs.yml\n'
        "subagents:\n"
        '  - name: A  # Copilot Studio: "A", ConnectedAgentTool, tools/a.mcs.yml\n'
        '  - name: B  # Copilot Studio: "B", external agent, actions/B.mcs.yml\n'
        '  - name: C  # Copilot Studio: "C", agents/C/agent.mcs.yml\n'
        '  - name: D  # Copilot Studio: "D", bot/botdefinition.json\n'
    )
    assert sources["P"].file == ""
    assert (sources["A"].file, sources["A"].external) == ("", False)
    assert (sources["B"].file, sources["B"].external) == ("actions/B.mcs.yml", True)
    assert sources["C"].file == "agents/C/agent.mcs.yml"
    assert sources["D"].file == ""


def test_a_source_path_with_a_semicolon_is_read_whole() -> None:
    # Review of s60-fixlint, item 7: a ';' in a path made the whole comment unreadable.
    sources = copilot_studio_sources(
        'parent:\n  name: P  # Copilot Studio: "P", agent.mcs.yml\n'
        "subagents:\n"
        '  - name: C  # Copilot Studio: "C", agents/C;v2/agent.mcs.yml\n'
        '  - name: W  # Copilot Studio: "W", botcomponents/x.Invoke;W/data; its own file: '
        "botcomponents/y;z.gpt.default/data\n"
    )
    assert sources["C"].file == "agents/C;v2/agent.mcs.yml"
    assert sources["W"].file == "botcomponents/x.Invoke;W/data"
    assert sources["W"].own_file == "botcomponents/y;z.gpt.default/data"


# -- a stdout in a code page (Windows' `>`): UTF-8 bytes, not a UnicodeEncodeError ------------


def test_the_starter_on_a_code_page_stdout_is_written_as_utf8() -> None:
    # The parent's instructions hold U+200B/U+200C, which cp1252 cannot encode.
    workspace = LINT / "copilot-studio-vscode" / "CliAgentFixtures" / "FoodLogger"
    result = CliRunner(charset="cp1252").invoke(
        cli, ["instructions", str(workspace)], catch_exceptions=False
    )
    assert result.exit_code == 2, result.output
    config = YAML(typ="safe").load(result.stdout_bytes.decode("utf-8"))
    assert "\u200b" in config["parent"]["instructions"]


def test_a_workspace_given_as_dot_names_its_parent_after_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "Orders"
    shutil.copytree(LINT / "copilot-studio-vscode" / "connected-workspace", root)
    monkeypatch.chdir(root)
    (config,) = starter_configs(["."])
    assert YAML(typ="safe").load(config)["parent"]["name"] == "Orders"


def test_starter_names_compose_accents_and_never_repeat_the_parent(tmp_path: Path) -> None:
    root = tmp_path / "SubAgent"  # the workspace folder, so the parent, named like its child
    shutil.copytree(LINT / "copilot-studio-vscode" / "connected-workspace", root)
    shutil.copytree(root / "agents" / "SubAgent", root / "agents" / "Re\u0301servation")
    (config,) = starter_configs([root])
    document = YAML(typ="safe").load(config)
    names = [e["name"] for e in document["subagents"]]
    assert sorted(names) == ["R\u00e9servation", "SubAgent_2"]
    assert document["parent"]["name"] == "SubAgent"
    assert len(copilot_studio_sources(config)) == 3  # the parent's file is not overwritten


# -- audit s59: pasting every fragment adds no HC013 ------------------------------------------


def _merge(into: dict[str, object], fragment: dict[str, object]) -> None:
    for key, value in fragment.items():
        inner = into.get(key)
        if isinstance(value, dict) and isinstance(inner, dict):
            _merge(inner, value)
        else:
            into[key] = value


def test_pasting_every_fragment_adds_no_overlapping_descriptions(
    fragments: str, tmp_path: Path
) -> None:
    """The generated hint each fragment appends to a description ("It answers the user directly.
    If its answered output is true, ...") is the same for every agent of a mode; HC013 compares
    the maker's routing sentences only, so following the maker flow adds no warning."""
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root)
    assert not [f for f in lint_paths([root]).findings if f.id == "HC013"]
    yaml = YAML(typ="rt")
    pasted = 0
    for document in fragments.split("\n---\n"):
        named = [x for x in document.splitlines() if x.startswith("#   file: ")]
        body = YAML(typ="safe").load(document)
        if not named or not body:
            continue
        path = root / named[0].removeprefix("#   file: ").strip()
        data = yaml.load(path.read_text(encoding="utf-8"))
        _merge(data, body)
        with path.open("w", encoding="utf-8") as out:
            yaml.dump(data, out)
        pasted += 1
    assert pasted >= 4
    after = lint_paths([root]).findings
    assert not [f for f in after if f.id == "HC013"], [f.message for f in after]

"""Copilot Studio's newer layouts, external agents, botdefinition.json caches, and HC101.

Real files: Microsoft's VS Code extension test data (``fixtures/lint/copilot-studio-vscode``, MIT).
Written from the formats: ``fixtures/lint/newer`` (two newer workspaces' worth of bots and two
newer solution exports, each a parent with connected agents).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from harness.cli.lint import lint_command
from harness.lint import LintFinding, lint_paths
from tests.lint.conftest import LINT, Writer, ids

VSCODE = LINT / "copilot-studio-vscode"
NEWER = LINT / "newer"


def _found(findings: tuple[LintFinding, ...]) -> set[tuple[str, str | None, str]]:
    """(file under the fixture folder, agent, rule id) of each finding."""
    return {(f.file.split("/lint/", 1)[-1], f.agent, f.id) for f in findings}


def test_newer_workspaces_read_settings_and_connected_agent_tools() -> None:
    report = lint_paths([NEWER / "workspaces"])
    ws = "newer/workspaces"
    assert _found(report.findings) == {
        # The parent's instructions are segments under configuration.agentSettings.
        (f"{ws}/Concierge/settings.mcs.yml", "Insurance Concierge", "HC010"),
        # A ConnectedAgentTool declares no inputs or outputs; history is on.
        (f"{ws}/Concierge/capabilities/tools/crab1_claims.mcs.yml", "Claims assistant", "HC001"),
        (f"{ws}/Concierge/capabilities/tools/crab1_claims.mcs.yml", "Claims assistant", "HC004"),
        (f"{ws}/Concierge/capabilities/tools/crab1_claims.mcs.yml", "Claims assistant", "HC009"),
        # Its own instructions come from its own workspace (linked by botSchemaName).
        (f"{ws}/ClaimsAssistant/settings.mcs.yml", "Claims assistant", "HC005"),
        # Billing: history off and a description with the answered hint; silent by its
        # instructions ("Do not respond to the policyholder"), which also tell it to explain the
        # refund to the policyholder.
        (f"{ws}/Concierge/capabilities/tools/crab1_billing.mcs.yml", "Billing agent", "HC001"),
        (f"{ws}/BillingAgent/settings.mcs.yml", "Billing agent", "HC016"),
    }
    assert report.agents == 5


def test_connected_agent_tool_messages_say_what_that_layout_allows() -> None:
    findings = lint_paths([NEWER / "workspaces"]).findings
    by_key = {(f.agent, f.id): f.message for f in findings}
    claims_outputs = by_key[("Claims assistant", "HC001")]
    assert "a ConnectedAgentTool (it has only botSchemaName and historyType) cannot declare" in (
        claims_outputs
    )
    assert "answers the user itself" in claims_outputs
    assert "InvokeConnectedAgentTaskAction" in claims_outputs
    billing_outputs = by_key[("Billing agent", "HC001")]
    assert "never talks to the user" in billing_outputs
    history = by_key[("Claims assistant", "HC004")]
    assert "historyType: {kind: NoHistory}" in history
    assert "Add the 'scopedRequest' input" not in history


def test_newer_solution_exports_read_bots_and_connected_agent_components() -> None:
    report = lint_paths([NEWER / "solutions"])
    travel = "newer/solutions/travel-desk"
    hr = "newer/solutions/hr-desk"
    flights = f"{travel}/botcomponents/crab2_TravelDesk.tool.connected-agent.crab2_Flights"
    hotels = f"{travel}/botcomponents/crab2_TravelDesk.tool.connected-agent.crab2_Hotels"
    payroll = f"{hr}/botcomponents/crab3_HRDesk.tool.connected-agent.crab3_Payroll"
    benefits = f"{hr}/botcomponents/crab3_HRDesk.tool.connected-agent.crab3_Benefits"
    assert _found(report.findings) == {
        # Travel desk: two connected agents with history, no scopedRequest input, no outputs, and
        # a parent that never checks answered.
        (f"{travel}/bots/crab2_TravelDesk/configuration.json", "crab2_TravelDesk", "HC010"),
        (f"{flights}/data", "Flights agent", "HC001"),
        (f"{flights}/data", "Flights agent", "HC004"),
        (f"{flights}/botcomponent.xml", "Flights agent", "HC009"),
        (f"{travel}/bots/crab2_Flights/configuration.json", "Flights agent", "HC005"),
        (f"{hotels}/data", "Hotels agent", "HC001"),
        (f"{hotels}/data", "Hotels agent", "HC004"),
        (f"{hotels}/botcomponent.xml", "Hotels agent", "HC009"),
        (f"{travel}/bots/crab2_Hotels/configuration.json", "Hotels agent", "HC005"),
        # HR desk: the parent checks answered; the descriptions carry the hint.
        (f"{payroll}/data", "Payroll agent", "HC001"),
        (f"{hr}/bots/crab3_Payroll/configuration.json", "Payroll agent", "HC016"),
        (f"{benefits}/data", "Benefits agent", "HC001"),
        (f"{benefits}/data", "Benefits agent", "HC004"),
    }
    # Three bots per solution: the parent and its two connected agents' own bots.
    assert report.agents == 10


def test_a_power_fx_reference_does_not_make_an_agent_silent() -> None:
    # "...{System.Bot.Components.Tools.'crab2_Hotels.tool.Availability'.DisplayName} tool, if it
    # does not have a room, tell the traveller and you're done": direct, not silent.
    findings = lint_paths([NEWER / "solutions" / "travel-desk"]).findings
    hotels = next(f for f in findings if f.agent == "Hotels agent" and f.id == "HC001")
    assert "As a direct agent" in hotels.message
    assert "'answered' and 'interactionSummary'" in hotels.message


def test_the_real_workspace_with_sub_agents_reads_connected_and_external_agents() -> None:
    report = lint_paths([VSCODE / "WorkspaceWithSubAgents"])
    agents = {f.agent for f in report.findings}
    assert {"Contoso Mortgages", "Car Loan SME Agent", "Transfer Funds"} <= agents
    # Parent, three child agents, one connected and one external agent; the .mcs cache is left
    # alone (hidden folder).
    assert report.agents == 6
    assert not any(".mcs/" in f.file for f in report.findings)
    # "Transfer Funds" says "...{System.Bot.Components.Actions.'...'.DisplayName} tool, if it does
    # not tell the user and you're done": a direct agent, so no silent-agent advice.
    transfer = [f for f in report.findings if f.agent == "Transfer Funds"]
    assert sorted(ids(transfer)) == ["HC001", "HC004", "HC005", "HC009"]
    hint = next(f for f in transfer if f.id == "HC009")
    assert "If its answered output is true" in hint.message
    # The external agent (InvokeExternalAgentTaskAction over the Activity protocol): no outputs
    # can be declared; its history is not documented as on, so no HC004; and no HC009, as it has
    # no answered output for its description to explain.
    external = [f for f in report.findings if f.agent == "Car Loan SME Agent"]
    assert sorted(ids(external)) == ["HC001"]
    assert "an external agent (InvokeExternalAgentTaskAction) cannot declare" in external[0].message


def test_bot_definition_caches_are_read_and_linked() -> None:
    report = lint_paths([VSCODE / "CliAgentFixtures"])
    found = {(Path(f.file).parent.name, f.agent, f.id) for f in report.findings}
    assert found == {
        ("FoodLogger", "FoodLogger", "HC010"),
        ("FoodLogger", "BrandSpecialist", "HC001"),
        ("FoodLogger", "BrandSpecialist", "HC004"),
        ("FoodLogger", "BrandSpecialist", "HC009"),
        # BrandSpecialist's own instructions, from its own botdefinition.json.
        ("BrandSpecialist", "BrandSpecialist", "HC005"),
    }
    # FoodLogger + its connected agent, BrandSpecialist, HR Agent (a classic bot, no sub-agents).
    assert report.agents == 4
    assert report.files == 3


def test_a_workspace_cache_is_read_when_given() -> None:
    report = lint_paths([VSCODE / "WorkspaceWithSubAgents" / ".mcs" / "botdefinition.json"])
    assert report.agents >= 2
    assert "HC100" not in ids(report.findings)


def test_the_newer_layout_without_agents_is_recognised() -> None:
    report = lint_paths([VSCODE / "PackagedSkillWorkspace"])
    assert report.findings == ()
    assert report.agents == 1


def test_mcp_servers_are_not_agents(write: Writer, tmp_path: Path) -> None:
    write("ws/agent.mcs.yml", "kind: GptComponentMetadata\ninstructions: Check answered output.\n")
    write(
        "ws/actions/Mcp.mcs.yml",
        """\
        kind: TaskDialog
        modelDisplayName: Orders MCP
        action:
          kind: InvokeExternalAgentTaskAction
          connectionReference: x
          operationDetails:
            kind: ModelContextProtocolMetadata
            operationId: mcp
        """,
    )
    report = lint_paths([tmp_path / "ws"])
    assert report.agents == 1
    assert report.findings == ()


def test_a_folder_of_unrelated_yaml_is_an_error(write: Writer, tmp_path: Path) -> None:
    write("ci/workflow.yml", "on: [push]\njobs: {}\n")
    write("ci/notes.yaml", "title: notes\n")
    findings = lint_paths([tmp_path / "ci"]).findings
    assert ids(findings) == ["HC101"]
    message = findings[0].message
    for layout in ("parent", "agent.mcs.yml", "settings.mcs.yml", "botcomponents", "bots/"):
        assert layout in message
    result = CliRunner().invoke(lint_command, [str(tmp_path / "ci")])
    assert result.exit_code == 1
    assert "ci:1:1: HC101 error no agent config recognised here" in result.output


def test_hc101_survives_select_unless_ignored(write: Writer, tmp_path: Path) -> None:
    write("empty/readme.yaml", "a: 1\n")
    assert ids(lint_paths([tmp_path / "empty"], select=["HC004"]).findings) == ["HC101"]
    assert ids(lint_paths([tmp_path / "empty"], ignore=["nothing-recognised"]).findings) == []


def test_the_same_folder_twice_is_linted_once() -> None:
    report = lint_paths([NEWER / "workspaces", NEWER / "workspaces"])
    assert "HC101" not in ids(report.findings)


def test_a_connected_agent_tool_under_an_action_folder_is_read(
    write: Writer, tmp_path: Path
) -> None:
    # Some newer exports name the component <bot>.action.<child>; its kind decides.
    folder = "export/botcomponents/cr9_Desk.action.cr9_Child_x1Y"
    write(f"{folder}/data", "kind: ConnectedAgentTool\nbotSchemaName: cr9_Child\n")
    write(
        f"{folder}/botcomponent.xml",
        "<botcomponent>\n  <description>Answers questions about &amp; around leave.</description>\n"
        "  <name>Leave agent</name>\n</botcomponent>\n",
    )
    write(
        "export/bots/cr9_Desk/configuration.json",
        '{"agentSettings": {"instructions": "Check the answered output of each agent."}}',
    )
    findings = lint_paths([tmp_path / "export"]).findings
    assert {(f.agent, f.id) for f in findings} == {
        ("Leave agent", "HC001"),
        ("Leave agent", "HC004"),
        ("Leave agent", "HC009"),
    }
    hint = next(f for f in findings if f.id == "HC009")
    assert hint.file.endswith("botcomponent.xml")
    assert hint.line == 2

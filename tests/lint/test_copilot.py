"""Copilot Studio: real exported solutions and templates, a workspace, and the CS-only rules."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from harness.lint import LintFinding, lint_paths
from tests.lint.conftest import COPILOT, LINT, Writer, ids

SOLUTIONS = COPILOT / "solutions"
WORKSPACE = LINT / "workspace" / "Helpdesk"


def _by_agent(findings: tuple[LintFinding, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in findings:
        out.setdefault(f"{Path(f.file).parent.name}:{f.agent}", []).append(f.id)
    return {k: sorted(v) for k, v in out.items()}


def test_real_solutions_get_the_findings_a_reviewer_expects() -> None:
    report = lint_paths([SOLUTIONS])
    found = _by_agent(report.findings)
    child = ["HC001", "HC004", "HC005", "HC009"]
    assert found == {
        # account-contact-lookup: two child agents with `outputType: {}` and `inputType: {}`.
        "copilots_header_cref7_LookupDataAgent.agent.Agent:Agent": child,
        "copilots_header_cref7_LookupDataAgent.agent.Agent_N-H:Agent_N-H": child,
        "copilots_header_cref7_LookupDataAgent.gpt.default:copilots_header_cref7_LookupDataAgent": [
            "HC010"
        ],
        # resume-job-finder: one child agent, same faults.
        "cref7_resumeJobMatchAssistant.agent.Agent:Agent": child,
        "cref7_resumeJobMatchAssistant.gpt.default:cref7_resumeJobMatchAssistant": ["HC010"],
        # order-management: a connected agent passing history without a scoped input; its own
        # instructions (the Warehouseagent bot, also in the solution) are empty.
        "cr26e_OrdersAgent.InvokeConnectedAgentTaskAction.Warehouseagent:Warehouse agent": [
            "HC001",
            "HC004",
            "HC009",
        ],
        "cr26e_Warehouseagent.gpt.default:Warehouse agent": ["HC005"],
        "cr26e_OrdersAgent.gpt.default:cr26e_OrdersAgent": ["HC010"],
    }
    # Connector actions and the usual system topics are not agents; their files are not read. The
    # two MCP servers (InvokeExternalAgentTaskAction with ModelContextProtocolMetadata) are read
    # and found not to be agents.
    assert report.agents == 8
    assert report.files == 10


def test_the_sample_connected_agent_is_reported_for_history_without_scope() -> None:
    report = lint_paths([SOLUTIONS / "order-management"])
    hc004 = [f for f in report.findings if f.id == "HC004"]
    assert len(hc004) == 1
    assert hc004[0].agent == "Warehouse agent"
    assert "historyType" in hc004[0].message
    assert hc004[0].file.endswith("InvokeConnectedAgentTaskAction.Warehouseagent/data")


def test_child_agents_without_outputs_report_hc001_at_output_type() -> None:
    report = lint_paths([SOLUTIONS / "account-contact-lookup"])
    hc001 = [f for f in report.findings if f.id == "HC001"]
    assert [(f.agent, f.line) for f in hc001] == [("Agent", 15), ("Agent_N-H", 11)]
    assert "'answered' and 'interactionSummary'" in hc001[0].message
    assert "outputType.properties" in hc001[0].message


def test_a_single_solution_component_and_the_botcomponents_folder_can_be_linted() -> None:
    component = (
        SOLUTIONS
        / "account-contact-lookup"
        / "botcomponents"
        / "copilots_header_cref7_LookupDataAgent.agent.Agent"
        / "data"
    )
    assert ids(lint_paths([component]).findings) == ["HC009", "HC005", "HC004", "HC001"]
    folder = lint_paths([SOLUTIONS / "resume-job-finder" / "botcomponents"])
    assert Counter(ids(folder.findings)) == Counter(["HC001", "HC004", "HC005", "HC009", "HC010"])


def test_templates_lint_without_the_invalid_variable_template() -> None:
    report = lint_paths([COPILOT / "templates"])
    found = _by_agent(report.findings)
    assert found == {
        "agents:<Agent Name>": ["HC010"],  # its mcs.metadata.componentName
        "agents:child-agent": ["HC002", "HC003", "HC004", "HC005", "HC009"],
    }
    assert all("variable" not in f.file for f in report.findings)


def test_workspace_layout() -> None:
    report = lint_paths([WORKSPACE])
    assert _by_agent(report.findings) == {
        # HC020: the two children declare scopedRequest in inputType only.
        "actions:Warehouse agent": ["HC014", "HC014"],
        "Benefits:Benefits": ["HC002", "HC003", "HC006", "HC009", "HC015", "HC020"],
        "Travel:Travel": ["HC012", "HC020"],
    }
    # Parent, three child agents and the connected agent; topics and variables are not read.
    assert report.agents == 5
    assert report.files == 5


def test_hc014_points_at_each_misplaced_key() -> None:
    findings = [f for f in lint_paths([WORKSPACE]).findings if f.id == "HC014"]
    assert [(f.line, "`inputType`" in f.message) for f in findings] == [(9, True), (16, False)]


def test_hc015_and_hc006_on_a_child_that_returns_findings_but_may_talk() -> None:
    findings = [f for f in lint_paths([WORKSPACE / "agents" / "Benefits"]).findings]
    by_id = {f.id: f for f in findings}
    assert by_id["HC015"].line == 7
    assert "returns findings like a silent agent" in by_id["HC006"].message
    assert "'openQuestions'" in by_id["HC003"].message


def test_a_child_whose_instructions_forbid_messages_is_silent(write: Writer) -> None:
    path = write(
        "agents/Lookup/agent.mcs.yml",
        """\
        kind: AgentDialog
        beginDialog:
          kind: OnToolSelected
          id: main
          description: Finds accounts. Its answered output is always false; relay its findings.
        settings:
          instructions: Handle the scopedRequest. Do not respond to the user.
        inputType:
          properties:
            scopedRequest: {description: The part of the request about accounts.}
        outputType:
          properties:
            answered: {description: Always false.}
            interactionSummary: {description: What it said.}
        """,
    )
    findings = lint_paths([path], ignore=["HC020"]).findings
    assert ids(findings) == ["HC003"]
    assert "'findings' and 'openQuestions'" in findings[0].message
    assert "instructions forbid messaging" in findings[0].message


def test_connected_agent_takes_the_called_agents_instructions(write: Writer) -> None:
    write(
        "sol/botcomponents/cr1_parent.gpt.default/data",
        """\
        kind: GptComponentMetadata
        instructions: Check the answered output of every agent before you reply.
        """,
    )
    write(
        "sol/botcomponents/cr1_parent.InvokeConnectedAgentTaskAction.Stock/data",
        """\
        kind: TaskDialog
        modelDisplayName: Stock agent
        modelDescription: Checks stock. Its answered output is always false; relay its findings.
        action:
          kind: InvokeConnectedAgentTaskAction
          botSchemaName: cr1_stock
          historyType:
            kind: NoHistory
        outputs:
          - propertyName: answered
            description: Always false.
          - propertyName: findings
            description: The stock level.
        """,
    )
    called = write(
        "sol/botcomponents/cr1_stock.gpt.default/data",
        """\
        kind: GptComponentMetadata
        instructions: Never message the user directly. Look up the stock level.
        """,
    )
    findings = lint_paths([called.parents[2]]).findings
    # Silent (its own instructions forbid messages): openQuestions missing; not anchored.
    assert ids(findings) == ["HC003", "HC005"]
    assert "'openQuestions'" in findings[0].message
    assert findings[1].file.endswith("cr1_stock.gpt.default/data")


def test_connected_agent_without_its_own_files_is_not_judged_on_instructions(
    write: Writer,
) -> None:
    path = write(
        "actions/Remote.mcs.yml",
        """\
        kind: TaskDialog
        modelDisplayName: Remote
        modelDescription: Does remote things. If answered is true the user has the answer already.
        action:
          kind: InvokeConnectedAgentTaskAction
          botSchemaName: cr9_remote
          inputType:
            properties:
              scopedRequest: {description: Its part of the request.}
          outputType:
            properties:
              Answered: {description: True when the user has the answer.}
              InteractionSummary: {description: What it said.}
        """,
    )
    assert lint_paths([path], ignore=["HC020"]).findings == ()


def test_hc007_and_hc013_on_copilot_studio_children(write: Writer) -> None:
    body = """\
        kind: AgentDialog
        beginDialog:
          kind: OnToolSelected
          id: main
          description: {description}
        settings:
          instructions: Answer the scopedRequest.
        inputType:
          properties:
            scopedRequest:
              displayName: Scoped request
              type: String
        outputType:
          properties:
            answered: {{description: True when the user has the answer.}}
            interactionSummary: {{description: What it told the user.}}
        """
    hint = "If its answered output is true, the user already has the answer."
    write(
        "ws/agent.mcs.yml",
        "kind: GptComponentMetadata\ninstructions: Check each agent's answered output.\n",
    )
    write(
        "ws/agents/Passwords/agent.mcs.yml",
        body.format(description=f"Resets passwords and unlocks accounts. {hint}"),
    )
    write(
        "ws/agents/Accounts/agent.mcs.yml",
        body.format(description=f"Unlocks accounts and resets passwords. {hint}"),
    )
    findings = lint_paths(
        [write("ws/settings.mcs.yml", "schemaName: cr1_ws\n").parent], ignore=["HC020"]
    ).findings
    assert sorted(ids(findings)) == ["HC007", "HC007", "HC013"]
    undocumented = [f for f in findings if f.id == "HC007"]
    assert all("'scopedRequest'" in f.message and f.line == 10 for f in undocumented)

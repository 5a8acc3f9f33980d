"""A Copilot Studio maker following the findings' advice can clear them (newer layouts).

The workspaces are copies of ``fixtures/lint/newer/workspaces`` whose parent's instructions a test
rewrites, as a maker would after reading HC001.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli.commands import instructions_command
from harness.cli.lint import lint_command
from harness.lint import lint_paths
from harness.lint.phrases import says_of_agent
from tests.lint.conftest import LINT

REPO = Path(__file__).resolve().parents[2]
WORKSPACES = LINT / "newer" / "workspaces"
PARENT = "Concierge/settings.mcs.yml"
OWN = (
    "You help policyholders of Contoso Insurance with claims and billing.\n"
    "Send claim questions to the {System.Bot.Components.Tools."
    "'crab1_concierge.tool.connected-agent.crab1_claims'.DisplayName} tool and billing "
    "questions to the billing agent."
)


def _workspace(tmp_path: Path, *sentences: str) -> Path:
    """A copy of the newer workspaces whose parent's instructions end with ``sentences``."""
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACES, root)
    settings = root / PARENT
    text = settings.read_text(encoding="utf-8")
    start = text.index("            You help")
    end = text.index("template:")
    lines = [OWN, *sentences]
    block = "".join(f"            {line}\n" for text_ in lines for line in text_.splitlines())
    settings.write_text(text[:start] + block + text[end:], encoding="utf-8")
    return root


def _hc001(root: Path) -> dict[str | None, str]:
    return {f.agent: f.message for f in lint_paths([root]).findings if f.id == "HC001"}


def test_hc001_fires_without_a_statement_about_the_agent(tmp_path: Path) -> None:
    assert set(_hc001(_workspace(tmp_path))) == {"Claims assistant", "Billing agent"}


def test_the_remedy_hc001_gives_clears_it(tmp_path: Path) -> None:
    """Each agent's own sentence, as the finding words it, clears that agent's finding only."""
    before = _hc001(_workspace(tmp_path / "a"))
    billing = before["Billing agent"].split('in a sentence that names it: "')[1].split('"')[0]
    claims = before["Claims assistant"].split('in a sentence that names it: "')[1].split('"')[0]
    assert set(_hc001(_workspace(tmp_path / "b", billing + "."))) == {"Claims assistant"}
    assert set(_hc001(_workspace(tmp_path / "c", claims + "."))) == {"Billing agent"}
    assert _hc001(_workspace(tmp_path / "d", billing + ".", claims + ".")) == {}


@pytest.mark.parametrize(
    "sentence",
    [
        "The claims assistant replies to the policyholder directly, so say nothing more on claims.",
        "Here, `Claims_assistant` talks to the user directly.",
        "The {System.Bot.Components.Tools.'crab1_concierge.tool.connected-agent.crab1_claims'"
        ".DisplayName} tool answers the customer itself.",
    ],
)
def test_other_wordings_of_the_statement_count(tmp_path: Path, sentence: str) -> None:
    assert "Claims assistant" not in _hc001(_workspace(tmp_path, sentence))


@pytest.mark.parametrize(
    "sentence",
    [
        # About sub-agents in general, or another agent.
        "Sub-agents never talk to the policyholder.",
        "The refunds agent never talks to the policyholder.",
        # The agent is not the one who acts: the parent is told to keep quiet.
        "Send refund questions to the billing agent and do not reply to the customer yourself.",
        # Only under a condition.
        "If a payment is disputed, the billing agent never talks to the customer.",
    ],
)
def test_statements_not_about_that_agent_do_not_count(tmp_path: Path, sentence: str) -> None:
    assert "Billing agent" in _hc001(_workspace(tmp_path, sentence))


def test_a_statement_against_the_agents_own_instructions_is_named(tmp_path: Path) -> None:
    """The billing agent's instructions forbid messaging the user; saying it answers the user
    itself does not clear its finding, and the finding says why."""
    found = _hc001(_workspace(tmp_path, "The billing agent answers the customer itself."))
    assert (
        "The parent's instructions say that 'Billing agent' answers the user itself"
        in (found["Billing agent"])
    )


def test_a_parent_told_to_repeat_everything_keeps_the_finding(tmp_path: Path) -> None:
    found = _hc001(
        _workspace(
            tmp_path,
            "The claims assistant answers the customer itself.",
            "At the end, summarise every answer the sub-agents gave.",
        )
    )
    assert "Claims assistant" in found


def test_says_of_agent_reads_the_named_subject_only() -> None:
    names = ["Stock checker", "crab9_stock"]
    assert says_of_agent("The stock checker never messages the shopper.", names) == {"silence"}
    assert says_of_agent("Stock_checker's replies are for you to relay.", names) == {"silence"}
    assert says_of_agent("The stock checker tells the shopper itself.", names) == {"address"}
    assert says_of_agent("Ask the stock checker, then never message the shopper.", names) == set()
    assert says_of_agent("The stock checker never messages the shopper.", ["Orders"]) == set()


def test_hc005_for_a_connected_agent_tool_quotes_an_anchor_it_can_follow(tmp_path: Path) -> None:
    """A ConnectedAgentTool passes no scopedRequest input, so the advice must not name one, and
    the sentence it quotes clears the finding when added to the agent's own instructions."""
    root = _workspace(tmp_path)
    found = {f.agent: f.message for f in lint_paths([root]).findings if f.id == "HC005"}
    message = found["Claims assistant"]
    assert "scopedRequest input" not in message
    anchor = message.rsplit(': "', 1)[1].rstrip('".')
    own = root / "ClaimsAssistant" / "settings.mcs.yml"
    text = own.read_text(encoding="utf-8")
    marker = "            Explain"
    own.write_text(text.replace(marker, f"            {anchor}.\n{marker}", 1), encoding="utf-8")
    assert not [f for f in lint_paths([root]).findings if f.id == "HC005"]


def test_fix_on_copilot_studio_files_says_they_are_left_alone(tmp_path: Path) -> None:
    """`--fix` on an export used to say nothing; it now says why nothing changed and what to do."""
    root = tmp_path / "solution"
    shutil.copytree(REPO / "docs/examples/copilot-studio/solution", root)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = CliRunner().invoke(lint_command, [str(root), "--fix"])
    assert result.exit_code == 1
    notes = [line for line in result.stderr.splitlines() if line.startswith("--fix")]
    assert len(notes) == 1  # one line, whatever the number of files
    assert "--fix left 2 Copilot Studio files unchanged" in notes[0]
    assert "--format copilot-studio" in notes[0]
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_fix_on_this_sdks_yaml_says_nothing_about_copilot_studio(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    shutil.copy(REPO / "docs/examples/helpdesk-faulty.yaml", config)
    result = CliRunner().invoke(lint_command, [str(config), "--fix"])
    assert "Copilot Studio" not in result.stderr


# -- `harness instructions` on Copilot Studio files: a config to start from (F14) ---------------


def _starter(path: Path) -> tuple[int, str, str]:
    """Exit code, the starter config (stdout) and the explanation (stderr)."""
    result = CliRunner().invoke(
        instructions_command, [str(path), "--format", "copilot-studio"], catch_exceptions=False
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "example",
    [
        "docs/examples/copilot-studio/solution",
        "docs/examples/copilot-studio/Helpdesk",
        "docs/examples/copilot-studio/newer-workspaces",
    ],
)
def test_instructions_on_copilot_studio_files_prints_a_config_that_works(
    tmp_path: Path, example: str
) -> None:
    code, starter, text = _starter(REPO / example)
    assert code == 2
    assert "save it as agents.yaml" in text
    config = tmp_path / "agents.yaml"
    config.write_text(starter, encoding="utf-8")
    result = CliRunner().invoke(
        instructions_command, [str(config), "--format", "copilot-studio"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert "# Parent agent" in result.stdout


def test_the_starter_keeps_modes_names_and_leaves_generated_text_out(tmp_path: Path) -> None:
    """Names become names this SDK accepts (the Copilot Studio one in a comment), each mode says
    where it comes from, and text pasted from earlier fragments is not carried over twice."""
    root = _workspace(tmp_path)
    tool = root / "Concierge/capabilities/tools/crab1_claims.mcs.yml"
    hint = (
        "It answers the user directly. If its answered output is true, the user has already "
        "received their response and it should not be answered again."
    )
    text = tool.read_text(encoding="utf-8")
    tool.write_text(text.replace("insurance claims.", f"insurance claims. {hint}"), "utf-8")
    _, starter, _ = _starter(root)
    assert '- name: Billing_agent  # Copilot Studio: "Billing agent", ' in starter
    assert "mode: silent  # inferred: its instructions forbid messaging the user" in starter
    assert "mode: direct  # assumed" in starter
    assert (
        "description: Answers questions about the status of a policyholder's insurance claims.\n"
        in starter
    )
    assert "answered" not in starter


def test_instructions_on_a_folder_without_agents_keeps_the_plain_advice() -> None:
    code, starter, text = _starter(REPO / "docs/examples/ci")
    assert code == 2
    assert starter == ""
    assert "describe the agents in a config" in text


def test_statements_about_one_agent_corpus() -> None:
    """``fixtures/lint/agent-statements.tsv``: 69 labelled sentences of a parent about one named
    agent. A false statement would clear HC001 wrongly, so there must be none; a missed one keeps
    the finding (the misses are silences worded in ways the reader does not read)."""
    rows = [
        line.rstrip("\n").split("\t")
        for line in (LINT / "agent-statements.tsv").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert len(rows) == 69
    false, missed = [], []
    for name, label, sentence in rows:
        said = says_of_agent(sentence, [name])
        if said and said != {label}:
            false.append(sentence)
        elif label != "none" and not said:
            missed.append(sentence)
    assert false == []
    assert len(missed) <= 3, missed

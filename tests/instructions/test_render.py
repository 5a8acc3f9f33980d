"""Behaviour of the generated instructions, independent of their exact wording."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from io import StringIO
from pathlib import Path
from typing import Any

import jinja2
import jsonschema
import pytest
from ruamel.yaml import YAML

import instructions
from instructions import (
    COPILOT_STUDIO_INSTRUCTIONS_LIMIT,
    OUTPUT_DESCRIPTIONS,
    AgentView,
    CopilotStudioSource,
    IOView,
    ParentView,
    copilot_studio_lengths,
    output_description,
    render_copilot_studio,
    render_markdown,
    render_parent_system,
    render_subagent_description,
    render_subagent_instructions,
    render_subagent_system,
    render_top_level_instruction,
)
from instructions.render import _environment
from tests.instructions._helpdesk import HELPDESK, IT_TICKET, PAYROLL, PTO

SCHEMA = Path(__file__).parents[1] / "fixtures/copilot-studio-schema/bot.schema.yaml-authoring.json"
ANCHOR = "treat it as your initial request and ignore any other requests in the conversation"
SILENCE = ("do not respond to the user", "do not send messages", "send-message tool")
ALL_AGENTS = (PTO, PAYROLL, IT_TICKET)
MODE_OUTPUTS = {
    "silent": ("answered", "findings", "openQuestions"),
    "direct": ("answered", "interactionSummary"),
    "conversational": ("answered", "scopedRequest", "interactionSummary"),
}


def bare(mode: str, **changes: Any) -> AgentView:
    """An agent with nothing declared: no inputs, outputs, instructions or examples."""
    agent = AgentView(name=f"bare_{mode}", kind="child", mode=mode, description="Does a thing.")
    return replace(agent, **changes)


def load_all(text: str) -> list[Any]:
    return list(YAML(typ="safe").load_all(StringIO(text)))


@cache
def validator(definition: str) -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    root = {"$ref": f"#/definitions/{definition}", "definitions": schema["definitions"]}
    return jsonschema.Draft202012Validator(root)


def schema_errors(definition: str, document: Any) -> list[str]:
    return [error.message for error in validator(definition).iter_errors(document)]


# -- the top-level instruction ---------------------------------------------------------------------


def test_top_level_checks_answered_before_speaking() -> None:
    text = render_top_level_instruction(HELPDESK)
    assert re.search(r"check[^.]{0,40}`answered`", text)
    for word in ("interactionSummary", "findings", "openQuestions", "scopedRequest"):
        assert f"`{word}`" in text
    assert "as mentioned above" in text  # names the awkward acknowledgement to avoid
    assert "`pto` and `it_ticket` talk to the user directly" in text
    assert "`payroll` never talks to the user" in text


def test_top_level_without_subagents_names_nobody() -> None:
    text = render_top_level_instruction(ParentView(name="solo"))
    assert "`answered`" in text
    assert "Here," not in text
    assert "never talk" not in text


# -- descriptions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", [PTO, IT_TICKET], ids=["direct", "conversational"])
def test_talking_agents_descriptions_carry_the_answered_hint(agent: AgentView) -> None:
    text = render_subagent_description(agent)
    assert text.startswith(agent.description)
    assert (
        "If its answered output is true, the user has already received their response and it "
        "should not be answered again" in text
    )
    assert not text.endswith("\n")


def test_silent_description_says_answered_is_always_false_and_to_relay_findings() -> None:
    text = render_subagent_description(PAYROLL)
    assert "answered output is always false" in text
    assert "relay its findings" in text
    assert "openQuestions" in text
    assert "should not be answered again" not in text


def test_description_mentions_open_questions_only_when_returned() -> None:
    assert "openQuestions" not in render_subagent_description(PTO)
    assert "openQuestions" in render_subagent_description(IT_TICKET)


# -- sub-agent instructions ------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ALL_AGENTS, ids=lambda a: a.mode)
def test_every_mode_is_anchored_to_the_scoped_request(agent: AgentView) -> None:
    text = render_subagent_instructions(agent)
    assert "`scopedRequest`" in text
    assert ANCHOR in text.lower()


@pytest.mark.parametrize("agent", ALL_AGENTS, ids=lambda a: a.mode)
def test_silence_block_only_for_silent_agents(agent: AgentView) -> None:
    text = render_subagent_instructions(agent).lower()
    present = [phrase in text for phrase in SILENCE]
    assert present == [agent.mode == "silent"] * len(SILENCE)


def test_silent_agents_are_told_answered_is_always_false() -> None:
    text = render_subagent_instructions(PAYROLL)
    assert "`answered` is always false" in text
    assert "output variables" in text


def test_direct_agents_answer_once_and_report() -> None:
    text = render_subagent_instructions(PTO)
    assert "one message" in text
    assert "set `answered` to true" in text


def test_conversational_agents_echo_the_request_and_hold_answered() -> None:
    text = render_subagent_instructions(IT_TICKET)
    assert "echo the request you are working on in `scopedRequest`" in text
    assert "Keep `answered` false until the user has received the final answer" in text


@pytest.mark.parametrize("receives", [True, False], ids=["history", "no-history"])
def test_history_is_context_only_when_received(receives: bool) -> None:
    text = render_subagent_instructions(bare("direct", receives_history=receives))
    assert ("conversation history" in text) is receives
    assert ("context only" in text) is receives


@pytest.mark.parametrize("mode", sorted(MODE_OUTPUTS))
def test_mode_outputs_are_described_even_when_not_declared(mode: str) -> None:
    text = render_subagent_instructions(bare(mode))
    listed = re.findall(r"^- `(\w+)`", text.split("Outputs", 1)[1], flags=re.MULTILINE)
    assert listed == list(MODE_OUTPUTS[mode])
    for name in MODE_OUTPUTS[mode]:
        assert OUTPUT_DESCRIPTIONS[name] in text


def test_declared_outputs_are_added_with_the_contract_words_and_their_own() -> None:
    text = render_subagent_instructions(PAYROLL)
    assert "Whatever the maker wrote here" not in text  # contract outputs use the contract's words
    assert f"`findings` (text): {OUTPUT_DESCRIPTIONS['findings']}" in text
    assert "- `payDate`: The next payday as an ISO date." in text


def test_extra_inputs_are_described() -> None:
    text = render_subagent_instructions(PAYROLL)
    assert "`employeeId`: The employee's id, when the user gave it." in text
    assert "`employeeId`" not in render_subagent_instructions(PTO)


def test_subagent_system_puts_the_generated_block_before_the_agents_own() -> None:
    text = render_subagent_system(PTO)
    assert text.startswith(render_subagent_instructions(PTO))
    assert text.rstrip().endswith(PTO.instructions)
    assert render_subagent_system(PTO, generated=False) == PTO.instructions + "\n"
    assert render_subagent_system(bare("silent"), generated=False) == ""


# -- the parent ------------------------------------------------------------------------------------


def test_parent_system_has_instruction_own_words_and_catalogue() -> None:
    text = render_parent_system(HELPDESK)
    top = render_top_level_instruction(HELPDESK)
    assert text.startswith(top)
    assert text.index(HELPDESK.instructions) > len(top)
    for agent in ALL_AGENTS:
        assert f"### {agent.name}" in text
        assert render_subagent_description(agent) in text
    assert "- How many vacation days do I have left?" in text
    assert "Returns: `answered`, `findings`, `openQuestions` and `payDate`." in text
    assert "`history`" not in text  # passed by the runtime, never filled by the parent
    assert "It does not see this conversation" in text  # payroll gets no history


def test_naive_parent_has_no_answered_check_and_no_hints() -> None:
    text = render_parent_system(HELPDESK, generated=False)
    assert "check its `answered`" not in text
    assert "should not be answered again" not in text
    assert text.startswith("## Role\n\nYou are the HR and IT helpdesk.")
    for agent in ALL_AGENTS:
        assert f"### {agent.name}\n\n{agent.description}\n" in text


def test_parent_without_subagents_or_instructions() -> None:
    text = render_parent_system(ParentView(name="solo"))
    assert "answer every request yourself" in text
    assert "## Role" not in text


# -- Markdown --------------------------------------------------------------------------------------


def test_markdown_covers_the_parent_and_every_subagent() -> None:
    text = render_markdown(HELPDESK)
    assert text.startswith("# Generated instructions: helpdesk\n")
    assert "## Parent: helpdesk" in text
    for agent in ALL_AGENTS:
        assert f"## Sub-agent: {agent.name}" in text
        assert agent.instructions in text
    # nested under "### Instructions", the generated headings move down a level
    assert "#### Do not message the user" in text


def test_markdown_for_one_agent() -> None:
    text = render_markdown(HELPDESK, agent="payroll")
    assert "## Sub-agent: payroll" in text
    assert "## Parent" not in text
    assert "pto" not in text


@pytest.mark.parametrize("render", [render_markdown, render_copilot_studio])
def test_unknown_agent_names_the_known_ones(render: Any) -> None:
    with pytest.raises(ValueError, match="pto, payroll, it_ticket"):
        render(HELPDESK, agent="payrol")


# -- no Python repr in any output ------------------------------------------------------------------

EDGE = ParentView(
    name="edge",
    subagents=(
        bare("silent", kind="connected", receives_history=False),
        bare("direct", outputs=(IOView(name="custom"),), inputs=(IOView(name="extra"),)),
        bare("conversational", examples=("",)),
    ),
)


@pytest.mark.parametrize("parent", [HELPDESK, EDGE], ids=["helpdesk", "edge"])
def test_no_python_repr_leaks(parent: ParentView) -> None:
    texts = [
        render_top_level_instruction(parent),
        render_parent_system(parent),
        render_parent_system(parent, generated=False),
        render_markdown(parent),
        render_copilot_studio(parent),
    ]
    for agent in parent.subagents:
        texts += [render_subagent_description(agent), render_subagent_system(agent)]
    for text in texts:
        # the contract's own description of `answered` starts with the word "True"
        cleaned = text.replace(OUTPUT_DESCRIPTIONS["answered"], "")
        assert not re.search(r"\b(None|True|False)\b", cleaned), text
        assert not re.search(r"[\[(]'|'[\])]|\(\)|\[\]", cleaned), text
        assert "IOView(" not in cleaned
        assert "AgentView(" not in cleaned


def test_templates_are_strict_about_undefined_variables() -> None:
    template = _environment().get_template("top_level.md.j2")
    with pytest.raises(jinja2.UndefinedError):
        template.render(h="##", talkers=[])  # `silent` forgotten


@pytest.mark.parametrize("value", [None, True, ["a"], ("a",), {"a": 1}])
def test_templates_refuse_to_print_anything_but_text(value: object) -> None:
    with pytest.raises(TypeError, match="render it as words"):
        _environment().from_string("x {{ value }}").render(value=value)


# -- Copilot Studio --------------------------------------------------------------------------------


def _without_several(text: str) -> str:
    """An agent's prompt without the section on several requests in one call and the sentence on
    ``userAnswers``, as the Copilot Studio fragments give it (only this SDK sends either)."""
    text = re.sub(r"\n## Several requests in one call\n\n[^\n]*\n", "", text)
    return re.sub(r"\nIf the user answered a question [^\n]*\n", "", text).strip()


def test_copilot_studio_fragments_parse_and_match_the_authoring_schema() -> None:
    text = render_copilot_studio(HELPDESK)
    parent, pto, payroll_call, payroll_self, ticket_call, ticket_self = load_all(text)

    top_level = render_top_level_instruction(HELPDESK).strip().splitlines()
    several = [line for line in top_level if "answeredRequests" in line]
    assert len(several) == 1  # left out of Copilot Studio's fragments (see below)
    top_level.remove(several[0])
    assert parent["instructions"].startswith("\n".join(top_level))
    assert schema_errors("GptComponentMetadata", {"kind": "GptComponentMetadata", **parent}) == []

    assert pto["kind"] == "AgentDialog"
    assert schema_errors("AgentDialog", pto) == []
    assert pto["beginDialog"]["description"] == render_subagent_description(PTO)
    assert pto["settings"]["instructions"] == _without_several(render_subagent_system(PTO))
    assert "beginDialog" in pto and "actions" not in pto["beginDialog"]
    assert list(pto["inputType"]["properties"]) == ["scopedRequest"]
    assert pto["outputType"]["properties"]["answered"] == {
        "displayName": "answered",
        "description": OUTPUT_DESCRIPTIONS["answered"],
        "type": "Boolean",
        "isRequired": True,
    }

    for call, agent in ((payroll_call, PAYROLL), (ticket_call, IT_TICKET)):
        assert call["kind"] == "TaskDialog"
        assert schema_errors("TaskDialog", call) == []
        assert "inputType" not in call and "outputType" not in call
        action = call["action"]
        assert action["kind"] == "InvokeConnectedAgentTaskAction"
        assert "scopedRequest" in action["inputType"]["properties"]
        assert [o["propertyName"] for o in call["outputs"]] == list(
            action["outputType"]["properties"]
        )
        assert call["modelDescription"] == render_subagent_description(agent)

    assert payroll_call["action"]["historyType"] == {"kind": "NoHistory"}
    assert ticket_call["action"]["historyType"] == {"kind": "ConversationHistory"}
    payroll_out = payroll_call["action"]["outputType"]["properties"]
    assert {name: p["type"] for name, p in payroll_out.items()} == {
        "answered": "Boolean",
        "findings": "String",
        "openQuestions": "String",
        "payDate": "String",
    }
    assert payroll_out["payDate"]["isRequired"] is False
    assert payroll_out["openQuestions"]["isRequired"] is True
    assert payroll_self["instructions"] == _without_several(render_subagent_system(PAYROLL))
    assert ticket_self["instructions"] == _without_several(render_subagent_system(IT_TICKET))


def test_the_schema_check_catches_misplaced_connected_io() -> None:
    # guards the test above: the schema really rejects inputType at a TaskDialog's root
    payroll_call = load_all(render_copilot_studio(HELPDESK, agent="payroll"))[0]
    payroll_call["inputType"] = payroll_call["action"].pop("inputType")
    assert schema_errors("TaskDialog", payroll_call)


def test_copilot_studio_fragments_never_ask_for_answered_requests() -> None:
    """Copilot Studio never makes a call with several numbered requests and its fragments declare
    no `answeredRequests` output, so neither the parent's nor an agent's text mentions it; this
    SDK's own prompts (and the Markdown) still do."""
    text = render_copilot_studio(HELPDESK)
    assert "answeredRequests" not in text
    assert "several numbered requests" not in text
    assert "answeredRequests" in render_markdown(HELPDESK)
    assert "answeredRequests" in render_subagent_system(PAYROLL)
    assert "answeredRequests" in render_parent_system(HELPDESK)


def test_copilot_studio_comments_say_where_each_fragment_goes() -> None:
    text = render_copilot_studio(HELPDESK)
    documents = text.split("\n---\n")
    assert len(documents) == 6
    for document in documents:
        assert document.lstrip().startswith("#")
    assert '# Child agent "pto" (kind: AgentDialog)' in text
    assert "agents/pto/agent.mcs.yml" in text
    assert "botcomponents/<prefix>.InvokeConnectedAgentTaskAction.payroll/data" in text


def test_copilot_studio_for_one_agent_leaves_the_parent_out() -> None:
    documents = load_all(render_copilot_studio(HELPDESK, agent="pto"))
    assert [d.get("kind") for d in documents] == ["AgentDialog"]


def test_copilot_studio_with_awkward_text_still_parses() -> None:
    awkward = bare(
        "direct",
        description='Handles "quotes": colons, # hashes, {braces} and - dashes',
        instructions="  indented first line\n\tand a tab: 'quoted'",
        outputs=(IOView(name="note", description="yes: no"),),
    )
    parent = ParentView(name="p", instructions="- starts like a list", subagents=(awkward,))
    first, agent = load_all(render_copilot_studio(parent))
    assert first["instructions"].endswith("- starts like a list")
    assert agent["beginDialog"]["description"].startswith(awkward.description)
    assert agent["settings"]["instructions"].endswith("indented first line\n\tand a tab: 'quoted'")
    assert agent["outputType"]["properties"]["note"]["description"] == "yes: no"
    assert schema_errors("AgentDialog", agent) == []


def test_copilot_studio_sources_name_the_makers_agents_and_files() -> None:
    sources = {
        "helpdesk": CopilotStudioSource(name="HR helpdesk", file="agent.mcs.yml"),
        "pto": CopilotStudioSource(name="Time Off", file="agents/Time Off/agent.mcs.yml"),
        "payroll": CopilotStudioSource(name="Payroll Desk", file="actions/PayrollCall.mcs.yml"),
    }
    text = render_copilot_studio(HELPDESK, sources=sources)
    parent, pto, payroll_call, _, _, _ = load_all(text)
    assert (
        '# Parent agent "HR helpdesk" (kind: GptComponentMetadata)\n#   file: agent.mcs.yml' in text
    )
    assert (
        '# Child agent "Time Off" (kind: AgentDialog)\n#   file: agents/Time Off/agent.mcs.yml'
        in text
    )
    assert "`Time Off`" in parent["instructions"] and "`pto`" not in parent["instructions"]
    assert "`it_ticket`" in parent["instructions"]  # no source: the config's name
    assert pto["settings"]["instructions"].count("You are Time Off, a sub-agent.") == 1
    assert payroll_call["modelDisplayName"] == "Payroll Desk"
    assert "botSchemaName" not in payroll_call["action"]  # the file has it: keep it
    assert "Keep its action.botSchemaName" in text
    payroll_call["action"]["botSchemaName"] = "cr1f4_payroll"  # what the maker's file keeps
    assert schema_errors("TaskDialog", payroll_call) == []


@pytest.mark.parametrize(
    ("mode", "sentence"),
    [
        ("silent", "Payroll Desk never talks to the user: its replies are for you to deliver."),
        ("direct", "Payroll Desk answers the user itself: never repeat, summarise or acknowledge"),
    ],
)
def test_an_external_agent_is_named_in_the_parent_not_given_a_task_dialog(
    mode: str, sentence: str
) -> None:
    """An external agent cannot declare outputs: its fragment is a comment, and the parent's
    instructions carry the sentence `harness lint` (HC001) reads instead."""
    parent = replace(HELPDESK, subagents=(PTO, replace(PAYROLL, mode=mode)))
    sources = {"payroll": CopilotStudioSource(name="Payroll Desk", file="a.mcs.yml", external=True)}
    text = render_copilot_studio(parent, sources=sources)
    documents = [d for d in load_all(text) if d is not None]
    assert [d.get("kind") for d in documents] == [None, "AgentDialog"]  # the parent, pto
    own = documents[0]["instructions"]
    assert sentence in own
    assert own.index(sentence) < own.index("## Role")
    assert '# External agent "Payroll Desk"' in text and "keep it as it is" in text
    alone = render_copilot_studio(parent, agent="payroll", sources=sources)
    assert [d for d in load_all(alone) if d is not None] == []
    assert sentence in alone  # the comment quotes it


# -- small pieces ----------------------------------------------------------------------------------


def test_output_description_uses_the_contract_words() -> None:
    for name, words in OUTPUT_DESCRIPTIONS.items():
        assert output_description(name) == words
    with pytest.raises(ValueError, match="answered, scopedRequest"):
        output_description("payDate")


@pytest.mark.parametrize(("field", "value"), [("mode", "loud"), ("kind", "remote")])
def test_agent_view_rejects_unknown_mode_or_kind(field: str, value: str) -> None:
    fields: dict[str, Any] = {"name": "x", "kind": "child", "mode": "silent", "description": "d"}
    fields[field] = value
    with pytest.raises(ValueError, match=f"{field} must be one of"):
        AgentView(**fields)


def test_public_api() -> None:
    assert set(instructions.__all__) == {
        "COPILOT_STUDIO_INSTRUCTIONS_LIMIT",
        "InstructionsLength",
        "copilot_studio_lengths",
        "INPUT_DESCRIPTIONS",
        "OUTPUT_DESCRIPTIONS",
        "AgentView",
        "CopilotStudioSource",
        "IOView",
        "ParentView",
        "output_description",
        "render_copilot_studio",
        "render_markdown",
        "render_parent_system",
        "render_subagent_description",
        "render_subagent_instructions",
        "render_subagent_system",
        "render_top_level_instruction",
    }
    for name in instructions.__all__:
        assert hasattr(instructions, name)


def _long(text: str, size: int) -> str:
    return (text + " ") * (size // (len(text) + 1) + 1)


def test_copilot_studio_lengths_measure_each_instructions_field() -> None:
    lengths = {(x.role, x.agent): x for x in copilot_studio_lengths(HELPDESK)}
    assert set(lengths) == {
        ("parent", "helpdesk"),
        ("child", "pto"),
        ("connected", "payroll"),
        ("connected", "it_ticket"),
    }
    documents = load_all(render_copilot_studio(HELPDESK))
    assert lengths["parent", "helpdesk"].characters == len(documents[0]["instructions"])
    assert lengths["child", "pto"].characters == len(documents[1]["settings"]["instructions"])
    assert lengths["parent", "helpdesk"].own == len(HELPDESK.instructions)
    assert not any(x.over_limit for x in lengths.values())
    assert "WARNING" not in render_copilot_studio(HELPDESK)


def test_instructions_over_the_copilot_studio_limit_are_flagged() -> None:
    """Audit s58 finding 5: own instructions under 8,000 characters plus the generated block
    went over Copilot Studio's editor limit with no word of it."""
    own = _long("Follow the HR policy handbook closely.", 7_000).strip()
    assert len(own) < COPILOT_STUDIO_INSTRUCTIONS_LIMIT
    parent = replace(HELPDESK, instructions=own, subagents=(replace(PTO, instructions=own),))
    lengths = copilot_studio_lengths(parent)
    assert [(x.role, x.over_limit) for x in lengths] == [("parent", True), ("child", True)]
    first = lengths[0]
    assert first.own == len(own) and first.generated > 500
    assert first.characters == first.own + first.generated > COPILOT_STUDIO_INSTRUCTIONS_LIMIT
    warning = first.warning()
    assert f"{first.characters:,} characters" in warning and "8,000" in warning
    assert f"{COPILOT_STUDIO_INSTRUCTIONS_LIMIT - first.generated:,} characters or fewer" in warning
    text = render_copilot_studio(parent)
    assert text.count("# WARNING: these instructions are") == 2
    load_all(text)  # the warning is a comment: the fragments still parse
    alone = copilot_studio_lengths(parent, agent="pto")
    assert [x.role for x in alone] == ["child"]

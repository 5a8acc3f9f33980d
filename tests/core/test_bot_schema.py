"""One bot schema: every plain-data option of the Python API is a YAML key, with the same checks.

``Parent(...)`` validates its options with ``subagents.config.ParentConfig`` and the sub-agents share
their checks with ``SubagentConfig``, so the same bot can be written in either form and a mistake
reads the same in both.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness import ChildAgent, ConfigError, ConnectedAgent, Parent, RulesModel, load_bot
from harness.models.openai import OpenAIModel
from subagents import Subagent
from subagents.config import ParentConfig, SubagentConfig
from tests.core._support import ROOT

TOOLS = '''
def pto_balance() -> str:
    """How many paid time off days are left."""
    return "You have 12 PTO days left."
'''

# Every option with a value other than its default.
YAML_BOT = """\
parent:
  name: desk
  instructions: You are the helpdesk.
  model: openai:gpt-4o-mini
  model_settings: {temperature: 0, seed: 7}
  generated_instructions: false
  strict: true
  duplicate_guard: warn
  max_compose_steps: 4
  history_turns: 3
subagents:
  - name: pto
    kind: child
    mode: conversational
    description: Answers questions about paid time off.
    instructions: Use the tool.
    generated_instructions: false
    examples: [how many vacation days do i have]
    tools: ["tools.py:pto_balance"]
    model: rules
    timeout: 5
    tool_timeout: 1.5
    inputs: [{name: scopedRequest, description: the part for this agent}]
    outputs: [{name: answered, description: whether it answered}]
  - name: payroll
    kind: connected
    mode: silent
    description: Looks up pay dates.
    pass_history: false
    url: http://127.0.0.1:9/agents
    token_env: PAYROLL_TOKEN
    retries: 0
    timeout: 2.5
"""


def _python_bot(pto_balance: Any) -> Parent:
    from subagents import IOSpec

    return Parent(
        name="desk",
        instructions="You are the helpdesk.",
        model="openai:gpt-4o-mini",
        model_settings={"temperature": 0, "seed": 7},
        generated_instructions=False,
        strict=True,
        duplicate_guard="warn",
        max_compose_steps=4,
        history_turns=3,
        subagents=[
            ChildAgent(
                name="pto",
                mode="conversational",
                description="Answers questions about paid time off.",
                instructions="Use the tool.",
                generated_instructions=False,
                examples=["how many vacation days do i have"],
                tools=[pto_balance],
                model="rules",
                timeout=5,
                tool_timeout=1.5,
                inputs=[IOSpec(name="scopedRequest", description="the part for this agent")],
                outputs=[IOSpec(name="answered", description="whether it answered")],
            ),
            ConnectedAgent(
                name="payroll",
                mode="silent",
                description="Looks up pay dates.",
                pass_history=False,
                url="http://127.0.0.1:9/agents",
                token_env="PAYROLL_TOKEN",
                retries=0,
                timeout=2.5,
            ),
        ],
    )


def _without_tools(agent: Subagent) -> Subagent:
    return dataclasses.replace(agent, tools=())


def _write(folder: Path, config: str) -> Path:
    (folder / "tools.py").write_text(TOOLS, encoding="utf-8")
    path = folder / "bot.yaml"
    path.write_text(config, encoding="utf-8")
    return path


def test_the_parent_options_are_the_schema() -> None:
    python_only = {"subagents", "transports", "planner", "composer"}
    options = set(inspect.signature(Parent).parameters) - python_only
    assert options == set(ParentConfig.model_fields)
    for name, field in ParentConfig.model_fields.items():
        default = inspect.signature(Parent).parameters[name].default
        if field.is_required():
            assert default is inspect.Parameter.empty, name
            continue
        expected = field.get_default(call_default_factory=True)
        assert default == expected or (default is None and expected in ({}, None)), name


def test_the_subagent_options_are_the_schema() -> None:
    python_only = {"handler"}
    fields = {f.name for c in (ChildAgent, ConnectedAgent) for f in dataclasses.fields(c)}
    yaml_only = {"kind"}
    assert fields - python_only == set(SubagentConfig.model_fields) - yaml_only


def test_the_same_bot_from_python_and_from_yaml(tmp_path: Path) -> None:
    from_yaml = load_bot(_write(tmp_path, YAML_BOT))
    namespace: dict[str, Any] = {}
    exec(TOOLS, namespace)
    from_python = _python_bot(namespace["pto_balance"])

    assert from_yaml.options == from_python.options
    assert from_yaml.options.history_turns == from_yaml.history_turns == 3
    assert (from_yaml.strict, from_yaml.max_compose_steps, from_yaml.duplicate_guard) == (
        True,
        4,
        "warn",
    )
    assert from_yaml.system == from_python.system
    for name in ("pto", "payroll"):
        yaml_agent, python_agent = from_yaml.subagents[name], from_python.subagents[name]
        assert _without_tools(yaml_agent) == _without_tools(python_agent)
        assert [t.name for t in yaml_agent.tool_specs] == [t.name for t in python_agent.tool_specs]
        assert from_yaml.system_prompt_for(name) == from_python.system_prompt_for(name)
    payroll = from_yaml.subagents["payroll"]
    assert isinstance(payroll, ConnectedAgent) and payroll.retries == 0
    for bot in (from_yaml, from_python):
        assert isinstance(bot.model, OpenAIModel)
        assert (bot.model.settings.temperature, bot.model.settings.seed) == (0, 7)
        assert isinstance(bot.model_for("pto"), RulesModel)


# (option, value in Python, the same in YAML)
PARENT_MISTAKES = [
    ("max_compose_steps", 11, "11"),
    ("history_turns", -1, "-1"),
    ("duplicate_guard", "loud", "loud"),
    ("strict", "perhaps", "perhaps"),
    ("model", "gpt-5", "gpt-5"),
    ("handoff", "x" * 301, "x" * 301),
    ("handoff", "Call us.\nOr write.", '"Call us.\\nOr write."'),
]


@pytest.mark.parametrize(("option", "value", "text"), PARENT_MISTAKES)
def test_a_bad_parent_option_reads_the_same_in_python_and_yaml(
    tmp_path: Path, option: str, value: Any, text: str
) -> None:
    with pytest.raises(ConfigError) as in_python:
        Parent(name="desk", **{option: value})
    path = _write(tmp_path, f"parent:\n  name: desk\n  {option}: {text}\n")
    with pytest.raises(ConfigError) as in_yaml:
        load_bot(path)
    assert in_python.value.message == in_yaml.value.message
    assert in_python.value.field == option
    assert (in_yaml.value.field, in_yaml.value.line) == (f"parent.{option}", 3)


# (kind, option, value in Python, the same in YAML)
SUBAGENT_MISTAKES = [
    ("connected", "timeout", 0, "0"),
    ("child", "tool_timeout", 0, "0"),
    ("connected", "retries", -1, "-1"),
    ("connected", "url", "ftp://example.com", "ftp://example.com"),
    ("connected", "token_env", "PAYROLL_TOKEN", "PAYROLL_TOKEN"),  # no url
    ("child", "pass_history", False, "false"),
]


@pytest.mark.parametrize(("kind", "option", "value", "text"), SUBAGENT_MISTAKES)
def test_a_bad_subagent_option_reads_the_same_in_python_and_yaml(
    tmp_path: Path, kind: str, option: str, value: Any, text: str
) -> None:
    agent_class = ChildAgent if kind == "child" else ConnectedAgent
    with pytest.raises(ConfigError) as in_python:
        agent_class(name="pto", mode="silent", description="PTO.", **{option: value})
    path = _write(
        tmp_path,
        "parent:\n  name: desk\nsubagents:\n"
        f"  - name: pto\n    kind: {kind}\n    mode: silent\n    description: PTO.\n"
        f"    {option}: {text}\n",
    )
    with pytest.raises(ConfigError) as in_yaml:
        load_bot(path)
    assert in_python.value.message == in_yaml.value.message
    assert (in_yaml.value.field, in_yaml.value.line) == (f"subagents[0].{option}", 8)


def test_settings_need_a_model_given_by_name() -> None:
    with pytest.raises(ConfigError) as error:
        Parent(name="desk", model=RulesModel(), model_settings={"temperature": 0})
    assert error.value.field == "model_settings"
    with pytest.raises(ConfigError, match="unknown model setting 'temprature'"):
        Parent(name="desk", model="openai:gpt-4o-mini", model_settings={"temprature": 0})


def test_history_turns_zero_passes_no_history(tmp_path: Path) -> None:
    from harness import run_sync

    seen: list[int] = []

    async def handler(context: Any) -> dict[str, Any]:
        seen.append(len(context.history or ()))
        return {"answered": True, "interactionSummary": "Noted."}

    agent = ConnectedAgent(
        name="pto", mode="direct", description="Answers PTO questions.", handler=handler
    )
    bot = Parent(name="desk", subagents=[agent], history_turns=0)
    conversation = bot.conversation()
    run_sync(conversation.send("how many pto days do I have"))
    run_sync(conversation.send("and pto days used"))
    assert seen == [0, 0]
    seen.clear()
    bot = Parent(name="desk", subagents=[agent], history_turns=1)
    conversation = bot.conversation()
    run_sync(conversation.send("how many pto days do I have"))
    run_sync(conversation.send("and pto days used"))
    assert seen == [1, 1]  # the current turn counts: its user message only (docs/agents.md)


def test_subagents_reads_no_files_and_imports_no_yaml() -> None:
    script = (
        "import sys, subagents, subagents.config\n"
        "print(sorted(m for m in ('yaml', 'harness') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
    readers = {"open", "read_text", "read_bytes", "spec_from_file_location", "exec_module"}
    for module in (ROOT / "subagents").glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                names.append(getattr(node, "module", None) or "")
                assert not any(n.split(".")[0] in ("yaml", "ruamel") for n in names), module.name
                assert "importlib.util" not in names, module.name
            if isinstance(node, ast.Call):
                called = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                assert called not in readers, f"{module.name}:{node.lineno} calls {called}()"


def test_the_file_readers_that_left_subagents_say_where_they_went() -> None:
    import subagents.config

    with pytest.raises(AttributeError, match=r"moved to harness\.load_config"):
        subagents.config.load_config  # noqa: B018
    assert not hasattr(subagents.config, "no_such_name")

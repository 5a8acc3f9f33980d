"""HC018: instructions over Copilot Studio's editor limit (audit s58, finding 5)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from harness.lint import lint_paths
from harness.lint._engine import load_paths
from harness.lint.rules.length import generated_lengths
from instructions import InstructionsLength
from tests.lint.conftest import ROOT, Writer, ids

LIMIT = 8_000
"""Copilot Studio's web editor limit on instructions (``LIMIT``)."""
SENTENCE = "Follow the HR policy handbook closely, and cite the section you used."


def _text(size: int) -> str:
    return " ".join([SENTENCE] * (size // (len(SENTENCE) + 1)))


def _sdk(own: int) -> str:
    # Own instructions under the limit; the generated block takes them over it.
    return (
        "parent:\n"
        "  name: desk\n"
        f"  instructions: {json.dumps(_text(own))}\n"
        "subagents:\n"
        "  - name: pto\n"
        "    kind: child\n"
        "    mode: direct\n"
        "    description: Answers paid time off questions.\n"
        "    instructions: Use the pto tool.\n"
    )


def test_sdk_yaml_over_the_limit_with_the_generated_block_is_hc018(write: Writer) -> None:
    path = write("bot.yaml", _sdk(7_000))
    findings = [f for f in lint_paths([path]).findings if f.id == "HC018"]
    assert [(f.agent, f.severity.value) for f in findings] == [("desk", "warning")]
    message = findings[0].message
    assert "over the 8,000 characters Copilot Studio's web editor accepts" in message
    assert "generated" in message and "ignore HC018" in message
    # The count is the generator's: what `harness instructions --format copilot-studio` writes.
    written = subprocess.run(
        [sys.executable, "-m", "harness", "instructions", "--format", "copilot-studio", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert "# WARNING: these instructions are" in written
    total = message.split("' are ", 1)[1].split(" characters", 1)[0]
    assert f"these instructions are {total} characters" in written


def test_sdk_yaml_well_under_the_limit_is_clean(write: Writer) -> None:
    path = write("bot.yaml", _sdk(4_000))
    assert "HC018" not in ids(lint_paths([path]).findings)


def test_copilot_studio_instructions_are_measured_as_written(write: Writer) -> None:
    long = _text(LIMIT + 300)
    short = _text(LIMIT - 300)
    folders = [
        write(
            f"{name}/agent.mcs.yml",
            f"mcs.metadata:\n  componentName: {name}\nkind: GptComponentMetadata\n"
            f"displayName: {name}\ninstructions: {json.dumps(text)}\n",
        ).parent
        for name, text in (("Long", long), ("Short", short))
    ]
    findings = [f for f in lint_paths(folders).findings if f.id == "HC018"]
    assert [f.agent for f in findings] == ["Long"]
    assert f"{len(long):,} characters" in findings[0].message
    assert findings[0].line == 5


def test_the_limit_is_the_instructions_package_constant() -> None:
    from instructions import COPILOT_STUDIO_INSTRUCTIONS_LIMIT

    assert COPILOT_STUDIO_INSTRUCTIONS_LIMIT == LIMIT


def _written_lengths(path: Path) -> list[int]:
    """The length of every instructions field `harness instructions --format copilot-studio`
    writes for ``path``, in the order it writes them."""
    written = subprocess.run(
        [sys.executable, "-m", "harness", "instructions", "--format", "copilot-studio", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    lengths = []
    for document in yaml.safe_load_all(written):
        settings = (document or {}).get("settings") or {}
        text = (document or {}).get("instructions") or settings.get("instructions")
        if text is not None:
            lengths.append(len(text.strip()))
    return lengths


# A child agent with no declared inputs or outputs: the generator writes the contract's.
_LONG_CHILD = (
    "parent:\n"
    "  name: desk\n"
    "  model: rules\n"
    "subagents:\n"
    "  - name: pto\n"
    "    kind: child\n"
    "    mode: direct\n"
    "    description: Answers questions about paid time off and vacation balances.\n"
    f"    instructions: {json.dumps(_text(6_400))}\n"
    "    examples:\n"
    "      - how many vacation days do i have left\n"
)


@pytest.mark.parametrize(
    "config",
    ["samples/helpdesk/helpdesk.yaml", "docs/examples/copilot-helpdesk.yaml", "long-child"],
)
def test_every_agents_figure_is_what_the_generator_writes(config: str, write: Writer) -> None:
    path = write("bot.yaml", _LONG_CHILD) if config == "long-child" else ROOT / config
    [system] = load_paths([path]).systems
    assert system.parent is not None
    measured = [x.characters for x in generated_lengths(system, system.parent)]
    assert measured == _written_lengths(path)


def test_a_child_over_the_limit_only_with_the_contract_outputs_is_hc018(write: Writer) -> None:
    path = write("bot.yaml", _LONG_CHILD)
    [finding] = [f for f in lint_paths([path]).findings if f.id == "HC018"]
    assert finding.agent == "pto"
    assert f"are {max(_written_lengths(path)):,} characters" in finding.message


def test_the_three_warnings_say_the_same(write: Writer) -> None:
    """Lint's HC018 message is ``InstructionsLength.warning()``, and the fragment's comment
    says what lint says of Copilot Studio files (one wording, not three)."""
    path = write("bot.yaml", _LONG_CHILD)
    [system] = load_paths([path]).systems
    assert system.parent is not None
    [over] = [x for x in generated_lengths(system, system.parent) if x.over_limit]
    [finding] = [f for f in lint_paths([path]).findings if f.id == "HC018"]
    assert over.warning()[1:] in finding.message
    written = subprocess.run(
        [sys.executable, "-m", "harness", "instructions", "--format", "copilot-studio", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    comment = " ".join(
        line.removeprefix("# ") for line in written.splitlines() if line.startswith("# ")
    )
    said = comment.split("WARNING: these instructions are ", 1)[1]
    as_written = InstructionsLength(
        agent="pto", role="child", characters=over.characters, own=over.characters
    ).warning()
    assert said.startswith(as_written.split("' are ", 1)[1] + ".")

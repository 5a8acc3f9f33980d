"""``--fix``: contract entries added, everything else in the file kept as written."""

from __future__ import annotations

import shutil
from pathlib import Path

from harness._yaml import parse_yaml
from harness.lint import fix_paths, lint_paths
from instructions import INPUT_DESCRIPTIONS, OUTPUT_DESCRIPTIONS
from tests.lint.conftest import COPILOT, LINT, Writer, ids

CONFIG = """\
# Helpdesk bot: hand-written contract lists.
parent:
  name: helpdesk   # the parent
  instructions: You are the helpdesk.
subagents:
  - name: pto
    kind: child
    mode: direct
    description: Answers questions about paid time off.
    # inputs are empty on purpose (HC004)
    inputs: []
    outputs:
      - {name: interactionSummary, description: "What it told the user."}
    timeout: 20
  - name: payroll
    kind: connected
    mode: silent
    pass_history: false
    description: Looks up pay dates.
    inputs: []
    outputs:
      - name: answered
      - name: findings
        description: The pay date.
  - name: benefits
    kind: child
    mode: conversational
    description: Enrols employees in benefits, in a short dialogue.
"""


def _is_subsequence(original: list[str], fixed: list[str]) -> bool:
    it = iter(fixed)
    return all(any(line == other for other in it) for line in original)


def test_fix_adds_missing_entries_and_keeps_comments_order_and_quotes(write: Writer) -> None:
    path = write("bot.yaml", CONFIG)
    before = ids(lint_paths([path]).findings)
    assert sorted(before) == ["HC002", "HC003", "HC004", "HC007"]
    result = fix_paths([path])
    assert result.fixes == 4
    assert result.files == (path.as_posix(),)
    fixed = path.read_text()
    # Every original line survives, in order (comments, quoting, flow style, key order); the
    # only line changed is the empty flow list that became a block list.
    kept = CONFIG.replace("    inputs: []\n", "    inputs:\n", 1)
    assert _is_subsequence(kept.splitlines(), fixed.splitlines())
    assert len(fixed.splitlines()) == len(CONFIG.splitlines()) + 6
    assert lint_paths([path]).findings == ()
    data = parse_yaml(fixed)
    pto, payroll, benefits = data["subagents"]
    assert [i["name"] for i in pto["inputs"]] == ["scopedRequest"]
    assert pto["inputs"][0]["description"] == INPUT_DESCRIPTIONS["scopedRequest"]
    assert [o["name"] for o in pto["outputs"]] == ["interactionSummary", "answered"]
    assert list(pto) == ["name", "kind", "mode", "description", "inputs", "outputs", "timeout"]
    # History is off for payroll: no scopedRequest forced on it; its undocumented output and
    # missing openQuestions are filled in.
    assert payroll["inputs"] == []
    assert payroll["outputs"][0]["description"] == OUTPUT_DESCRIPTIONS["answered"]
    assert [o["name"] for o in payroll["outputs"]] == ["answered", "findings", "openQuestions"]
    # Omitted lists mean "the contract's standard set": left alone.
    assert "inputs" not in benefits and "outputs" not in benefits


def test_fix_follows_the_style_of_the_list(write: Writer) -> None:
    path = write("bot.yaml", CONFIG)
    fix_paths([path])
    lines = path.read_text().splitlines()
    # A flow-mapping list gets flow mappings; a block list block mappings at the same indent.
    assert any(line.startswith("      - {name: answered, description: ") for line in lines)
    assert "      - name: openQuestions" in lines
    assert "    inputs:" in lines
    assert "      - name: scopedRequest" in lines


def test_fix_keeps_an_unindented_sequence_style(write: Writer) -> None:
    text = (
        "parent:\n  name: helpdesk\nsubagents:\n- name: pto\n  kind: child\n  mode: direct\n"
        "  description: PTO.\n  outputs:\n  - name: answered\n    description: Done.\n"
    )
    path = write("bot.yaml", text)
    assert fix_paths([path]).fixes == 1
    fixed = path.read_text()
    assert fixed.startswith(text)
    assert fixed[len(text) :] == (
        f"  - name: interactionSummary\n    description: {OUTPUT_DESCRIPTIONS['interactionSummary']}\n"
    )


def test_fix_is_idempotent_and_leaves_clean_files_untouched(write: Writer) -> None:
    path = write("bot.yaml", CONFIG)
    fix_paths([path])
    once = path.read_text()
    assert fix_paths([path]).fixes == 0
    assert path.read_text() == once


def test_fix_never_rewrites_copilot_studio_files(tmp_path: Path) -> None:
    target = tmp_path / "solutions"
    shutil.copytree(COPILOT / "solutions", target)
    workspace = tmp_path / "Helpdesk"
    shutil.copytree(LINT / "workspace" / "Helpdesk", workspace)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = fix_paths([tmp_path])
    assert result.fixes == 0 and result.files == ()
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_fix_leaves_files_that_do_not_parse(write: Writer) -> None:
    text = "parent:\n  name: x\nsubagents:\n  - name: [a\n"
    path = write("bot.yaml", text)
    assert fix_paths([path]).fixes == 0
    assert path.read_text() == text

"""A parent told to repeat its sub-agents (issue 26): the linter flags the sentence (HC017), with the
generated instructions on, and the offline model obeys it, so the simulator shows the duplicate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from harness.cli import cli
from harness.lint import lint_paths

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk"

REPEAT_WORDINGS = [
    "After the sub-agents reply, always repeat each of their answers to the customer in one final "
    "summary.",
    "Ignore the answered output and summarise all results.",
    "Restate every answer the specialists gave before you finish.",
    "Recap what each child agent told the user at the end of your reply.",
    "Whatever answered says, summarise the sub-agents' responses for the customer.",
    "Always echo the connected agents' replies back to the user so nothing is missed.",
    "Close with a short rundown of everything the specialists told the customer.",
]


def _bot(tmp_path: Path, sentence: str | None) -> Path:
    """The sample helpdesk (generated instructions on), its parent told ``sentence``."""
    yaml = YAML()
    config = yaml.load((HELPDESK / "helpdesk.yaml").read_text(encoding="utf-8"))
    assert config["parent"].get("generated_instructions", True) is not False
    if sentence is not None:
        config["parent"]["instructions"] = f"{config['parent']['instructions']} {sentence}"
    shutil.copy(HELPDESK / "tools.py", tmp_path / "tools.py")
    path = tmp_path / "helpdesk.yaml"
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(config, out)
    scenarios = YAML(typ="safe").load((HELPDESK / "scenarios.yaml").read_text(encoding="utf-8"))
    first = next(s for s in scenarios["scenarios"] if s["name"] == "pto-and-payday")
    with (tmp_path / "scenarios.yaml").open("w", encoding="utf-8") as out:
        YAML().dump({"bot": "helpdesk.yaml", "scenarios": [first]}, out)
    return path


def _simulate(tmp_path: Path) -> dict[str, object]:
    result = CliRunner().invoke(
        cli, ["simulate", str(tmp_path / "scenarios.yaml"), "--format", "json"]
    )
    report: dict[str, object] = json.loads(result.stdout)
    return report


def test_the_sample_parent_is_clean_and_repeats_nothing(tmp_path: Path) -> None:
    path = _bot(tmp_path, None)
    assert "HC017" not in [f.id for f in lint_paths([path]).findings]
    report = _simulate(tmp_path)
    assert report["summary"]["duplicate"] == 0  # type: ignore[index]


@pytest.mark.parametrize("sentence", REPEAT_WORDINGS)
def test_a_repeat_sentence_is_a_lint_error_and_the_simulator_shows_the_duplicate(
    tmp_path: Path, sentence: str
) -> None:
    path = _bot(tmp_path, sentence)
    findings = [f for f in lint_paths([path]).findings if f.id == "HC017"]
    assert len(findings) == 1
    assert findings[0].severity.value == "error"
    assert sentence.rstrip(".") in findings[0].message
    report = _simulate(tmp_path)
    assert report["summary"]["duplicate"] >= 1  # type: ignore[index]
    duplicates = [
        f
        for t in report["transcripts"]  # type: ignore[attr-defined]
        for f in t["findings"]
        if f["kind"] == "duplicate"
    ]
    assert any(f["senders"] == ["pto", "helpdesk"] for f in duplicates)

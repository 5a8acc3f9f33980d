"""Smaller reliability defects of issue 27: echoes, bad input paths, hanging models, failed plans."""

from __future__ import annotations

from pathlib import Path

from harness import load_bot
from harness.text import QUOTE_LIMIT, quote

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"


def test_quote_cuts_long_text_at_a_word() -> None:
    assert quote("How do I reset my password?") == "How do I reset my password?"
    long = quote("please " * 1_000)
    assert len(long) <= QUOTE_LIMIT and long.endswith("…")
    assert quote("line one\n\n  line two") == "line one line two"


async def test_the_bot_does_not_echo_a_long_message() -> None:
    text = "Tell me about the migration of the aquarium fish " + "zebra " * 40_000
    turn = await load_bot(HELPDESK).conversation().send(text)
    assert turn.messages
    assert all(len(m.text) < 1_000 for m in turn.messages)

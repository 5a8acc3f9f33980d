"""A bot message longer than ``MAX_MESSAGE_UNITS`` (a huge sub-agent finding the parent relays) is
cut before it reaches the user, with a note saying so."""

from __future__ import annotations

from typing import Any

from harness import ConnectedAgent, Parent, ToolContext
from harness.runtime.state import MAX_MESSAGE_UNITS, cut_message, utf16_units


def test_a_short_message_is_left_alone_and_a_long_one_cut_at_a_space() -> None:
    assert cut_message("Payday is Friday.") == "Payday is Friday."
    text = "word " * 10_000
    cut = cut_message(text, limit=1_000)
    assert len(cut) <= 1_000
    assert cut.startswith("word word") and cut.split("\n\n")[0].endswith(" word")
    assert cut.endswith(
        "[The rest of this message was cut: it had 50,000 UTF-16 code units, and a "
        "message holds at most 1,000.]"
    )


def test_a_lone_surrogate_is_counted_and_cut_not_an_error() -> None:
    """Half an emoji (a model's stream cut inside a surrogate pair) is one code unit; it used to
    raise ``UnicodeEncodeError`` and fail the whole call."""
    half = "Your card ships today \ud83d"
    assert utf16_units(half) == len(half)
    assert cut_message(half) == half
    cut = cut_message(("word \udc00 " * 400) + "\ud83d", limit=500)
    assert utf16_units(cut) <= 500 and cut.startswith("word \udc00 word")


async def test_a_huge_finding_is_cut_in_the_parent_s_reply() -> None:
    finding = "Payday is Friday. " + "The payroll calendar lists every date. " * 50_000

    async def payroll(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": False, "findings": finding, "openQuestions": []}

    bot = Parent(
        name="office",
        model="rules",
        subagents=[
            ConnectedAgent(
                name="payroll",
                mode="silent",
                handler=payroll,
                description="Knows the payday dates and payslips.",
                examples=["when is payday"],
            )
        ],
    )
    conversation = bot.conversation()
    turn = await conversation.send("when is payday")
    (message,) = turn.messages
    assert len(finding) > 50 * MAX_MESSAGE_UNITS
    assert len(message.text) <= MAX_MESSAGE_UNITS
    assert message.text.startswith("Payday is Friday.")
    assert f"it had {len(finding.strip()):,} UTF-16 code units" in message.text
    assert conversation.transcript.messages[-1].text == message.text


def test_the_limit_counts_utf16_code_units_and_never_splits_a_surrogate_pair() -> None:
    # An emoji is one code point but two UTF-16 code units, as Teams counts it.
    text = "\N{GRINNING FACE}" * 800
    assert utf16_units(text) == 1_600
    cut = cut_message(text, limit=1_000)
    assert utf16_units(cut) <= 1_000
    assert "it had 1,600 UTF-16 code units" in cut
    cut.encode("utf-8")  # no lone surrogate left by the cut
    assert cut_message("\N{GRINNING FACE}" * 500, limit=1_000) == "\N{GRINNING FACE}" * 500

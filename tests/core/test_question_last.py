"""A conversational agent's question is the last message of its turn: when other requests share
the turn, its messages wait until it has answered, or until after the parent's reply when it asks
the user something; alone in the turn, it speaks at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import load_bot
from harness.runtime import turn as turn_module

HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"


async def test_the_question_comes_after_the_parents_relay() -> None:
    conversation = load_bot(HELPDESK).conversation()
    turn = await conversation.send(
        "I want to change my direct deposit account, and when is my next payday?"
    )
    senders = [m.sender for m in turn.messages]
    assert senders == ["helpdesk", "direct_deposit"], senders
    assert turn.messages[-1].text.endswith("?")
    # The held message is recorded when it is sent: the transcript's order is the user's.
    bot_messages = [m for m in conversation.transcript.messages if m.role == "bot"]
    assert [m.sender for m in bot_messages] == senders


async def test_alone_in_its_turn_it_speaks_at_once_and_the_dialogue_goes_on() -> None:
    sent: list[str] = []

    async def on_message(message: object) -> None:
        sent.append(getattr(message, "sender", ""))

    conversation = load_bot(HELPDESK).conversation(on_message=on_message)
    first = await conversation.send("I want to change my direct deposit account")
    assert [m.sender for m in first.messages] == ["direct_deposit"]
    second = await conversation.send(
        "It's 123456789, and also how many vacation days have I taken?"
    )
    # pto answers; the confirmation question waits for it and closes the turn.
    assert [m.sender for m in second.messages] == ["pto", "direct_deposit"]
    assert second.messages[-1].text.endswith("(yes/no)")
    assert sent == ["direct_deposit", "pto", "direct_deposit"]


async def test_a_turn_that_raises_still_sends_the_held_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A strict parent raises after the agents ran (here: its guard step fails). The question held
    # for the end of the turn goes out anyway: the conversation already says that agent holds
    # the floor, so the user must have seen what it asked.

    async def failing_guard(*args: object) -> object:
        raise RuntimeError("the parent's reply failed")

    monkeypatch.setattr(turn_module, "_guard", failing_guard)
    conversation = load_bot(HELPDESK).conversation()
    with pytest.raises(RuntimeError):
        await conversation.send(
            "I want to change my direct deposit account, and when is my next payday?"
        )
    bot_messages = [m for m in conversation.transcript.messages if m.role == "bot"]
    assert [m.sender for m in bot_messages] == ["direct_deposit"]
    assert bot_messages[-1].text.endswith("?")

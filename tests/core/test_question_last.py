"""A conversational agent's question is the last message of its turn: when other requests share
the turn, its messages wait until it has answered, or until after the parent's reply when it asks
the user something; alone in the turn, it speaks at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from harness import Parent, load_bot
from harness.composing import ComposeInput, Composer, Composition
from harness.detect.transcript import Message
from harness.planning import RulesPlanner
from harness.runtime import turn as turn_module
from subagents import Usage

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


async def test_a_cancelled_turn_still_sends_the_held_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The turn is cancelled after the agents ran (a turn timeout, a client gone): the question
    # held for the end of the turn is sent and recorded, so the transcript, the user's view and
    # the agent holding the floor agree.
    reached = asyncio.Event()

    async def stuck(*args: object) -> object:
        reached.set()
        await asyncio.Event().wait()  # never set: only cancelling ends it
        raise AssertionError("unreachable")

    monkeypatch.setattr(turn_module, "_compose", stuck)
    sent: list[str] = []

    async def on_message(message: object) -> None:
        sent.append(getattr(message, "sender", ""))

    conversation = load_bot(HELPDESK).conversation(on_message=on_message)
    task = asyncio.create_task(
        conversation.send("I want to change my direct deposit account, and when is my next payday?")
    )
    await reached.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    bot_messages = [m for m in conversation.transcript.messages if m.role == "bot"]
    assert [m.sender for m in bot_messages] == ["direct_deposit"]
    assert bot_messages[-1].text.endswith("?")
    assert sent == ["direct_deposit"]


async def test_an_on_message_that_fails_on_the_parents_reply_still_gets_the_question() -> None:
    sent: list[str] = []

    async def on_message(message: object) -> None:
        sender = getattr(message, "sender", "")
        sent.append(sender)
        if sender == "helpdesk":
            raise ConnectionError("the channel is down")

    conversation = load_bot(HELPDESK).conversation(on_message=on_message)
    with pytest.raises(ConnectionError):
        await conversation.send(
            "I want to change my direct deposit account, and when is my next payday?"
        )
    # The parent's reply failed to go out; the question is still handed on and recorded, last.
    assert sent == ["helpdesk", "direct_deposit"]
    bot_messages = [m for m in conversation.transcript.messages if m.role == "bot"]
    assert [m.sender for m in bot_messages] == ["helpdesk", "direct_deposit"]


# --- the duplicate guard names a held message by the id it is sent with -------------------------

SHARED = "I want to change my direct deposit account, and when is my next payday?"


def _guarded(policy: str, reply: str) -> Parent:
    """The helpdesk with the duplicate guard ``policy`` and a parent whose reply is ``reply``."""

    class Fixed(Composer):
        async def compose(self, given: ComposeInput) -> Composition:
            return Composition(message=reply, usage=Usage(requests=1))

    bot = load_bot(HELPDESK)
    return Parent(
        name=bot.name,
        instructions=bot.instructions,
        subagents=list(bot.subagents.values()),
        duplicate_guard=policy,  # type: ignore[arg-type]
        composer=Fixed(),
        planner=RulesPlanner(),
    )


async def _held_question() -> str:
    turn = await _guarded("off", "Your next payday is Friday.").conversation().send(SHARED)
    assert [m.sender for m in turn.messages] == ["helpdesk", "direct_deposit"]
    return turn.messages[-1].text


@pytest.mark.parametrize(
    ("policy", "reply_sent"), [("warn", True), ("drop", True), ("drop", False)]
)
async def test_the_guard_names_a_held_message_by_its_sent_id(
    monkeypatch: pytest.MonkeyPatch, policy: str, reply_sent: bool
) -> None:
    question = await _held_question()
    # The parent's draft repeats the question held for the end of the turn (and, when the reply
    # is sent, says something new too; dropped whole, it is not sent and the question moves up).
    draft = f"Your next payday is Friday. {question}" if reply_sent else question
    seen: list[str] = []
    check_draft = turn_module.check_draft

    async def checking(*args: Any, sent: list[Message], **kwargs: Any) -> Any:
        seen.extend(m.id for m in sent)
        return await check_draft(*args, sent=sent, **kwargs)

    monkeypatch.setattr(turn_module, "check_draft", checking)
    conversation = _guarded(policy, draft).conversation()
    turn = await conversation.send(SHARED)
    held = turn.messages[-1]
    assert held.sender == "direct_deposit"
    assert [m.sender for m in turn.messages] == (
        ["helpdesk", "direct_deposit"] if reply_sent else ["direct_deposit"]
    )
    if reply_sent:  # the guard was given the held message under the id it was sent with
        assert held.id in seen
    assert seen and not any("held" in i for i in seen)  # never under a placeholder id

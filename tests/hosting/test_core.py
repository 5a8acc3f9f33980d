"""The adapter-independent bot core, without HTTP."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from harness.hosting import HarnessBot, OutgoingMessage
from harness.hosting.core import BusyError
from tests.hosting._support import helpdesk


class _Slot:
    """A stand-in for an SDK's conversation state: one stored value."""

    def __init__(self, value: Any = None) -> None:
        self.value = value
        self.sent: list[OutgoingMessage] = []
        self.loads = 0

    async def load(self) -> Any:
        self.loads += 1
        return self.value

    async def save(self, value: str) -> None:
        self.value = value

    async def send(self, message: OutgoingMessage) -> None:
        self.sent.append(message)


async def _say(bot: HarnessBot, slot: _Slot, text: str) -> Any:
    return await bot.handle_message(
        key="k", conversation_id="c", text=text, load=slot.load, save=slot.save, send=slot.send
    )


async def test_messages_go_out_attributed_and_state_is_one_json_string() -> None:
    bot, slot = HarnessBot(helpdesk()), _Slot()
    turn = await _say(bot, slot, "How many vacation days do I have remaining?")
    assert turn is not None and turn.number == 1
    assert [(m.sender, m.mode) for m in slot.sent] == [("pto", "direct")]
    assert slot.sent[0].channel_data == {
        "sender": "pto",
        "mode": "direct",
        "request": slot.sent[0].request,
        "replyId": "c/1/1",  # conversation/turn/n: the same when a turn is run again
    }
    assert isinstance(slot.value, str) and json.loads(slot.value)["id"] == "c"
    second = await _say(bot, slot, "how many have I taken")
    assert second is not None and second.number == 2  # resumed from the stored snapshot


async def test_parent_messages_carry_only_the_sender() -> None:
    assert OutgoingMessage(text="hi", sender="helpdesk").channel_data == {"sender": "helpdesk"}


async def test_blank_messages_are_ignored() -> None:
    bot, slot = HarnessBot(helpdesk()), _Slot()
    assert await _say(bot, slot, "   ") is None
    assert slot.loads == 0 and slot.sent == [] and slot.value is None


async def test_unusable_stored_state_starts_a_fresh_conversation() -> None:
    bot = HarnessBot(helpdesk())
    for broken in ("{not json", json.dumps([1, 2]), json.dumps({"version": 99}), 42):
        slot = _Slot(broken)
        turn = await _say(bot, slot, "I forgot my password")
        assert turn is not None and turn.number == 1, broken
        assert "password reset link" in slot.sent[-1].text


async def test_a_stored_dict_is_accepted() -> None:
    bot, first = HarnessBot(helpdesk()), _Slot()
    await _say(bot, first, "I want to change my direct deposit account")
    slot = _Slot(json.loads(first.value))
    await _say(bot, slot, "It's 123456789")
    assert "ending in 6789" in slot.sent[0].text


async def test_drain_waits_for_requests_in_flight() -> None:
    bot = HarnessBot(helpdesk())
    release = asyncio.Event()

    async def request() -> None:
        async with bot.request():
            await release.wait()

    task = asyncio.create_task(request())
    await asyncio.sleep(0)
    assert bot.in_flight == 1
    assert await bot.drain(0.05) is False
    assert bot.accepting is False
    release.set()
    await task
    assert await bot.drain(1) is True and bot.in_flight == 0


async def test_requests_are_bounded_per_conversation_and_overall() -> None:
    bot = HarnessBot(helpdesk(), max_turns=3, max_queued_per_conversation=2)
    async with bot.admit("a"), bot.admit("a"):
        with pytest.raises(BusyError) as same:
            async with bot.admit("a"):
                pass
        assert same.value.status == 429
        async with bot.admit("b"):
            with pytest.raises(BusyError) as full:
                async with bot.admit("c"):
                    pass
            assert full.value.status == 503
    async with bot.admit("a"):  # released again
        assert bot.in_flight == 1


async def test_each_message_is_saved_before_it_is_sent() -> None:
    bot, slot = HarnessBot(helpdesk()), _Slot()
    saved_before: list[bool] = []

    async def send(message: OutgoingMessage) -> None:
        stored = json.loads(slot.value)["messages"]
        saved_before.append(any(m["text"] == message.text for m in stored))
        slot.sent.append(message)

    await bot.handle_message(
        key="k",
        conversation_id="c",
        text="How many vacation days do I have remaining, and when is payday?",
        load=slot.load,
        save=slot.save,
        send=send,
    )
    assert len(saved_before) == 2 and all(saved_before)

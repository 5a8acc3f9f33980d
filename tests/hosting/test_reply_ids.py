"""Replies carry stable ids, and channels drop a repeat (issue 27, item 8).

A worker killed mid-turn leaves the turn half done; the channel's retry runs it again elsewhere.
The replies of the redone turn keep the ids they had (``channelData.replyId``: conversation,
turn, index), the redone turn skips every reply that certainly went out, and the simulator's
channel (``EndpointTarget``) and the Direct Line target drop an id they have seen and count it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiohttp import ClientSession

from harness.hosting import EndpointTarget, HarnessBot, OutgoingMessage
from harness.simulate.directline import DirectLineTarget
from tests.hosting._support import helpdesk
from tests.simulate._directline_fake import FakeDirectLine

TWO_ANSWERS = (
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
)


class _Killed(BaseException):
    """Stands for kill -9: nothing after it runs (it is no Exception, so nothing handles it)."""


class _Slot:
    def __init__(self) -> None:
        self.value: Any = None

    async def load(self) -> Any:
        return self.value

    async def save(self, value: str) -> None:
        self.value = value


async def _turn(bot: HarnessBot, slot: _Slot, sent: list[OutgoingMessage], kill_after: int) -> Any:
    async def send(message: OutgoingMessage) -> None:
        sent.append(message)
        if len(sent) == kill_after:
            raise _Killed

    return await bot.handle_message(
        key="k",
        conversation_id="c9",
        text=TWO_ANSWERS,
        load=slot.load,
        save=slot.save,
        send=send,
        activity_id="u1",
    )


async def test_a_redone_turn_sends_its_replies_with_the_ids_they_had() -> None:
    slot = _Slot()
    complete: list[OutgoingMessage] = []
    await _turn(HarnessBot(helpdesk()), _Slot(), complete, kill_after=0)
    assert len(complete) == 2
    assert [m.reply_id for m in complete] == ["c9/1/1", "c9/1/2"]

    first: list[OutgoingMessage] = []
    with pytest.raises(_Killed):  # the worker dies right after its second reply went out
        await _turn(HarnessBot(helpdesk()), slot, first, kill_after=2)
    again: list[OutgoingMessage] = []
    await _turn(HarnessBot(helpdesk()), slot, again, kill_after=0)  # the channel's retry

    # The first reply certainly went out (the second was saved after it): not sent again. The
    # second may not have: sent again, with the id it had, for the channel to drop.
    assert [m.reply_id for m in again] == ["c9/1/2"]
    assert again[0].text == first[1].text
    assert json.loads(slot.value)["hosting"]["seen"]  # the turn is finished now


async def test_the_simulators_channel_drops_a_repeated_reply_id_and_counts_it() -> None:
    async with EndpointTarget("http://127.0.0.1:9/api/messages") as channel:
        url = f"{channel.service_url}/v3/conversations/c1/activities/u1"

        def reply(text: str, reply_id: str | None) -> dict[str, Any]:
            data = {"sender": "pto"} | ({"replyId": reply_id} if reply_id else {})
            return {"type": "message", "text": text, "channelData": data, "replyToId": "u1"}

        async with ClientSession() as session:
            ids = []
            for body in (
                reply("You have 12 days.", "c1/1/1"),
                reply("You have 12 days.", "c1/1/1"),  # the redone turn's copy
                reply("Payday is Friday.", "c1/1/2"),
                reply("No id at all.", None),
                reply("No id at all.", None),  # no id: nothing to recognise it by
            ):
                async with session.post(url, json=body) as response:
                    assert response.status == 200
                    ids.append((await response.json())["id"])
    texts = [r.activity["text"] for r in channel.replies["c1"]]
    assert texts == ["You have 12 days.", "Payday is Friday.", "No id at all.", "No id at all."]
    assert channel.repeats_dropped == {"c1": 1}
    assert ids[1] == ids[0]  # the repeat is acknowledged with the id the first copy got


@pytest.mark.parametrize("transport", ["websocket", "polling"])
async def test_the_direct_line_target_drops_a_repeated_reply_id_and_counts_it(
    transport: str,
) -> None:
    async def bot(activity: dict[str, Any]) -> list[dict[str, Any]]:
        def reply(text: str, n: int) -> dict[str, Any]:
            return {
                "type": "message",
                "text": text,
                "from": {"id": "bot", "name": "Bot"},
                "replyToId": activity.get("id"),
                "channelData": {"sender": "pto", "replyId": f"c/1/{n}"},
            }

        return [reply("You have 12 days.", 1), reply("You have 12 days.", 1), reply("Bye.", 2)]

    fake = FakeDirectLine(bot)
    fast = {"quiet_period": 0.15, "reply_timeout": 3.0, "turn_timeout": 10.0, "poll_interval": 0.05}
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, transport=transport, **fast) as target,  # type: ignore[arg-type]
    ):
        transcript = await target.run_conversation(["how many days"], conversation_id="dl")
    bot_texts = [m.text for m in transcript if m.role == "bot"]
    assert bot_texts == ["You have 12 days.", "Bye."]
    assert target.repeats_dropped == 1

"""The helpdesk served over HTTP on both adapters, talked to through the simulator's channel."""

from __future__ import annotations

import pytest
from aiohttp import ClientSession

from harness.detect import detect
from harness.hosting import EndpointTarget, create_app
from tests.hosting._support import ADAPTERS, helpdesk, running

TURNS = [
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?",
    "I want to change my direct deposit account",
    "It's 123456789, and also how many vacation days have I taken?",
    "yes",
]


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_multi_intent_conversation_over_http(adapter: str) -> None:
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        transcript = await channel.run_conversation(TURNS, conversation_id="multi")

    bots = transcript.bot_messages()
    by_turn = {
        n: [(m.sender, m.mode, m.text) for m in transcript.bot_messages(n)] for n in (1, 2, 3, 4)
    }
    # Turn 1: the direct PTO agent answers itself, first; the parent relays the silent payroll
    # agent's findings. The silent agent never speaks.
    assert by_turn[1][0][:2] == ("pto", "direct")
    assert "12 PTO days left" in by_turn[1][0][2]
    assert by_turn[1][1][:2] == ("helpdesk", None)
    assert "Friday, December 4" in by_turn[1][1][2]
    assert all(m.sender != "payroll" for m in bots)
    # Turns 2-4: the conversational agent holds the floor across HTTP requests.
    assert by_turn[2] == [
        (
            "direct_deposit",
            "conversational",
            "Sure, I can change your direct deposit. What is the new account number?",
        )
    ]
    # The floor holder and the PTO agent answer their parts concurrently: either may be first.
    third = {sender: text for sender, _, text in by_turn[3]}
    assert sorted(third) == ["direct_deposit", "pto"] and len(by_turn[3]) == 2
    assert "ending in 6789" in third["direct_deposit"]
    assert "used 8 PTO days" in third["pto"]
    assert by_turn[4][0][0] == "direct_deposit" and "from the next payroll" in by_turn[4][0][2]
    # Each message arrived as its own activity, with its own id and the scoped request it answers.
    assert len({m.id for m in transcript}) == len(transcript)
    assert by_turn[1] and transcript.bot_messages(1)[0].request is not None
    assert detect(transcript) == []


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_replies_are_attributed_activities(adapter: str) -> None:
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        received = await channel.send_turn(
            "attr", "How many vacation days do I have remaining?", activity_id="user-1"
        )
    assert len(received) == 1
    reply = received[0].activity
    assert reply["type"] == "message"
    assert reply["from"]["name"] == "pto"
    assert reply["channelData"]["sender"] == "pto"
    assert reply["channelData"]["mode"] == "direct"
    assert reply["channelData"]["request"]
    assert reply["replyToId"] == "user-1"
    assert reply["conversation"]["id"] == "attr"
    assert received[0].latency_s > 0


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_healthz(adapter: str) -> None:
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        ClientSession() as session,
        session.get(f"{base}/healthz") as response,
    ):
        assert response.status == 200
        body = await response.json()
    assert body == {"status": "ok", "bot": "helpdesk", "adapter": adapter, "inFlight": 0}


async def test_non_message_activities_are_accepted_quietly() -> None:
    async with (
        running(create_app(helpdesk())) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        await channel.start()
        update = {
            "type": "conversationUpdate",
            "id": "u1",
            "channelId": "test",
            "serviceUrl": channel.service_url,
            "conversation": {"id": "quiet"},
            "from": {"id": "user"},
            "recipient": {"id": "bot"},
            "membersAdded": [{"id": "user"}],
        }
        async with ClientSession() as session:
            async with session.post(f"{base}/api/messages", json=update) as response:
                assert response.status in (200, 201, 202)
            # A blank message is ignored rather than answered with an apology.
            blank = dict(update, type="message", text="   ", id="u2")
            async with session.post(f"{base}/api/messages", json=blank) as response:
                assert response.status in (200, 201, 202)
            assert channel.replies.get("quiet", []) == []
            # The same conversation does get an answer to a real message.
            real = dict(update, type="message", text="I forgot my password", id="u3")
            async with session.post(f"{base}/api/messages", json=real) as response:
                assert response.status in (200, 201, 202)
    assert [r.activity["from"]["name"] for r in channel.replies["quiet"]] == ["helpdesk"]


async def test_a_conversation_id_is_kept_so_a_later_run_continues_the_conversation() -> None:
    """``run_conversation(conversation_id="persist-1")`` is conversation ``persist-1`` on the wire:
    another channel object (as after a restart of the caller) continues the open dialogue."""
    async with running(create_app(helpdesk())) as base:
        async with EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as first:
            opened = await first.run_conversation(
                ["I want to change my direct deposit account"], conversation_id="persist-1"
            )
        assert list(first.replies) == ["persist-1"]
        async with EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as second:
            continued = await second.run_conversation(["123456789"], conversation_id="persist-1")
    assert opened.bot_messages(1)[0].sender == "direct_deposit"
    (reply,) = continued.bot_messages(1)
    assert reply.sender == "direct_deposit" and "ending in 6789" in reply.text


async def test_an_id_run_twice_by_one_channel_gets_a_suffix_and_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with (
        running(create_app(helpdesk())) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        await channel.run_conversation(["When is payday?"], conversation_id="again")
        with caplog.at_level("WARNING", logger="harness.simulate.endpoint"):
            await channel.run_conversation(["When is payday?"], conversation_id="again")
        unique = EndpointTarget(f"{base}/api/messages", quiet_period=0.05, unique_ids=True)
        async with unique:
            await unique.run_conversation(["When is payday?"], conversation_id="again")
    assert list(channel.replies) == ["again", "again-2"]
    assert "'again' was already run by this target; it is 'again-2' on the wire" in caplog.text
    (wire,) = unique.replies
    assert wire.startswith("again-") and wire not in ("again", "again-2")

"""The transcript: attribution of every message, JSONL and Bot Framework exports."""

from __future__ import annotations

import json
from pathlib import Path

from harness import Conversation, Message, Transcript, load_bot
from tests.core._support import HELPDESK

JSONL_KEYS = {"id", "turn", "role", "sender", "mode", "request", "text"}


async def _conversation() -> Conversation:
    conversation = load_bot(HELPDESK).conversation(id="conv-1")
    for text in (
        "How many vacation days do I have remaining, and when will I be getting my next paycheck?",
        "I want to change my direct deposit account",
        "It's 123456789, and also how many vacation days have I taken?",
    ):
        await conversation.send(text)
    return conversation


async def test_every_message_is_attributed_to_its_sender_and_request() -> None:
    conversation = await _conversation()
    transcript = conversation.transcript
    assert transcript.turn_count == 3
    assert [m.sender for m in transcript.turn(1)] == ["user", "pto", "helpdesk"]
    pto = transcript.turn(1)[1]
    assert (pto.role, pto.mode, pto.request) == (
        "bot",
        "direct",
        "How many vacation days do I have remaining",
    )
    parent = transcript.turn(1)[2]
    assert (parent.mode, parent.request) == (None, None)
    assert sorted(m.sender for m in transcript.bot_messages(3)) == ["direct_deposit", "pto"]
    assert len({m.id for m in transcript}) == len(transcript)
    assert transcript.agent_modes == {
        "pto": "direct",
        "payroll": "silent",
        "password": "silent",
        "direct_deposit": "conversational",
    }


async def test_the_jsonl_export_has_exactly_the_design_keys(tmp_path: Path) -> None:
    conversation = await _conversation()
    path = tmp_path / "t.jsonl"
    conversation.transcript.write_jsonl(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(conversation.transcript)
    records = [json.loads(line) for line in lines]
    for record, message in zip(records, conversation.transcript, strict=True):
        if record["role"] == "user":
            # The optional plan of the turn, read back by `harness detect`.
            plan = record.pop("requests")
            assert plan and all(set(p) == {"agent", "request"} for p in plan)
        assert set(record) <= JSONL_KEYS
        assert {"id", "turn", "role", "sender", "text"} <= set(record)
        assert record["role"] in ("user", "bot")
        assert (record["id"], record["sender"], record["text"]) == (
            message.id,
            message.sender,
            message.text,
        )
        if record["sender"] in ("user", "helpdesk"):
            assert "mode" not in record
        else:
            assert record["mode"] in ("direct", "conversational")
            assert record["request"]
    assert [r["turn"] for r in records] == [1, 1, 1, 2, 2, 3, 3, 3]


async def test_the_bot_framework_export_is_an_array_of_message_activities(tmp_path: Path) -> None:
    conversation = await _conversation()
    path = tmp_path / "t.transcript"
    conversation.transcript.write_bot_framework(path, bot_name="helpdesk-bot")
    activities = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(activities, list)
    assert len(activities) == len(conversation.transcript)
    user_ids: dict[int, str] = {}
    for activity, message in zip(activities, conversation.transcript, strict=True):
        assert activity["type"] == "message"
        assert activity["id"] == message.id
        assert activity["text"] == message.text
        assert activity["conversation"] == {"id": "conv-1"}
        assert activity["timestamp"].endswith("Z")
        if message.role == "user":
            user_ids[message.turn] = message.id
            assert activity["from"]["role"] == "user"
            assert "replyToId" not in activity
        else:
            assert activity["from"] == {"id": "helpdesk-bot", "name": message.sender, "role": "bot"}
            assert activity["replyToId"] == user_ids[message.turn]
            assert activity["channelData"]["sender"] == message.sender
            assert activity["channelData"].get("mode") == message.mode
    stamps = [a["timestamp"] for a in activities]
    assert stamps == sorted(stamps)


def test_an_exported_transcript_rebuilds_from_its_messages() -> None:
    messages = [
        Message(id="m1", turn=1, role="user", sender="user", text="hi"),
        Message(id="m2", turn=1, role="bot", sender="pto", text="12 days", mode="direct"),
    ]
    transcript = Transcript.from_messages(messages, conversation="c")
    assert transcript.to_jsonl().splitlines() == [
        '{"id": "m1", "turn": 1, "role": "user", "sender": "user", "text": "hi"}',
        '{"id": "m2", "turn": 1, "role": "bot", "sender": "pto", "mode": "direct", "text": "12 days"}',
    ]
    assert transcript.next_id() == "m3"
    assert [m.id for m in transcript.bot_messages()] == ["m2"]


async def test_on_message_sees_every_bot_message_before_the_turn_ends() -> None:
    seen: list[tuple[int, str]] = []

    async def sink(message: Message) -> None:
        seen.append((message.turn, message.sender))

    conversation = load_bot(HELPDESK).conversation(on_message=sink)
    turn = await conversation.send(
        "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
    )
    assert seen == [(1, m.sender) for m in turn.messages] == [(1, "pto"), (1, "helpdesk")]

"""The transcript: attribution of every message, JSONL and Bot Framework exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from harness import Conversation, Message, Transcript, load_bot
from harness.detect.readers import load_transcript
from tests.core._support import HELPDESK

JSONL_KEYS = {
    "conversation",
    "id",
    "turn",
    "role",
    "sender",
    "mode",
    "request",
    "timestamp",
    "text",
}


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
        assert {"conversation", "id", "turn", "role", "sender", "text"} <= set(record)
        assert record["conversation"] == "conv-1"
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
        assert "timestamp" not in activity  # the messages carry none; none is made up
        if message.role == "user":
            user_ids[message.turn] = message.id
            assert activity["from"]["role"] == "user"
            assert "replyToId" not in activity
        else:
            assert activity["from"] == {"id": "helpdesk-bot", "name": message.sender, "role": "bot"}
            assert activity["replyToId"] == user_ids[message.turn]
            assert activity["channelData"]["sender"] == message.sender
            assert activity["channelData"].get("mode") == message.mode


def test_exports_keep_known_timestamps_and_the_conversation_id(tmp_path: Path) -> None:
    when = datetime(2026, 3, 2, 9, 30, 5, tzinfo=UTC)
    transcript = Transcript.from_messages(
        [
            Message(id="m1", turn=1, role="user", sender="user", text="hi", timestamp=when),
            Message(id="m2", turn=1, role="bot", sender="pto", text="12 days", mode="direct"),
        ],
        conversation="c-7",
    )
    first, second = transcript.to_bot_framework()
    assert first["timestamp"] == "2026-03-02T09:30:05Z"
    assert "timestamp" not in second
    records = [json.loads(line) for line in transcript.to_jsonl().splitlines()]
    assert [r["conversation"] for r in records] == ["c-7", "c-7"]
    assert records[0]["timestamp"] == "2026-03-02T09:30:05Z"
    assert "timestamp" not in records[1]
    # Read back by `harness detect`: the id and the timestamp survive.
    path = tmp_path / "t.jsonl"
    transcript.write_jsonl(path)
    other = Transcript.from_messages(transcript.messages, conversation="c-8")
    with path.open("a", encoding="utf-8") as file:
        file.write(other.to_jsonl())
    loaded = load_transcript(path)
    assert [t.conversation for t in loaded] == ["c-7", "c-8"]
    assert loaded[0].messages[0].timestamp == when


def test_an_exported_transcript_rebuilds_from_its_messages() -> None:
    messages = [
        Message(id="m1", turn=1, role="user", sender="user", text="hi"),
        Message(id="m2", turn=1, role="bot", sender="pto", text="12 days", mode="direct"),
    ]
    transcript = Transcript.from_messages(messages, conversation="c")
    assert transcript.to_jsonl().splitlines() == [
        '{"conversation": "c", "id": "m1", "turn": 1, "role": "user", "sender": "user", '
        '"text": "hi"}',
        '{"conversation": "c", "id": "m2", "turn": 1, "role": "bot", "sender": "pto", '
        '"mode": "direct", "text": "12 days"}',
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

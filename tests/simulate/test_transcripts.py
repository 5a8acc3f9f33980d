"""Loading JSONL and Bot Framework transcripts, and their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.detect import load_transcript, parse_transcript
from harness.detect.transcript import Message, Transcript
from harness.exceptions import ConfigError
from harness.simulate import load_agent_modes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


def test_a_hand_written_emulator_transcript_loads_with_its_ids_senders_and_turns() -> None:
    [t] = load_transcript(FIXTURES / "helpdesk-emulator.transcript")
    assert t.conversation == "8c3b1f60-2b11-11f1-9a41-0d5e6b7c8d90|livechat"
    assert len(t) == 14  # message activities only: no conversationUpdate, no typing
    assert t.turn_count == 4
    first_bot = t.bot_messages(1)[1]
    assert (first_bot.id, first_bot.sender, first_bot.turn) == (
        "d2f7b8a3-2b11-11f1-9a41-0d5e6b7c8d90",
        "PTO Assistant",
        1,
    )
    user = t.turn(1)[0]
    assert (user.role, user.sender) == ("user", "User")
    assert user.timestamp is not None and user.timestamp.microsecond == 531271


def test_jsonl_loads_modes_requests_and_plans() -> None:
    [t] = load_transcript(FIXTURES / "helpdesk.jsonl")
    assert [m.id for m in t] == ["m1", "m2", "m3", "m4", "m5", "m6", "m7"]
    assert t.messages[2].mode == "silent" and t.messages[2].request == "when is payday"
    assert [(p.agent, p.request) for p in t.turns[0].plan] == [
        ("pto", "how many vacation days do I have left"),
        ("payroll", "when is payday"),
    ]
    assert [r.turn for r in t.turns] == [1, 2]


def test_jsonl_conversation_key_splits_conversations_and_modes_are_added() -> None:
    lines = [
        {"id": 1, "turn": 1, "role": "user", "sender": "user", "text": "hi", "conversation": "a"},
        {"id": 1, "turn": 1, "role": "user", "sender": "user", "text": "hi", "conversation": "b"},
        {"id": 2, "turn": 1, "role": "bot", "sender": "pto", "text": "Hello", "conversation": "a"},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n\n"
    a, b = parse_transcript(text, agent_modes={"pto": "silent"})
    assert (a.conversation, len(a), b.conversation, len(b)) == ("a", 2, "b", 1)
    assert a.messages[1].id == "2" and a.agent_modes == {"pto": "silent"}


def test_transcripts_this_sdk_writes_load_back(tmp_path: Path) -> None:
    original = Transcript.from_messages(
        [
            Message(id="m1", turn=1, role="user", sender="user", text="When is payday?"),
            Message(
                id="m2",
                turn=1,
                role="bot",
                sender="payroll",
                text="Friday.",
                mode="direct",
                request="when is payday",
            ),
            Message(id="m3", turn=1, role="bot", sender="helpdesk", text="Anything else?"),
        ],
        conversation="c-1",
    )
    original.write_jsonl(tmp_path / "t.jsonl")
    original.write_bot_framework(tmp_path / "t.json")
    for path in (tmp_path / "t.jsonl", tmp_path / "t.json"):
        [loaded] = load_transcript(path)
        assert [(m.id, m.turn, m.role, m.sender, m.mode, m.request) for m in loaded] == [
            (m.id, m.turn, m.role, m.sender, m.mode, m.request) for m in original
        ]


def test_bot_framework_without_roles_takes_the_first_sender_as_the_user() -> None:
    activities = [
        {"type": "message", "id": "1", "from": {"id": "u"}, "text": "hi"},
        {"type": "message", "id": "2", "from": {"id": "b", "name": "Bot"}, "text": "Hello!"},
        {"type": "message", "id": "3", "from": {"id": "u"}, "text": "bye"},
    ]
    [t] = parse_transcript(json.dumps(activities))
    assert [(m.role, m.sender, m.turn) for m in t] == [
        ("user", "u", 1),
        ("bot", "Bot", 1),
        ("user", "u", 2),
    ]


def test_bot_framework_without_roles_warns_that_it_guessed_the_user(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A bot that greets first would be read as the user, silently, and a CI gate would pass on
    a misread file: the guess is said (and a file with roles is not warned about)."""
    greeting_first = [
        {"type": "message", "id": "1", "from": {"id": "b"}, "text": "Hi! How can I help?"},
        {"type": "message", "id": "2", "from": {"id": "u"}, "text": "freeze my card"},
    ]
    with caplog.at_level("WARNING", logger="harness.detect.readers"):
        parse_transcript(json.dumps(greeting_first), file="t.json")
    assert "t.json: conversation conversation: no message has from.role" in caplog.text
    assert "'b' is taken to be the user" in caplog.text
    caplog.clear()
    greeting_first[0]["from"]["role"] = "bot"
    with caplog.at_level("WARNING", logger="harness.detect.readers"):
        parse_transcript(json.dumps(greeting_first), file="t.json")
    assert caplog.text == ""


def test_bot_framework_without_roles_takes_the_user_from_a_reply() -> None:
    """A bot's reply names the user's activity in ``replyToId``: that sender is the user, even
    when the bot spoke first."""
    activities = [
        {"type": "message", "id": "1", "from": {"id": "b"}, "text": "Hi! How can I help?"},
        {"type": "message", "id": "2", "from": {"id": "u"}, "text": "freeze my card"},
        {"type": "message", "id": "3", "from": {"id": "b"}, "text": "Done.", "replyToId": "2"},
    ]
    [t] = parse_transcript(json.dumps(activities))
    assert [(m.role, m.turn) for m in t] == [("bot", 0), ("user", 1), ("bot", 1)]


def test_bot_messages_before_the_first_user_message_are_turn_zero() -> None:
    activities = [
        {"type": "message", "id": "w", "from": {"id": "b", "role": "bot"}, "text": "Welcome!"},
        {"type": "message", "id": "1", "from": {"id": "u", "role": "user"}, "text": "hi"},
    ]
    [t] = parse_transcript(json.dumps(activities))
    assert [m.turn for m in t] == [0, 1]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "text", "line", "words"),
    [
        ("a.jsonl", "hello there\n", 1, "not JSON"),
        (
            "b.jsonl",
            '{"id": "1", "turn": 1, "role": "user", "text": "hi"}\n{"id": 2,\n',
            2,
            "not JSON",
        ),
        ("c.jsonl", "[1]\n", 1, "activity 0"),
        (
            "d.jsonl",
            '{"id": "1", "turn": 1, "role": "user", "text": "hi"}\n"just a string"\n',
            2,
            "expected a JSON object",
        ),
        ("e.jsonl", '{"id": "1", "turn": 1, "role": "robot", "text": "hi"}\n', 1, "role"),
        ("f.jsonl", '{"id": "1", "turn": 1, "role": "user"}\n', 1, "text: missing"),
        (
            "g.jsonl",
            '{"id": "1", "turn": 1, "role": "user", "text": "hi", "colour": 1}\n',
            1,
            "unknown key 'colour'",
        ),
        (
            "h.jsonl",
            '{"id": "1", "turn": 1, "role": "user", "text": "hi"}\n'
            '{"id": "1", "turn": 1, "role": "bot", "sender": "b", "text": "yo"}\n',
            2,
            "duplicate message id '1'",
        ),
        (
            "i.jsonl",
            '{"id": "1", "turn": 2, "role": "user", "text": "hi"}\n'
            '{"id": "2", "turn": 1, "role": "bot", "sender": "b", "text": "yo"}\n',
            2,
            "must be in order",
        ),
        ("j.jsonl", "\n  \n", None, "empty"),
        (
            "k.json",
            '[{"type": "message", "id": "1", "from": {"role": "user"}, "text": "hi"},\n'
            ' {"type": "message", "id": "2", "from": {"role": "bot"}, "replyToId": "99", '
            '"text": "yo"}]',
            2,
            "replyToId '99' names no activity",
        ),
        (
            "l.json",
            '[\n  {"type": "message", "id": "1", "from": {"role": "user"}, "text": "a"},\n'
            '  {"type": "message", "id": "1", "from": {"role": "bot"}, "text": "b"}\n]',
            3,
            "duplicate activity id '1'",
        ),
        ("m.json", '["hello"]', 1, "expected an activity object"),
        ("n.json", '[{"type": "message", "id": "1", "text": "hi"}]', 1, "needs a sender"),
        (
            "o.json",
            '[{"type": "message", "id": "1", "from": {"role": "user"}, "text": "hi"',
            1,
            "not JSON",
        ),
        (
            "p.json",
            '[{"type": "typing", "id": "1", "from": {"role": "user"}}]',
            None,
            "no message activities",
        ),
    ],
)
def test_malformed_transcripts_say_what_and_where(
    tmp_path: Path, name: str, text: str, line: int | None, words: str
) -> None:
    path = _write(tmp_path, name, text)
    with pytest.raises(ConfigError) as caught:
        load_transcript(path)
    error = caught.value
    assert error.file == str(path)
    assert error.line == line
    assert words in str(error)


def test_a_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_transcript(tmp_path / "nope.jsonl")


def test_agent_modes_come_from_the_bot_config(tmp_path: Path) -> None:
    config = _write(
        tmp_path,
        "bot.yaml",
        "parent:\n  name: helpdesk\n  instructions: HR and IT helpdesk.\n"
        "subagents:\n"
        "  - {name: pto, kind: child, mode: direct, description: Paid time off.}\n"
        "  - {name: payroll, kind: connected, mode: silent, description: Pay dates.}\n",
    )
    assert load_agent_modes(config) == {"pto": "direct", "payroll": "silent"}
    broken = _write(tmp_path, "broken.yaml", "parent: [\n")
    with pytest.raises(ConfigError):
        load_agent_modes(broken)

"""The JSONL reader's short checks for the usual record give what its full checks give.

A line of the usual keys with values of the usual types is read in a few steps; any other goes
through every check, which names what is wrong. Both must read a record alike: the same message,
plan and conversation, or the same error.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.detect import readers
from harness.detect.transcript import Message
from harness.exceptions import ConfigError

_VALUES = st.one_of(
    st.sampled_from(["user", "bot", "m1", "", " ", "parent", "silent", "conversation", "x"]),
    st.integers(min_value=-2, max_value=3),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1, max_value=3),
    st.just([{"agent": "billing", "request": "my balance"}]),
    st.just("2026-12-02T10:00:00Z"),
)
_KEYS = ["id", "turn", "role", "sender", "text", "conversation", "mode", "request", "requests"]
_KEYS += ["timestamp", "extra"]
_GOOD = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["m1", "m2"]),
        "turn": st.sampled_from([0, 1, 2]),
        "role": st.sampled_from(["user", "bot"]),
        "text": st.sampled_from(["hello", ""]),
    },
    optional={"sender": st.sampled_from(["user", "parent"]), "conversation": st.just("c1")},
)
_BAD = {
    "id": ["", 7, True, None],
    "turn": [-1, True, 1.0, "1", None],
    "role": ["system", None, 1],
    "text": [3, None],
    "sender": ["", 5, None],
    "conversation": ["", 4, False, None],
    "mode": ["silent", "direct", "loud"],
    "timestamp": ["2026-12-02T10:00:00Z", "soon"],
    "requests": [[{"agent": "billing", "request": "my balance"}], "x"],
}


@st.composite
def _usual(draw: st.DrawFn) -> dict[str, Any]:
    """A record of the usual keys, one of them perhaps missing or of another value."""
    record = draw(_GOOD)
    change = draw(st.sampled_from([None, "drop", *_BAD]))
    if change == "drop":
        record.pop(draw(st.sampled_from(sorted(record))))
    elif change is not None:
        record[change] = draw(st.sampled_from(_BAD[change]))
    return record


_USUAL = _usual()
_RECORDS = st.one_of(_USUAL, st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=8))


def _read(reader: Any, record: dict[str, Any]) -> object:
    try:
        return reader(dict(record), "f.jsonl", 3)
    except ConfigError as exc:
        return ("error", str(exc))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_RECORDS)
def test_the_short_checks_read_a_record_as_the_full_checks(record: dict[str, Any]) -> None:
    assert _read(readers._jsonl_message, record) == _read(readers._checked_message, record)


def test_a_usual_record_takes_the_short_checks() -> None:
    record = {
        "conversation": "c",
        "id": "m1",
        "turn": 1,
        "role": "bot",
        "sender": "p",
        "text": "hi",
    }
    message, plan, conversation = readers._jsonl_message(record, "f.jsonl", 1)
    assert (message.id, message.turn, message.role, message.sender, message.text) == (
        "m1",
        1,
        "bot",
        "p",
        "hi",
    )
    assert (plan, conversation, message.mode, message.timestamp) == (None, "c", None, None)


def test_a_plain_message_is_the_message_its_constructor_makes() -> None:
    text = "Your balance is $42.10."
    made = readers._plain_message("m7", 3, "bot", "billing", text)
    expected = Message(id="m7", turn=3, role="bot", sender="billing", text=text)
    assert made == expected
    assert hash(made) == hash(expected)
    # Every field is set: a field added to Message must be added to _plain_message too.
    assert [f.name for f in fields(Message)] == [
        "id",
        "turn",
        "role",
        "sender",
        "text",
        "mode",
        "request",
        "timestamp",
        "arrived_during",
    ]
    assert all(getattr(made, f.name) == f.default for f in fields(Message)[5:])

"""Bounded state without a server: the window, the log, old snapshots and interrupted turns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.hosting import HarnessBot, OutgoingMessage, SqliteStore
from harness.hosting._state import INTERRUPTED
from tests.hosting._support import helpdesk

TEXTS = ["where can i locate my w-2 form", "i forgot my password", "when is my next paycheck"]


class Slot:
    def __init__(self, value: Any = None) -> None:
        self.value = value
        self.sent: list[OutgoingMessage] = []

    async def load(self) -> Any:
        return self.value

    async def save(self, value: str) -> None:
        self.value = value

    async def send(self, message: OutgoingMessage) -> None:
        self.sent.append(message)

    @property
    def state(self) -> dict[str, Any]:
        return dict(json.loads(self.value))


async def _say(bot: HarnessBot, slot: Slot, text: str, activity: str | None = None) -> Any:
    return await bot.handle_message(
        key="k",
        conversation_id="c",
        text=text,
        load=slot.load,
        save=slot.save,
        send=slot.send,
        activity_id=activity,
    )


async def test_the_state_keeps_a_window_and_the_log_every_turn(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "state.sqlite")
    bot, slot = HarnessBot(helpdesk(), store=store, window_turns=3), Slot()
    for n in range(12):
        await _say(bot, slot, TEXTS[n % 3], f"a{n}")
    state = slot.state
    assert sorted({m["turn"] for m in state["messages"]}) == [10, 11, 12]
    log = await store.read_log("k")
    assert [e["turn"] for e in log] == list(range(1, 13))
    ids = [m["id"] for e in log for m in e["messages"]]
    assert ids == [f"c-{n}" for n in range(1, len(ids) + 1)]  # a counter: unique and in order
    assert state["message_count"] == len(ids)
    await store.aclose()


async def test_a_snapshot_from_before_the_window_is_moved_to_the_log(tmp_path: Path) -> None:
    old = helpdesk().conversation(id="c")
    for text in TEXTS * 2:
        await old.send(text)
    legacy = old.snapshot()
    del legacy["message_count"]  # as written before the counter existed
    store = SqliteStore(tmp_path / "state.sqlite")
    bot, slot = HarnessBot(helpdesk(), store=store, window_turns=2), Slot(json.dumps(legacy))
    turn = await _say(bot, slot, "i forgot my password")
    assert turn is not None and turn.number == 7
    assert turn.user.id == f"c-{len(legacy['messages']) + 1}"
    assert [e["turn"] for e in await store.read_log("k")] == list(range(1, 8))
    assert sorted({m["turn"] for m in slot.state["messages"]}) == [6, 7]
    await store.aclose()


async def test_a_turn_cut_short_and_not_retried_is_kept_and_marked_interrupted() -> None:
    bot, slot = HarnessBot(helpdesk()), Slot()
    await _say(bot, slot, TEXTS[0], "a1")
    # A worker died after saving turn 2's reply, before the turn ended.
    partial = slot.state
    partial["messages"] += [
        {"id": "c-3", "turn": 2, "role": "user", "sender": "user", "text": TEXTS[1]},
        {"id": "c-4", "turn": 2, "role": "bot", "sender": "password", "text": "reset link sent"},
    ]
    partial["message_count"] = 4
    partial["hosting"]["pending"] = {"activity": "a2:x", "turn": 2, "message_count": 2}
    slot.value = json.dumps(partial)
    turn = await _say(bot, slot, TEXTS[2], "a3")  # the user moved on
    assert turn is not None and turn.number == 3 and turn.user.id == "c-5"
    state = slot.state
    assert [m["text"] for m in state["messages"] if m["turn"] == 2][1] == "reset link sent"
    assert [t.get("error") for t in state["turns"]] == [None, INTERRUPTED, None]
    assert "pending" not in state["hosting"]


async def test_a_repeated_activity_is_not_run_again_but_the_same_text_later_is() -> None:
    bot, slot = HarnessBot(helpdesk()), Slot()
    assert await _say(bot, slot, TEXTS[0], "a1") is not None
    assert await _say(bot, slot, TEXTS[0], "a1") is None
    assert await _say(bot, slot, TEXTS[0], "a2") is not None  # a new activity: a new turn
    assert await _say(bot, slot, TEXTS[0]) is not None  # no activity id: always run
    users = [m for m in slot.state["messages"] if m["role"] == "user"]
    assert [m["turn"] for m in users] == [1, 2, 3]

"""Shared helpers for the tests of stores that several workers share (Redis, Azure Blob)."""

from __future__ import annotations

import json
from typing import Any

from harness.hosting import HarnessBot, OutgoingMessage
from harness.hosting.storage import StateStore
from tests.hosting._support import helpdesk

KEY = "test/conversations/c1"


class Worker:
    """One worker: a bot on its own store client, with the adapter's load/save over the store."""

    def __init__(self, store: StateStore) -> None:
        self.store = store
        self.bot = HarnessBot(helpdesk(), store=store, window_turns=3)
        self.sent: list[OutgoingMessage] = []

    async def say(self, text: str, *, activity: str) -> Any:
        async def load() -> Any:
            found = await self.store.read([KEY])
            return found.get(KEY, {}).get("harness")

        async def save(snapshot: str) -> None:
            await self.store.write({KEY: {"harness": snapshot}})

        async def send(message: OutgoingMessage) -> None:
            self.sent.append(message)

        return await self.bot.handle_message(
            key=KEY,
            conversation_id="c1",
            text=text,
            load=load,
            save=save,
            send=send,
            activity_id=activity,
        )


async def transcript(store: StateStore) -> list[dict[str, Any]]:
    """Every message of the conversation: the log's turns, then the window's unlogged ones."""
    entries = await store.read_log(KEY)
    messages = [m for entry in entries for m in entry["messages"]]
    state = json.loads((await store.read([KEY]))[KEY]["harness"])
    logged = {m["id"] for m in messages}
    return messages + [m for m in state["messages"] if m["id"] not in logged]


async def load_state(store: StateStore) -> Any:
    return (await store.read([KEY])).get(KEY, {}).get("harness")

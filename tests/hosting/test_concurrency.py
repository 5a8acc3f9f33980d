"""Many conversations at once: no history or state crosses from one conversation to another."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from harness.hosting import EndpointTarget, SqliteStore, create_app
from tests.hosting._support import ADAPTERS, helpdesk, running

CONVERSATIONS = 50
_ENDING = re.compile(r"ending in (\d{4})")


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_50_concurrent_conversations_without_cross_talk(adapter: str) -> None:
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05, turn_timeout=60) as channel,
    ):

        async def converse(index: int) -> tuple[int, list[str], list[list[str]]]:
            last4 = str(1000 + index)
            wire = f"conv-{index}"
            turns = [
                "I want to change my direct deposit account",
                f"The new account is 40{index:03d}{last4}",
                "yes",
            ]
            texts = []
            for text in turns:
                received = await channel.send_turn(wire, text)
                texts.append([r.activity["text"] for r in received])
            return index, turns, texts

        results = await asyncio.gather(*(converse(i) for i in range(CONVERSATIONS)))

    for index, _turns, texts in results:
        own = str(1000 + index)
        assert len(texts[0]) == 1 and "account number" in texts[0][0], (index, texts)
        assert len(texts[1]) == 1 and f"ending in {own}?" in texts[1][0], (index, texts)
        assert len(texts[2]) == 1 and texts[2][0].startswith("Done"), (index, texts)
        mentioned = {m for turn in texts for text in turn for m in _ENDING.findall(text)}
        assert mentioned == {own}, (index, texts)


async def test_turns_of_one_conversation_run_one_at_a_time(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "state.sqlite")
    async with (
        running(create_app(helpdesk(), storage=store)) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        await asyncio.gather(
            *(
                channel.send_turn("same", f"How many vacation days have I taken? ({n})")
                for n in range(6)
            )
        )
        state = await store.read(["harness-sim/conversations/same"])
    snapshot = json.loads(state["harness-sim/conversations/same"]["harness"])
    # Every turn was loaded after the previous one was saved: none lost, none numbered twice.
    assert [t["turn"] for t in snapshot["turns"]] == [1, 2, 3, 4, 5, 6]
    users = [m for m in snapshot["messages"] if m["role"] == "user"]
    assert sorted(m["text"][-2] for m in users) == [str(n) for n in range(6)]

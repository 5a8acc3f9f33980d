"""``harness serve`` as a process: one log line for a dead channel, an access log, and kill -9.

Save before you speak (issue 16, item 7): the server is killed with SIGKILL while 150
conversations run; every reply the channel had received must belong to a turn in the SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import sqlite3
from pathlib import Path

import pytest
from aiohttp import ClientSession

from harness.exceptions import RunError
from harness.hosting import EndpointTarget
from tests.hosting._support import ADAPTERS, STOP_WITHIN_S, activity, serving


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_service_url_is_one_log_line_and_requests_are_logged(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as (process, url, log):

        async def post() -> int:
            body = activity(
                "where can I locate my W-2 form",
                service_url=f"http://127.0.0.1:{_closed_port()}",
            )
            async with ClientSession() as session, session.post(url, json=body) as response:
                return response.status

        assert asyncio.run(post()) < 300
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=STOP_WITHIN_S) == 0
    text = log.read_text()
    assert "Traceback" not in text, text
    failures = [line for line in text.splitlines() if "could not deliver a reply" in line]
    assert len(failures) == 1, text
    assert "Cannot connect" in failures[0] or "ClientConnectorError" in failures[0]
    assert any('"POST /api/messages HTTP/1.1" 2' in line for line in text.splitlines()), text


CONVERSATIONS = 150
TURNS = ["I want to change my direct deposit account", "The new account is 400123456", "yes"]


def _stored_bot_texts(database: Path) -> dict[str, list[str]]:
    stored: dict[str, list[str]] = {}
    with sqlite3.connect(database) as db:
        for (value,) in db.execute("SELECT value FROM state"):
            record = json.loads(value)
            snapshot = record.get("harness")
            if isinstance(snapshot, str):
                data = json.loads(snapshot)
                stored[data["id"]] = [m["text"] for m in data["messages"] if m["role"] == "bot"]
    return stored


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_kill_9_under_load_leaves_no_reply_the_bot_forgot(tmp_path: Path, adapter: str) -> None:
    database = tmp_path / "state.sqlite"
    with serving(tmp_path, "--adapter", adapter, "--storage", str(database)) as (
        process,
        url,
        _log,
    ):

        async def load() -> dict[str, list[str]]:
            async with EndpointTarget(url, quiet_period=0.02, turn_timeout=300) as channel:

                async def converse(index: int) -> None:
                    for text in TURNS:
                        await channel.send_turn(f"k-{index}", text)

                tasks = [asyncio.create_task(converse(i)) for i in range(CONVERSATIONS)]
                # kill while turns are in flight: after some replies, well before all of them
                # (the test's own progress decides when, however slow the machine is)
                async with asyncio.timeout(600):  # a safety net only
                    while sum(len(r) for r in channel.replies.values()) < CONVERSATIONS:  # noqa: ASYNC110
                        await asyncio.sleep(0.01)
                process.send_signal(signal.SIGKILL)
                done = await asyncio.gather(*tasks, return_exceptions=True)
                assert all(r is None or isinstance(r, RunError) for r in done), done
                return {
                    conversation: [r.activity["text"] for r in received]
                    for conversation, received in channel.replies.items()
                }

        delivered = asyncio.run(load())
        process.wait(timeout=STOP_WITHIN_S)
    stored = _stored_bot_texts(database)
    received = sum(len(texts) for texts in delivered.values())
    assert CONVERSATIONS <= received < CONVERSATIONS * len(TURNS)  # killed mid-load
    forgotten = {
        conversation: [t for t in texts if t not in stored.get(conversation, [])]
        for conversation, texts in delivered.items()
    }
    assert not any(forgotten.values()), {k: v for k, v in forgotten.items() if v}

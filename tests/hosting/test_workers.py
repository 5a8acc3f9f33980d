"""Three ``harness serve`` workers on one redis-server, 50 concurrent conversations, one kill -9.

A round-robin dispatcher spreads every request over the live workers, so each conversation's turns
land on different workers. A third of the way through, one worker is killed with SIGKILL (no
shutdown, its leases left to expire) and started again. Then every conversation must have gone on
exactly as one conversation in one process would: no lost or doubled turn, no cross-talk, and the
conversational agent's floor carried from worker to worker.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import aiohttp

from harness.hosting._redis import RedisStore
from tests.hosting._cluster import DIALOGUE, Channel, Dispatcher, Worker, expected_replies
from tests.hosting._servers import redis_server

CONVERSATIONS = 50


async def test_three_workers_on_redis_survive_a_kill_9_mid_load(tmp_path: Path) -> None:
    (tmp_path / "redis").mkdir()
    expected = await expected_replies(DIALOGUE)
    with redis_server(tmp_path / "redis") as url:
        storage = f"{url}?lease_ttl=2"
        channel = Channel()
        await channel.start()
        workers = [Worker(storage, tmp_path, f"worker-{n}") for n in range(3)]
        killed_at: list[int] = []
        try:
            async with asyncio.TaskGroup() as group:
                for worker in workers:
                    group.create_task(worker.start())
            connector = aiohttp.TCPConnector(limit=CONVERSATIONS * 2)
            async with aiohttp.ClientSession(connector=connector) as session:
                dispatcher = Dispatcher(workers, channel, session)
                total = CONVERSATIONS * len(DIALOGUE)

                third = dispatcher.after(total // 3)

                async def kill_and_restart() -> None:
                    await third.wait()
                    victim = workers[1]
                    victim.kill()
                    killed_at.append(dispatcher.completed)
                    assert victim.process is not None
                    await victim.process.wait()
                    await victim.start()

                async with asyncio.timeout(120), asyncio.TaskGroup() as group:
                    group.create_task(kill_and_restart())
                    for n in range(CONVERSATIONS):
                        group.create_task(dispatcher.converse(f"conv-{n}", DIALOGUE))
            store = RedisStore(url)
            try:
                logs = {
                    n: await store.read_log(f"cluster/conversations/conv-{n}")
                    for n in range(CONVERSATIONS)
                }
            finally:
                await store.aclose()
        finally:
            for worker in workers:
                await worker.stop()
            await channel.stop()

    assert killed_at and killed_at[0] < total  # the kill came mid-load
    assert dispatcher.completed == total
    by_activity: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for reply in channel.replies:
        # No cross-talk: a reply goes to the conversation of the message it answers.
        assert reply.reply_to.startswith(f"{reply.conversation}-u"), reply
        by_activity[reply.reply_to].append((reply.sender, reply.text))
    doubled = []
    for n in range(CONVERSATIONS):
        for turn, want in enumerate(expected, start=1):
            got = by_activity[f"conv-{n}-u{turn}"]
            unique = list(dict.fromkeys(got))
            assert unique == want, (n, turn)  # every reply of every turn, in order
            if len(got) > len(unique):
                doubled.append(f"conv-{n}-u{turn}")
                # Only the reply that was saved last may go out twice (see Stored.recover).
                assert len(got) == len(unique) + 1, got
        # The full transcript in the shared log: each turn once, in order.
        entries = logs[n]
        assert [e["turn"] for e in entries] == [1, 2, 3, 4, 5]
        users = [m["text"] for e in entries for m in e["messages"] if m["role"] == "user"]
        assert users == list(DIALOGUE)
    # A reply can arrive twice only when its worker died between sending it and finishing the
    # turn, and the turn was run again elsewhere: at most the turns that had to be retried.
    assert len(doubled) <= dispatcher.retried
    assert "Traceback" not in _worker_logs(tmp_path)
    print(f"retried {dispatcher.retried} request(s); {len(doubled)} turn(s) had a reply twice")


def _worker_logs(directory: Path) -> str:
    return "".join(path.read_text() for path in directory.glob("worker-*.log"))

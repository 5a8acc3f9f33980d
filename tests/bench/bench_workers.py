"""Scale-out: ``harness serve`` throughput with 1 and 3 workers on one Redis, and stored state size.

Run it from the repository root (needs ``redis-server`` and the ``storage`` extra)::

    .venv/bin/python tests/bench/bench_workers.py [--conversations 50] [--rounds 2] [--json]

Throughput: a private redis-server, N ``harness serve`` workers on it (the helpdesk sample on the
offline rules model), and this process as the channel and a round-robin load balancer, with
``--conversations`` concurrent conversations each playing the five-turn helpdesk dialogue
``--rounds`` times. A request is one user activity posted and answered (its replies delivered).
Reported: requests per second for 1 and 3 workers, and their ratio. Every process shares the
machine's cores, the load generator included, so the ratio says how far the work spreads on this
machine, not what more machines would give.

State size: one conversation of 2,000 turns through ``HarnessBot``, the stored state's bytes with
the default window of 50 turns and with no window (the whole transcript, as before the window).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.hosting._cluster import DIALOGUE, Channel, Dispatcher, Worker  # noqa: E402
from tests.hosting._servers import redis_server  # noqa: E402

STATE_TURNS = 2000


async def throughput(workers: int, *, conversations: int, rounds: int) -> dict[str, Any]:
    """Requests per second of ``workers`` workers on one fresh Redis."""
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as url:
        channel = Channel()
        await channel.start()
        pool = [Worker(url, Path(tmp), f"worker-{n}") for n in range(workers)]
        try:
            async with asyncio.TaskGroup() as group:
                for worker in pool:
                    group.create_task(worker.start())
            connector = aiohttp.TCPConnector(limit=conversations * 2)
            async with aiohttp.ClientSession(connector=connector) as session:
                dispatcher = Dispatcher(pool, channel, session)
                # Warm-up: a conversation per worker, so imports and first connections are done.
                await asyncio.gather(
                    *(dispatcher.converse(f"warmup-{n}", DIALOGUE[:1]) for n in range(workers))
                )
                dispatcher.completed, dispatcher.latencies = 0, []
                started = time.perf_counter()
                await asyncio.gather(
                    *(
                        dispatcher.converse(f"c{n}-r{r}", DIALOGUE)
                        for n in range(conversations)
                        for r in range(rounds)
                    )
                )
                elapsed = time.perf_counter() - started
        finally:
            for worker in pool:
                await worker.stop()
            await channel.stop()
    ordered = sorted(dispatcher.latencies)
    return {
        "workers": workers,
        "requests": dispatcher.completed,
        "seconds": round(elapsed, 3),
        "rps": round(dispatcher.completed / elapsed, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
        "retried": dispatcher.retried,
    }


async def state_bytes(window: int | None, turns: int = STATE_TURNS) -> int:
    """The stored state's size after ``turns`` turns of one conversation."""
    from harness import load_bot
    from harness.hosting import HarnessBot, OutgoingMessage

    bot = HarnessBot(load_bot(ROOT / "samples" / "helpdesk" / "helpdesk.yaml"), window_turns=window)
    slot: dict[str, Any] = {"state": None}

    async def load() -> Any:
        return slot["state"]

    async def save(value: str) -> None:
        slot["state"] = value

    async def send(_message: OutgoingMessage) -> None:
        return None

    for n in range(turns):
        await bot.handle_message(
            key="k",
            conversation_id="c",
            text=DIALOGUE[n % len(DIALOGUE)],
            load=load,
            save=save,
            send=send,
            activity_id=f"a{n}",
        )
    return len(slot["state"])


async def measure(conversations: int, rounds: int) -> dict[str, Any]:
    one = await throughput(1, conversations=conversations, rounds=rounds)
    three = await throughput(3, conversations=conversations, rounds=rounds)
    return {
        "one": one,
        "three": three,
        "ratio": round(three["rps"] / one["rps"], 2),
        "state_bytes_window_50": await state_bytes(50),
        "state_bytes_no_window": await state_bytes(None),
        "state_turns": STATE_TURNS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = asyncio.run(measure(args.conversations, args.rounds))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key in ("one", "three"):
            r = report[key]
            print(
                f"{r['workers']} worker(s): {r['rps']} req/s, p50 {r['p50_ms']} ms, "
                f"p99 {r['p99_ms']} ms ({r['requests']} requests)"
            )
        print(f"3 / 1 workers: {report['ratio']}x")
        print(
            f"stored state after {report['state_turns']} turns: "
            f"{report['state_bytes_window_50']:,} bytes (window 50), "
            f"{report['state_bytes_no_window']:,} bytes (no window)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

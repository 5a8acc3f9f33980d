"""Throughput and latency of ``harness serve`` next to a bare botbuilder echo bot, in one run.

Run it from the repository root::

    .venv/bin/python tests/bench/bench_hosting.py [--conversations 50] [--rounds 4] [--json]

Each bot runs in its own process (``harness serve`` on the helpdesk sample and the offline rules
model; the echo bot of ``tests/hosting/echo_bot.py``, written with botbuilder only). This process is
the channel: a callback server for the replies and ``--conversations`` concurrent conversations,
each playing the helpdesk's five-turn multi-intent dialogue ``--rounds`` times (a new conversation
id every round). A request is one user activity posted and all its replies received: botbuilder
answers the POST only after its replies were delivered, and the bench checks that every request
got at least one reply. Reported: requests per second, p50 and p99 latency, replies per request.

Two echo rows: the plain one, as a developer writes it from Microsoft's sample, and the same bot with
the connector-client cache that ``harness serve`` uses (botbuilder's ``CloudAdapter`` otherwise
builds two HTTP clients per activity, which costs more than a helpdesk turn). The second row is the
fair measure of what the harness itself adds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
TURNS = [
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?",
    "I want to change my direct deposit account",
    "It's 123456789, and also how many vacation days have I taken?",
    "yes",
    "I forgot my password. Also, where can I locate my W-2 form?",
]
ECHO_SERVER = """
import sys
from aiohttp import web
from tests.hosting.echo_bot import echo_app

app = echo_app(times=1)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""
# The same echo bot with the connector-client cache harness serve's botbuilder adapter uses: the
# fair baseline for the harness's own per-turn cost (botbuilder otherwise builds two HTTP clients,
# each with msrest's slow retry configuration, for every incoming activity).
ECHO_CACHED_SERVER = """
import sys
from aiohttp import web
from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication
from harness.hosting.botbuilder import _CachingAuthentication
from tests.hosting.echo_bot import EchoBot, _Config

adapter = CloudAdapter(_CachingAuthentication(ConfigurationBotFrameworkAuthentication(_Config())))
bot = EchoBot(1)

async def messages(request):
    return await adapter.process(request, bot) or web.Response(status=201)

app = web.Application()
app.router.add_post("/api/messages", messages)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _server(command: list[str], port: int) -> Iterator[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _wait_ready(url: str, session: aiohttp.ClientSession) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            async with session.post(f"{url}/api/messages", data=b"{}") as response:
                if response.status < 500:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"no server at {url}")


class Channel:
    """The callback server: counts the replies to each user activity."""

    def __init__(self) -> None:
        self.replies: Counter[str] = Counter()
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def start(self) -> None:
        async def receive(request: web.Request) -> web.Response:
            activity = await request.json()
            self.replies[str(activity.get("replyToId"))] += 1
            return web.json_response({"id": uuid.uuid4().hex})

        app = web.Application()
        app.router.add_post("/v3/conversations/{c}/activities/{a}", receive)
        app.router.add_post("/v3/conversations/{c}/activities", receive)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


async def _load(
    bot_url: str, channel: Channel, *, conversations: int, rounds: int, warmup: int
) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=conversations * 2)
    async with aiohttp.ClientSession(connector=connector) as session:
        await _wait_ready(bot_url, session)

        async def post(conversation: str, text: str) -> tuple[float, str]:
            activity_id = uuid.uuid4().hex
            body = {
                "type": "message",
                "id": activity_id,
                "channelId": "bench",
                "serviceUrl": channel.url,
                "conversation": {"id": conversation},
                "from": {"id": "user", "name": "user", "role": "user"},
                "recipient": {"id": "bot", "name": "bot", "role": "bot"},
                "text": text,
            }
            start = time.perf_counter()
            async with session.post(f"{bot_url}/api/messages", json=body) as response:
                await response.read()
                if response.status >= 300:
                    raise RuntimeError(f"HTTP {response.status} from {bot_url}")
            return time.perf_counter() - start, activity_id

        for n in range(warmup):
            await post(f"warmup-{n}", TURNS[n % len(TURNS)])

        latencies: list[float] = []
        ids: list[str] = []

        async def worker(index: int) -> None:
            for round_ in range(rounds):
                conversation = f"bench-{index}-{round_}-{uuid.uuid4().hex[:6]}"
                for text in TURNS:
                    latency, activity_id = await post(conversation, text)
                    latencies.append(latency)
                    ids.append(activity_id)

        started = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(conversations)))
        elapsed = time.perf_counter() - started
    unanswered = sum(1 for i in ids if channel.replies[i] == 0)
    replies = sum(channel.replies[i] for i in ids)
    ordered = sorted(latencies)
    return {
        "requests": len(latencies),
        "seconds": round(elapsed, 3),
        "rps": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
        "replies_per_request": round(replies / len(latencies), 2),
        "unanswered": unanswered,
    }


def _harness_command(port: int, adapter: str) -> list[str]:
    return [
        sys.executable,
        "-c",
        "from harness.cli import main; main()",
        "serve",
        str(HELPDESK),
        "--port",
        str(port),
        "--adapter",
        adapter,
        "--model",
        "rules",
    ]


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    channel = Channel()
    await channel.start()
    bots: list[tuple[str, list[str], int]] = []
    port = _free_port()
    bots.append(("botbuilder echo bot", [sys.executable, "-c", ECHO_SERVER, str(port)], port))
    if not args.no_cached_echo:
        port = _free_port()
        bots.append(
            (
                "echo bot, cached connectors",
                [sys.executable, "-c", ECHO_CACHED_SERVER, str(port)],
                port,
            )
        )
    for adapter in args.adapters:
        port = _free_port()
        bots.append((f"harness serve ({adapter})", _harness_command(port, adapter), port))
    rows: list[dict[str, Any]] = []
    try:
        for name, command, port in bots:
            with _server(command, port) as url:
                result = await _load(
                    url,
                    channel,
                    conversations=args.conversations,
                    rounds=args.rounds,
                    warmup=args.warmup,
                )
            rows.append({"bot": name, **result})
    finally:
        await channel.stop()
    baseline = rows[0]["rps"]
    for row in rows:
        row["vs_echo"] = round(row["rps"] / baseline, 2)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument(
        "--adapters",
        nargs="+",
        default=["botbuilder", "agents-sdk"],
        choices=["botbuilder", "agents-sdk"],
    )
    parser.add_argument(
        "--no-cached-echo", action="store_true", help="Skip the echo bot with cached connectors."
    )
    parser.add_argument("--json", action="store_true", help="Print JSON instead of a table.")
    args = parser.parse_args()
    rows = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{args.conversations} concurrent conversations, {len(TURNS)} turns x {args.rounds} "
        f"rounds each; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    header = f"{'bot':<28}{'requests':>9}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>8}{'replies':>9}{'vs echo':>9}"
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['bot']:<28}{row['requests']:>9}{row['rps']:>8}{row['p50_ms']:>8}"
            f"{row['p99_ms']:>8}{row['replies_per_request']:>9}{row['vs_echo']:>9}"
        )
        if row["unanswered"]:
            print(f"  warning: {row['unanswered']} request(s) got no reply")


if __name__ == "__main__":
    main()

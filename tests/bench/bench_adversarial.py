"""What one adversarial ~1 MB user message costs a served bot with the duplicate guard on, and how
much it delays another conversation (issue 27: under 1 s, and never more than 100 ms).

Run it from the repository root::

    .venv/bin/python tests/bench/bench_adversarial.py [--families 1-,a.,ids] [--probes 5]
        [--adapter botbuilder|agents-sdk] [--json]

A real ``harness serve`` process runs the helpdesk sample with ``duplicate_guard: drop`` and the
offline rules model; this process is the channel. For each pattern family of
``tests/core/test_text_linear.py`` (separators, ids, e-mail addresses, URLs, money, dates, names,
Markdown, white space...) it posts one message of that unit repeated to just under the server's
1,000,000-byte body limit, in conversation A. While A's turn runs, a second conversation B keeps
sending a short question (one at a time), and ``/healthz`` is polled every 10 ms.

Reported per family: A's wall-clock time (POST sent to answered; the bot answers after its replies
were delivered), the server's CPU seconds for it (``/proc/PID/stat``, with its children's: the
duplicate guard's worker process; the same on a busy machine),
the CPU seconds of its main thread (the event loop's: work every conversation waits for), B's
slowest turn during A minus B's median turn alone (the delay A caused), and the slowest
``/healthz`` answer during A. Wall-clock figures depend on the machine's load: report it with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.core.test_text_linear import FAMILIES, _text  # noqa: E402

MAX_BODY = 1_000_000
PROBE = "When will I be getting my next paycheck?"


def guarded_helpdesk(directory: Path) -> Path:
    """The helpdesk sample, copied into ``directory``, with ``duplicate_guard: drop``."""
    shutil.copytree(ROOT / "samples" / "helpdesk", directory, dirs_exist_ok=True)
    bot = directory / "helpdesk.yaml"
    text = bot.read_text()
    marker = "  model: rules\n"
    assert marker in text, "the helpdesk sample's parent model line moved"
    bot.write_text(text.replace(marker, marker + "  duplicate_guard: drop\n", 1))
    return bot


def _activity(conversation: str, activity_id: str, text: str, service_url: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": activity_id,
        "channelId": "bench",
        "serviceUrl": service_url,
        "conversation": {"id": conversation},
        "from": {"id": "user", "name": "user", "role": "user"},
        "recipient": {"id": "bot", "name": "bot", "role": "bot"},
        "text": text,
    }


def adversarial_body(unit: str, service_url: str, conversation: str, activity_id: str) -> bytes:
    """The family's text, as long as fits in one request under the server's body limit."""
    size = MAX_BODY
    while True:
        text = _text(unit, size)
        body = json.dumps(
            _activity(conversation, activity_id, text, service_url), ensure_ascii=False
        ).encode()
        if len(body) <= MAX_BODY - 1000:
            return body
        size -= max(1000, (len(body) - MAX_BODY + 1000) // 2)


def _cpu_seconds(pid: int, thread: int | None = None) -> float:
    """CPU seconds (user + system) of process ``pid`` and its running children (the duplicate
    guard's worker process), or of its thread ``thread`` alone."""
    stat = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    if thread is None:
        # Each thread's children: the worker process is started by one of the worker threads.
        children = {
            c for t in Path(f"/proc/{pid}/task").glob("*/children") for c in t.read_text().split()
        }
        for child in children:
            with contextlib.suppress(FileNotFoundError):  # it ended meanwhile
                seconds += _cpu_seconds(int(child))
    return seconds


async def _serve(bot: Path, adapter: str) -> tuple[asyncio.subprocess.Process, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sys; from harness.cli import main; sys.exit(main())",
        "serve",
        str(bot),
        "--port",
        "0",
        "--adapter",
        adapter,
        cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdout is not None
    async with asyncio.timeout(300):
        while True:
            line = (await process.stdout.readline()).decode()
            if not line:
                raise RuntimeError("harness serve exited")
            if "/api/messages" in line:
                return process, line.split(" on ", 1)[1].split("/api/messages", 1)[0]


async def _turn(session: aiohttp.ClientSession, base: str, data: bytes) -> float:
    started = time.perf_counter()
    async with session.post(
        f"{base}/api/messages", data=data, headers={"Content-Type": "application/json"}
    ) as response:
        await response.read()
        if response.status >= 300:
            raise RuntimeError(f"HTTP {response.status}: {(await response.text())[:300]}")
    return time.perf_counter() - started


async def measure(
    families: list[str], probes: int, adapter: str = "botbuilder"
) -> list[dict[str, Any]]:
    replies: list[str] = []

    async def receive(request: web.Request) -> web.Response:
        replies.append(str((await request.json()).get("replyToId")))
        return web.json_response({"id": "r"})

    channel = web.Application(client_max_size=4 * MAX_BODY)
    channel.router.add_post("/v3/conversations/{c}/activities/{a}", receive)
    runner = web.AppRunner(channel, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    service_url = f"http://{host}:{port}"
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        process, base = await _serve(guarded_helpdesk(Path(directory)), adapter)
        try:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as session:
                n = 0

                def probe_body(conversation: str) -> bytes:
                    nonlocal n
                    n += 1
                    return json.dumps(_activity(conversation, f"p{n}", PROBE, service_url)).encode()

                await _turn(session, base, probe_body("warm-up"))
                alone = [await _turn(session, base, probe_body("b-alone")) for _ in range(probes)]
                for index, family in enumerate(families):
                    # Conversation ids are the family's index: a family name may hold "/" or "."
                    # (the server refuses ids with those, as a channel never sends them).
                    data = adversarial_body(FAMILIES[family], service_url, f"a-{index}", "a1")
                    cpu = _cpu_seconds(process.pid)
                    # The main thread runs the event loop: its CPU is the work that every
                    # conversation waits for (the rest ran on worker threads).
                    loop_cpu = _cpu_seconds(process.pid, process.pid)
                    big = asyncio.create_task(_turn(session, base, data))
                    during: list[float] = []
                    health: list[float] = []

                    async def probe_turns(
                        index: int = index, big: Any = big, during: list[float] = during
                    ) -> None:
                        while not big.done():
                            during.append(await _turn(session, base, probe_body(f"b-{index}")))

                    async def probe_health(big: Any = big, health: list[float] = health) -> None:
                        while not big.done():
                            started = time.perf_counter()
                            async with session.get(f"{base}/healthz") as response:
                                await response.read()
                            health.append(time.perf_counter() - started)
                            await asyncio.sleep(0.01)

                    await asyncio.gather(probe_turns(), probe_health())
                    wall = await big
                    cpu = _cpu_seconds(process.pid) - cpu
                    loop_cpu = _cpu_seconds(process.pid, process.pid) - loop_cpu
                    rows.append(
                        {
                            "family": family,
                            "bytes": len(data),
                            "a_wall_s": round(wall, 3),
                            "server_cpu_s": round(cpu, 3),
                            "loop_cpu_s": round(loop_cpu, 3),
                            "b_turns_during": len(during),
                            "b_delay_ms": round(
                                1000 * (max(during, default=0.0) - statistics.median(alone)), 1
                            ),
                            "healthz_max_ms": round(1000 * max(health, default=0.0), 1),
                        }
                    )
        finally:
            process.terminate()
            await process.wait()
            await runner.cleanup()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", help="comma-separated family names (default: all)")
    parser.add_argument("--probes", type=int, default=5, help="B's turns alone, for its median")
    parser.add_argument("--adapter", default="botbuilder", choices=["botbuilder", "agents-sdk"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    families = args.families.split(",") if args.families else list(FAMILIES)
    before = Path("/proc/loadavg").read_text().split()[:3]
    rows = asyncio.run(measure(families, args.probes, args.adapter))
    load = Path("/proc/loadavg").read_text().split()[:3]
    if args.json:
        print(json.dumps({"adapter": args.adapter, "load": [before, load], "rows": rows}, indent=2))
        return
    print(f"{args.adapter}; load average before {' '.join(before)}, after {' '.join(load)}")
    print(
        f"{'family':<20} {'bytes':>9} {'A s':>7} {'CPU s':>7} {'loop s':>7} {'B turns':>7} "
        f"{'B +ms':>8} {'hz ms':>8}"
    )
    for r in rows:
        print(
            f"{r['family']:<20} {r['bytes']:>9} {r['a_wall_s']:>7} {r['server_cpu_s']:>7} "
            f"{r['loop_cpu_s']:>7} "
            f"{r['b_turns_during']:>7} {r['b_delay_ms']:>8} {r['healthz_max_ms']:>8}"
        )


if __name__ == "__main__":
    main()

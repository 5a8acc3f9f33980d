"""Several ``harness serve`` workers on one store, a round-robin dispatcher and a channel.

Used by the multi-worker test (``test_workers.py``) and the 1-vs-3-workers bench
(``tests/bench/bench_workers.py``). Each worker is a real ``harness serve`` process on a free port;
the dispatcher stands in for a load balancer: it sends each request to the next live worker in
turn, so one conversation's turns land on different workers, and retries a request whose worker
died (the same activity, so the bot can recognise the retry) on the next one.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

REPO = Path(__file__).resolve().parents[2]
HELPDESK = REPO / "samples" / "helpdesk" / "helpdesk.yaml"

DIALOGUE = (
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?",
    "I want to change my direct deposit account",
    "It's 123456789, and also how many vacation days have I taken?",
    "yes",
    "I forgot my password. Also, where can I locate my W-2 form?",
)
"""Five turns through every kind of sub-agent; turns 2-4 are a dialogue with the
conversational ``direct_deposit`` agent, which must keep the floor whichever worker runs them."""


_WORKER_MAIN = """
import asyncio, signal, sys

def dump(*_args):  # SIGUSR1: every asyncio task's stack to the log, to see what a stall waits for
    for task in asyncio.all_tasks(asyncio._get_running_loop()):
        task.print_stack(file=sys.stderr)

signal.signal(signal.SIGUSR1, dump)
from harness.cli import main
sys.exit(main())
"""


class Worker:
    """One ``harness serve`` process on a free port, its log in a file."""

    def __init__(self, storage: str, log_dir: Path, name: str, options: Sequence[str] = ()) -> None:
        self.storage = storage
        self.options = tuple(options)
        """More ``harness serve`` options."""
        self.log_path = log_dir / f"{name}.log"
        self.name = name
        self.process: asyncio.subprocess.Process | None = None
        self.url = ""

    async def start(self, ready_within: float = 300.0) -> None:
        self.url = ""  # not in the rotation until it listens
        command = [
            sys.executable,
            "-c",
            _WORKER_MAIN,
            "serve",
            str(HELPDESK),
            "--port",
            "0",
            "--storage",
            self.storage,
            *self.options,
        ]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                *command, cwd=REPO, env=env, stdout=asyncio.subprocess.PIPE, stderr=log
            )
        assert self.process.stdout is not None
        async with asyncio.timeout(ready_within):
            while True:
                line = (await self.process.stdout.readline()).decode()
                if not line:
                    raise RuntimeError(f"{self.name} exited; see {self.log_path}")
                if "/api/messages" in line:
                    self.url = line.split(" on ", 1)[1].split("/api/messages", 1)[0]
                    return

    def kill(self) -> None:
        """``kill -9``: no shutdown, no lease released, no turn finished."""
        if self.process is not None and self.process.returncode is None:
            os.kill(self.process.pid, signal.SIGKILL)

    async def stop(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            if process is not None:
                await process.wait()
            return
        process.terminate()
        try:
            async with asyncio.timeout(20):
                await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()


@dataclass(slots=True)
class Reply:
    conversation: str
    reply_to: str
    sender: str
    text: str
    reply_id: str | None = None


@dataclass
class Channel:
    """The callback server every worker replies to; keeps each reply in arrival order.

    As a real channel that honours the bot's reply ids would, a reply whose
    ``channelData.replyId`` arrived already is acknowledged but not kept (``repeats`` counts them).
    """

    replies: list[Reply] = field(default_factory=list)
    url: str = ""
    repeats: int = 0
    """Replies dropped because their reply id had arrived already."""
    _runner: web.AppRunner | None = None
    _ids: dict[str, str] = field(default_factory=dict)

    async def start(self) -> None:
        async def receive(request: web.Request) -> web.Response:
            activity = await request.json()
            data = activity.get("channelData") or {}
            reply_id = data.get("replyId")
            if isinstance(reply_id, str) and reply_id in self._ids:
                self.repeats += 1
                return web.json_response({"id": self._ids[reply_id]})
            self.replies.append(
                Reply(
                    conversation=request.match_info["c"],
                    reply_to=str(activity.get("replyToId")),
                    sender=str(data.get("sender")),
                    text=str(activity.get("text")),
                    reply_id=reply_id if isinstance(reply_id, str) else None,
                )
            )
            assigned = uuid.uuid4().hex
            if isinstance(reply_id, str):
                self._ids[reply_id] = assigned
            return web.json_response({"id": assigned})

        app = web.Application()
        app.router.add_post("/v3/conversations/{c}/activities/{a}", receive)
        app.router.add_post("/v3/conversations/{c}/activities", receive)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@dataclass(frozen=True, slots=True)
class Outcome:
    """One try of one request, as the dispatcher saw it."""

    activity_id: str
    worker: str
    sent: float
    """``time.monotonic()`` when the try was sent."""
    answered: float
    """``time.monotonic()`` when its answer (or failure) came."""
    status: int | None
    """The HTTP status, or None when the worker never answered (its connection failed)."""
    retry_after: str | None = None


@dataclass
class Dispatcher:
    """A round-robin load balancer in front of the workers, with retries on a dead worker."""

    workers: list[Worker]
    channel: Channel
    session: aiohttp.ClientSession
    attempts: int = 6
    """Tries per request (each on the next live worker)."""
    max_pause: float = 0.3
    """The longest pause between two tries (a 503's ``Retry-After`` counts up to this)."""
    retried: int = 0
    """Requests that had to be sent again (their worker died or refused them)."""
    completed: int = 0
    """Requests answered with a 2xx."""
    latencies: list[float] = field(default_factory=list)
    in_flight: dict[str, str] = field(default_factory=dict)
    """Per conversation, the request waiting for an answer right now (for a failure message)."""
    outcomes: list[Outcome] = field(default_factory=list)
    """Every try of every request, with its status."""
    _next: int = 0
    _milestones: list[tuple[int, asyncio.Event]] = field(default_factory=list)

    patience: float | None = None
    """Seconds a try may go unanswered before it is given up and sent to another worker; None
    (the default) waits for the worker's own answer. A live worker answers every request within
    bounds of its own (the lease wait, the turn timeout, the storage timeout) and a killed one's
    connection fails at once, so the dispatcher needs no clock of its own; a worker that never
    answers is what the test's ``stalled`` watchdog (sized from the run's progress) is for, and
    guessing a bound here would hide it."""

    def after(self, completed: int) -> asyncio.Event:
        """An event set once ``completed`` requests have been answered."""
        event = asyncio.Event()
        self._milestones.append((completed, event))
        return event

    def _pick(self) -> Worker:
        live = [w for w in self.workers if w.url and w.process and w.process.returncode is None]
        if not live:
            raise RuntimeError("no live worker")
        self._next += 1
        return live[self._next % len(live)]

    async def post(self, conversation: str, activity_id: str, text: str) -> None:
        body = {
            "type": "message",
            "id": activity_id,
            "channelId": "cluster",
            "serviceUrl": self.channel.url,
            "conversation": {"id": conversation},
            "from": {"id": "user", "name": "user", "role": "user"},
            "recipient": {"id": "bot", "name": "bot", "role": "bot"},
            "text": text,
        }
        started = time.perf_counter()
        problem = ""
        for attempt in range(self.attempts):
            worker = self._pick()
            pause = 0.05 * (attempt + 1)
            self.in_flight[conversation] = f"{activity_id} try {attempt + 1} on {worker.name}"
            sent = time.monotonic()
            try:
                async with (
                    asyncio.timeout(self.patience),
                    self.session.post(f"{worker.url}/api/messages", json=body) as response,
                ):
                    await response.read()
                    self.outcomes.append(
                        Outcome(
                            activity_id,
                            worker.name,
                            sent,
                            time.monotonic(),
                            response.status,
                            response.headers.get("Retry-After"),
                        )
                    )
                    if response.status < 300:
                        self.in_flight.pop(conversation, None)
                        self.completed += 1
                        self.latencies.append(time.perf_counter() - started)
                        for count, event in self._milestones:
                            if self.completed >= count:
                                event.set()
                        return
                    problem = f"HTTP {response.status} from {worker.name}"
                    retry_after = response.headers.get("Retry-After", "")
                    if retry_after.isdigit():
                        pause = max(pause, float(retry_after))
            except TimeoutError:  # as a load balancer gives up on an upstream: try another
                problem = f"no answer from {worker.name} within {self.patience:g}s"
                self.outcomes.append(
                    Outcome(activity_id, worker.name, sent, time.monotonic(), None)
                )
            except (aiohttp.ClientError, OSError) as exc:
                problem = f"{type(exc).__name__} from {worker.name}"
                self.outcomes.append(
                    Outcome(activity_id, worker.name, sent, time.monotonic(), None)
                )
            self.retried += 1
            await asyncio.sleep(min(pause, self.max_pause))
        raise RuntimeError(f"{conversation}/{activity_id}: gave up after {problem}")

    async def converse(self, conversation: str, turns: Sequence[str]) -> list[str]:
        """Play ``turns`` in order (each after the previous one was answered); the activity ids."""
        ids = []
        for n, text in enumerate(turns, start=1):
            activity_id = f"{conversation}-u{n}"
            await self.post(conversation, activity_id, text)
            ids.append(activity_id)
        return ids


async def stalled(dispatcher: Dispatcher, *, floor_s: float, factor: float) -> None:
    """Return (for the caller to fail) once no request has been answered for a while.

    The allowance grows with the test's own progress: ``factor`` times the slowest request so far,
    and never less than ``floor_s``; a busy machine makes requests slower, and the allowance
    with them. Only a run that stops making progress ends here.
    """
    seen, since = dispatcher.completed, time.monotonic()
    while True:
        await asyncio.sleep(0.5)
        if dispatcher.completed != seen:
            seen, since = dispatcher.completed, time.monotonic()
            continue
        slowest = max(dispatcher.latencies, default=0.0)
        if time.monotonic() - since > max(floor_s, factor * slowest):
            return


async def expected_replies(turns: Sequence[str]) -> list[list[tuple[str, str]]]:
    """What one conversation playing ``turns`` in one process answers: (sender, text) per turn."""
    from harness import load_bot
    from harness.hosting import HarnessBot, OutgoingMessage

    bot = HarnessBot(load_bot(HELPDESK))
    slot: dict[str, Any] = {"state": None}
    out: list[list[tuple[str, str]]] = []

    async def load() -> Any:
        return slot["state"]

    async def save(value: str) -> None:
        slot["state"] = value

    for text in turns:
        sent: list[tuple[str, str]] = []

        async def send(message: OutgoingMessage, _sent: list[Any] = sent) -> None:
            _sent.append((message.sender, message.text))

        await bot.handle_message(
            key="k", conversation_id="c", text=text, load=load, save=save, send=send
        )
        out.append(sent)
    await bot.parent.aclose()
    return out

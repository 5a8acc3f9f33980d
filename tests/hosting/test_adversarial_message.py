"""A ~1 MB adversarial message through a served bot with the duplicate guard on (issue 27, item 2).

Checked by operation counts and orderings, never by a clock (the wall-clock figures are
``tests/bench/bench_adversarial.py``'s):

- the text analysis done on the event loop's thread, counted as in ``tests/core/test_text_linear``
  (calls plus the characters each pattern is given), is the same for a 1 MB message as for a
  100 KB one: past ``ANALYSIS_BUDGET`` nothing more is analysed on the loop that every
  conversation shares (before, the offline planner split and scored the whole message there);
- while the 1 MB message's guard check is still running (in the guard's worker process, its answer
  held until the other conversation is answered), another conversation is answered: the guard
  never holds the loop;
- no JSON encoding or decoding, SHA-256 or SDK state hash of the megabyte runs on the loop's
  thread (they run on worker threads, or not at all), on both adapters;
- ``serve`` freezes what it loaded, so a full garbage collection (set off by a long message's
  analysis, holding every thread) walks only what turns made.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import re
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from aiohttp import ClientSession, web

import harness.detect.duplicates as duplicates
import harness.models._text as model_text
import harness.models.rules as rules_model
import harness.planning.rules as rules_planner
import harness.planning.split as plan_split
import harness.runtime.guard_process as guard_process
import harness.text._split as split
import harness.text.claims as claims
import harness.text.facts as facts
import harness.text.words as words
from harness import load_bot
from harness.hosting import DEFAULT_MAX_BODY_BYTES, create_app
from tests.bench.bench_adversarial import adversarial_body, guarded_helpdesk
from tests.core.test_text_linear import FAMILIES, Work, _Counted
from tests.hosting._support import ADAPTERS, activity, running, when_served

_MODULES: tuple[ModuleType, ...] = (
    facts,
    split,
    claims,
    words,
    duplicates,
    plan_split,
    model_text,
    rules_model,
)


class _OnThread(_Counted):
    """A counted pattern that counts only the calls made on one thread (the event loop's)."""

    def __init__(self, pattern: re.Pattern[str], work: Work, thread: int) -> None:
        super().__init__(pattern, work)
        self._thread = thread

    def _count(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> None:
        if threading.get_ident() == self._thread:
            super()._count(string, pos, endpos)


@pytest.fixture
def loop_work(monkeypatch: pytest.MonkeyPatch) -> Work:
    """Every text pattern of the planner, the offline model, the text layer and the detector,
    counted when it runs on this test's event-loop thread (where the served app runs)."""
    counter = Work()
    thread = threading.get_ident()
    for module in _MODULES:
        for name, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, name, _OnThread(value, counter, thread))
    return counter


class _Channel:
    def __init__(self) -> None:
        self.replies: list[str] = []
        self.arrived = asyncio.Event()

    async def receive(self, request: web.Request) -> web.Response:
        self.replies.append(str((await request.json()).get("replyToId")))
        self.arrived.set()
        return web.json_response({"id": "r"})

    def app(self) -> web.Application:
        app = web.Application(client_max_size=4 * DEFAULT_MAX_BODY_BYTES)
        app.router.add_post("/v3/conversations/{c}/activities/{a}", self.receive)
        return app


async def _post(session: ClientSession, base: str, body: bytes) -> int:
    async with session.post(
        f"{base}/api/messages", data=body, headers={"Content-Type": "application/json"}
    ) as response:
        await response.read()
        return response.status


def _clear_caches() -> None:
    """Empty every cache of the SDK's modules, so each message's work is counted in full.

    The text layer's own caches are not enough: what the loop reads (the bot's instructions, the
    offline model's phrases) stays cached from an earlier test or message, and only an analysis
    in this process that filled the bounded caches used to push it out. The guard's analysis of a
    long text now runs in its worker process, so nothing pushes it out here.
    """
    for name, module in list(sys.modules.items()):
        if name.startswith("harness.") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and hasattr(value, "__wrapped__"):
                    value.cache_clear()


def _sized(unit: str, service_url: str, conversation: str, size: int) -> bytes:
    full = adversarial_body(unit, service_url, conversation, "a1")
    if size >= len(full):
        return full
    data = json.loads(full)
    data["text"] = data["text"][:size]
    return json.dumps(data, ensure_ascii=False).encode()


@pytest.mark.parametrize("family", ["1-", "a.", "ids", "e-mail domains", "clauses", "list items"])
async def test_the_loops_text_work_does_not_grow_past_the_budget(
    tmp_path: Path, loop_work: Work, family: str
) -> None:
    bot = load_bot(guarded_helpdesk(tmp_path))
    channel = _Channel()
    app = create_app(bot, adapter="botbuilder")
    counts = []
    async with running(channel.app()) as service_url, running(app) as base, ClientSession() as s:
        for n, size in enumerate((100_000, DEFAULT_MAX_BODY_BYTES)):
            body = _sized(FAMILIES[family], service_url, f"a{n}", size)
            _clear_caches()
            before = loop_work.total
            assert await _post(s, base, body) < 300
            counts.append(loop_work.total - before)
    small, large = counts
    assert small > 0  # the counters saw the turn's analysis
    # Ten times the message, the same analysis on the loop (a full-text pass would be ~10x).
    assert large <= 1.2 * small, counts


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_another_conversation_is_answered_while_the_guard_checks_a_megabyte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, adapter: str
) -> None:
    answered = threading.Event()  # set once the other conversation has its answer
    checking = threading.Event()
    call = guard_process._WORKER.call

    def held_call(request: Any) -> Any:
        # The check of a long text runs in the guard's worker process: this thread sends it
        # there and waits for the answer, here until the other conversation was answered.
        if request is not None and any(len(m.text) > 100_000 for m in request[2]):
            checking.set()
            answered.wait(120)  # a safety net: on a held loop the other turn never ends
        return call(request)

    monkeypatch.setattr(guard_process._WORKER, "call", held_call)
    bot = load_bot(guarded_helpdesk(tmp_path))
    channel = _Channel()
    app = create_app(bot, adapter=adapter)
    async with running(channel.app()) as service_url, running(app) as base, ClientSession() as s:
        big = asyncio.create_task(
            _post(s, base, adversarial_body(FAMILIES["1-"], service_url, "big", "a1"))
        )
        assert await asyncio.to_thread(checking.wait, 120)
        other = activity(
            "When will I be getting my next paycheck?",
            conversation="other",
            service_url=service_url,
            id="b1",
        )
        status = await _post(s, base, json.dumps(other).encode())
        big_was_running = not big.done()
        answered.set()
        assert await big < 300
    assert status < 300
    assert "b1" in channel.replies
    assert big_was_running  # answered while the 1 MB message's guard check still ran


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_the_loop_serves_healthz_while_the_planner_analyses_a_megabyte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, adapter: str
) -> None:
    """The offline planner's analysis of a long message runs off the loop's thread: held there
    until ``/healthz`` has been answered, it never stops the loop from answering."""
    loop_thread = threading.get_ident()
    threads: list[int] = []
    analysing = threading.Event()
    served = threading.Event()  # set once /healthz has answered
    requests = rules_planner._requests

    def held(message: str, *args: Any) -> Any:
        threads.append(threading.get_ident())
        if len(message) > rules_planner.INLINE_ANALYSIS:
            analysing.set()
            served.wait(120)  # a safety net: on a held loop /healthz never answers
        return requests(message, *args)

    monkeypatch.setattr(rules_planner, "_requests", held)
    bot = load_bot(guarded_helpdesk(tmp_path))
    channel = _Channel()
    app = create_app(bot, adapter=adapter)
    async with running(channel.app()) as service_url, running(app) as base, ClientSession() as s:
        big = asyncio.create_task(
            _post(s, base, adversarial_body(FAMILIES["dots"], service_url, "big", "a1"))
        )
        assert await asyncio.to_thread(analysing.wait, 120)
        async with s.get(f"{base}/healthz") as response:
            health = response.status
        big_was_running = not big.done()
        served.set()
        assert await big < 300
    assert health == 200
    assert big_was_running  # answered while the 1 MB message was being analysed
    assert threads and loop_thread not in threads


LARGE = 100_000
"""Characters: work on this much text is a pass over the megabyte (a short message's state, body
and key are a few thousand)."""


def _chars(value: Any) -> int:
    """The characters in a JSON-like value's strings."""
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, dict):
        return sum(_chars(k) + _chars(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sum(_chars(v) for v in value)
    return 0


class _LoopWork:
    """The serialising and hashing a served turn does, recorded when it runs on one thread (the
    event loop's) with the characters it works through."""

    def __init__(self, thread: int) -> None:
        self.thread = thread
        self.calls: list[tuple[str, int]] = []

    def record(self, what: str, size: int) -> None:
        if threading.get_ident() == self.thread:
            self.calls.append((what, size))

    def wrap(self, what: str, function: Any, size: Any) -> Any:
        def recorded(*args: Any, **kwargs: Any) -> Any:
            self.record(what, size(*args))
            return function(*args, **kwargs)

        return recorded


@pytest.fixture
def loop_serialising(monkeypatch: pytest.MonkeyPatch) -> _LoopWork:
    """JSON encoding and decoding, SHA-256, botbuilder's jsonpickle flattening (its state hash),
    the Agents SDK's state hash and aiohttp's second parse of a body, recorded on this test's
    event-loop thread (where the served app runs)."""
    from botbuilder.core.bot_state import CachedBotState
    from jsonpickle.pickler import Pickler
    from microsoft_agents.hosting.core.state.agent_state import CachedAgentState

    work = _LoopWork(threading.get_ident())
    monkeypatch.setattr(json, "dumps", work.wrap("json.dumps", json.dumps, _chars))
    monkeypatch.setattr(json, "loads", work.wrap("json.loads", json.loads, len))
    monkeypatch.setattr(
        hashlib, "sha256", work.wrap("sha256", hashlib.sha256, lambda data=b"": len(data))
    )
    monkeypatch.setattr(
        Pickler, "flatten", work.wrap("jsonpickle", Pickler.flatten, lambda _p, obj: _chars(obj))
    )
    monkeypatch.setattr(
        CachedBotState,
        "compute_hash",
        work.wrap("botbuilder hash", CachedBotState.compute_hash, lambda _c, o: _chars(o)),
    )
    monkeypatch.setattr(
        CachedAgentState,
        "compute_hash",
        work.wrap("agents hash", CachedAgentState.compute_hash, lambda c: _chars(c.state)),
    )
    monkeypatch.setattr(
        web.BaseRequest, "json", work.wrap("request.json", web.BaseRequest.json, lambda _r: 0)
    )
    return work


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("family", ["1-", "ellipsis ids", "dashes"])
async def test_no_serialising_of_a_megabyte_runs_on_the_loop(
    tmp_path: Path, loop_serialising: _LoopWork, adapter: str, family: str
) -> None:
    """A 1 MB message's turn parses its body, keys the activity, checks and stores the
    conversation's state (botbuilder and the Agents SDK hash the whole state on every save):
    each of those passes over the megabyte runs on a worker thread, or not at all (the SDKs' hashes
    of the whole state), never on the loop that every conversation shares (before, about ten of
    them per turn ran there). Short work stays on the loop."""
    bot = load_bot(guarded_helpdesk(tmp_path))
    channel = _Channel()
    app = create_app(bot, adapter=adapter)
    async with running(channel.app()) as service_url, running(app) as base, ClientSession() as s:
        body = adversarial_body(FAMILIES[family], service_url, "big", "a1")
        # Before the turn: the request's own encoding is the test's, not the server's.
        loop_serialising.calls.clear()
        assert await _post(s, base, body) < 300
        assert "a1" in channel.replies  # the turn ran through, replies included
        # The conversation's next turn loads (and saves) the megabyte again.
        again = activity(
            "When will I be getting my next paycheck?",
            conversation="big",
            service_url=service_url,
            id="a2",
            channelId="bench",  # as adversarial_body's
        )
        assert await _post(s, base, json.dumps(again).encode()) < 300
    assert "a2" in channel.replies
    large = [(what, size) for what, size in loop_serialising.calls if size >= LARGE]
    assert loop_serialising.calls  # the probes saw the turn's short work
    assert not large, large


async def test_serve_leaves_what_it_loaded_out_of_full_collections(tmp_path: Path) -> None:
    """A full garbage collection holds the interpreter (every conversation) for as long as it
    walks the tracked objects; a long message's analysis sets such passes off. Once listening,
    ``serve`` has frozen what it loaded, so those passes walk only what turns made since."""
    gc.unfreeze()
    frozen = await when_served(load_bot(guarded_helpdesk(tmp_path)), gc.get_freeze_count)
    # The bot, its models and the SDKs: tens of thousands of objects (0 without the freeze).
    assert frozen > 10_000, frozen

"""Fuzz ``POST /api/messages`` on both adapters: never a 5xx, and the server stays alive.

Hypothesis builds activities: mostly well-formed messages with fields replaced by random JSON
(wrong types, deep nesting, odd ids and URLs, lone surrogates), plus raw byte strings. Each
adapter is served once, on a free 127.0.0.1 port in a background thread, and every example is one
HTTP request. Runs are derandomised (fixed seed) and bounded by ``max_examples``.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
from collections.abc import Iterator

import pytest
from aiohttp import web
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.hosting import create_app
from tests.hosting._support import activity, helpdesk

FUZZ = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
TRIED: dict[str, int] = {}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Server:
    """An app served by its own event loop in a daemon thread."""

    def __init__(self, adapter: str) -> None:
        self.adapter = adapter
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.port = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def start() -> web.AppRunner:
            app = create_app(
                helpdesk(),
                adapter=self.adapter,  # type: ignore[arg-type]
                reply_timeout=1.0,
                expose=True,
                expose_token="fuzz",
            )
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            self.port = runner.addresses[0][1]
            return runner

        self.runner = self.loop.run_until_complete(start())
        self.ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.runner.cleanup())
        self.loop.close()

    def __enter__(self) -> _Server:
        self.thread.start()
        assert self.ready.wait(30)
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)

    def post(self, body: bytes, path: str = "/api/messages") -> int:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json", "Authorization": "Bearer fuzz"}
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def healthy(self) -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", "/healthz")
            return connection.getresponse().status == 200
        finally:
            connection.close()


@pytest.fixture(scope="module", params=["botbuilder", "agents-sdk"])
def server(request: pytest.FixtureRequest) -> Iterator[_Server]:
    with _Server(request.param) as running:
        yield running


REPLY_TO = f"http://127.0.0.1:{_closed_port()}"

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=40),
        st.sampled_from(["\ud800", "../../x", "a?b=c", "http://", "http://[::1", "x" * 3000]),
    ),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=20,
)
fields = st.sampled_from(
    [
        "type",
        "text",
        "id",
        "replyToId",
        "channelId",
        "serviceUrl",
        "conversation",
        "from",
        "recipient",
        "channelData",
        "value",
        "entities",
        "attachments",
        "timestamp",
        "locale",
        "name",
    ]
)


@st.composite
def activities(draw: st.DrawFn) -> bytes:
    body = activity(
        draw(st.text(max_size=60)),
        conversation=draw(st.text(min_size=1, max_size=20)),
        service_url=REPLY_TO,
    )
    body["type"] = draw(
        st.sampled_from(["message", "message", "conversationUpdate", "invoke", "typing", "event"])
    )
    for _ in range(draw(st.integers(0, 3))):
        body[draw(fields)] = draw(json_values)
    deep = draw(st.integers(0, 9)) == 0
    if deep:
        body[draw(fields)] = "__deep__"
    if draw(st.integers(0, 4)) == 0:
        del body[draw(st.sampled_from(sorted(body)))]
    text = json.dumps(body)
    if deep:  # spliced as text: json.dumps itself cannot nest 3,000 deep
        depth = draw(st.sampled_from([60, 70, 3000]))
        text = text.replace('"__deep__"', "[" * depth + "]" * depth)
    return text.encode()


@FUZZ
@given(body=st.one_of(activities(), activities(), st.binary(max_size=200)))
def test_no_activity_gets_a_5xx(server: _Server, body: bytes) -> None:
    TRIED[server.adapter] = TRIED.get(server.adapter, 0) + 1
    status = server.post(body)
    invoke = status == 501 and b'"type": "invoke"' in body  # documented: no invoke handlers
    assert status < 500 or invoke, (status, body[:300])


agent_calls = st.fixed_dictionaries(
    {},
    optional={
        "scopedRequest": json_values,
        "history": st.one_of(
            json_values,
            st.lists(
                st.fixed_dictionaries(
                    {
                        "turn": json_values,
                        "role": json_values,
                        "sender": json_values,
                        "text": json_values,
                    }
                ),
                max_size=3,
            ),
        ),
        "state": json_values,
        "continuing": json_values,
    },
)


@FUZZ
@given(
    agent=st.sampled_from(["payroll", "pto", "nobody", "..%2f"]),
    body=st.one_of(agent_calls.map(lambda b: json.dumps(b).encode()), st.binary(max_size=100)),
)
def test_no_exposed_agent_call_gets_a_5xx(server: _Server, agent: str, body: bytes) -> None:
    TRIED[f"{server.adapter} /agents"] = TRIED.get(f"{server.adapter} /agents", 0) + 1
    status = server.post(body, f"/agents/{agent}")
    assert status < 500, (status, body[:300])


def test_the_servers_are_alive_after_fuzzing(server: _Server) -> None:
    assert server.healthy()
    print(
        f"fuzzed {server.adapter}: {TRIED.get(server.adapter, 0)} activities and "
        f"{TRIED.get(f'{server.adapter} /agents', 0)} agent calls, none got a 5xx"
    )

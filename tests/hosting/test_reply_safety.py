"""Replies go only where the allow-list says, and small input quirks get answers (issue 27).

Item 5: a loopback ``serviceUrl`` that answers a reply with 307 to a non-loopback address must not
make the bot post there (both adapters). The redirect target is this machine's own non-loopback
address, so nothing leaves the host even when a redirect were followed.
Item 7 (hosting): a ``serviceUrl`` with a path and a query, an upper-case ``HTTP://`` scheme, an
empty agent token, a lower-case ``bearer`` scheme, and the SDK's traceback for a 400.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, web

from harness.exceptions import UsageError
from harness.hosting import create_app
from tests.hosting._support import ADAPTERS, HARNESS, HELPDESK, activity, helpdesk, running


def _outside_address() -> str:
    """This host's non-loopback IPv4 address (a UDP 'connect' sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            pytest.skip("no non-loopback IPv4 address on this host")
        address = str(probe.getsockname()[0])
    if address.startswith("127.") or address == "0.0.0.0":
        pytest.skip("no non-loopback IPv4 address on this host")
    return address


class _Hits:
    def __init__(self) -> None:
        self.paths: list[str] = []
        self.arrived = asyncio.Event()

    async def record(self, request: web.Request) -> web.Response:
        await request.read()
        self.paths.append(request.path)
        self.arrived.set()
        return web.json_response({"id": "x"})


@asynccontextmanager
async def _server(app: web.Application, host: str) -> AsyncIterator[str]:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, 0).start()
        bound_host, port = runner.addresses[0][:2]
        yield f"http://{bound_host}:{port}"
    finally:
        await runner.cleanup()


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_reply_never_follows_a_redirect_off_the_allow_list(
    adapter: Any, caplog: pytest.LogCaptureFixture
) -> None:
    outside_hits, redirected = _Hits(), _Hits()
    outside = web.Application()
    outside.router.add_route("*", "/{tail:.*}", outside_hits.record)
    async with _server(outside, _outside_address()) as outside_url:

        async def redirect(request: web.Request) -> web.Response:
            await redirected.record(request)
            raise web.HTTPTemporaryRedirect(f"{outside_url}{request.path}")

        channel = web.Application()
        channel.router.add_post("/{tail:.*}", redirect)
        app = create_app(helpdesk(), adapter=adapter)  # no app id: loopback replies only
        async with (
            _server(channel, "127.0.0.1") as channel_url,
            running(app) as base,
            ClientSession() as session,
        ):
            body = activity("I forgot my password", conversation="r1", service_url=channel_url)
            async with session.post(f"{base}/api/messages", json=body) as response:
                assert response.status < 300, await response.text()
    assert redirected.paths, "the bot never tried to reply"
    assert outside_hits.paths == []  # the 307 was not followed
    assert any("never follow redirects" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("shape", ["path and query", "upper-case scheme"])
async def test_unusual_but_valid_service_urls_get_their_reply(adapter: Any, shape: str) -> None:
    hits = _Hits()
    channel = web.Application()
    channel.router.add_post("/{tail:.*}", hits.record)
    async with _server(channel, "127.0.0.1") as channel_url:
        if shape == "path and query":
            service_url = f"{channel_url}/tenant/bot?region=eu"
            want = "/tenant/bot/v3/conversations/s1/activities/a1"
        else:
            service_url = channel_url.replace("http://", "HTTP://")
            want = "/v3/conversations/s1/activities/a1"
        app = create_app(helpdesk(), adapter=adapter)
        async with running(app) as base, ClientSession() as session:
            body = activity("I forgot my password", conversation="s1", service_url=service_url)
            async with session.post(f"{base}/api/messages", json=body) as response:
                assert response.status < 300, await response.text()
            async with asyncio.timeout(30):
                await hits.arrived.wait()
    assert hits.paths == [want]


@pytest.mark.parametrize("token", ["", "   "])
def test_an_empty_agent_token_is_refused_not_an_open_door(token: str) -> None:
    with pytest.raises(UsageError, match="empty"):
        create_app(helpdesk(), expose=True, expose_token=token)


def test_an_empty_agent_token_variable_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HARNESS_AGENT_TOKEN", "")
    with pytest.raises(UsageError, match="HARNESS_AGENT_TOKEN is set but empty"):
        create_app(helpdesk(), expose=True)


def test_serve_refuses_an_empty_expose_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_AGENT_TOKEN"}
    command = [*HARNESS, "serve", str(HELPDESK), "--port", "0", "--expose", "--expose-token", ""]
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("serve started with an empty agent token")
    assert result.returncode != 0
    assert "empty" in result.stderr + result.stdout


async def test_a_lower_case_bearer_scheme_is_accepted_on_agents() -> None:
    app = create_app(helpdesk(), expose=True, expose_token="s3cret")
    async with running(app) as base, ClientSession() as session:
        statuses = []
        for header in ("bearer s3cret", "BEARER s3cret", "Bearer s3cret", "bearer wrong", ""):
            async with session.get(f"{base}/agents", headers={"Authorization": header}) as r:
                statuses.append(r.status)
    assert statuses == [200, 200, 200, 401, 401]


async def test_agents_sdk_logs_one_line_not_a_traceback_for_a_400(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    app = create_app(helpdesk(), adapter="agents-sdk")
    async with (
        running(app) as base,
        ClientSession() as session,
        session.post(f"{base}/api/messages", json=activity(attachments="x")) as response,
    ):
        assert response.status == 400
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert [r for r in caplog.records if "refused an activity (400)" in r.getMessage()]

"""Bad requests get a 4xx with a JSON body that says what was wrong; the server keeps serving."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientSession

from harness.exceptions import ConfigError
from harness.hosting import EndpointTarget, create_app
from tests.hosting._support import ADAPTERS, activity, helpdesk, running

LIMIT = 4096


def _cases() -> list[tuple[str, bytes, str, int, str]]:
    """(name, body, content type, expected status, text the error message must contain)."""
    good = activity()
    without_type = {k: v for k, v in good.items() if k != "type"}
    return [
        (
            "malformed JSON",
            b'{"type": "message", "text": ',
            "application/json",
            400,
            "malformed JSON",
        ),
        ("not UTF-8", b'{"type": "\xff"}', "application/json", 400, "UTF-8"),
        ("empty body", b"", "application/json", 400, "empty"),
        ("a JSON array", b"[1, 2]", "application/json", 400, "expected a JSON object"),
        ("no type", json.dumps(without_type).encode(), "application/json", 400, "has no type"),
        (
            "blank type",
            json.dumps(dict(good, type=" ")).encode(),
            "application/json",
            400,
            "has no type",
        ),
        (
            "no conversation",
            json.dumps(dict(good, conversation=None)).encode(),
            "application/json",
            400,
            "conversation.id",
        ),
        (
            "conversation not an object",
            json.dumps(dict(good, conversation="c1")).encode(),
            "application/json",
            400,
            "conversation.id",
        ),
        (
            "no serviceUrl",
            json.dumps({k: v for k, v in good.items() if k != "serviceUrl"}).encode(),
            "application/json",
            400,
            "serviceUrl",
        ),
        (
            "serviceUrl not http",
            json.dumps(dict(good, serviceUrl="file:///etc/passwd")).encode(),
            "application/json",
            400,
            "serviceUrl has the scheme 'file'",
        ),
        (
            "serviceUrl ftp",
            json.dumps(dict(good, serviceUrl="ftp://127.0.0.1:3990")).encode(),
            "application/json",
            400,
            "serviceUrl has the scheme 'ftp'; replies can only go to an http or https URL",
        ),
        (
            "serviceUrl without a scheme",
            json.dumps(dict(good, serviceUrl="127.0.0.1:3990")).encode(),
            "application/json",
            400,
            "serviceUrl '127.0.0.1:3990' does not start with http:// or https://",
        ),
        (
            "no channelId",
            json.dumps(dict(good, channelId="")).encode(),
            "application/json",
            400,
            "channelId",
        ),
        (
            "text not a string",
            json.dumps(dict(good, text=5)).encode(),
            "application/json",
            400,
            "'text'",
        ),
        (
            "from not an object",
            json.dumps(dict(good, **{"from": "me"})).encode(),
            "application/json",
            400,
            "'from'",
        ),
        (
            "unreadable timestamp",
            json.dumps(dict(good, timestamp="yesterday-ish")).encode(),
            "application/json",
            400,
            "could not be read",
        ),
        (
            "form data",
            b"type=message",
            "application/x-www-form-urlencoded",
            415,
            "application/json",
        ),
        (
            "oversized body",
            json.dumps(dict(good, text="x" * (LIMIT * 2))).encode(),
            "application/json",
            413,
            f"{LIMIT}",
        ),
    ]


@pytest.fixture(params=ADAPTERS)
async def bot_url(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    app = create_app(helpdesk(), adapter=request.param, max_body_bytes=LIMIT)
    async with running(app) as base:
        yield base


async def _post(
    session: ClientSession, url: str, body: bytes, content_type: str
) -> tuple[int, Any]:
    async with session.post(url, data=body, headers={"Content-Type": content_type}) as response:
        text = await response.text()
        try:
            return response.status, json.loads(text)
        except json.JSONDecodeError:
            return response.status, text


async def test_each_bad_input_gets_a_clear_4xx(bot_url: str) -> None:
    url = f"{bot_url}/api/messages"
    async with ClientSession() as session:
        for name, body, content_type, status, needle in _cases():
            got, payload = await _post(session, url, body, content_type)
            assert got == status, f"{name}: {got} {payload}"
            assert isinstance(payload, dict), name
            assert needle in payload["error"]["message"], f"{name}: {payload}"
        # A chunked oversized body (no Content-Length) is refused too.

        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(LIMIT // 512 + 2):
                yield b" " * 512

        async with session.post(
            url, data=chunks(), headers={"Content-Type": "application/json"}
        ) as response:
            assert response.status == 413
        async with session.get(f"{bot_url}/healthz") as response:
            assert response.status == 200


async def test_the_server_still_serves_after_bad_input(bot_url: str) -> None:
    async with ClientSession() as session:
        for _name, body, content_type, _status, _needle in _cases():
            await _post(session, f"{bot_url}/api/messages", body, content_type)
    async with EndpointTarget(f"{bot_url}/api/messages", quiet_period=0.05) as channel:
        transcript = await channel.run_conversation(["I forgot my password"], conversation_id="ok")
    assert "password reset link" in transcript.bot_messages()[0].text


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_with_an_app_id_unauthenticated_requests_get_401(adapter: str) -> None:
    app = create_app(
        helpdesk(),
        adapter=adapter,  # type: ignore[arg-type]
        app_id="00000000-0000-0000-0000-00000000a11d",
        app_password="not-a-real-secret",
    )
    unsigned_jwt = (
        "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJhdWQiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMGExMWQifQ.c2lnbmF0dXJl"
    )
    async with (
        running(app) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        await channel.start()
        body = activity(
            "I forgot my password", conversation="auth", service_url=channel.service_url
        )
        async with ClientSession() as session:
            for header in (
                {},
                {"Authorization": "Bearer garbage"},
                {"Authorization": "Basic dTpw"},
                {"Authorization": f"Bearer {unsigned_jwt}"},
            ):
                async with session.post(f"{base}/api/messages", json=body, headers=header) as resp:
                    assert resp.status == 401, header
                    payload = await resp.json()
                    assert payload["error"]["code"] == "Unauthorized"
            async with session.get(f"{base}/healthz") as resp:
                assert resp.status == 200  # probes need no token
    assert channel.replies.get("auth", []) == []  # the bot never ran


def test_unknown_adapter_and_tiny_limit_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown adapter"):
        create_app(helpdesk(), adapter="teams")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="max_body_bytes"):
        create_app(helpdesk(), max_body_bytes=10)

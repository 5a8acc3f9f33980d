"""Auth failures are answers, not tracebacks (issue 16, item 5).

Tokens are signed here with a fresh RSA key whose JWKS a local server publishes; the SDK's
Bot Framework key URL is pointed at it, so nothing reaches the internet.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import jwt
import pytest
from aiohttp import ClientSession, web
from cryptography.hazmat.primitives.asymmetric import rsa

from harness.hosting import EndpointTarget, create_app
from tests.hosting._support import activity, helpdesk, running

APP_ID = "00000000-0000-0000-0000-00000000a11d"
ISSUER = "https://api.botframework.com"
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _token(**claims: Any) -> str:
    now = int(time.time())
    payload = {"iss": ISSUER, "aud": APP_ID, "iat": now, "nbf": now - 5, "exp": now + 600}
    payload.update(claims)
    return jwt.encode(payload, KEY, algorithm="RS256", headers={"kid": "k1"})


def _unsigned(payload: dict[str, Any]) -> str:
    """A token PyJWT would not make (``jwt.encode`` refuses an ``iss`` that is not a string)."""

    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'RS256', 'typ': 'JWT', 'kid': 'k1'})}.{part(payload)}.c2lnbmF0dXJl"


@asynccontextmanager
async def jwks_server() -> AsyncIterator[str]:
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(KEY.public_key()))
    jwk.update(kid="k1", use="sig", alg="RS256")

    async def keys(_request: web.Request) -> web.Response:
        return web.json_response({"keys": [jwk]})

    app = web.Application()
    app.router.add_get("/keys", keys)
    async with running(app) as base:
        yield f"{base}/keys"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def sdk_keys(monkeypatch: pytest.MonkeyPatch) -> Any:
    from microsoft_agents.hosting.core.authorization import _entra_issuers

    def point_at(url: str) -> None:
        monkeypatch.setitem(_entra_issuers.BOTFRAMEWORK_JWKS_URIS, ISSUER, url)

    return point_at


async def _post(base: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
    async with (
        ClientSession() as session,
        session.post(
            f"{base}/api/messages", json=body, headers={"Authorization": f"Bearer {token}"}
        ) as response,
    ):
        return response.status, await response.json(content_type=None)


async def test_agents_sdk_unreachable_keys_are_a_503_and_one_log_line(
    sdk_keys: Any, caplog: pytest.LogCaptureFixture
) -> None:
    sdk_keys(f"http://127.0.0.1:{_closed_port()}/keys")
    app = create_app(helpdesk(), adapter="agents-sdk", app_id=APP_ID, app_password="x")
    async with running(app) as base:
        status, payload = await _post(base, activity(), _token(serviceurl="http://127.0.0.1:9"))
    assert status == 503, payload
    assert payload["error"]["code"] == "ServiceUnavailable"
    lines = [r for r in caplog.records if "signing keys are unreachable" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None


async def test_botbuilder_unreachable_metadata_is_a_503_and_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from harness.hosting import botbuilder

    monkeypatch.setattr(
        botbuilder._Settings,
        "TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL",
        f"http://127.0.0.1:{_closed_port()}/.well-known/openid-configuration",
        raising=False,
    )
    monkeypatch.setattr(
        botbuilder._Settings, "TO_BOT_FROM_CHANNEL_TOKEN_ISSUER", ISSUER, raising=False
    )
    app = create_app(helpdesk(), adapter="botbuilder", app_id=APP_ID, app_password="x")
    async with running(app) as base:
        status, payload = await _post(base, activity(), _token(serviceurl="http://127.0.0.1:9"))
    assert status == 503, payload
    lines = [r for r in caplog.records if "OpenID metadata is unreachable" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None


@pytest.mark.parametrize("tenant", [None, "contoso.onmicrosoft.com"])
async def test_agents_sdk_checks_the_serviceurl_claim_and_works_without_a_tenant(
    sdk_keys: Any, monkeypatch: pytest.MonkeyPatch, tenant: str | None
) -> None:
    from harness.hosting import agents_sdk

    tokens_for: list[str] = []

    async def token(self: Any, resource_url: str, scopes: list[str], force: bool = False) -> str:
        tokens_for.append(self.configuration.TENANT_ID)
        return "reply-token"

    monkeypatch.setattr(agents_sdk._DeferredMsalProvider, "get_access_token", token)
    async with jwks_server() as keys:
        sdk_keys(keys)
        app = create_app(
            helpdesk(),
            adapter="agents-sdk",
            app_id=APP_ID,
            app_password="x",
            tenant_id=tenant,
            allow_service_urls=["http://127.0.0.1:*"],
        )
        async with (
            running(app) as base,
            EndpointTarget(f"{base}/api/messages", quiet_period=0.1) as channel,
        ):
            await channel.start()
            assert channel.service_url is not None
            body = activity(
                "I forgot my password", conversation="t1", service_url=channel.service_url
            )
            status, payload = await _post(base, body, _token(serviceurl="http://127.0.0.1:1"))
            assert status == 401, payload
            assert "serviceUrl" in payload["error"]["message"]
            status, payload = await _post(base, body, _token(serviceurl=channel.service_url))
            assert status < 300, payload
            for _ in range(100):
                if channel.replies.get("t1"):
                    break
                await _sleep()
    assert tokens_for and tokens_for[0] == (tenant or "botframework.com")
    (reply,) = channel.replies["t1"]
    assert "password reset link" in reply.activity["text"]


async def _sleep() -> None:
    import asyncio

    await asyncio.sleep(0.02)


logging.getLogger("microsoft_agents").setLevel(logging.ERROR)


async def test_botbuilder_hung_metadata_does_not_stall_other_requests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from harness.hosting import botbuilder
    from tests.hosting.test_slow_channels import hung_channel

    monkeypatch.setattr(botbuilder, "AUTH_TIMEOUT_S", 60.0)  # the test ends the hang itself
    monkeypatch.setattr(
        botbuilder._Settings, "TO_BOT_FROM_CHANNEL_TOKEN_ISSUER", ISSUER, raising=False
    )
    metadata = contextlib.AsyncExitStack()
    hung, held = await metadata.enter_async_context(hung_channel())
    async with metadata:
        monkeypatch.setattr(
            botbuilder._Settings,
            "TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL",
            f"{hung}/.well-known/openid-configuration",
            raising=False,
        )
        app = create_app(helpdesk(), adapter="botbuilder", app_id=APP_ID, app_password="x")
        async with running(app) as base, ClientSession() as session:
            post = asyncio.create_task(
                _post(base, activity(), _token(serviceurl="http://127.0.0.1:9"))
            )
            async with asyncio.timeout(300):  # a safety net: the fetch reaches the hung server
                while not held:  # noqa: ASYNC110 - the server's own handler appends to it
                    await asyncio.sleep(0.01)
            async with session.get(f"{base}/healthz") as response:
                assert response.status == 200
            # An ordering, not a timing: the event loop answered while the fetch still hangs.
            assert not post.done()
            await metadata.aclose()  # the metadata server goes away: now it is unreachable
            status, _payload = await post
    assert status == 503


@pytest.mark.parametrize(
    ("token", "logged"),
    [
        ("abc.def.ghi", "its bearer token is not a JWT (Invalid header string"),
        ("not-a-token", "its bearer token is not a JWT (Not enough segments)"),
        (
            jwt.encode({"aud": APP_ID}, KEY, algorithm="RS256"),
            "its token names no issuer (no 'iss' claim)",
        ),
        (_unsigned({"iss": 5, "aud": APP_ID}), "its token's issuer ('iss' claim) is not a string"),
        (
            _token(iss="https://sts.example.com/"),
            "its token is from an issuer this bot does not trust ('https://sts.example.com/')",
        ),
    ],
)
async def test_agents_sdk_logs_what_is_wrong_with_a_refused_token(
    token: str, logged: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A token that is no JWT used to be logged as one "from an issuer this bot does not
    trust" (audit s58 finding 15); each case now says what is wrong, and never the token."""
    app = create_app(helpdesk(), adapter="agents-sdk", app_id=APP_ID, app_password="x")
    with caplog.at_level(logging.WARNING, logger="harness.hosting"):
        async with running(app) as base:
            status, _body = await _post(base, activity("hi"), token)
    assert status == 401
    refused = [r.getMessage() for r in caplog.records if "refused a request" in r.getMessage()]
    assert len(refused) == 1 and refused[0].startswith(f"refused a request: {logged}")
    assert token not in caplog.text

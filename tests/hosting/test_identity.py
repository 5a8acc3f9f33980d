"""Identity on both adapters (issue 27, items 1 and 6) and botbuilder's bearer scheme.

Item 1: msal discovers its authority and fetches tokens with blocking ``requests``. Its HTTP is
routed here to a local sign-in endpoint (a thread that accepts connections and answers nothing
until released, or a closed port). The event loop must stay free while a token call is stuck
(``/healthz`` answers while the endpoint still holds the connection: an ordering check), and the
request then gets 503 with ``Retry-After``, never a 500 with tracebacks.

Item 6: the adapter validates issuer, audience and tenant as botbuilder does: a token signed with
the trusted key but from a foreign issuer is refused, so is one for another audience or whose
tenant does not match its issuer. Keys are served locally; nothing reaches the internet.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from aiohttp import ClientSession, web

from harness.hosting import EndpointTarget, create_app
from tests.hosting._support import activity, helpdesk, running
from tests.hosting.test_auth import APP_ID, ISSUER, _closed_port, _token, jwks_server

TENANT = "11111111-2222-3333-4444-555555555555"
OTHER_TENANT = "99999999-8888-7777-6666-555555555555"
FOREIGN = "https://sts.example.com/"


class _SignIn:
    """A sign-in endpoint on a thread: accepts connections, reads, answers nothing until released."""

    def __init__(self, safety_s: float = 60.0) -> None:
        self.connected = threading.Event()
        self.released = threading.Event()
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(16)
        self.url = f"http://127.0.0.1:{self._server.getsockname()[1]}"
        self._held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        # A safety net, not an assertion: on a blocked event loop nothing else could release it.
        self._safety = threading.Timer(safety_s, self.release)
        self._safety.daemon = True

    def _serve(self) -> None:
        self._server.settimeout(0.05)
        while not self.released.is_set():
            try:
                connection, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._held.append(connection)
            self.connected.set()
        for connection in self._held:
            connection.close()

    def __enter__(self) -> _SignIn:
        self._thread.start()
        self._safety.start()
        return self

    def release(self) -> None:
        self.released.set()

    def __exit__(self, *_exc: object) -> None:
        self.release()
        self._safety.cancel()
        self._thread.join(5)
        self._server.close()


def _routed_session(base: str) -> requests.Session:
    """A requests session that sends every request to ``base`` (same path and query)."""
    target = urlsplit(base)

    class Routed(requests.Session):
        def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> Any:
            parts = urlsplit(url if isinstance(url, str) else url.decode())
            local = urlunsplit((target.scheme, target.netloc, parts.path, parts.query, ""))
            return super().request(method, local, *args, **kwargs)

    return Routed()


@contextmanager
def msal_routed_to(base: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the SDK's msal client send its HTTP (discovery, tokens) to ``base``."""
    import msal
    from microsoft_agents.authentication.msal import msal_auth

    class Local(msal.ConfidentialClientApplication):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["http_client"] = _routed_session(base)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(msal_auth, "ConfidentialClientApplication", Local)
    yield


@pytest.fixture
def local_keys(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Serve the test key for the Bot Framework issuer (and, when asked, any issuer)."""
    from microsoft_agents.hosting.core.authorization import _entra_issuers
    from microsoft_agents.hosting.core.authorization.jwt import jwt_token_validator

    def point_at(url: str, *, every_issuer: bool = False) -> None:
        monkeypatch.setitem(_entra_issuers.BOTFRAMEWORK_JWKS_URIS, ISSUER, url)
        if every_issuer:
            monkeypatch.setattr(jwt_token_validator, "_build_jwks_uri", lambda *_a: url)

    return point_at


async def _post(base: str, body: dict[str, Any], token: str) -> tuple[int, Any, dict[str, str]]:
    async with (
        ClientSession() as session,
        session.post(
            f"{base}/api/messages", json=body, headers={"Authorization": f"Bearer {token}"}
        ) as response,
    ):
        return response.status, await response.json(content_type=None), dict(response.headers)


def _agents_app(**options: Any) -> Any:
    return create_app(
        helpdesk(), adapter="agents-sdk", app_id=APP_ID, app_password="secret", **options
    )


async def _stuck_sign_in_answers_503(app: Any, body: dict[str, Any], sign_in: _SignIn) -> Any:
    """Post ``body`` while the sign-in endpoint holds the token call: /healthz answers meanwhile,
    and the request gets 503 with Retry-After once the call gives up. Returns the 503's body."""
    async with running(app) as base, ClientSession() as session:
        post = asyncio.create_task(_post(base, body, _token(serviceurl=body["serviceUrl"])))
        # The token was accepted: the reply token is being fetched, and it is stuck.
        assert await asyncio.to_thread(sign_in.connected.wait, 60)
        async with session.get(f"{base}/healthz") as health:
            healthy = health.status
        answered_while_stuck = not sign_in.released.is_set()
        sign_in.release()
        status, payload, headers = await post
    assert healthy == 200
    assert answered_while_stuck  # /healthz answered while the token call was still stuck
    assert status == 503, payload
    assert int(headers["Retry-After"]) >= 1
    return payload


async def test_a_stuck_sign_in_endpoint_never_blocks_the_event_loop(
    local_keys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = activity(service_url="http://127.0.0.1:9")
    with _SignIn() as sign_in, msal_routed_to(sign_in.url, monkeypatch):
        async with jwks_server() as keys:
            local_keys(keys)
            app = _agents_app()
            payload = await _stuck_sign_in_answers_503(app, body, sign_in)
    assert payload["error"]["code"] == "ServiceUnavailable"


async def test_an_unreachable_sign_in_endpoint_is_a_503_without_tracebacks(
    local_keys: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    body = activity(service_url="http://127.0.0.1:9")
    with msal_routed_to(f"http://127.0.0.1:{_closed_port()}", monkeypatch):
        async with jwks_server() as keys:
            local_keys(keys)
            async with running(_agents_app()) as base:
                answers = [
                    await _post(base, body, _token(serviceurl=body["serviceUrl"])) for _ in range(2)
                ]
    for status, payload, headers in answers:
        assert status == 503, payload
        assert "Retry-After" in headers
    assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.WARNING]
    assert any("cannot get a token" in r.getMessage() for r in caplog.records)


async def _accepted_and_answered(base: str, channel: EndpointTarget, token: str) -> int:
    assert channel.service_url is not None
    body = activity("I forgot my password", conversation="id1", service_url=channel.service_url)
    status, _payload, _headers = await _post(base, body, token)
    for _ in range(1500 if status < 300 else 0):  # the reply, within 30 s
        if channel.replies.get("id1"):
            break
        await asyncio.sleep(0.02)
    else:
        assert status >= 300, "accepted, but no reply arrived"
    return status


@pytest.fixture
def reply_token(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.hosting import agents_sdk

    async def token(self: Any, resource_url: str, scopes: list[str], force: bool = False) -> str:
        return "reply-token"

    monkeypatch.setattr(agents_sdk._DeferredMsalProvider, "get_access_token", token)


@pytest.mark.usefixtures("reply_token")
@pytest.mark.parametrize(
    ("claims", "accepted"),
    [
        ({}, True),  # the Bot Framework's issuer, our audience
        ({"iss": FOREIGN}, False),  # signed with a trusted key, but from a foreign issuer
        ({"aud": "someone-else"}, False),  # for another bot
    ],
    ids=["right token", "foreign issuer", "wrong audience"],
)
async def test_agents_sdk_checks_issuer_and_audience_as_botbuilder(
    local_keys: Any, claims: dict[str, Any], accepted: bool
) -> None:
    async with jwks_server() as keys:
        local_keys(keys, every_issuer=True)  # a foreign issuer's keys would be found too
        app = _agents_app(allow_service_urls=["http://127.0.0.1:*"])
        async with running(app) as base, EndpointTarget(f"{base}/api/messages") as channel:
            await channel.start()
            token = _token(serviceurl=channel.service_url, **claims)
            status = await _accepted_and_answered(base, channel, token)
    assert (status < 300) is accepted, status
    if not accepted:
        assert status == 401


@pytest.mark.usefixtures("reply_token")
@pytest.mark.parametrize(
    ("issuer_tenant", "tid", "accepted"),
    [(TENANT, TENANT, True), (OTHER_TENANT, OTHER_TENANT, False), (TENANT, OTHER_TENANT, False)],
    ids=["own tenant", "another tenant", "tid not the issuer's"],
)
async def test_agents_sdk_checks_the_tenant(
    local_keys: Any, issuer_tenant: str, tid: str, accepted: bool
) -> None:
    async with jwks_server() as keys:
        local_keys(keys, every_issuer=True)
        app = _agents_app(tenant_id=TENANT, allow_service_urls=["http://127.0.0.1:*"])
        async with running(app) as base, EndpointTarget(f"{base}/api/messages") as channel:
            await channel.start()
            token = _token(
                serviceurl=channel.service_url,
                iss=f"https://login.microsoftonline.com/{issuer_tenant}/v2.0",
                tid=tid,
            )
            status = await _accepted_and_answered(base, channel, token)
    assert (status < 300) is accepted, status


async def test_botbuilder_reads_a_lower_case_bearer_scheme(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.hosting import botbuilder

    # Unreachable metadata: a token that is read at all gets 503; an unread one got 401.
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
    token = _token(serviceurl="http://127.0.0.1:9")
    async with running(app) as base, ClientSession() as session:
        statuses = []
        for scheme in ("bearer", "Bearer"):
            async with session.post(
                f"{base}/api/messages",
                json=activity(),
                headers={"Authorization": f"{scheme} {token}"},
            ) as response:
                statuses.append(response.status)
    assert statuses == [503, 503]


async def test_reply_tokens_come_from_the_sign_in_endpoint_once_then_from_the_cache(
    local_keys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    token_posts: list[str] = []

    async def discovery(request: web.Request) -> web.Response:
        base = f"https://login.microsoftonline.com/{request.match_info['tenant']}"
        return web.json_response(
            {
                "authorization_endpoint": f"{base}/oauth2/v2.0/authorize",
                "token_endpoint": f"{base}/oauth2/v2.0/token",
                "issuer": f"{base}/v2.0",
            }
        )

    async def token(request: web.Request) -> web.Response:
        token_posts.append((await request.post()).get("scope", ""))
        return web.json_response(
            {"access_token": "reply-token", "expires_in": 3600, "token_type": "Bearer"}
        )

    sign_in = web.Application()
    sign_in.router.add_get("/{tenant}/v2.0/.well-known/openid-configuration", discovery)
    sign_in.router.add_post("/{tenant}/oauth2/v2.0/token", token)
    async with running(sign_in) as sign_in_url, jwks_server() as keys:
        local_keys(keys)
        with msal_routed_to(sign_in_url, monkeypatch):
            app = _agents_app(allow_service_urls=["http://127.0.0.1:*"])
            async with running(app) as base, EndpointTarget(f"{base}/api/messages") as channel:
                await channel.start()
                for n in range(3):
                    assert channel.service_url is not None
                    body = activity(
                        "I forgot my password",
                        conversation=f"t{n}",
                        service_url=channel.service_url,
                    )
                    status, payload, _ = await _post(
                        base, body, _token(serviceurl=channel.service_url)
                    )
                    assert status < 300, payload
    assert len(token_posts) == 1  # one token for three turns


@asynccontextmanager
async def _channel_metadata() -> AsyncIterator[str]:
    """The Bot Framework's OpenID metadata, served locally: its ``jwks_uri`` is the test key."""
    async with jwks_server() as keys:

        async def metadata(_request: web.Request) -> web.Response:
            return web.json_response({"issuer": ISSUER, "jwks_uri": keys})

        app = web.Application()
        app.router.add_get("/.well-known/openid-configuration", metadata)
        async with running(app) as base:
            yield f"{base}/.well-known/openid-configuration"


async def test_botbuilder_a_stuck_sign_in_endpoint_never_blocks_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import msal
    from botframework.connector.auth import microsoft_app_credentials

    from harness.hosting import botbuilder

    body = activity(service_url="http://127.0.0.1:9")
    with _SignIn() as sign_in:

        class Local(msal.ConfidentialClientApplication):  # type: ignore[misc]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                kwargs["http_client"] = _routed_session(sign_in.url)
                super().__init__(*args, **kwargs)

        monkeypatch.setattr(microsoft_app_credentials, "ConfidentialClientApplication", Local)
        async with _channel_metadata() as metadata_url:
            monkeypatch.setattr(
                botbuilder._Settings,
                "TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL",
                metadata_url,
                raising=False,
            )
            monkeypatch.setattr(
                botbuilder._Settings, "TO_BOT_FROM_CHANNEL_TOKEN_ISSUER", ISSUER, raising=False
            )
            app = create_app(helpdesk(), adapter="botbuilder", app_id=APP_ID, app_password="x")
            await _stuck_sign_in_answers_503(app, body, sign_in)

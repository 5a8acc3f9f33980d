"""Requests are validated before the SDKs see them; replies go only where they may (issue 16)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

from harness.hosting import EndpointTarget, SqliteStore, create_app
from harness.hosting._outbound import ServiceUrlPolicy
from tests.hosting._support import ADAPTERS, activity, helpdesk, running


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def _deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


BAD: list[tuple[str, bytes, int, str]] = [
    *(
        (
            f"{field} nested {depth} deep",
            json.dumps(activity(**{field: _nested(depth)})).encode(),
            400,
            "nests deeper than 64",
        )
        for field in ("channelData", "value")
        for depth in (65, 900)
    ),
    *(
        (
            f"entities nested {depth} deep",
            json.dumps(activity()).encode()[:-1]
            + b', "entities": '
            + _deep_text(depth).encode()
            + b"}",
            400,
            "nests deeper than 64",
        )
        for depth in (70, 2_000, 10_000)
    ),
    *(
        (f"serviceUrl {url}", json.dumps(activity(service_url=url)).encode(), 400, "serviceUrl")
        for url in ("http://", "http://[::1", "http://127.0.0.1:99999", "https://:80/x")
    ),
    *(
        (
            f"conversation id {cid!r}",
            json.dumps(activity(conversation=cid)).encode(),
            400,
            "conversation.id",
        )
        for cid in ("../../../x", "a?b=c", "a/b", "x" * 2000, "a\u2028b", "a\nb", "c%2e%2e")
    ),
    ("activity id with a slash", json.dumps(activity(id="../x")).encode(), 400, "'s id"),
    (
        "a serviceUrl off this host",
        json.dumps(activity(service_url="https://example.com/")).encode(),
        403,
        "loopback",
    ),
    ("an invoke", json.dumps(activity(type="invoke", name="x")).encode(), 501, "invoke"),
]


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_bad_requests_get_a_4xx_and_never_a_5xx(adapter: str) -> None:
    async with running(create_app(helpdesk(), adapter=adapter)) as base, ClientSession() as session:  # type: ignore[arg-type]
        for name, body, status, needle in BAD:
            async with session.post(
                f"{base}/api/messages", data=body, headers={"Content-Type": "application/json"}
            ) as response:
                payload = await response.json()
                assert response.status == status, f"{name}: {response.status} {payload}"
                assert needle in payload["error"]["message"], f"{name}: {payload}"
        async with session.get(f"{base}/healthz") as response:
            assert response.status == 200


async def test_exposed_agents_refuse_deep_json_with_400() -> None:
    app = create_app(helpdesk(), expose=True, expose_token="t0ken")
    async with running(app) as base, ClientSession() as session:
        body = b'{"scopedRequest": "x", "state": ' + _deep_text(5_000).encode() + b"}"
        async with session.post(
            f"{base}/agents/payroll",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": "Bearer t0ken"},
        ) as response:
            assert response.status == 400


def test_the_outbound_allow_list() -> None:
    open_policy = ServiceUrlPolicy()
    assert open_policy.allows("http://127.0.0.1:3979/")
    assert open_policy.allows("http://localhost:1/x")
    assert open_policy.allows("http://[::1]:8080")
    assert not open_policy.allows("http://10.0.0.5:80/")
    assert not open_policy.allows("http://169.254.169.254/latest/meta-data")
    assert not open_policy.allows("https://smba.trafficmanager.net/amer/")

    with_app = ServiceUrlPolicy(app_id="id")
    assert with_app.allows("https://smba.trafficmanager.net/amer/")
    assert with_app.allows("https://webchat.botframework.com/")
    assert not with_app.allows("http://webchat.botframework.com/")  # https only
    assert not with_app.allows("http://127.0.0.1:3979/")
    assert not with_app.allows("https://botframework.com.evil.example/")

    extra = ServiceUrlPolicy(["https://*.example.com", "http://10.0.0.5:8080/bot/*"])
    assert extra.allows("https://chat.example.com/v3")
    assert extra.allows("http://10.0.0.5:8080/bot/x")
    assert not extra.allows("http://10.0.0.5:8080/other")
    assert not extra.allows("https://example.com.evil.test/")


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_conversation_id_with_spaces_is_answered(adapter: str) -> None:
    app = create_app(helpdesk(), adapter=adapter)  # type: ignore[arg-type]
    async with (
        running(app) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        received = await channel.send_turn("payday question", "When is my next paycheck?")
    assert received and "payday" in received[0].activity["text"].lower()


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_lone_surrogate_is_stored_and_answered(tmp_path: Path, adapter: str) -> None:
    store = SqliteStore(tmp_path / "state.sqlite")
    app = create_app(helpdesk(), adapter=adapter, storage=store)  # type: ignore[arg-type]
    async with (
        running(app) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        first = await channel.send_turn("s", "I forgot my password \ud800")
        second = await channel.send_turn("s", "How many vacation days do I have remaining?")
    texts = [r.activity["text"] for r in first + second]
    assert not any("went wrong" in t for t in texts), texts
    with_state = await store.read(["harness-sim/conversations/s"])
    snapshot = json.loads(next(iter(with_state.values()))["harness"])
    users = [m["text"] for m in snapshot["messages"] if m["role"] == "user"]
    assert users[0] == "I forgot my password \ud800"
    assert len(snapshot["turns"]) == 2

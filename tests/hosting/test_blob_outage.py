"""An Azure Blob account that cannot be reached is an honest 503, as Redis is (issue 27, item 4).

Nothing here needs Azurite or the internet: the SDK talks to a closed local port (connection
refused), to a local server that answers 503, or to a fake transport that fails or never
answers. Each storage call ends in ``StorageUnavailableError``, and a served bot answers the
message 503 with ``Retry-After`` before anything is sent. (With Azurite, which CI runs,
``test_azurite_stopped_mid_conversation_is_a_503`` stops the emulator itself.)
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, web
from azure.core.exceptions import ServiceResponseError
from azure.core.pipeline.transport import AsyncHttpTransport

from harness.hosting import create_app
from harness.hosting._blob import BlobStore
from harness.hosting._errors import StorageUnavailableError
from tests.hosting._servers import AZURITE_ACCOUNT, AZURITE_KEY, azurite, free_port
from tests.hosting._support import ADAPTERS, activity, helpdesk, running


def _account(endpoint: str) -> str:
    return (
        f"DefaultEndpointsProtocol=http;AccountName={AZURITE_ACCOUNT};AccountKey={AZURITE_KEY};"
        f"BlobEndpoint={endpoint}/{AZURITE_ACCOUNT};"
    )


class _FailingTransport(AsyncHttpTransport):  # type: ignore[misc]
    """A transport whose every request fails as a connection reset mid-answer does, or, with
    ``hang``, is never answered."""

    def __init__(self, *, hang: bool = False) -> None:
        self.hang = hang
        self.sent = 0

    async def __aenter__(self) -> _FailingTransport:
        return self

    async def __aexit__(self, *_args: object) -> None:
        return None

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def send(self, request: Any, **_kwargs: Any) -> Any:
        self.sent += 1
        if self.hang:
            await asyncio.Event().wait()
        raise ServiceResponseError("Connection reset by peer")


async def _every_call_unavailable(store: BlobStore) -> None:
    with pytest.raises(StorageUnavailableError):
        await store.read(["k"])
    with pytest.raises(StorageUnavailableError):
        await store.write({"k": {"v": 1}})
    with pytest.raises(StorageUnavailableError):
        await store.append_log("k", {1: {"turn": 1}})
    with pytest.raises(StorageUnavailableError):
        await store.read_log("k")
    with pytest.raises(StorageUnavailableError):
        async with store.lease("k"):
            pass


async def test_a_reset_connection_is_storage_unavailable() -> None:
    transport = _FailingTransport()
    store = BlobStore(
        "azblob://state",
        connection_string=_account("http://127.0.0.1:9"),
        client_options={"transport": transport, "retry_total": 0},
    )
    try:
        await _every_call_unavailable(store)
    finally:
        await store.aclose()
    assert transport.sent >= 5  # each call reached the transport and failed there


async def test_an_account_that_never_answers_is_unavailable_after_the_timeout() -> None:
    transport = _FailingTransport(hang=True)
    store = BlobStore(
        "azblob://state?timeout=0.05",
        connection_string=_account("http://127.0.0.1:9"),
        client_options={"transport": transport},
    )
    try:
        with pytest.raises(StorageUnavailableError, match="TimeoutError"):
            await store.read(["k"])
    finally:
        await store.aclose()
    assert transport.sent == 1


async def test_a_refused_connection_is_storage_unavailable() -> None:
    store = BlobStore(
        "azblob://state",
        connection_string=_account(f"http://127.0.0.1:{free_port()}"),  # nothing listens
        client_options={"retry_total": 0},
    )
    try:
        await _every_call_unavailable(store)
    finally:
        await store.aclose()


async def test_an_account_that_answers_503_is_storage_unavailable() -> None:
    async def busy(_request: web.Request) -> web.Response:
        return web.Response(status=503, headers={"x-ms-error-code": "ServerBusy"})

    account = web.Application()
    account.router.add_route("*", "/{tail:.*}", busy)
    async with running(account) as base:
        store = BlobStore(
            "azblob://state", connection_string=_account(base), client_options={"retry_total": 0}
        )
        try:
            with pytest.raises(StorageUnavailableError, match="answered 503"):
                await store.read(["k"])
        finally:
            await store.aclose()


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_served_bot_answers_503_with_retry_after_when_blob_is_down(adapter: str) -> None:
    replies: list[Any] = []

    async def receive(request: web.Request) -> web.Response:
        replies.append(await request.json())
        return web.json_response({"id": "r"})

    callback = web.Application()
    callback.router.add_post("/v3/conversations/{c}/activities/{a}", receive)
    store = BlobStore(
        "azblob://state",
        connection_string=_account(f"http://127.0.0.1:{free_port()}"),
        client_options={"retry_total": 0},
    )
    app = create_app(helpdesk(), adapter=adapter, storage=store)
    async with running(callback) as service_url, running(app) as base, ClientSession() as session:
        body = activity("How many vacation days do I have?", service_url=service_url, id="u1")
        async with session.post(f"{base}/api/messages", json=body) as response:
            await response.read()
            assert response.status == 503
            assert int(response.headers["Retry-After"]) >= 1
    assert replies == []  # nothing was sent: no apology either


async def test_azurite_stopped_mid_conversation_is_a_503(tmp_path: Path) -> None:
    with azurite(tmp_path) as connection_string:
        store = BlobStore(
            "azblob://outage",
            connection_string=connection_string,
            client_options={"retry_total": 0},
        )
        try:
            await store.write({"k": {"v": 1}})
            assert await store.read(["k"]) == {"k": {"v": 1}}
        except BaseException:
            await store.aclose()
            raise
    # The emulator is stopped now: the same store's next calls are unavailable, not errors.
    try:
        await _every_call_unavailable(store)
    finally:
        await store.aclose()

"""An Azure Blob configuration that can never work stops ``serve`` at once, saying what is wrong
(audit s58 finding 12): it used to count as an outage, "does not answer (...); trying again for
30s", and end 30 s later with advice about hosts and ports. Only what may pass (no answer, 408,
429, 5xx) is tried again.

No Azurite here: the account is a local server answering every request with one status, so each
test also counts how many requests the start-up check made.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiohttp import web

from harness.exceptions import ConfigError
from harness.hosting import serve
from harness.hosting._blob import BlobStore
from tests.hosting._servers import AZURITE_ACCOUNT, AZURITE_KEY
from tests.hosting._support import helpdesk, running


def _account(endpoint: str, key: str = AZURITE_KEY) -> str:
    return (
        f"DefaultEndpointsProtocol=http;AccountName={AZURITE_ACCOUNT};AccountKey={key};"
        f"BlobEndpoint={endpoint}/{AZURITE_ACCOUNT};"
    )


@asynccontextmanager
async def _answering(status: int, code: str) -> AsyncIterator[tuple[str, list[str]]]:
    """A storage account that answers every request ``status`` with error code ``code``; yields
    its URL and the requests it got."""
    seen: list[str] = []

    async def answer(request: web.Request) -> web.Response:
        seen.append(f"{request.method} {request.path_qs}")
        body = f"<?xml version='1.0'?><Error><Code>{code}</Code><Message>m</Message></Error>"
        return web.Response(
            status=status,
            text=body,
            content_type="application/xml",
            headers={"x-ms-error-code": code},
        )

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    async with running(app) as base:
        yield base, seen


async def _serve_fails(store: BlobStore, caplog: pytest.LogCaptureFixture) -> str:
    with (
        caplog.at_level(logging.WARNING, logger="harness.hosting"),
        pytest.raises(ConfigError) as refused,
    ):
        await serve(helpdesk(), port=0, storage=store)
    assert "trying again" not in caplog.text  # not taken for an outage
    return str(refused.value)


@pytest.mark.parametrize(
    ("status", "code", "said"),
    [
        (403, "AuthenticationFailed", "the credentials in AZURE_STORAGE_CONNECTION_STRING"),
        (403, "AuthorizationPermissionMismatch", "permissions"),
        (400, "InvalidResourceName", "refused as invalid; check the container name"),
    ],
)
async def test_a_refused_configuration_stops_serve_at_once(
    status: int, code: str, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with _answering(status, code) as (base, seen):
        store = BlobStore(
            "azblob://state", connection_string=_account(base), client_options={"retry_total": 0}
        )
        message = await _serve_fails(store, caplog)
    assert f"BlobStore: Azure Blob Storage answered HTTP {status} ({code}) to creating" in message
    assert said in message and "does not answer" not in message
    assert len(seen) == 1  # one request: no retry


async def test_a_malformed_connection_string_stops_serve_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = BlobStore("azblob://state", connection_string="hello")
    message = await _serve_fails(store, caplog)
    assert "the connection string in AZURE_STORAGE_CONNECTION_STRING cannot be read" in message


async def test_an_account_key_that_cannot_sign_stops_serve_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with _answering(403, "AuthenticationFailed") as (base, seen):
        store = BlobStore("azblob://state", connection_string=_account(base, key="abc"))
        message = await _serve_fails(store, caplog)
    assert "the AccountKey in AZURE_STORAGE_CONNECTION_STRING cannot sign a request" in message
    assert seen == []  # never sent


@pytest.mark.parametrize("name", ["Bot_State", "ab", "bot--state", "-state", "a" * 64])
def test_a_container_name_azure_refuses_is_refused_before_any_call(name: str) -> None:
    with pytest.raises(ConfigError, match="is no Azure container name"):
        BlobStore(f"azblob://{name}", connection_string=_account("http://127.0.0.1:9"))


@pytest.mark.parametrize(("name", "why"), [("$web", "anyone can read"), ("$logs", "logs")])
def test_a_reserved_container_is_refused_with_why(name: str, why: str) -> None:
    """Azure accepts ``$web`` and ``$logs``, but they are no place for conversation state: the
    message says what they are, not that the name is malformed."""
    with pytest.raises(ConfigError, match="is a container Azure reserves") as raised:
        BlobStore(f"azblob://{name}", connection_string=_account("http://127.0.0.1:9"))
    assert why in str(raised.value) and "azblob://bot-state" in str(raised.value)


@pytest.mark.parametrize("name", ["bot-state", "abc", "a1" * 31 + "z", "$root"])
def test_container_names_azure_accepts_are_taken(name: str) -> None:
    assert BlobStore(f"azblob://{name}", connection_string="x").container_name == name

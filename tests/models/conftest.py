"""Fixtures for the model tests: the fake OpenAI server on 127.0.0.1 and a clean environment."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.models.fake_openai import FakeOpenAI
from tests.models.helpdesk_brain import helpdesk_brain

_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "AZURE_OPENAI_ENDPOINT",
    "AZURE_OPENAI_API_KEY",
    "OPENAI_API_VERSION",
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the developer's real keys or endpoints."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenAI]:
    """The fake server answering as a generic model (``{"ok": true}``); set ``responder``."""
    async with FakeOpenAI() as server:
        yield server


@pytest.fixture
async def helpdesk_server() -> AsyncIterator[FakeOpenAI]:
    """The fake server answering as a well-behaved model for the helpdesk sample."""
    async with FakeOpenAI(helpdesk_brain) as server:
        yield server

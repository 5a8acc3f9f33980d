"""The real storage servers the shared-store tests run against, one of each per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hosting._servers import azurite, redis_server


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private redis-server's URL (each test uses a key prefix of its own)."""
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(scope="session")
def connection_string(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Azurite's connection string (each test uses a container of its own)."""
    with azurite(tmp_path_factory.mktemp("azurite")) as value:
        yield value

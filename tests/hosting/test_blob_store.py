"""Azure Blob Storage as a store: what only it does (its contract: test_store_contract.py)."""

from __future__ import annotations

import pytest

from harness.exceptions import ConfigError
from harness.hosting import open_store
from harness.hosting._blob import BlobStore


def test_a_blob_url_needs_a_connection_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AZURE_STORAGE_CONNECTION_STRING", raising=False)
    with pytest.raises(ConfigError, match="AZURE_STORAGE_CONNECTION_STRING"):
        open_store("azblob://state")
    monkeypatch.setenv("AZURE_STORAGE_CONNECTION_STRING", "UseDevelopmentStorage=true")
    assert isinstance(open_store("azblob://state"), BlobStore)

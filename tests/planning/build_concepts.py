"""Build ``harness/planning/_models/concepts.json``, the planner's concept table
(``harness.planning.concepts``), from real labelled user requests.

Sources (``../shared/data``), train splits only:

- CLINC150 ``train``: 15,000 requests, each labelled with one of 150 intents (Larson et al.,
  EMNLP 2019, CC-BY-3.0);
- Schema-Guided Dialogue ``train`` user turns, each labelled with its first frame's service domain
  and the intent the user last opened in it (Rastogi et al., AAAI 2020, CC BY-SA 4.0).

CLINC ``val``/``test`` and SGD ``dev`` are never read, so the held-out routing figures
(``tests/planning/test_labelled_routing.py``) stay out of sample. The development figures use
``fold_tables``: two tables, each built without one half of the sources (CLINC by the request's
text, SGD by dialogue), and each development request is routed with the table that never saw it.
Deterministic; rebuild with::

    PYTHONPATH=. .venv/bin/python -m tests.planning.build_concepts
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterator
from functools import cache

from harness.planning.concepts import TABLE_FILE, ConceptTable
from tests.detect.build_multi_intent import CLINC
from tests.planning.routing_eval import SGD

ABOUT = (
    "Words as vectors over the intents of real user requests, built by "
    "tests/planning/build_concepts.py from CLINC150 train (Larson et al. 2019, CC-BY-3.0) and "
    "Schema-Guided Dialogue train user turns (Rastogi et al. 2020, CC BY-SA 4.0); distributed "
    "under CC BY-SA 4.0."
)


def _fold(key: str) -> int:
    return zlib.crc32(key.encode("utf-8")) % 2


def sourced() -> Iterator[tuple[str, str, int, frozenset[str]]]:
    """(text, intent, fold, the SGD domains of its dialogue) for every source request (no domains
    for a CLINC request)."""
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    for text, intent in data["train"]:
        yield text, f"clinc:{intent}", _fold(text), frozenset()
    with gzip.open(SGD / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            dialogue = json.loads(line)
            fold = _fold(dialogue["id"])
            domains = frozenset(s.split("_")[0] for s in dialogue["services"])
            opened: dict[str, str] = {}
            for turn in dialogue["turns"]:
                if turn["speaker"] != "USER" or not turn["frames"]:
                    continue
                for frame in turn["frames"]:
                    domain = frame["service"].split("_")[0]
                    for action in frame["actions"]:
                        if action[0] == "INFORM_INTENT" and action[2]:
                            opened[domain] = action[2][0]
                domain = turn["frames"][0]["service"].split("_")[0]
                yield turn["text"], f"sgd:{domain}:{opened.get(domain, '')}", fold, domains


def requests() -> Iterator[tuple[str, str, int]]:
    """(text, intent, fold) for every source request."""
    for text, intent, fold, _ in sourced():
        yield text, intent, fold


def table() -> ConceptTable:
    """The shipped table: every source request."""
    return ConceptTable.build((text, intent) for text, intent, _ in requests())


@cache
def fold_tables() -> tuple[dict[int, ConceptTable], Callable[[str], int]]:
    """Per fold, the table built without that fold's requests; and the fold of a request text
    (a development request is routed with the table of its own fold, which never saw it)."""
    rows = list(requests())
    folds = {text: fold for text, _, fold in rows}
    tables = {
        k: ConceptTable.build((text, intent) for text, intent, fold in rows if fold != k)
        for k in (0, 1)
    }
    return tables, lambda text: folds.get(text, _fold(text))


def table_without(texts: frozenset[str]) -> ConceptTable:
    """The table built without ``texts``: for development figures on requests that are sources."""
    return ConceptTable.build((t, i) for t, i, _ in requests() if t not in texts)


@cache
def dev_table(split: str = "dev") -> ConceptTable:
    """The table without the requests of a development split made of CLINC train utterances
    (``dev``, ``styled``, ``ways-*``; a request's ``source`` when it is written otherwise in the
    message): for routing its whole messages (``tests.detect.planner_baseline``) out
    of sample."""
    from tests.detect.multi_intent import load

    return table_without(
        frozenset(r.get("source", r["text"]) for m in load(split) for r in m["requests"])
    )


def main() -> None:
    built = table()
    TABLE_FILE.write_text(built.to_json(ABOUT) + "\n", encoding="utf-8")
    print(f"{TABLE_FILE}: {len(built.words)} words")


if __name__ == "__main__":
    main()

"""WordNet 3.0's database files read once for the word lists built from them
(``tools/build_people_nouns.py``, ``tools/build_acting_verbs.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

_SENSE_KEY = {"noun": "1:", "verb": "2:"}


def senses(folder: Path, pos: str) -> tuple[dict[str, int], dict[str, list[str]], dict[str, int]]:
    """For the part of speech ``pos`` ("noun" or "verb") in the WordNet files under ``folder``:
    each synset's lexicographer file number (by offset), each lemma's senses' synset offsets in
    sense order (``index.<pos>``), and each synset's tagged uses in the semantic concordances
    (``cntlist.rev``), summed over its lemmas (a spelling shares them: "neighbour" with
    "neighbor")."""
    lexfile: dict[str, int] = {}
    for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        offset, number = line.split(" ", 2)[:2]
        lexfile[offset] = int(number)
    # Tagged uses of each sense, by (lemma, sense number).
    tagged: dict[tuple[str, int], int] = {}
    for line in (folder / "cntlist.rev").read_text(encoding="latin-1").splitlines():
        key, number, count = line.split()
        lemma, _, sense = key.partition("%")
        if sense.startswith(_SENSE_KEY[pos]):
            tagged[(lemma, int(number))] = int(count)
    offsets_of: dict[str, list[str]] = {}
    for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        if int(fields[2]):
            offsets_of[fields[0]] = fields[4 + int(fields[3]) + 2 :]
    uses: dict[str, int] = {}
    for lemma, offsets in offsets_of.items():
        for number, offset in enumerate(offsets, 1):
            uses[offset] = uses.get(offset, 0) + tagged.get((lemma, number), 0)
    return lexfile, offsets_of, uses


def mostly(
    offsets: list[str], lexfile: dict[str, int], uses: dict[str, int], kind: Callable[[int], bool]
) -> bool:
    """Whether a lemma's senses (``offsets``) of the lexicographer files ``kind`` accepts
    outweigh its others, each sense weighing its synset's tagged uses plus one (a sense nobody
    tagged still counts once)."""
    weight = [0, 0]
    for offset in offsets:
        weight[kind(lexfile.get(offset, -1))] += uses.get(offset, 0) + 1
    return weight[1] > weight[0]


def write(out: Path, notice: str, words: list[str], what: str) -> None:
    """Write the word list ``words`` with its ``notice`` to ``out`` and say how many."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"about": notice, "words": words}, indent=0) + "\n")
    print(f"{len(words)} {what} -> {out}")

"""WordNet 3.0's database files read once for the word lists built from them
(``tools/build_people_nouns.py``, ``tools/build_acting_verbs.py``)."""

from __future__ import annotations

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

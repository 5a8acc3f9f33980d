"""Build ``harness/models/_models/people.json``: the English nouns whose first sense is a person.

    python -m tools.build_people_nouns /usr/share/wordnet

Reads WordNet 3.0's noun index and data files (Debian's ``wordnet-base`` package installs them
under ``/usr/share/wordnet``): a noun whose first (most frequent) sense's synset is in the lexicographer
file ``noun.person`` (number 18) names a person ("friend", "colleague", "cousin"); one whose first
sense is an artefact, an animal or a group does not ("suitcase", "puppy", "pair"). Single words
only, in lower case. WordNet 3.0 Copyright 2006 by Princeton University; the derived list is
distributed under the WordNet 3.0 licence (its notice is kept in the file).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "harness" / "models" / "_models" / "people.json"
PERSON = 18  # noun.person
NOTICE = (
    "Nouns whose first sense is a person, from WordNet 3.0 (index.noun and data.noun, first sense "
    "in the lexicographer file noun.person), built by tools/build_people_nouns.py. WordNet 3.0 "
    "Copyright 2006 by Princeton University. All rights reserved. THIS SOFTWARE AND DATABASE IS "
    "PROVIDED 'AS IS' AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR "
    "IMPLIED. Permission to use, copy, modify and distribute it for any purpose and without fee "
    "is granted under the WordNet 3.0 licence; the name of Princeton University may not be used "
    "in advertising or publicity pertaining to distribution of the software and/or database."
)


def build(folder: Path) -> list[str]:
    lexfile: dict[str, int] = {}
    for line in (folder / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        offset, number = line.split(" ", 2)[:2]
        lexfile[offset] = int(number)
    words: list[str] = []
    for line in (folder / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        lemma, count = fields[0], int(fields[2])
        pointers = int(fields[3])
        offsets = fields[4 + pointers + 2 :]
        if count and offsets and lemma.isalpha() and lexfile.get(offsets[0]) == PERSON:
            words.append(lemma)
    return sorted(words)


def main(argv: list[str]) -> None:
    words = build(Path(argv[0] if argv else "/usr/share/wordnet"))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"about": NOTICE, "words": words}, indent=0) + "\n")
    print(f"{len(words)} nouns -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])

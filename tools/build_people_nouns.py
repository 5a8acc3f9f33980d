"""Build ``harness/models/_models/people.json``: the English nouns whose person senses
outweigh their others.

    python -m tools.build_people_nouns /usr/share/wordnet

Reads WordNet 3.0's noun index, data and sense-count files (Debian's ``wordnet-base`` package
installs them under ``/usr/share/wordnet``): a noun names people when its first sense is in the
lexicographer file ``noun.person`` (number 18) and its person senses outweigh its other senses,
each sense weighing its synset's tagged uses in ``cntlist.rev`` plus one ("friend", "colleague",
"cousin": every sense a person). A noun whose other senses weigh as much ("monitor", "sleeper",
"lounger", "party", "guide") does not.
Single words only, in lower case. WordNet 3.0 Copyright 2006 by Princeton University; the derived
list is distributed under the WordNet 3.0 licence, shipped word for word beside it
(``_models/WORDNET-LICENSE.txt``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tools._wordnet import mostly, write
from tools._wordnet import senses as wordnet_senses

OUT = Path(__file__).resolve().parents[1] / "harness" / "models" / "_models" / "people.json"
PERSON = 18  # noun.person
NOTICE = (
    "Nouns whose first sense is a person and whose person senses outweigh the others, from "
    "WordNet 3.0 (index.noun, data.noun and cntlist.rev: the first sense in the lexicographer "
    "file noun.person, and the person senses outweighing the others, each weighing its synset's "
    "tagged uses plus one), built by tools/build_people_nouns.py. WordNet 3.0 "
    "Copyright 2006 by Princeton University. All rights reserved. THIS SOFTWARE AND DATABASE IS "
    "PROVIDED 'AS IS' AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR "
    "IMPLIED. Permission to use, copy, modify and distribute it for any purpose and without fee "
    "is granted under the WordNet 3.0 licence; the name of Princeton University may not be used "
    "in advertising or publicity pertaining to distribution of the software and/or database. "
    "The licence, word for word, is in WORDNET-LICENSE.txt beside this file."
)


def build(folder: Path) -> list[str]:
    lexfile, senses, uses = wordnet_senses(folder, "noun")
    # A sense nobody tagged still counts once, so a noun with few tagged uses and many other
    # senses ("sleeper") is no person noun.
    return sorted(
        lemma
        for lemma, offsets in senses.items()
        if offsets
        and lemma.isalpha()
        and lexfile.get(offsets[0]) == PERSON
        and mostly(offsets, lexfile, uses, lambda number: number == PERSON)
    )


def main(argv: list[str]) -> None:
    write(OUT, NOTICE, build(Path(argv[0] if argv else "/usr/share/wordnet")), "nouns")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Build ``harness/models/_models/acting_verbs.json``: the English verbs whose senses of doing
outweigh their senses of thinking, telling, perceiving, feeling and being.

    python -m tools.build_acting_verbs /usr/share/wordnet

Reads WordNet 3.0's verb index, data and sense-count files (Debian's ``wordnet-base`` package
installs them under ``/usr/share/wordnet``). Each sense of a verb weighs its synset's tagged uses
in ``cntlist.rev`` plus one; a verb acts when the senses outside the lexicographer files
``verb.cognition``, ``verb.communication``, ``verb.emotion``, ``verb.perception`` and
``verb.stative`` outweigh those in them: "hire", "collect", "wash", "print" act; "forecast",
"suggest", "count", "compare", "estimate", "review" do not. Single words only, in lower case.
WordNet 3.0 Copyright 2006 by Princeton University; the derived list is distributed under the
WordNet 3.0 licence, shipped word for word beside it (``_models/WORDNET-LICENSE.txt``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tools._wordnet import mostly, write
from tools._wordnet import senses as wordnet_senses
from tools.build_people_nouns import NOTICE as _PEOPLE_NOTICE

OUT = Path(__file__).resolve().parents[1] / "harness" / "models" / "_models" / "acting_verbs.json"
# verb.cognition, verb.communication, verb.emotion, verb.perception, verb.stative.
READING = frozenset({31, 32, 37, 39, 42})
NOTICE = (
    "Verbs whose senses outside the lexicographer files verb.cognition, verb.communication, "
    "verb.emotion, verb.perception and verb.stative outweigh those in them, each sense weighing "
    "its synset's tagged uses plus one, from WordNet 3.0 (index.verb, data.verb and "
    "cntlist.rev), built by tools/build_acting_verbs.py. "
    + _PEOPLE_NOTICE[_PEOPLE_NOTICE.index("WordNet 3.0 Copyright") :]
)


def build(folder: Path) -> list[str]:
    lexfile, senses, uses = wordnet_senses(folder, "verb")
    return sorted(
        lemma
        for lemma, offsets in senses.items()
        if offsets
        and lemma.isalpha()
        and mostly(offsets, lexfile, uses, lambda number: number not in READING)
    )


def main(argv: list[str]) -> None:
    write(OUT, NOTICE, build(Path(argv[0] if argv else "/usr/share/wordnet")), "verbs")


if __name__ == "__main__":
    main(sys.argv[1:])

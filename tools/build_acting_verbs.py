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

import json
import sys
from pathlib import Path

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
    words: list[str] = []
    for lemma, offsets in senses.items():
        if not (offsets and lemma.isalpha()):
            continue
        weight = [0, 0]
        for offset in offsets:
            weight[lexfile.get(offset) not in READING] += uses.get(offset, 0) + 1
        if weight[1] > weight[0]:
            words.append(lemma)
    return sorted(words)


def main(argv: list[str]) -> None:
    words = build(Path(argv[0] if argv else "/usr/share/wordnet"))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"about": NOTICE, "words": words}, indent=0) + "\n")
    print(f"{len(words)} verbs -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Build ``harness/planning/_models/acknowledgements.json``: the words of user turns that only
acknowledge, learnt from Schema-Guided Dialogue **train** (Rastogi et al., AAAI 2020, CC BY-SA 4.0).

SGD labels every user turn with its acts. A turn whose acts are all ``ACKNOWLEDGING`` (it affirms,
negates, selects what was offered, thanks or says goodbye) and that gives no slot value asks for
nothing new ("That sounds good.", "Nope, that works.", "Thanks a bunch!"). A word (as
``harness.models._text.content_tokens`` gives it) is an acknowledgement when at least ``SHARE`` of the
user turns that use it are such turns, over at least ``MIN_TURNS`` of them. The offline planner's
split (``harness.planning.split``) reads a piece made of these and stop words alone as asking
nothing, as it reads "great" or "thanks": the piece opens the request after it or ends the one
before it, instead of being a request of its own routed to whichever agent shares a word.

The turns that decline an intent they were offered (``NEGATE_INTENT``: "Not right now.", "No, I
don't want to.") give the file's second list, ``declining``: the words that become
acknowledgements only when those turns count as well ("right", "want", "information"). They are
content words of requests as well ("tell me my rights", "can I get more information?"), so the
split reads them as asking nothing only inside a piece that declines (``harness.planning._asking.declines``: it has
a word of refusing, "no", "not", "later"), never in a piece of its own.

Deterministic; SGD dev is never read. Rebuild with::

    PYTHONPATH=. .venv/bin/python -m tests.planning.build_acknowledgements
"""

from __future__ import annotations

import gzip
import json
from collections import Counter

from harness.models._text import content_tokens
from harness.planning.split import ACKNOWLEDGEMENTS_FILE
from tests.planning.routing_eval import SGD

ACKNOWLEDGING = frozenset({"AFFIRM", "NEGATE", "SELECT", "THANK_YOU", "GOODBYE"})
SHARE = 0.5
MIN_TURNS = 50
ABOUT = (
    "Word stems of user turns that only acknowledge (SGD user acts AFFIRM, NEGATE, SELECT, "
    f"THANK_YOU, GOODBYE, no slot value) in at least {SHARE:.0%} of their uses over at least "
    f"{MIN_TURNS} turns ('words'); 'declining': the further stems when NEGATE_INTENT turns count "
    "as well, read only inside a piece that declines; built by tests/planning/build_acknowledgements.py from Schema-Guided "
    "Dialogue train user turns (Rastogi et al. 2020, CC BY-SA 4.0); distributed under CC BY-SA 4.0."
)
DECLINING = ACKNOWLEDGING | {"NEGATE_INTENT"}


def counts(acts_of: frozenset[str] = ACKNOWLEDGING) -> tuple[Counter[str], Counter[str]]:
    """Per word, the SGD train user turns that use it whose acts are all of ``acts_of`` and give
    no slot value, and all user turns that do."""
    acknowledging: Counter[str] = Counter()
    used: Counter[str] = Counter()
    with gzip.open(SGD / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            for turn in json.loads(line)["turns"]:
                if turn["speaker"] != "USER":
                    continue
                words = set(content_tokens(turn["text"]))
                used.update(words)
                acts = {a[0] for frame in turn["frames"] for a in frame["actions"]}
                if acts and acts <= acts_of and not any(f["spans"] for f in turn["frames"]):
                    acknowledging.update(words)
    return acknowledging, used


def words(acts_of: frozenset[str] = ACKNOWLEDGING) -> list[str]:
    """The acknowledgement words of turns whose acts are all of ``acts_of`` (see the module
    docstring), sorted."""
    acknowledging, used = counts(acts_of)
    return sorted(w for w, k in acknowledging.items() if k >= MIN_TURNS and k / used[w] >= SHARE)


def table() -> str:
    """The text of ``acknowledgements.json`` as this script builds it."""
    built = words()
    declining = sorted(set(words(DECLINING)) - set(built))
    return json.dumps({"about": ABOUT, "words": built, "declining": declining}, indent=0) + "\n"


def main() -> None:
    ACKNOWLEDGEMENTS_FILE.write_text(table(), encoding="utf-8")
    built = json.loads(ACKNOWLEDGEMENTS_FILE.read_text(encoding="utf-8"))
    print(f"{ACKNOWLEDGEMENTS_FILE}: {len(built['words'])} words: {' '.join(built['words'])}")
    print(f"declining: {' '.join(built['declining'])}")


if __name__ == "__main__":
    main()

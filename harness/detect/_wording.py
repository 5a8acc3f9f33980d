"""Wording of a pair of bot messages: how alike their word sequences are, and which words take
another word's place in the same wording (a swapped value: "10 events" / "10 hotels", "your
lisinopril copay" / "your metformin copay"), unless the two words are rewordings of each other
("departs" / "leaves", "begins" / "starts": :func:`rewordings`, a table learned from SGD). Split
from :mod:`harness.detect._features`, which reads these as features, and used by
:mod:`harness.detect.duplicates` as a stated rule."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from harness.detect.acts import tagger
from harness.text import STOPWORDS, normalise, stem
from harness.text._lifecycle import same_status

__all__ = ["item_swaps", "rewordings", "spelled_out", "swapped_words"]

_REWORDINGS = Path(__file__).resolve().parent / "_models" / "rewordings.json"

_TOKEN = re.compile(r"[^\W_]+")


@lru_cache(maxsize=65_536)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(text.lower()))


@lru_cache(maxsize=1)
def _common() -> frozenset[str]:
    """Words the act tagger's vocabulary holds: common in task dialogues."""
    return frozenset(f[2:] for f in tagger().weights if f.startswith("w:"))


@lru_cache(maxsize=1)
def rewordings() -> dict[str, frozenset[str]]:
    """Each word stem's rewordings: the stems SGD crowd workers put in its place when they wrote
    the same outline (one service, the same acts and slots, the values masked) in other words
    ("depart" / "leav", "begin" / "start", "cost" / "pric"). Learned by
    ``tools/detector/rewordings.py`` from Schema-Guided Dialogue train (CC BY-SA 4.0); words SGD
    uses mostly inside slot values are left out, so a swapped value ("compact" / "standard",
    "opens" / "closes" of two slots) is never a rewording."""
    table: dict[str, set[str]] = defaultdict(set)
    for a, b in json.loads(_REWORDINGS.read_text(encoding="utf-8"))["pairs"]:
        table[a].add(b)
        table[b].add(a)
    return {w: frozenset(others) for w, others in table.items()}


_CONTRACTION = re.compile(
    r"\b(?:(can)['’]t|(won)['’]t|(shan)['’]t|(\w+)n['’]t|(let)['’]s"
    r"|(it|that|there|here|what|where|who|how|he|she)['’]s"
    r"|(\w+)['’](re|m|ll|ve|d))\b",
    re.IGNORECASE,
)
"""English contractions, a closed class: "n't", "'re", "'m", "'ll", "'ve", "'d", and "'s" after a
pronoun or a question word (after a noun it is a possessive: "Max's")."""
_SPELLED = {"re": "are", "m": "am", "ll": "will", "ve": "have", "d": "would"}


def _spell(match: re.Match[str]) -> str:
    can, wont, shan, nt, let, pronoun, word, ending = match.groups()
    if can or nt:
        return f"{can or nt} not"
    if wont or shan:
        return "will not" if wont else "shall not"
    if let:
        return "let us"
    if pronoun:
        return f"{pronoun} is"
    return f"{word} {_SPELLED[ending.lower()]}"


@lru_cache(maxsize=65_536)
def spelled_out(text: str) -> str:
    """:func:`~harness.text.normalise` of ``text`` with its contractions spelled out ("It's a
    pop song." and "It is a pop song." give "it is a pop song"): the same words to a reader."""
    if "'" not in text and "’" not in text:
        return normalise(text)
    return normalise(_CONTRACTION.sub(_spell, text))


def _reworded(left: Sequence[str], right: Sequence[str]) -> bool:
    """Whether the words of ``left`` and ``right`` (a swap, word for word) are learned
    rewordings of each other: each word of either side has a rewording on the other. Two words
    of one status ("granted" / "approved", "dispatched" / "shipped", a short list of true
    synonyms: :func:`~harness.text._lifecycle.same_status`) are one too: SGD hardly uses status
    words, so the learned table does not hold them, and "was granted on 9 May" / "was approved on
    9 May" states the same fact ("unpaid" / "overdue" does not)."""
    if len(left) == len(right) == 1 and same_status(left[0], right[0]):
        return True
    table = rewordings()
    ls, rs = {stem(w) for w in left}, {stem(w) for w in right}
    return all(not table.get(w, frozenset()).isdisjoint(rs) for w in ls) and all(
        not table.get(w, frozenset()).isdisjoint(ls) for w in rs
    )


def _rare(words: set[str]) -> set[str]:
    common = _common()
    return {w for w in words if w.isalpha() and len(w) > 3 and w not in common}


@lru_cache(maxsize=4096)
def _wording(a: str, b: str) -> tuple[float, float, float, int]:
    """The word-sequence ratio, the number of small substitutions, whether both sides carry
    rare words the other lacks, and how many words take another word's place in the same wording
    (one or two words for as many, the rest alike: "10 events" / "10 hotels", "lisinopril" /
    "metformin"). Such words are values, whatever their case. Cached: the features and
    :func:`swapped_words` both ask it of the same pair."""
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb:
        return 0.0, 0.0, 0.0, 0
    if len(ta) * len(tb) > 40_000:
        return 0.0, 0.0, 0.0, 0
    matcher = SequenceMatcher(None, ta, tb, autojunk=False)
    ratio = matcher.ratio()
    small = swapped = 0
    other = False
    """Any difference besides one-for-one word swaps (then nothing counts as swapped)."""
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op != "replace" or i2 - i1 > 3 or j2 - j1 > 3:
            other = True
            continue
        left = [w for w in ta[i1:i2] if w not in STOPWORDS]
        right = [w for w in tb[j1:j2] if w not in STOPWORDS]
        if not (left and right):
            other = True
            continue
        small += 1
        if (
            ratio >= 0.7
            and i2 - i1 == j2 - j1 <= 2
            and not any(w.isdigit() for w in left + right)
            and {stem(w) for w in left}.isdisjoint(stem(w) for w in right)
        ):
            if not _reworded(left, right):
                swapped += 1
        else:
            other = True
    if other:
        swapped = 0
    only_a, only_b = set(ta) - set(tb), set(tb) - set(ta)
    rare = 1.0 if _rare(only_a) and _rare(only_b) else 0.0
    return ratio, float(min(small, 3)), rare, swapped


def swapped_words(earlier: str, later: str) -> int:
    """How many words of ``earlier`` another word replaces in ``later``'s otherwise same wording
    (when the swaps are the only difference besides stop words: :func:`item_swaps`).

    A repeat needs the same value: a word swapped for another in one template ("10 events" /
    "10 hotels", "your lisinopril copay" / "your metformin copay", "the distemper vaccine is
    also $45") is another value whatever its case, so such a pair is never a duplicate. This is a
    rule, not learned: the SGD material has few lower-case values to learn it from."""
    if normalise(earlier) == normalise(later):
        return 0
    return item_swaps(earlier, later)


@lru_cache(maxsize=4096)
def item_swaps(a: str, b: str) -> int:
    """How many words of ``a`` another word takes the place of in ``b`` when the two say the
    rest alike: as :func:`_wording` counts swaps (one or two words for as many, no stem in
    common, no digit, the wordings at least 0.7 alike, nothing else different). Stop words added
    or dropped beside the swaps ("also", "too", "as well") do not undo them, so that "Your vision
    coverage also has a $50 deductible" is the template of "Your dental coverage has a $50
    deductible" with one value swapped. Words that are learned rewordings of each other
    (:func:`rewordings`: "begins" / "starts", "departs" / "leaves") are no swap: "It begins at
    5:30 pm" / "It starts at 5:30 pm as well" says the same, while "departs at 6:40 pm from
    platform 4" / "arrives at 6:40 pm at platform 4" states another fact. Any other difference (a
    content word added or dropped, or replaced by a phrase of another length) gives 0."""
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb or len(ta) * len(tb) > 40_000:
        return 0
    matcher = SequenceMatcher(None, ta, tb, autojunk=False)
    if matcher.ratio() < 0.7:
        return 0
    swapped = 0
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        left = [w for w in ta[i1:i2] if w not in STOPWORDS]
        right = [w for w in tb[j1:j2] if w not in STOPWORDS]
        if not left and not right:
            continue  # stop words only
        if (
            op != "replace"
            or not (left and right)
            or i2 - i1 != j2 - j1
            or i2 - i1 > 2
            or any(w.isdigit() for w in left + right)
            or not {stem(w) for w in left}.isdisjoint(stem(w) for w in right)
        ):
            return 0
        if _reworded(left, right):
            continue  # the same predicate in other words: no swap
        swapped += 1
    return swapped

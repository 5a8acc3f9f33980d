"""General features of an instruction sentence, for the learned part of the instruction reader.

The rule frames of :mod:`harness.text._talk` and :mod:`harness.text._answered` are precise but each
covers one way of saying a thing. :mod:`harness.text._learned` reads the same sentence a second way,
from features that hold for any wording and that share nothing with the frames (so that its errors
are not theirs):

- ``c:`` the word classes present (negation, talking, the user, the parent, the sub-agents, the
  agent itself, conditions, exclusivity, repeating, answers, permission, passives...);
- ``o:`` the order of two word classes inside one clause ("negation before talking before user",
  "parent before talking") and ``q:`` neighbouring classes once plain words are dropped: the
  dependency-free shape of who does what to whom;
- ``x:`` the core classes a clause lacks (no negation, no condition...), ``n:`` its length band;
- ``w:``/``b:`` word stems and stem pairs, and ``f:`` the first stem of a clause (imperatives).

Features are strings; none names a whole phrase. The weights live in ``_models/reader.json``,
fitted by ``tools/reader/fit.py``.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from harness.text._roles import clauses
from harness.text._vocab import REPEAT, SEND, SPEAK, TALK_OBJ, TALK_TO
from harness.text.words import stem

__all__ = ["sentence_features"]

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# Word classes, tested on each token (normalised text: roles are already "user", "parent" and
# "subagents").
_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "NEG",
        re.compile(
            r"(?:not|never|no|nothing|nobody|none|nor|neither|avoid\w*|refrain\w*"
            r"|without|cannot|forbid\w*|prohibit\w*|\w+n't)$"
        ),
    ),
    ("USER", re.compile(r"user$")),
    ("PARENT", re.compile(r"parent(?:'s)?$")),
    ("SUBS", re.compile(r"subagents(?:'s?)?$")),
    ("YOU", re.compile(r"(?:you|your|yours|yourself|you're|you've|you'll|i|me|my)$")),
    ("COND", re.compile(r"(?:if|unless|until|before|once|when|whenever|after|while|except)$")),
    ("ONLY", re.compile(r"(?:only|alone|sole|solely|single|exclusively|just|nobody|else)$")),
    ("REPEAT", re.compile(REPEAT + r"$")),
    (
        "TALK",
        re.compile(
            r"(?:"
            + TALK_TO
            + r"|"
            + TALK_OBJ
            + r"|"
            + SEND
            + r"|"
            + SPEAK
            + r"|see|seen|sees|shown|show\w*|display\w*|visible|hear\w*|read|reach\w*|contacted"
            + r"|messaged|addressed|greeted|told|informed|notified|written|sent)$"
        ),
    ),
    (
        "ANSWERS",
        re.compile(
            r"(?:answers?|responses?|replies|results?|findings|outputs?|data"
            r"|information|everything|content)$"
        ),
    ),
    ("ANSWERED", re.compile(r"answered$")),
    ("ALREADY", re.compile(r"(?:already|again|earlier|above|previously|before)$")),
    ("PERMIT", re.compile(r"(?:may|can|allowed|permitted|free|let)$")),
    ("MUST", re.compile(r"(?:must|should|shall|always|need|needs|make|sure|remember|be)$")),
    ("BY", re.compile(r"(?:by|from|through|via)$")),
    ("TO", re.compile(r"(?:to|with|towards?)$")),
    ("BACK", re.compile(r"back$")),
    ("BE", re.compile(r"(?:is|are|be|been|was|were|being|gets?)$")),
    ("JOB", re.compile(r"(?:job|task|role|responsibility|work|owns?|handles?)$")),
)
# The classes whose ordered triples are features ("negation, talking, by you"; "parent, talking,
# user"): who does what to whom, without a parser.
_CORE = frozenset(
    {
        "NEG",
        "USER",
        "PARENT",
        "SUBS",
        "YOU",
        "TALK",
        "BY",
        "TO",
        "COND",
        "ONLY",
        "REPEAT",
        "ANSWERS",
        "PERMIT",
        "JOB",
        "BACK",
    }
)


def _classes(token: str) -> tuple[str, ...]:
    return tuple(name for name, pattern in _CLASSES if pattern.match(token))


@lru_cache(maxsize=16_384)
def sentence_features(sentence: str) -> frozenset[str]:
    """The features of a normalised ``sentence`` (see the module docstring)."""
    out: set[str] = set()
    for clause in clauses(sentence) or (sentence,):
        tokens = _TOKEN.findall(clause)
        if not tokens:
            continue
        stems = [stem(t) for t in tokens]
        out.add(f"f:{stems[0]}")
        out.update(f"w:{s}" for s in stems)
        out.update(f"b:{a}_{b}" for a, b in itertools.pairwise(stems))
        tags: list[str] = []
        for token in tokens:
            tags.extend(_classes(token))
        out.update(f"c:{t}" for t in tags)
        out.update(f"q:{a}_{b}" for a, b in itertools.pairwise(tags) if a != b)
        seen: set[str] = set()
        pairs: set[str] = set()
        for tag in tags:
            if tag in _CORE:
                out.update(f"o3:{pair}>{tag}" for pair in pairs if not pair.endswith(tag))
                pairs.update(f"{before}>{tag}" for before in seen if before != tag)
            out.update(f"o:{before}>{tag}" for before in seen if before != tag)
            seen.add(tag)
        if tags:
            out.add(f"t0:{tags[0]}")
        out.update(f"x:{name}" for name in _CORE if name not in seen)
        out.add(f"n:{min(len(tokens) // 4, 5)}")
    return frozenset(out)

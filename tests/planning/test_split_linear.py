"""The offline planner's cut pattern: the same cuts as the pattern it replaced, without its cost.

The earlier pattern read the rest of a run of punctuation or white space again from each of its
characters (and shared a run of spaces out between two quantifiers): 9,000 dots took about 1.2 s
of CPU and 1,000 spaces between two words about 10 s, growing with the cube of the run. The new
one starts a cut only where its run starts and takes runs whole. Its speed is measured by
``tests/bench/bench_adversarial.py`` (a served turn); here, that nothing else changed: on every
short text drawn from the characters the pattern cares about, it finds exactly the cuts the old
one found, and the plan of a message is unchanged.

Since 2026-12-02 the pattern (``harness.planning._cuts``) cuts more: a line break, "then" and
"after that", list markers, and the candidate openings of a run-on's requests (``soft``, each
checked in Python before it is a cut). On texts without those, its other cuts are the old ones.
"""

from __future__ import annotations

import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from harness.planning import _cuts, split

_OLD_CUT = re.compile(
    r"(?P<join>[?!.;]+\s+|\?\s*$|\s*,?\s+\b(?:and then|and also|and|also|plus|as well as)\b[\s,]+)"
    r"|(?P<comma>\s*,\s+)",
    re.IGNORECASE,
)
_OLD_LEAD = re.compile(r"^\s*(?:(?:and|also|plus|then|so)\b[\s,]*)+", re.IGNORECASE)
_OLD_COUNT = re.compile(r"^(how (?:many|much))\s+(.*)$", re.IGNORECASE)

_PIECES = st.sampled_from(
    [" ", "  ", "\t", "\n", ",", ".", "?", "!", ";", "x", "A", "1", "é", "and", "And", "also",
     "plus", "then", "so", "and then", "and also", "as well as", "how many", "how much"]
)  # fmt: skip
_TEXTS = st.lists(_PIECES, max_size=14).map("".join)


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], str | None]]:
    """The cuts ``pattern`` finds, but a run-on's candidate openings (new, checked later)."""
    return [(m.span(), m.lastgroup) for m in pattern.finditer(text) if m.lastgroup != "soft"]


# What the new pattern cuts besides the old cuts: line breaks, "then", list markers.
_NEW = re.compile(r"\n|then|(?:^|\s)\(?\d{1,2}[.)]\s", re.IGNORECASE)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_the_cuts_are_the_old_patterns(text: str) -> None:
    assume(not _NEW.search(text))
    assert _found(_cuts.CUT, text) == _found(_OLD_CUT, text)
    assert _cuts.LEAD.sub("", text) == _OLD_LEAD.sub("", text)
    old, new = _OLD_COUNT.match(text), split._COUNT.match(text)
    assert (old and old.groups()) == (new and new.groups())


def test_long_runs_cut_as_before() -> None:
    for run in (" " * 80, "." * 80, "?" * 80, ", " * 40, " ," * 40):
        text = f"where is my W-2{run}and when is payday{run}x"
        assert _found(_cuts.CUT, text) == _found(_OLD_CUT, text)


def test_a_message_is_split_as_before() -> None:
    message = "Where is my W-2? And how many PTO days have I used, and how many are left"
    assert split.split_requests(message, lambda piece, _: "left" not in piece) == [
        "Where is my W-2",
        "how many PTO days have I used",
        "how many PTO days are left",
    ]

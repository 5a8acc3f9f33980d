"""How the offline planner cuts a message into requests (its own rules: the independent
missed-request check in ``harness.detect`` has its segmenter, and neither reuses the other's).

A message is cut at sentence ends, semicolons, commas and the words that join requests ("and",
"and also", "also", "plus", "as well as"). A piece with no content words ("thanks", "how do I do
it") stays with its neighbour. A piece cut off by a comma alone starts a request only when it says
enough to be routed on its own (``starts_request``); otherwise it is the rest of the piece before
it. A piece that shares the previous request's frame gets it back: "... and the W-2" after "where
is my payslip" becomes "where is the W-2", and "how many are left" after "how many PTO days have I
used" becomes "how many PTO days are left".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from harness.models._text import content_tokens

__all__ = ["split_requests"]

# A cut: its kind ("comma" for a bare comma; "join" for everything else) decides whether the
# piece after it may be glued back. Linear in the text: a cut that starts with a run of
# punctuation or white space starts where the run starts (the look-behinds: a cut never ends
# inside such a run, it takes the run whole), runs are taken whole (``++``, ``*+``), and no
# run is shared out between two quantifiers. Before, each character of a run read the rest of it
# again: 9,000 dots took about 1.2 s, and 1,000 spaces between two words about 10 s.
_CUT = re.compile(
    r"(?P<join>(?<![?!.;])[?!.;]++\s++|\?\s*+$"
    r"|(?:(?<!\s)\s*+,|,|(?<!\s))\s++\b(?:and then|and also|and|also|plus|as well as)\b[\s,]++)"
    r"|(?P<comma>(?:(?<!\s)\s++)?,\s++)",
    re.IGNORECASE,
)
_LEAD = re.compile(r"^\s*+(?:(?:and|also|plus|then|so)\b[\s,]*+)+", re.IGNORECASE)
# Words that open a noun phrase: a piece that starts with one lacks its verb ("and my W-2").
_DETERMINER = frozenset({"the", "my", "a", "an", "your", "our", "their", "his", "her", "its"})
# Auxiliaries that end the object of a "how many / how much" question.
_AUX = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "have", "has", "had", "can", "will", "am"}
)
_COUNT = re.compile(r"^(how (?:many|much))\s++(.*)$", re.IGNORECASE)


def split_requests(message: str, starts_request: Callable[[str], bool]) -> list[str]:
    """The requests of ``message`` in order, each with its own (possibly completed) text.

    Args:
        message: the user's message.
        starts_request: whether a piece cut off by a bare comma is a request of its own (the
            planner passes "it routes to an agent on its own").
    """
    text = message.strip()
    pieces: list[tuple[str, str]] = []  # (kind of the cut before it, piece)
    kind, start = "join", 0
    for match in _CUT.finditer(text):
        pieces.append((kind, text[start : match.start()]))
        kind = "comma" if match.group("comma") else "join"
        start = match.end()
    pieces.append((kind, text[start:]))
    requests: list[str] = []
    for cut, raw in pieces:
        piece = _LEAD.sub("", raw).strip(" ,;")
        if not piece:
            continue
        if not requests:
            requests.append(piece)
            continue
        if not content_tokens(piece) or (cut == "comma" and not starts_request(piece)):
            requests[-1] = (
                f"{requests[-1]}, {piece}" if cut == "comma" else f"{requests[-1]} {piece}"
            )
            continue
        if not content_tokens(requests[-1]):  # "hi, ..." or "ok so ...": no request before it
            requests[-1] = f"{requests[-1]} {piece}"
            continue
        requests.append(_carry_frame(requests[-1], piece, starts_request))
    return requests or [text]


def _carry_frame(previous: str, piece: str, routed: Callable[[str], bool]) -> str:
    """``piece`` completed with the verb or object it shares with ``previous``, when it has none."""
    words = piece.split()
    if words[0].lower() in _DETERMINER:
        # "and my W-2" after "where is my payslip": the verb words before the previous object.
        before = previous.split()
        for index, word in enumerate(before):
            if word.lower() in _DETERMINER:
                if index:
                    return " ".join([*before[:index], piece])
                break
        return piece
    count = _COUNT.match(piece)
    if count and not routed(piece):
        # "how many are left" after "how many PTO days have I used": the object comes back.
        earlier = _COUNT.match(previous)
        if earlier and earlier.group(1).lower() == count.group(1).lower():
            obj: list[str] = []
            for word in earlier.group(2).split():
                if word.lower() in _AUX:
                    break
                obj.append(word)
            if obj and obj != count.group(2).split()[: len(obj)]:
                return f"{count.group(1)} {' '.join(obj)} {count.group(2)}"
    return piece

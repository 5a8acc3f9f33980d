"""The apologies and fillers a user may put before or beside what they ask ("sorry, when is
...", "I'm so sorry to bother you", "oops sorry but ...", "um"): one closed class, read by the
duplicate detector's re-ask reading (:mod:`harness.detect._users`) and by the segmenter, which
leaves an apology beside a request out (:mod:`harness.detect._together`).

Connectives that may open a new question ("and", "also", "so", "well", "ok") are not in it. The
re-ask reading also reads past a greeting or an acknowledgement (:data:`GREETING`,
:data:`ACKNOWLEDGEMENT`), where what follows must still be the question asked before.
Every quantifier is possessive, so a long run of them is read in linear time. The patterns are
written in lower case: compile them with ``re.IGNORECASE`` or read lowered text."""

from __future__ import annotations

from harness.text._shapes import GREETINGS

__all__ = ["ACKNOWLEDGEMENT", "APOLOGY", "FILLER", "GREETING", "MARKS"]

MARKS = r"[\s,.!;:\u2013\u2014-]*+"
"""Punctuation and white space between the words of the class."""
APOLOGY = (
    r"(?:(?:(?:i['\u2019]?m|i\s++am)\s++)?(?:(?:so|really|very|terribly|awfully)\s++)*+sorry"
    r"(?:\s++(?:to\s++(?:bother|trouble)\s++you|about\s++that|to\s++ask\s++again|"
    r"for\s++(?:the\s++)?(?:trouble|bother|confusion)))?+"
    r"|(?:my\s++)?apologies|i\s++(?:do\s++)?apologi[sz]e|excuse\s++me|pardon(?:\s++me)?+)"
    r"(?:[\s,]++but\b)?+"
)
"""An apology or an attention-getter: "sorry", "I'm so sorry to bother you", "my apologies",
"I apologise", "excuse me", "pardon", maybe followed by "but"."""
FILLER = r"(?:oh|oops|um++|uh++|er++|hmm++)"
"""A filler or an interjection said before an apology or a question."""
ACKNOWLEDGEMENT = (
    r"(?:(?:thank\s++you|thanks)(?:\s++(?:so|very)\s++much)?+|thank|ok(?:ay)?|sure|right|alright"
    r"|great|certainly|of course|no problem|got it|noted|understood|will do)"
)
"""An acknowledgement: "ok", "right", "alright", "got it", "thanks", "thank you so much" (said by
the bot before it looks something up, :mod:`harness.detect._around`; by a user before a
question, where "all right" is one too). The longer thanks come first, so a possessive reading
takes "thank you" whole, not "thank" and then "you ..."."""
GREETING = "(?:" + "|".join(sorted(GREETINGS, key=lambda word: (-len(word), word))) + ")"
"""A greeting or a word of the courtesy the request segmenter reads past before a request
("hi", "hey", "hello", "ok", "so", "well", "um"; :data:`harness.text._shapes.GREETINGS`)."""

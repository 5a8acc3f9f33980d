"""Finding, in a bot's message, the phrase that refers to an earlier answer.

A parent that says "as the billing agent mentioned, ..." or "just to reiterate, ..." has noticed
the earlier answer but still talks about it: the awkward acknowledgement the simulator reports.
The patterns combine word classes (verbs of saying, references to earlier text, ways of opening a
restatement), not whole phrases.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["acknowledgement"]

# Verbs of having said something.
_SAID = (
    r"(?:mentioned|said|noted|stated|explained|told you|shared|pointed out|covered|described"
    r"|indicated|confirmed|outlined|discussed|highlighted|answered|replied|responded|reported"
    r"|flagged|detailed|laid out|showed|shown|went over|gone over|walked you through|clarified"
    r"|advised|informed you|let you know|wrote|posted|relayed|passed on|given|gave|provided"
    r"|communicated|addressed|handled|sent)"
)
_EARLIER = (
    r"(?:above|earlier|before|previously|already|just now|a moment ago|a minute ago|moments ago"
    r"|in (?:my|our|the|its|their|his|her) (?:previous|earlier|last|prior|first) (?:message|reply"
    r"|response|answer|note|update|turn))"
)
_WHO = (
    r"(?:i|we|they|he|she|it|(?:the|our|your|my) (?:[\w'-]+ ){0,3}?(?:agent|assistant|bot|team"
    r"|specialist|desk|service|colleague|expert|department|system|tool|helper)s?)"
)
_AWKWARD = re.compile(
    r"\b(?:"
    # "as I mentioned", "like the billing agent said", "as the payroll team already explained"
    rf"(?:as|like) {_WHO} (?:have |has |had |'ve |did |do )?(?:just |already |previously "
    rf"|also |earlier )?{_SAID}"
    # "as mentioned above", "as previously noted", "as was said earlier"
    rf"|as (?:was |i |we |it was |has been )?(?:previously |already |just |earlier )?{_SAID} "
    rf"{_EARLIER}"
    rf"|as (?:was |has been |it was )?(?:previously|already|just|earlier) {_SAID}"
    # "as you already know", "as you just heard", "as you saw"
    r"|as (?:you (?:(?:may |might |will |probably |already |just )?(?:have )?)?"
    r"(?:know|heard|saw|seen|were told|read|noticed|learned|learnt)|(?:you )?(?:just )?(?:heard|saw))"
    # "per the billing agent's message above", "per my last reply"
    r"|per (?:the|our|your|my|its|their) (?:[\w'-]+ ){0,4}?(?:message|answer|reply|response|note"
    r"|update|explanation|earlier|previous)s?(?: above| earlier| before)?"
    # "the billing agent already told you", "our HR bot just answered"
    r"|(?:the |our |your )?[\w-]+ (?:agent|assistant|bot|team|specialist|desk|service|helper)s? "
    rf"(?:has |have |had )?(?:already|just) (?:been )?{_SAID}"
    # "you've already been told", "you were already given"
    r"|you(?:'ve| have| were|'ve been| have been) (?:already|just) (?:been )?(?:told|given|received"
    r"|got(?:ten)?|seen|heard|sent|shown|informed|provided)"
    r"|(?:i|we)(?: have|'ve)? (?:already|just) (?:mentioned|said|told you|answered|shared|explained"
    r"|confirmed|covered|noted|provided)"
    # "just to reiterate", "to echo", "let me recap", "reiterating", "restating what ..."
    r"|(?:just |so |again |once more |briefly )?to (?:reiterate|restate|re-state|recap|echo"
    r"|repeat|re-?confirm|reconfirm|summari[sz]e again|say it again)"
    r"|(?:let me|allow me to|i'll|i will|i'd like to|i want to|we'll|i'm going to|i am going to)"
    r" (?:just )?(?:reiterate|restate|re-state|recap|echo|repeat|re-?confirm|reconfirm)"
    r"|(?:reiterat|restat|re-stat|recapp|echo|repeat)ing (?:what|the|that|from|on|earlier|again|my"
    r"|our|their|its)"
    r"|(?:reiterate|restate|recap|repeat|echo) (?:what|the above|from above)"
    # "building on what the billing agent said", "following up on the earlier answer"
    r"|(?:building on|following up on|further to|adding to|expanding on|picking up on|going back to"
    r"|to add to|in line with|consistent with|in addition to|on top of|complementing|echoing)"
    r" (?:what|the|my|our|their|its|that|his|her)\b[^.!?]{0,60}?\b(?:said|mentioned|message|answer"
    r"|reply|response|shared|noted|explained|told|update|gave|provided|earlier|above|previous)"
    r"|(?:mentioned|noted|stated|explained|covered|shared|discussed|said|answered|confirmed"
    r"|addressed) (?:above|earlier|previously|before)"
    r"|(?:has|have|had|was|were) (?:already|just) (?:been )?(?:answered|covered|addressed|explained"
    r"|mentioned)"
    r"|(?:see|refer to|check|scroll up to) (?:the |my |our |their |its )?(?:[\w'-]+ ){0,3}?"
    r"(?:message|answer|reply|response)s? above|\bsee above"
    r"|in case you missed (?:it|that)|to repeat myself|as a recap"
    r"|(?:that|this|it) (?:was|is) (?:the )?same (?:answer|information|details?|figures?|info)"
    r")\b",
    re.IGNORECASE,
)
_HINT = re.compile(
    r"\b(?:as |like |already|just |reiterat|restat|re-stat|recap|repeat|echo|per |building|following"
    r"|further|adding|expanding|picking|going back|in line|consistent|in addition|on top|see |refer"
    r"|scroll|in case|once again|reminder|mentioned|noted|stated|said|covered|same|complement|again"
    r"|to add|check the)",
    re.IGNORECASE,
)


# The same two patterns without IGNORECASE, for an ASCII text in lower case (about twice as
# fast): lowering an ASCII text keeps its length and its word boundaries, and the patterns' letters
# are all lower case, so they match its lower case exactly where the patterns above match it. A
# text with other characters takes the patterns above: ignoring case, some match ASCII letters
# ("\u017f" matches "s", the Kelvin sign "k").
_AWKWARD_LOWER = re.compile(_AWKWARD.pattern)
_HINT_LOWER = re.compile(_HINT.pattern)


@lru_cache(maxsize=16_384)
def acknowledgement(text: str) -> str | None:
    """The phrase of ``text`` (a bot's message) that refers to an earlier answer, or None.

    Example:
        >>> acknowledgement("Per the billing agent's message above, your refund is on its way.")
        "Per the billing agent's message above"
    """
    text = text.replace("\u2019", "'")
    if not text.isascii():
        return _acknowledgement(text)
    lowered = text.lower()
    if not _HINT_LOWER.search(lowered):
        return None
    match = _AWKWARD_LOWER.search(lowered)
    return text[match.start() : match.end()] if match else None


def _acknowledgement(text: str) -> str | None:
    """:func:`acknowledgement` by the patterns that ignore case (any text)."""
    if not _HINT.search(text):
        return None
    match = _AWKWARD.search(text)
    return match.group(0) if match else None

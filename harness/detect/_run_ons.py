"""Requests run on with no punctuation or joining word before them, for the request segmenter
(:mod:`harness.detect.requests`): a question after a question or an imperative
(:func:`_runs_on`), and the announcement a message opens with before its first request
(:func:`_announced_first`).
"""

from __future__ import annotations

from harness.detect._joining import _USER, _head
from harness.detect._request_words import (
    _ANNOUNCED,
    _ANNOUNCING,
    _AUX,
    _DETERMINERS,
    _GREETING,
    _LEAD_OPENERS,
    _NAMING,
    _PREPOSITIONS,
    _PRONOUNS,
    _SUBJECT_STARTS,
    _SUBORDINATORS,
    _TITLE_NOUNS,
    _VERBS,
    _WH,
    _owned,
    _Tok,
    _words,
)

# An auxiliary that opens a question when a subject follows it ("can you", "do i", "will we").
_ASKING_AUX = frozenset({"can", "could", "would", "will", "do", "does", "did", "should", "may"})
_ASKED = frozenset({"you", "i", "we"})
_RUN_ON_OPENERS = _ASKING_AUX | _WH
"""The words a question running on opens with (:func:`_runs_on` is tried at these only)."""
# Pronouns by which a question points back to what was said before it (a closed class).
_POINTING_BACK = frozenset({"it", "that", "this", "they", "them", "one", "there"})
# Words after which a question goes on the clause before it, embedded or as its object: a verb
# of knowing or asking, a preposition, an object pronoun, a subordinator, a closed class.
_EMBEDS = (
    _PREPOSITIONS
    | _SUBORDINATORS
    | _AUX
    | _WH
    | _PRONOUNS
    | _DETERMINERS
    | _words(
        """
    know knows knew wonder wondering wondered curious sure idea ask asking asked tell told show
    explain understand remember forget see figure find learn decide check out me us him them
    please so and or but then that whether not
    """
    )
)


def _runs_on(message: str, current: list[_Tok], toks: list[_Tok], i: int) -> bool:
    """Whether a question opens at ``toks[i]`` with no punctuation or joining word before it,
    after a question or an imperative of its own ("what is my balance can you book a cab",
    "please search for some fun things to do what are the requirements ..."): an auxiliary
    before "you", "i" or "we" and two more words, or a question word whose auxiliary and subject
    follow within four words (an embedded question keeps its order: "tell me what the status
    is"). Not after a statement ("I lost my card how do I report it" asks once), nor a word that
    takes a question as its object or leaves its clause unfinished (:data:`_EMBEDS`), nor inside
    a question whose question word has no auxiliary yet ("what time can you come"), nor when
    the question points back ("... until Thursday can I do that"), nor after a word that
    introduces a title ("play the song where is my mind"; not "lock my card what is ...")."""
    before = current[-1]
    if (
        before.mark
        or before.word in _EMBEDS
        or before.word in _NAMING
        or (before.word in _TITLE_NOUNS and not _owned([t.word for t in current[-5:]]))
        or not message[before.end - 1].isalnum()
        or not message[toks[i].start].isalpha()
    ):
        return False
    size, head = _head(current, _USER)
    if head and head[0].word in _ANNOUNCE_STARTS and (k := _announced_first(head)):
        head, size = head[k:], size - k  # "two things how do i ..."
    greeted = False
    while head and (head[0].word in _GREETING or (greeted and head[0].word == "there")):
        head, size = head[1:], size - 1  # "yo can i ...", "hello there can i ..."
        greeted = True
    if (
        size < 3
        or not head  # the first words read were all greetings or fillers ("um um um ...")
        or not (head[0].word in _WH or head[0].word in _AUX or head[0].word in _VERBS)
    ):
        return False
    word = toks[i].word
    ahead = [t.word for t in toks[i + 1 : i + 6]]
    if not _POINTING_BACK.isdisjoint(ahead):
        return False
    if word in _ASKING_AUX:
        if len(ahead) < 3 or ahead[0] not in _ASKED or not ahead[1] or not ahead[2]:
            return False
    elif word in _WH and word != "whose":
        inverted = word.endswith("s")  # "whats", "what's", "whens"
        for k, w in enumerate(ahead[:4]):
            if w in _AUX and k + 1 < len(ahead) and ahead[k + 1] in _SUBJECT_STARTS:
                inverted = True
                break
            if w in _AUX or not w:
                break
        if not inverted:
            return False
    else:
        return False
    # the question before has its auxiliary: no question word left waiting for one
    words = [t.word for t in current[-12:]]
    asked = [k for k, w in enumerate(words) if w in _WH]
    return not asked or any(w in _AUX for w in words[asked[-1] + 1 :])


_ANNOUNCE_STARTS = _ANNOUNCING | _GREETING
_ANNOUNCE_SPEAKER = _words("i i've ive i'm im we help")


def _announced_first(piece: list[_Tok]) -> int:
    """How many words at the start of ``piece`` only announce the requests that follow with no
    punctuation between ("couple of things i want to ...", "hey there two things how do i ...",
    "hello i have several requests whats ..."): words of an announcement up to the last word
    naming requests, the speaker's own or with no verb and no article, and then a word a request
    opens with; 0 when there is none ("the items in my cart ...", "a few things i need to buy"
    name things they ask about)."""
    last = -1
    for k, tok in enumerate(piece[:8]):
        if tok.mark and tok.word in _ANNOUNCED:
            return 0  # "A few things." was cut before: this is no run-on
        if tok.word in _ANNOUNCED:
            last = k
        elif tok.word not in _ANNOUNCE_STARTS and not (
            tok.word == "there" and k and piece[k - 1].word in _GREETING  # "hey there"
        ):
            break
    if last < 0 or last + 1 >= len(piece) or piece[last + 1].word not in _LEAD_OPENERS:
        return 0
    words = {t.word for t in piece[: last + 1]}
    if words.isdisjoint(_ANNOUNCE_SPEAKER) and not (
        words.isdisjoint(_AUX) and words.isdisjoint(_DETERMINERS)
    ):
        return 0  # "do my items ...", "a few things i need to buy" speak of them
    return last + 1

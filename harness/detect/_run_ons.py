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
    _FILLERS,
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
    _has_topic,
    _owned,
    _Tok,
    _words,
)

# An auxiliary that opens a question when a subject follows it ("can you", "do i", "will we").
_ASKING_AUX = frozenset({"can", "could", "would", "will", "do", "does", "did", "should", "may"})
_ASKED = frozenset({"you", "i", "we"})
# The speaker's words a wish opens with ("i need", "i'd like", "im looking"), and the words of
# wishing that follow them (closed classes): a wish said as a request of its own.
_WISHERS = _words("i i'd id i'm im")
_WISHING = {
    "i": _words("need want wanna would"),
    "i'd": _words("like love"),
    "id": _words("like love"),
    "i'm": _words("looking interested"),
    "im": _words("looking interested"),
}
_RUN_ON_OPENERS = _ASKING_AUX | _WH | _VERBS | _WISHERS
"""The words a question, an imperative or a wish running on opens with (:func:`_runs_on` is
tried at these only)."""
# What an imperative's object opens with when it runs on after a question (a closed class:
# "... arrive help me book a car", "... bill check the weather").
_OBJECT_STARTS = _words("me us my our your the a an")
# A copula (the question's verb: "when is my flight"), and the question words it is glued to.
_COPULA = _words("is are was were")
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
        or not (
            head[0].word in _WH
            or head[0].word in _AUX
            or head[0].word in _VERBS
            or _glued(head[0].word)
            or (toks[i].word not in _ASKING_AUX and _wishes([t.word for t in head[:3]]))
        )
    ):
        return False  # after a wish, a wish or a question word's question runs on; not "can
        # you ..." or "do i ...", that may ask what the wish needs ("i want to go, do i need ...")
    word = toks[i].word
    ahead = [t.word for t in toks[i + 1 : i + 6]]
    if word in _WISHERS:
        # "how late is the gym open i need a plumber": a wish of its own runs on; not one that
        # points back ("... i need it by friday"), nor the clause a verb of saying or thinking
        # or an adjective takes ("do you think i need a coat", "is it true i need a permit"),
        # nor a reason with no object of its own ("... i need to calm down"), nor one that may
        # say which thing the object before it is ("the form i need", "tell my bank i need
        # ..."; a surface guard: any determiner one to three words back outside a preposition's
        # phrase, so "what is my balance i need a cab" stays one, and so do refinements such as
        # "find a hotel in rome i want a pool"), nor one inside a question
        # still waiting for its verb
        if (
            not _wishes([word, *ahead[:2]])
            or not _has_topic(ahead)  # "... for which i need your help"
            or not _POINTING_BACK.isdisjoint(ahead)
            or before.word in _CLAUSE_TAKERS
            or _asks_verb([t.word for t in current[-4:]])
            or _reason([word, *ahead])
            or _names_object([t.word for t in current[-4:]])
        ):
            return False
        words = [t.word for t in current[-12:]]
        asked = [k for k, w in enumerate(words) if w in _WH]
        return not asked or any(w in _AUX for w in words[asked[-1] + 1 :])
    if word in _VERBS and word not in _RUN_ON_QUESTION:
        return (
            (head[0].word in _WH or _glued(head[0].word))
            and before.word not in _FILLERS
            and _asked_whole([t.word for t in current[-12:]], ahead)
        )
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


_RUN_ON_QUESTION = _ASKING_AUX | _WH
# Verbs of saying or thinking and adjectives that take a clause as their object ("do you think
# i need ...", "is it possible i need ..."), before a wish (closed classes).
_CLAUSE_TAKERS = _words(
    """
    think thinks thought say says said confirm confirms confirmed mean means meant believe
    believes guess suppose reckon bet hear heard read agree feel feels felt possible true likely
    certain clear obvious correct right
    """
)
# Who does a question's verb ("do you think", "would we say", "does it look"; a closed class).
_ASKED_SUBJECTS = _words("you i we it he she they")
# The words a reason's verb ends with when it names nothing ("i need to calm down", "i want to
# relax now"; a closed class).
_REASON_ENDS = _words(
    "up down out off away back home here there now today tonight soon again more less too"
)


def _asks_verb(words: list[str]) -> bool:
    """Whether ``words`` (the last ones before a wish) end in a question's auxiliary, its subject
    and its bare verb ("can you confirm", "would you say"): the wish is that verb's object."""
    return len(words) >= 3 and words[-3] in _ASKING_AUX and words[-2] in _ASKED_SUBJECTS


def _reason(words: list[str]) -> bool:
    """Whether the wish ``words`` ("i need to calm down") only gives a reason: "to" and a verb
    with nothing after it but adverbs of place or time (:data:`_REASON_ENDS`)."""
    rest = words[2:] if words[1] in ("need", "want", "wanna") else words[3:]
    if rest[:1] == ["to"]:
        rest = rest[1:]
    elif words[1] != "wanna":
        return False
    rest = [w for w in rest if w]
    return bool(rest) and all(w in _REASON_ENDS for w in rest[1:])


def _names_object(words: list[str]) -> bool:
    """Whether the last words ``words`` end in an object a relative clause may follow: a
    determiner one to three words back, not inside a preposition's phrase ("the minimum", "my
    bank", "a few steps"; not "at my job", "for a new card")."""
    for k in range(len(words) - 2, max(len(words) - 5, -1), -1):
        if words[k] in _DETERMINERS:
            return k == 0 or words[k - 1] not in _PREPOSITIONS
    return False


def _wishes(words: list[str]) -> bool:
    """Whether ``words`` open with the speaker's wish ("i need", "i would like", "id like",
    "im looking"; :data:`_WISHING`)."""
    wishing = _WISHING.get(words[0]) if words else None
    if not wishing or len(words) < 2 or words[1] not in wishing:
        return False
    return words[1] != "would" or words[2:3] == ["like"] or words[2:3] == ["love"]


def _glued(word: str) -> bool:
    """Whether ``word`` is a question word with "is" glued to it ("whens", "what's", "wheres")."""
    return word[-1:] == "s" and word[:-1].rstrip("'") in _WH


def _asked_whole(words: list[str], ahead: list[str]) -> bool:
    """Whether the question ``words`` (its last words) is asked whole before an imperative
    whose next words are ``ahead``: the imperative's object follows it (:data:`_OBJECT_STARTS`),
    and the question's verb is a copula, said after its question word ("when is the next bill
    due check my ...") or glued to it ("whens the next bill check the weather"), with two words
    at least between; not after a do or modal auxiliary, whose verb may be the imperative's
    ("what does my plan give me", "where can my wife find the store")."""
    if not ahead or ahead[0] not in _OBJECT_STARTS:
        return False
    glued = [k for k, w in enumerate(words) if _glued(w)]
    asked = [k for k, w in enumerate(words) if w in _WH]
    if not asked and not glued:
        return False
    k = max(asked + glued)
    if k not in glued:  # "when is", not "whens"
        k = next((j for j in range(k + 1, len(words)) if words[j] in _AUX), len(words))
        if k == len(words) or words[k] not in _COPULA:
            return False
    # two words at least, none a clause's own ("when's the day my job'll give me ...")
    rest = words[k + 1 :]
    return len(rest) > 1 and not any(
        w in _AUX or w in _PRONOUNS or "'" in w.strip("'").removesuffix("'s") for w in rest
    )


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

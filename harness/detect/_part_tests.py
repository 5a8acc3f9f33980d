"""Tests on the words either side of a possible cut, for the request segmenter
(:mod:`harness.detect.requests`): whether a verb opens its object, a part goes on with the
clause before it or names the request's object again, the speaker goes on, a question opens.
Moved from ``requests.py`` unchanged when it passed 600 lines.
"""

from __future__ import annotations

from harness.detect._coordination import _bare
from harness.detect._joining import _EDGE_LIMIT
from harness.detect._request_words import (
    _AUX,
    _CLAUSE_VERB,
    _DETERMINERS,
    _PREPOSITIONS,
    _PRONOUNS,
    _USER_VERBS,
    _VERBS,
    _WH,
    _Tok,
    _words,
)

# Words after which a verb of :data:`_USER_VERBS` is a noun or goes on ("a view of the sea",
# "count on me"; closed classes).
_NOT_OBJECT = _AUX | _words("of on")
# The verbs of :data:`_USER_VERBS` that are as often nouns ("the warranty and repair time",
# "display hours"; a closed class): only with their object after them do they open a request
# ("... and repair my account", "view the last payments"), as a determiner, the speaker or a
# number opens it.
_NOUNS_TOO = _words("repair print display view count fix estimate rent select")
_OBJECT_OPENS = _words("me us my our your the a an this that these those")


def _object_opens(verb: str, word: str) -> bool:
    """Whether ``word`` after the request verb ``verb`` opens its object."""
    if verb in _NOUNS_TOO:
        return word in _OBJECT_OPENS or word[:1].isdigit()
    return word not in _NOT_OBJECT


# Verbs of wanting that go on with the subject before them (a closed class).
_GOES_ON = frozenset({"need", "needs", "want", "wants", "wanna", "would", "like", "looking"})


def _gapped(left: list[_Tok], right: list[_Tok]) -> bool:
    """Whether ``right`` says the rest of what the imperative ``left`` moves, where its verb is
    not said again: "the remainder to my car loan", "the other half to my aunt"."""
    words = [t.word for t in left[:2] if t.word]
    return (
        len(right) > 2
        and right[0].word in _DETERMINERS
        and right[1].word in _PARTITIVE
        and any(t.word in _PREPOSITIONS for t in right[2:5])
        and bool(words)
        and (words[0] in _VERBS or (words[0] == "please" and words[-1] in _VERBS))
    )


def _framed_alone(words: list[str], whole: list[_Tok]) -> bool:
    """Whether ``words``, a determiner-led last part after a bare comma, takes no frame from the
    request before it (``whole``): a clause of its own, with an auxiliary or a clause's verb
    ("the pipe under the sink is dripping", "a bit of blues would be nice"), a question with no
    verb ("any storm warnings for Bergen"), a pro-form ("a cheap one", "the one near my office")
    or the request's own object named again ("a film, a film by Fellini"); not a second object
    listed ("turn off the lights, the heater": the frame is carried)."""
    return (
        words[0] == "any"
        or not {"one", "ones"}.isdisjoint(words[1:4])
        or any(w in _AUX or _CLAUSE_VERB.search(w) for w in words[1:])
        or _names_again(words, whole)
    )


def _names_again(words: list[str], whole: list[_Tok]) -> bool:
    """Whether the part ``words`` opens by naming again the object the request ``whole`` ends
    with, its determiner and noun ("a song, a song by Nina Simone"); not a second thing of the
    same kind ("the front door, the garage door")."""
    named = [t.word for t in whole[-6:]]
    return (
        len(words) > 1
        and _bare(words[1])
        and any(named[k : k + 2] == words[:2] for k in range(len(named) - 1))
    )


# Adverbs that go on with the clause before them, not ending in "-ly" (a closed class).
_ADVERBS_GOING_ON = _words(
    "back home still just even already again together alone too not never always often"
)
# Adverbs of degree, which qualify the adverb after them ("more specifically", "most
# importantly", "very briefly"; a closed class).
_DEGREE = _words("more most less least very so quite rather really much")


def _adverb(word: str) -> bool:
    """Whether ``word`` is an adverb: of degree, of those that go on with a clause, or in
    "-ly"."""
    return word in _DEGREE or word in _ADVERBS_GOING_ON or (len(word) > 4 and word.endswith("ly"))


def _adverbial(piece: list[_Tok]) -> bool:
    """Whether ``piece`` (before a comma) only says how the request after it is meant: adverbs,
    and at most a bare participle at its end ("more specifically", "most importantly", "just
    wondering", "frankly speaking"), with no verb of its own nor a word it asks about."""
    words = [t.word for t in piece if t.word]
    if len(words) < 2:
        return False
    *lead, last = words
    return all(map(_adverb, lead)) and (
        _adverb(last) or (len(last) > 5 and last.endswith("ing") and not last.endswith("thing"))
    )


# The words a participle is followed by when it goes on with a clause: a preposition, a
# determiner or an adverb particle ("staying there", "coming back", "delivered to").
_AFTER_PARTICIPLE = (
    _PREPOSITIONS
    | _DETERMINERS
    | _ADVERBS_GOING_ON
    | _words("there here up out down off over around away it them him her me us")
)
# Heads of a determiner phrase that is the rest of the object before ("the rest to checking").
_PARTITIVE = _words("rest remainder remaining other others same")


def _goes_on(words: list[str]) -> bool:
    """Whether a part after ", and" goes on with the clause before it instead of asking: a verb
    of wanting ("..., and need a hotel"), an adverb ("and really excited", "and preferably near
    the window", "and back home on Friday"), a participle ("and staying there", "and delivered to
    the wrong address"; not the noun of "and opening hours of the post office") or the rest of
    what was asked ("transfer 50 to savings, and the rest to checking")."""
    first = words[0]
    if first in _GOES_ON or first in _ADVERBS_GOING_ON or (len(first) > 4 and first.endswith("ly")):
        return True
    if first in _DETERMINERS:
        return len(words) > 1 and words[1] in _PARTITIVE
    if len(first) > 4 and first.endswith("ed") and not first.endswith("eed"):
        return True
    return (
        len(first) > 4
        and first.endswith("ing")
        and not first.endswith("thing")
        and (len(words) == 1 or words[1] in _AFTER_PARTICIPLE)
    )


# The speaker as a subject, and the auxiliaries that agree with each (closed classes): "I ...
# and is X" cannot go on with "I".
_SPEAKER = _words("i i'm im i've ive we we're we've")
_AGREES = {
    **dict.fromkeys(_words("i i'm im i've ive"), _words("am was have had")),
    **dict.fromkeys(_words("we we're we've"), _words("are were have had")),
}


def _same_subject(left: list[_Tok], words: list[str]) -> bool:
    """Whether ``words``, after "and", are an auxiliary and a participle that go on with the
    speaker the clause ``left`` is about ("I am in the lobby and have been for an hour", "I'm
    moving and was wondering if ...", "we are in Rome and are hoping to ..."): one request, not
    a question ("and can I ...", "and is there ...", "and is shipping free") nor a wish of its
    own ("and would like ..."). The auxiliary agrees with the last speaker word before it (not
    "I ... and is ...")."""
    if len(words) < 2 or words[0] not in _AUX:
        return False
    second = words[1]
    verb = second == "been" or (
        len(second) > 4 and second.endswith("ing") and not second.endswith("thing")
    )
    speaker = next((t.word for t in reversed(left[-_EDGE_LIMIT:]) if t.word in _SPEAKER), None)
    return verb and speaker is not None and words[0] in _AGREES[speaker]


def _asks(words: list[str], k: int) -> bool:
    """Whether ``words[k]`` opens a question: "what's", or a question word before an auxiliary."""
    if k + 1 >= len(words) or words[k] not in _WH:
        return False
    return words[k].endswith("'s") or words[k + 1] in _AUX


def _counted_noun(left: list[_Tok], quantifier: str) -> list[_Tok]:
    """``how many PTO days`` from ``how many PTO days have I used``: the question words and the
    noun they count, up to the earlier request's auxiliary."""
    words = [t.word for t in left]
    if len(words) < 4 or words[:2] != ["how", quantifier]:
        return []
    for k in range(3, len(words)):
        if words[k] in _AUX:
            return left[:k]
    return []


# The object pronouns an imperative's verb takes straight after it (a closed class; not "her",
# a possessive as often: "a gift, something her sister likes"). "me"/"us" name a new recipient;
# "it"/"them"/"him" mostly stand for the object of the verb before ("Play some jazz, keep it
# quiet", "Send the invoice, mark it urgent": one request and its detail) and open a request of
# their own only as a recipient before a new object ("Book the venue, send them the deposit").
_RECIPIENTS = _words("me us")
_OBJECT_PRONOUNS = _RECIPIENTS | _words("it them him")
# Words before an object pronoun that open no imperative of their own (closed classes):
# "thank you", "let me", "help me" are read elsewhere; these go on with the clause before.
_NO_VERB = (
    _DETERMINERS
    | _PREPOSITIONS
    | _WH
    | _AUX
    | _PRONOUNS
    | _words("please thanks thank and or but so then if when as than like unless because")
)


def _listed_imperative(left: list[_Tok], words: list[str]) -> bool:
    """Whether, after a comma, ``words`` opens an imperative of its own beside the imperative
    ``left``: ``left`` opens with a request verb, and ``words`` with a word of no closed class
    (no participle, adverb or number) taking "me"/"us" straight after it ("Reserve two kayaks
    for Saturday, email me the waiver"), or "it"/"them"/"him" and then a new object ("Book the
    venue, send them the deposit"); "keep it quiet", "mark it urgent", "slice them" go on with
    the request before (the pronoun is its object). A list of
    imperatives is cut at its commas, each verb with its own object; the verb lists hold only
    the commonest request verbs, so the pronoun is what says this one is a verb."""
    if not left or (left[0].word not in _VERBS and left[0].word not in _USER_VERBS):
        return False
    if len(words) < 2:
        return False
    first = words[0]
    return (
        words[1] in _OBJECT_PRONOUNS
        and (words[1] in _RECIPIENTS or (len(words) > 2 and words[2] in _DETERMINERS))
        and first.isalpha()
        and first not in _NO_VERB
        and not _adverb(first)
        and not first.endswith(("ing", "ed"))
    )

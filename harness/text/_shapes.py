"""How a piece of a user's message opens and what it says: closed classes of English that both
request segmenters read a message by, the planner's split (:mod:`harness.planning.split`) and the
missed-request check's own (:mod:`harness.detect.requests`).

The check must not read the planner's answer key, so it imports no planner; but the two read the
same language, and what keeps a request together for one keeps it together for the other:

- a statement that only states ("I'm going to Peru", "there is an urgency to go out") is the
  context of the request after it (:func:`states`);
- a piece that asks about what a statement before it names, by a pronoun ("my card is stolen and
  I need to report it", :func:`refers_back`, :func:`points_back`);
- a statement that goes on after "and" without a subject of its own ("I took a new job and need
  help with my 401k", :func:`goes_on`).

Everything here is a closed class of English (auxiliaries and modals, question words, personal
pronouns, determiners, prepositions, discourse connectives, list markers) or the common verbs
people open a request with; none is a list for one message.
"""

from __future__ import annotations

import re


def word_class(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Auxiliaries and modals (a closed class), as a question or a clause opens with them.
AUX_WORDS = (
    "is|are|was|were|am|do|does|did|have|has|had|can|could|will|would|shall|should|may|might|must"
    "|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|haven't|hasn't|can't|cannot|couldn't"
    "|won't|wouldn't|shouldn't|isnt|arent|dont|doesnt|didnt|cant|wont"
)
WH_WORDS = "what|when|where|which|who|whom|whose|why|how"
# Determiners and personal pronouns: a word of these after a question word makes the clause an
# embedded one ("what my balance is", "when i get home"), not a question.
SUBJECTS = (
    "i|you|we|they|he|she|it|there|my|your|our|their|his|her|its|the|a|an|this|that|these|those"
    "|any|some|i'm|im|i'd|i've"
)
# Request verbs (imperatives people open a request with), as in the check's segmenter's class.
VERBS = (
    "tell|show|give|find|get|check|look|book|reserve|cancel|change|update|set|reset|unlock|lock"
    "|order|buy|pay|send|transfer|add|remove|delete|put|make|schedule|remind|play|call|text|turn"
    "|start|stop|switch|open|close|create|request|submit|report|freeze|block|track|confirm"
    "|explain|list|read|search|locate|share|translate|convert|calculate|increase|decrease|raise"
    "|lower|move|rename|renew|replace|apply|activate|deactivate|suggest|recommend|inform|notify"
    "|alert|teach|say|repeat|provide|pull|take|use|bring|help|let|erase|clear|mark|cross"
)
# Discourse connectives that add or order requests (a closed class), at the start of a piece.
CONNECTIVE = (
    r"(?:and|also|plus|then|so|oh|btw|by the way|after that|afterwards|besides(?: that)?"
    r"|additionally|in addition|furthermore|moreover|on top of that|apart from that"
    r"|other than that|aside from that|separately|unrelated(?:,? but)?|lastly|finally"
    r"|last but not least|firstly|first off|first of all|secondly|thirdly|fourthly"
    r"|while you'?re at it|meanwhile|in the meantime|similarly|likewise)\b"
    # Ordinals and "next" are connectives before a comma or a question ("next, ...", "next
    # what is ..."), not in "first class" or "next week".
    r"|(?:first|second|third|fourth|next|to (?:start|begin)(?: with)?)"
    r"(?=\s*+(?:,|$)|\s++(?:what|when|where|which|who|why|how|can|could|please)\b)"
)
# A list item's marker at the start of a piece (a line's or the message's).
_MARKER = r"(?:\(?\d{1,2}[.)](?=\s)|#\d{1,2}\b|\d{1,2}\s?-(?=\s)|[-*•–·](?=\s?[^\W\d_]))"
# A piece's opening that asks nothing: list markers and connectives, with their punctuation.
LEAD = re.compile(r"^\s*+(?:(?:" + _MARKER + r"|" + CONNECTIVE + r")[\s,:]*+)+", re.IGNORECASE)
WORD = re.compile(r"[\w'$]+")
WH_SET = frozenset(WH_WORDS.split("|")) | {"what's", "whats", "how's", "hows", "where's"}
AUX_SET = (
    frozenset(AUX_WORDS.split("|"))
    | frozenset(f"{wh}{s}" for wh in WH_WORDS.split("|") for s in ("'s", "s"))
    | word_class("that's it's i'm im")
)
# Words after which the clause is still open: a soft cut never follows one (closed classes:
# determiners, prepositions, conjunctions and subordinators, auxiliaries, pronouns that ask for a
# verb or an object, and the verbs of knowing and asking that take a question after them).
OPEN_END = (
    frozenset(SUBJECTS.split("|"))
    | frozenset(AUX_WORDS.split("|"))
    | WH_SET
    | word_class(
        """
        to of for in on at by with from about into over under between than as and or but nor if
        whether because since while though although unless until so that which who whom please
        me us him them know knew wonder wondering ask asking tell see understand learn sure
        idea curious out find check let help can't just also still really even
        """
    )
)
# Words a phrase that sets the scene opens with (prepositions and subordinators).
SCENE = word_class(
    "to in on at for from with about by during after before while since because if as"
)
# How a request opens (a question, an imperative) or what it says it wants: a piece that has
# none of these is a statement, the context of the question after it.
ASKS_FIRST = WH_SET | AUX_SET | frozenset(VERBS.split("|")) | word_class("please id i'd")
GREETINGS = word_class("hi hello hey yo there ok okay so well um uh hmm")
# Titles written before a name with a dot that ends no sentence ("Dr. Patel", a closed class).
TITLES = word_class("dr mr mrs ms mx prof rev")
WANTS = word_class("need needs want wants wanna like looking")
AUXILIARIES = frozenset(AUX_WORDS.split("|"))
# Verbs a statement goes on with after "and" when the subject is the one before it (closed
# classes): the verbs of needing and wanting, with which no imperative opens ("i took a new job and
# need help with my 401k"), and an auxiliary that no subject follows: "am" without "i" ("i want a
# cab and am a group of one"), a negated one but "don't" ("and can't find my luggage"), or any
# before a participle, "been" or an adverb ("and was returned to me"). "and does France ..." and
# "and can you ..." open questions.
_GOES_ON = word_class("need needs want wants wanna")
_NEGATED = frozenset(
    w for w in AUXILIARIES if w.endswith(("n't", "nt")) or w == "cannot"
) - word_class("don't dont")
# How a question or an imperative opens ("i'm", "that's" state).
_OPENS_ASKING = WH_SET | AUXILIARIES | frozenset(VERBS.split("|")) | word_class("please")
_REFERRING = word_class("it them")
# What a clause's "also" may follow: a personal pronoun or a modal (closed classes).
CLAUSE_OPENERS = word_class("i im we you they he she can could would will should might may must")
# A statement's subject (a closed class: the pronouns a speaker states about themselves or a
# situation with), and the words of wishing or asking a statement has no room for.
STATES_FROM = word_class("i i'm i'll i've we we're we'll we've there there's it it's")
_ASKING_WORDS = AUXILIARIES - word_class("am is are was were be been will") | word_class(
    "wish prefer hope love trying try please help let's"
)
_ONE_OF = word_class("new another replacement")
# "one" standing for a thing named before ("I'd like one with a balcony"): not after a word that
# makes it a number or a choice ("no one", "this one"), and followed by what describes it.
_NOT_PRONOUN = word_class("no any every each some only just which what this the")
_AFTER_ONE = word_class("with that which for in on at from near around please too instead")
_PARTICIPLE_NEXT = word_class("be been being not never just still also already really")
# An auxiliary's contraction ("my job'll"): a verb follows it.
CONTRACTED = ("'ll", "'d", "'ve", "'re", "n't")
SOFT_REACH = 200
"""How much of the text before a soft cut is read (the work per candidate stays bounded)."""


def goes_on(previous: str, piece: str) -> bool:
    """Whether ``piece``, after "and", goes on with the statement ``previous`` (the same subject,
    no subject of its own): ``previous`` opens as a statement does (not as a question, an
    imperative or "please"), and ``piece`` opens with a verb that has no subject of its own
    (``_GOES_ON``, an auxiliary without its subject)."""
    before = WORD.findall(previous[:SOFT_REACH].lower())
    words = WORD.findall(piece[:SOFT_REACH].lower())
    while before and before[0] in GREETINGS:
        del before[0]
    if len(words) < 2 or not before or before[0] in _OPENS_ASKING:
        return False
    first: str = words[0]
    second: str = words[1]
    if first in _GOES_ON or first in _NEGATED:
        return True
    if first == "am":
        return second != "i"
    return first in AUXILIARIES and (second in _PARTICIPLE_NEXT or second.endswith("ed"))


def opens_request(piece: str) -> bool:
    """Whether ``piece`` opens as a request does: a question word, an auxiliary, a request verb or
    "please" first."""
    words = WORD.findall(piece[:SOFT_REACH].lower())
    return bool(words) and words[0] in ASKS_FIRST


def states(text: str) -> bool:
    """Whether ``text`` only states (closed classes): after any greeting, it opens as no question
    or imperative does and has no word of wanting ("There is an urgency to go out", "I'll be
    travelling soon"; not "I want a cab", "can you ...", "book ...")."""
    opening = LEAD.match(text)
    words = WORD.findall(text[opening.end() if opening else 0 :][:SOFT_REACH].lower())
    while words[1:] and words[0] in GREETINGS and words[0] not in STATES_FROM:
        del words[0]
    return (
        bool(words)
        and words[0] in STATES_FROM
        and not any(w in WANTS or w in _ASKING_WORDS for w in words)
    )


def refers_back(previous: str, piece: str) -> bool:
    """Whether ``piece`` asks something about what the statement ``previous`` names, by a pronoun
    (closed classes): "it" or "them" as an object ("my card has been erased and I need to report
    it"; not in "what is it", "it is"), or "a new one", "another one". ``previous`` states (it
    opens as no question or imperative does and wants nothing: "I want ..." is a request), and
    ``piece`` is no question or clause with its own auxiliary ("... and my bags didn't make it")."""
    opening = LEAD.match(previous)
    before = WORD.findall(previous[opening.end() if opening else 0 :][:SOFT_REACH].lower())
    while before and before[0] in GREETINGS:
        del before[0]
    if not before or before[0] in _OPENS_ASKING or any(w in WANTS for w in before):
        return False
    return points_back(piece)


def points_back(piece: str) -> bool:
    """Whether ``piece`` asks something about what was named before it, by a pronoun (closed
    classes): "it" or "them" as an object ("please reserve it for 7 pm"; not in "what is it",
    "it is"), "a new one", "another one", or "one" before what describes it ("I'd like one with
    a balcony"); and it is no question or clause with its own auxiliary."""
    words = WORD.findall(piece[:SOFT_REACH].lower())
    if any(w in AUXILIARIES or w in WH_SET or w.endswith("n't") for w in words):
        return False
    for index, word in enumerate(words):
        if word in _REFERRING and index > 0 and words[index - 1] not in OPEN_END - SCENE:
            return True
        if word == "one" and index and words[index - 1] in _ONE_OF:
            return True
        if (
            word == "one"
            and index
            and words[index - 1] not in _NOT_PRONOUN
            and index + 1 < len(words)
            and words[index + 1] in _AFTER_ONE
        ):
            return True
    return False


# The dot of "no." (number) ends no sentence when "of" or a digit follows: "No. of dogs: 3",
# "bay no. 12", "room no.7". One pattern for both splitters that read it: the planner's
# (:func:`harness.planning.split`) and the offline model's clauses (``harness.models._text``).
NUMBER_ABBREV = "no"
NUMBERED_NEXT = r"(?:of\b|\d)"

# A detail written as a form's field, "label: value" ("copies: 25", "date: Friday", "no. of
# guests: 4"): a label of one or two words ("No. of dogs": "of" between them), a short value.
_FIELD = re.compile(
    r"([A-Za-z][\w'.-]*+(?:\s++of)?+(?:\s++[A-Za-z][\w'.-]*+)?+):\s++(\S[^?:]*+)", re.IGNORECASE
)
_FIELD_WORDS = 4
# A field's label names the kind of its value ("copies", "date", "no. of dogs"); a label that opens
# with a determiner points at another matter ("another thing: ...", "one more thing: ...", "the
# other question: ..."): a lead-in to a request of its own (a closed class).
_NOT_LABEL = word_class("a an the another one other my our your this that these those some any")


def is_field(piece: str) -> bool:
    """Whether ``piece`` is a detail written "label: value" ("copies: 25", "date: Friday"):
    neither the label nor the value opens as a request does (a question word, an auxiliary, a
    request verb: "Question: can I ..." and "PS: cancel it" ask), neither holds a greeting or an
    auxiliary ("Another thing: hey, ..."), the label opens with no determiner ("one more thing:
    ..." leads into a request), and the value is a few words with no question mark.
    It gives the request before it a value; it asks nothing of its own."""
    found = _FIELD.fullmatch(piece.strip())
    if found is None:
        return False
    label, value = found.group(1), found.group(2)
    words = WORD.findall(f"{label} {value}".lower())
    return (
        len(WORD.findall(value)) <= _FIELD_WORDS
        and WORD.findall(label.lower())[0] not in _NOT_LABEL
        and not opens_request(label)
        and not opens_request(value)
        and not any(w in GREETINGS or w in AUX_SET for w in words)
    )

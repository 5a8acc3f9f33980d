"""Which tools change something, and which requests ask for that change or only name it: what the
offline model reads when the tool a request's words match best changes something.

A tool *acts* when its name's first word is a common English verb of change ("cancel_order",
"change_seat", "book_room") and its last word is not a noun of state or of reading ("open_hours",
"pay_date", "book_search", "change_log" read). Every other tool reads; a description is not read.

A request *asks for the change* of a tool when it uses the base or imperative form of the tool's
verb, or of a verb of the same action ("move me to an aisle seat" for ``change_seat``), and the
clause neither states it ("my ticket is open", "did you cancel it": only right after "be" or
"did", or after a question's opening "is"/"did" with only its subject between, so "my phone was
stolen block my sim" asks), nor negates it ("I don't want to cancel it"; "if not, please" is no
negation), nor only supposes it ("if I cancel my order, ..."), in a sentence that is no question
unless a polite request ("can you ...", "could I get ...", "please ...", "can my seat be
changed"). Its past participle asks after a word of wanting ("I want my membership frozen") or a
modal and "be" ("my order must be cancelled"). A question asks when, after naming the change, it
asks for it ("did you refill it or should I ask someone to refill it?"). A noun is no verb: "my
refund", "a reservation".

A request *names the change without asking* when it uses such a verb only as a past or a state
("someone renewed my loan", "is my ticket still open", "did you freeze it"), a refusal or a
supposition, and nowhere asks for it; a request with no such verb ("my card was stolen") does
neither.

Everything here is English, closed classes and common verbs, not any one bot's words.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from harness.models._asked_of import asked_of_other
from harness.text import split_sentences
from harness.text._shapes import AUXILIARIES, GREETINGS, WH_SET, word_class

__all__ = [
    "acts",
    "asks_for_change",
    "base_forms",
    "is_question",
    "mentions_change",
    "names_action",
    "uses_verb",
    "wh_question",
]


# Verbs of change, each with the verbs of the same action a user may ask for it with (common
# English; a verb may be in several groups).
_SAME_ACTION: tuple[tuple[str, ...], ...] = (
    ("change", "move", "switch", "swap", "modify", "alter", "update", "edit", "adjust", "amend"),
    ("pick", "choose", "select", "take", "assign", "allocate"),
    ("cancel", "drop", "scrap", "void", "terminate", "end", "stop", "remove", "delete", "revoke"),
    ("book", "reserve", "schedule", "arrange", "make", "set", "buy", "purchase", "order", "rent"),
    ("reschedule", "move", "change", "postpone", "rebook", "push"),
    ("transfer", "send", "move", "wire", "pay"),
    ("pay", "settle", "send"),
    ("open", "create", "file", "raise", "submit", "start", "log", "lodge", "report", "add"),
    ("report", "log", "file", "lodge", "raise", "submit", "register", "record"),
    ("buy", "purchase", "order", "book", "reserve", "place"),
    ("refund", "return", "reimburse"),
    ("block", "freeze", "lock", "suspend", "disable", "deactivate"),
    ("unblock", "unfreeze", "unlock", "reactivate", "enable", "activate"),
    ("reset", "restore", "renew", "replace"),
    ("apply", "request", "claim", "submit"),
    ("renew", "extend"),
    ("add", "include", "put", "attach", "upload"),
    ("register", "enroll", "enrol", "join", "subscribe", "sign"),
    ("unsubscribe", "leave", "quit"),
    ("upgrade", "downgrade", "change"),
    ("approve", "accept", "confirm", "grant"),
    ("reject", "decline", "deny"),
    ("redeem", "use"),
    ("dispute", "challenge", "contest"),
    ("withdraw", "deposit", "top"),
    ("close", "shut", "end"),
    ("issue", "send", "give"),
    ("rename", "mark", "archive", "clear", "erase", "save", "store", "write", "post", "publish"),
    ("invite", "share"),
    ("pause", "resume", "restart", "hold"),
    ("charge", "bill"),
    ("increase", "decrease", "raise", "lower", "adjust"),
    ("install", "uninstall"),
    ("exchange", "swap", "replace"),
    ("refill", "reorder", "top"),
    ("ship", "deliver", "send"),
    ("redirect", "forward", "reroute", "send", "change"),
    ("port", "transfer", "move", "switch"),
    ("turn", "switch", "enable", "disable"),
    ("donate", "give", "contribute", "pledge", "gift"),
    ("tip", "give"),
    ("top", "add", "load", "reload", "refill"),
)


def _groups() -> dict[str, frozenset[str]]:
    groups: dict[str, frozenset[str]] = {}
    for group in _SAME_ACTION:
        for verb in group:
            groups[verb] = groups.get(verb, frozenset()) | frozenset(group)
    return groups


_GROUPS = _groups()
# The common English verbs of change a tool's name may open with ("cancel_order", "book_room").
# Words that are as often a noun opening a reading tool's name ("store_hours", "leave_balance",
# "issue_status", "top_stories", "share_price", "load_profile", "tip_of_the_day",
# "give_feedback") are left out (a tool named so that takes a required amount of money still
# acts: ``_choice.acting``); "order" is in, since a reading
# tool named for orders ends with a noun of reading ("order_status", "order_history").
_ACTING = word_class("""
    cancel change delete remove block unblock reset book reserve transfer pay refund report log
    file submit move switch upgrade downgrade renew open close create add update edit modify
    schedule reschedule send buy purchase apply register subscribe unsubscribe freeze unfreeze
    lock unlock activate deactivate suspend make place claim replace dispute withdraw deposit
    redeem enroll enrol rebook postpone terminate revoke extend approve reject assign rename
    archive erase upload install uninstall refill void lodge raise pause resume
    set request hold drop redirect port enable disable stop start end return confirm accept
    decline restart join invite exchange ship deliver mark clear save sign turn reactivate
    restore reorder swap alter amend arrange adjust increase decrease lower grant deny
    reimburse settle scrap shut quit select choose pick allocate attach include publish
    forward reroute rent order donate contribute pledge top reload
    """)
# Verbs of change that open a name only with the particle after them ("top_up"; "top_stories"
# reads).
_PARTICLE = {"top": "up"}
# Verbs of change that are as often the noun a reading tool is named for: they open an acting
# name unless a noun of its parts follows ("order_food" acts; "order_items", "order_details",
# "order_summary", "booking_details" read). Only the nouns of an order or a booking: a verb
# like "transfer" keeps its change ("transfer_items" moves items).
_NOUN_VERBS = word_class("order booking")
_PARTS = word_class("details detail items item summary contents lines receipt overview")
# Nouns of state or of reading a name ends with when it tells something ("open_hours",
# "transfer_limits", "change_log", "book_search", "order_tracking").
_TELLING_ENDS = word_class("""
    status hours balance balances policy policies date dates time times limit limits history log
    logs list search lookup tracking info rate rates
    """)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _words(text: str) -> list[str]:
    return _WORD.findall(_CAMEL.sub(" ", text).lower().replace("\u2019", "'").replace("_", " "))


# Words that may follow a verb's imperative at the opening of a tool's description when it says
# what the tool does ("Reprint an earlier order", "Hire a temporary worker", "Collect 3 bags"):
# its object's determiner or pronoun; "Hire rates per hour" opens with a noun phrase. Not "that",
# which as often opens a noun's relative clause ("Plots that are vacant now").
_OBJECT_OPENERS = word_class("""
    my our your his her their the this these those its a an any some one two
    someone something me us them it
    """)
# Particles a verb's name may carry ("pump_out_tank", "sign_up").
_NAME_PARTICLES = word_class("up out off back in down over")


def _third_person(verb: str) -> frozenset[str]:
    """The third-person singular forms ``verb`` may take ("prints", "washes", "empties")."""
    forms = {verb + "s", verb + "es"}
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        forms.add(verb[:-1] + "ies")
    return frozenset(forms)


def _described(named: list[str], description: str) -> bool:
    """Whether ``description`` says the tool does what its name's first word says: it opens
    with that word as a third-person verb or an imperative, before its object's determiner,
    pronoun or number ("Prints a poster", "Reprint an earlier order", "Pump out a tank"; not
    "Classes each day" for ``class_timetable``) or, for a verb whose WordNet senses are mostly
    of doing (``_acting_verbs``), before an object without one that the name names
    (``_bare_object``: "Hire kayaks for a day"; not "Forecast tides for a harbour"); its
    particle, if the name has one, may follow the verb."""
    words = _words(description)
    opening = words[:3]
    if not named or not opening:
        return False
    verb = named[0]
    if opening[0] != verb and opening[0] not in _third_person(verb):
        return False
    if opening[0] == verb and _relative_clause(verb, words[1:]):
        return False
    rest = opening[1:]
    if rest and len(named) > 1 and named[1] in _NAME_PARTICLES and rest[0] == named[1]:
        rest = rest[1:]
    if rest and (rest[0] in _OBJECT_OPENERS or rest[0][:1].isdigit()):
        return True
    return verb in _acting_verbs() and _bare_object(named, words[1:])


_VERB_TABLE = Path(__file__).with_name("_models") / "acting_verbs.json"


@functools.cache
def _acting_verbs() -> frozenset[str]:
    """The verbs whose WordNet senses are mostly of doing, not of thinking, telling, perceiving,
    feeling or being (``_models/acting_verbs.json``, built by ``tools/build_acting_verbs.py``):
    "hire", "collect", "print"; not "forecast", "suggest", "count", "compare"."""
    return frozenset(json.loads(_VERB_TABLE.read_text(encoding="utf-8"))["words"])


# Prepositions that may follow a verb's object without a determiner ("Hire kayaks for a day",
# "Collect scrap metal from an address"); not "per" ("Hire rates per hour" is a noun phrase).
_OBJECT_ENDS = word_class("for from in at on to of by with into")
# The longest object without a determiner that ``_bare_object`` reads ("empty bulk bags").
_BARE = 3


def _bare_object(named: list[str], after: list[str]) -> bool:
    """Whether ``after``, the description's words after its opening verb, opens with the
    verb's object without a determiner: a few words ending in a word of the tool's name after
    its verb ("kayaks" of ``hire_kayaks``), then a preposition or nothing ("Hire kayaks for a
    day", "Collect empty bulk bags from a postcode"); not a noun phrase that goes on with a
    clause ("Paint colours we have for fences" for ``paint_colours``, "Sharpens kitchen knives
    left at the shop") nor one whose last word the name lacks ("Collect scrap metal from")."""
    own = set(named[1:]) - _NAME_PARTICLES
    for end in range(1, min(_BARE, len(after)) + 1):
        if after[end - 1] in _OBJECT_OPENERS:
            return False
        if after[end - 1] in own and (end == len(after) or after[end] in _OBJECT_ENDS):
            return True
    return False


# The longest noun phrase after a determiner that ``_relative_clause`` reads ("the next high
# tide").
_PHRASE = 3


def _relative_clause(word: str, after: list[str]) -> bool:
    """Whether ``word``, ending in "s" and opening both the tool's name and its description, is
    a plural noun whose relative clause ``after`` begins ("Rooms the hotel has free", "Plans a
    customer can pick", "Tours the museum runs on a day", "Rooms it has free"): a determiner or
    pronoun, then within a short noun phrase a finite verb, an auxiliary or modal ("has",
    "can") or a third-person form after a singular noun ("runs" after "museum"). A verb's
    object is followed by no verb of its own ("Counts the votes cast so far"; a name opening
    with its verb's base form, ``print_poster``, is never read so)."""
    if not word.endswith("s") or not after or after[0] not in _OBJECT_OPENERS:
        return False
    phrase = after[1 : 1 + _PHRASE + 1]
    # After a pronoun ("it has"), the verb may come at once; after a determiner, a noun first.
    start = 0 if after[0] in _PRONOUN_SUBJECTS else 1
    for index in range(start, len(phrase)):
        current = phrase[index]
        if current in AUXILIARIES:
            return True
        previous = phrase[index - 1] if index else after[0]
        if current.endswith("s") and not current.endswith("ss") and not previous.endswith("s"):
            return True
    return False


# Pronouns of ``_OBJECT_OPENERS`` that may be a relative clause's subject ("Rooms it has
# free").
_PRONOUN_SUBJECTS = word_class("it someone one")


def _tool_verb(name: str, description: str = "") -> str:
    """The verb of change the tool ``name`` opens with, or "" when the tool reads. A first word
    off the list of verbs of change is the tool's verb when its ``description`` says the tool
    does it (``_described``: "Prints a poster" for ``print_poster``)."""
    named = _words(name)
    if not named or named[-1] in _TELLING_ENDS:
        return ""
    if named[0] not in _ACTING:
        return named[0] if description and _described(named, description) else ""
    second = named[1] if len(named) > 1 else ""
    if named[0] in _PARTICLE and second != _PARTICLE[named[0]]:
        return ""
    if named[0] in _NOUN_VERBS and second in _PARTS:
        return ""
    return named[0]


def acts(name: str, description: str = "") -> bool:
    """Whether the tool ``name`` changes something: its first word is a verb of change and its
    last word no noun of state or reading ("cancel_order"; not "order_status", "get_balance",
    "orders", "open_hours"). Given the tool's ``description``, a first word off that list acts
    too when the description opens with it as a verb of doing ("Prints a poster" for
    ``print_poster``, "Reprint an earlier order" for ``reprint_order``; not "Hire rates per
    hour" for ``hire_rates``)."""
    return bool(_tool_verb(name, description))


def _same_action(verb: str) -> frozenset[str]:
    return _GROUPS.get(verb, frozenset({verb}))


# Clause-internal words that end the reach of a negation or a past form before a verb.
_CLAUSE_BREAK = re.compile(r"[,;.!?]|\bbut\b|\band\b|\bthen\b")
_NEGATION = word_class("not don't dont never no didn't didnt won't wont can't cant cannot n't")
# Before a verb's base form, this makes it no request: the subject's own supposition ("if I
# cancel my order").
_SUPPOSING = word_class("if whether unless once")
_SUBJECTS = word_class("i we he she they it my our his her their someone somebody")
# A word of these before a verb's form makes it a noun: "my refund", "the change", "a transfer".
_DETERMINERS = word_class("my our your his her their the this that these those its a an any no")
# After "would you mind" / "do you mind" the -ing form asks: "would you mind cancelling it".
_MIND = "mind"


def _clauses(text: str) -> list[list[str]]:
    return [w for part in _CLAUSE_BREAK.split(text.lower()) if (w := _words(part))]


# A form of "be" or "get" right before a verb's form makes it a state or a passive ("my ticket is
# still open", "it's open"); so does "did" ("I did cancel it"). Only adverbs may stand between.
_BEING = word_class("is isn't are aren't was wasn't were weren't am be been being get got gets")
_PAST_AUX = word_class("did didn't didnt")
_REOPENS = word_class("to can could will would should may might must please let's lets")
_ADVERBS = word_class(
    "still already now not never just also really currently even ever yet again all"
)
# A question opens with these before its subject ("is ticket 4411 open", "did you freeze it"):
# the verb names the change when only its subject (and adverbs) stand between.
_INVERTED = word_class("is isn't are aren't was wasn't were weren't am did didn't didnt")
_OPENERS = GREETINGS | WH_SET | word_class("and but also oh")
# Words that cannot be part of a question's subject: they open another phrase ("is it possible
# to cancel", "am I able to book", "is there a way I can cancel").
_NOT_SUBJECT = (
    _REOPENS
    | _BEING
    | _PAST_AUX
    | word_class("""
    in of about for with from into at on so want wants need needs like there way possible able
    """)
)
_MAX_SUBJECT = 6


def _declared(word: str) -> bool:
    """Whether ``word`` is a form of "be" or "get", or a contraction with one ("it's", "we're",
    "I'm"), that states what a verb's form right after it is."""
    if word in ("let's", "lets"):
        return False
    return word in _BEING or word.endswith(("'s", "'re")) or word in ("i'm", "im")


def _subject_word(word: str) -> bool:
    return (
        word not in _NOT_SUBJECT
        and not word.endswith(("ing", "n't"))
        and not _participle(word)
        and not _declared(word)
    )


def _named_position(before: list[str]) -> bool:
    """Whether a verb's base form after ``before`` (its clause's words before it) is a state or a
    past, in the two places docs/models.md gives: right after a form of "be"/"get" or "did"
    ("my ticket is still open", "I did cancel it"), or after a question's opening "is"/"was"/
    "did" with only its subject between ("is ticket 4411 open", "why did you freeze it")."""
    end = len(before)
    while end and (before[end - 1] in _ADVERBS or before[end - 1].endswith("ly")):
        end -= 1
    if end and (_declared(before[end - 1]) or before[end - 1] in _PAST_AUX):
        return True
    start = 0
    while start < end and before[start] in _OPENERS:
        start += 1
    if start and before[start - 1] in WH_SET:
        # "how long ago did you cancel it": a few words may follow the question word.
        start = next(
            (i for i in range(start, min(start + 3, end)) if before[i] in _INVERTED), start
        )
    if start >= end or before[start] not in _INVERTED:
        return False
    subject = before[start + 1 : end]
    return 0 < len(subject) <= _MAX_SUBJECT and all(_subject_word(w) for w in subject)


def _gerund_base(word: str, verbs: frozenset[str] = frozenset()) -> str:
    """The verb of change (or of ``verbs``) ``word`` is the "-ing" form of, or ""."""
    if not word.endswith("ing"):
        return ""
    stem = word[:-3]
    for candidate in (
        stem,
        stem + "e",
        stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else "",
    ):
        if candidate in _GROUPS or candidate in verbs:
            return candidate
    return ""


# The past and participle forms of verbs of change that do not end in "-ed" (common English).
_IRREGULAR = {
    "made": "make", "sent": "send", "paid": "pay", "bought": "buy", "took": "take",
    "taken": "take", "chose": "choose", "chosen": "choose", "froze": "freeze", "frozen": "freeze",
    "gave": "give", "given": "give", "withdrew": "withdraw", "withdrawn": "withdraw",
    "wrote": "write", "written": "write", "left": "leave", "held": "hold",
}  # fmt: skip


# Other common participles that are no verb of change ("stolen", "gone"): they end a question's
# subject as the "-ed" forms do ("my phone was stolen block my sim").
_PARTICIPLES = word_class("stolen gone lost broken done born seen known shown")


def _participle(word: str) -> bool:
    """Whether ``word`` is a past participle by its form ("cancelled", "frozen", "stolen")."""
    return (
        word in _IRREGULAR
        or word in _PARTICIPLES
        or (len(word) >= 5 and word.endswith("ed") and not word.endswith("eed"))
    )


def _past_base(word: str, verbs: frozenset[str] = frozenset()) -> str:
    """The verb of change (or of ``verbs``) ``word`` is the past or participle form of
    ("cancelled", "filed", "applied", "frozen"), or ""."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if not word.endswith("ed") or len(word) < 5:
        return ""
    stem = word[:-2]
    for candidate in (
        stem,
        word[:-1],
        stem[:-1] if stem[-1] == stem[-2] else "",
        stem[:-1] + "y" if stem.endswith("i") else "",
    ):
        if candidate in _GROUPS or candidate in verbs:
            return candidate
    return ""


# Before a participle, these make it a wanted change ("I want my membership frozen", "please get
# it cancelled", "can I have my loans renewed"); "have"/"get" only with an object after them, so
# that "I have renewed it" and "I have already renewed it" stay a past.
_WANTING = word_class("want wants wanna need needs like please")
_CAUSING = word_class("have get having getting")
# After "have", these make a perfect ("I have already renewed it"), not "have tickets bought".
_PERFECT = word_class("already just also never ever recently since now not still only been")
# A subject right after "have" makes a question's perfect ("have you held my mail", "how many
# days have I requested"), not "have tickets bought".
_INVERTED_SUBJECTS = word_class("i you we they he she")
_TO_PASSIVE = word_class("be have get")


def _causes(after: list[str]) -> bool:
    """Whether "have"/"get" followed by ``after`` (its next word) takes an object before a
    participle ("have tickets bought", "get my card blocked"), not a perfect ("have you held
    it")."""
    return (
        bool(after)
        and after[0] not in _PERFECT
        and after[0] not in _INVERTED_SUBJECTS
        and not after[0].endswith("ly")
    )


# Words that may stand between a negation and the verb it refuses ("I don't want to cancel it",
# "please do not ever cancel it"); any other word ends the negation's reach for a mention.
_NEGATED_REACH = word_class("""
    want wants wanna need needs to ever really just yet like please you i actually go try even
    do does
    """)


def _wanted(before: list[str]) -> bool:
    """Whether a participle after ``before`` is a change the speaker wants: a word of wanting (or
    "have"/"get" with an object) before it, not negated ("I don't want it frozen"), with no form
    of "be" but "to be" or "to get" ("I want it to be added", "I want my phone to get
    unlocked"), no negation and no other "to" in between."""
    for index in range(len(before) - 1, -1, -1):
        word = before[index]
        if word in _CAUSING and _causes(before[index + 1 : index + 2]):
            return True
        if word in _NEGATION or word.endswith("n't"):
            return False
        if word == "be" and _modal_reaches(before[:index]):
            return True
        if word in _BEING and not (word in ("be", "get") and before[index - 1 : index] == ["to"]):
            return False
        if word == "to" and not (
            before[index + 1 : index + 2] and before[index + 1] in _TO_PASSIVE
        ):
            return False
        if word in _WANTING:
            return not _refused(before[:index])
    return False


# A modal before "be" and a participle asks for the change ("can my seat be changed", "my order
# must be cancelled", "could a massage be booked"); "will"/"would" only tell what happens.
_ASKING_MODALS = word_class("can could should must")


def _modal_reaches(before: list[str]) -> bool:
    """Whether the "be" after ``before`` follows an asking modal with at most its subject and
    adverbs between ("can my order still be", "must be"), and no negation."""
    for word in reversed(before[-(_MAX_SUBJECT + 2) :]):
        if word in _ASKING_MODALS:
            return True
        if word in _NEGATION or word.endswith("n't"):
            return False
        if word not in _ADVERBS and not _subject_word(word):
            return False
    return False


def _if_not(before: list[str], index: int) -> bool:
    """Whether the word at ``index`` of ``before`` is the "not" of "if not" ("if not, please
    refill it"): no refusal."""
    return before[index] == "not" and index > 0 and before[index - 1] == "if"


def _negated(before: list[str]) -> bool:
    return any(
        (w in _NEGATION or w.endswith("n't")) and not _if_not(before, i)
        for i, w in enumerate(before)
    )


def _refused(before: list[str]) -> bool:
    """Whether a negation reaches the verb after ``before`` ("don't cancel", "I do not want to
    cancel"), with only words of wanting, "to" or adverbs between; the "not" of "if not" is
    none ("if not please refill it")."""
    for index in range(len(before) - 1, -1, -1):
        word = before[index]
        if _if_not(before, index):
            return False
        if (word in _NEGATION and word != "no") or word.endswith("n't"):
            return True
        if word not in _NEGATED_REACH:
            return False
    return False


# Nouns that end in "-ing" (a verb's form after them is no object of theirs).
_ING_NOUNS = word_class("morning evening thing something anything nothing everything king ring")
_TAKE = word_class("take takes took taken")


_OBJECTS = _DETERMINERS | word_class("me us him them it you")


def _object_of(word: str, after: list[str]) -> bool:
    """Whether a verb's base form after ``word`` and before ``after`` is a noun, the object of
    ``word``: after an "-ing" form or a form of "take", with no object of its own after it
    ("events taking place in LA", "events that take place", "the event happening place"; not
    "we're celebrating book us two massages")."""
    if after and after[0] in _OBJECTS:
        return False
    return word in _TAKE or (len(word) > 4 and word.endswith("ing") and word not in _ING_NOUNS)


# Pronouns that make a participle's clause a statement ("I cancelled it"), not a note that asks
# ("order 5512 cancelled please").
_PERSONS = word_class("i we you he she they someone somebody it")


def _noted(before: list[str], after: list[str]) -> bool:
    """Whether a participle with ``before`` and ``after`` in its clause is a short note that asks
    for the change: the clause ends with "please" and only a noun phrase comes before the
    participle ("order 5512 cancelled please", "renewed permit please")."""
    return (
        bool(after)
        and after[-1] == "please"
        and len(before) <= 3
        and all(_subject_word(w) and w not in _PERSONS for w in before)
    )


# Past verbs of an attempt or an intention: "to" and a verb after them name a change tried or
# planned, not asked for ("I tried to top up £20 but it failed", "I meant to top up £15").
_ATTEMPTS = word_class("tried attempted meant intended planned")
# After "was"/"were": "I was going to send Tom a gift", "we were about to book it".
_UNDER_WAY = word_class("going about planning meaning hoping trying")
_WAS = word_class("was were")
# Past verbs of wanting: an intention only when the sentence goes on with what stopped it ("I
# wanted to donate £5 but the app crashed"); "I wanted to cancel my booking" may be a polite
# request, as before.
_HOPES = word_class("wanted hoped wished")
_STOPPED = word_class("but though although however")
# Verbs of someone's words: "to" and a verb after them (and a person, or a subject and a word of
# needing) report what was said, not what the speaker asks ("my friend asked me to pay invoice
# 3001", "the app told me to top up", "it says I need to pay invoice 6612").
_REPORTING = word_class("asked told says said tells asks reminded warned instructed")
# A wish whose object is the speaker ("wants me to", "would like us to", "expects me to").
_WISHES_OF = _WANTING | word_class("wanted needed expects expected")
_ASKED_OF_SPEAKER = word_class("me us")
_REPORTED_BETWEEN = (
    _OBJECTS | _SUBJECTS | _WANTING | word_class("have has had must should you i'd we'd")
)


def _intended(before: list[str], stopped: bool) -> bool:
    """Whether a verb's base form after ``before`` (its clause's words before it) follows "to"
    after an attempt, an intention or someone's reported words (``_ATTEMPTS``, ``_UNDER_WAY``,
    ``_REPORTING``, and ``_HOPES`` when ``stopped``: its sentence says what stopped it): a
    change mentioned, not asked for."""
    end = len(before)
    while end and before[end - 1] in _ADVERBS:
        end -= 1
    if not end or before[end - 1] != "to":
        return False
    head = before[: end - 1]
    while head and head[-1] in _ADVERBS:
        head = head[:-1]
    if not head:
        return False
    last = head[-1]
    if last in _ATTEMPTS or (stopped and last in _HOPES):
        return True
    if last in _ASKED_OF_SPEAKER and len(head) > 1 and head[-2] in _WISHES_OF:
        # Someone else's wish of the speaker ("Leo wants me to refund him", "they need us to
        # pay it"): what another asks, not what the user asks the bot for.
        return True
    if last in _UNDER_WAY and len(head) > 1 and head[-2] in _WAS:
        return True
    for back in range(1, min(len(head), 4) + 1):
        word = head[-back]
        if word in _REPORTING:
            return True
        if word not in _REPORTED_BETWEEN:
            return False
    return False


def _asks_at(
    words: list[str], index: int, same: frozenset[str], *, stopped: bool = False
) -> bool | None:
    """How the form at ``index`` of a clause's ``words`` reads against the verbs ``same``: True
    when it asks for the change, False when it names the change without asking for it (a past,
    a state, a refusal, a supposition), None when it is no form of those verbs or reads as
    neither (a noun, a negation that does not reach it)."""
    before, word = words[:index], words[index]
    past = _past_base(word, same)
    if past in same:
        return _wanted(before) or _noted(before, words[index + 1 :])
    if word in same:
        if _noun_after(before, words[index + 1 :]):
            return None
        if before and before[-1] == "be":
            # A participle like its base form ("reset", "set"): "can my router be reset?".
            return _wanted(before)
    elif not (before and before[-1] == _MIND and _gerund_base(word, same) in same):
        return None
    if _named_position(before) or _intended(before, stopped):
        return False
    if _negated(before):
        return False if _refused(before) else None
    supposed = [i for i, w in enumerate(before) if w in _SUPPOSING]
    return not (supposed and _SUBJECTS.intersection(before[supposed[-1] + 1 :]))


def _noun_after(before: list[str], after: list[str]) -> bool:
    """Whether a verb's base form between ``before`` and ``after`` in its clause is a noun: after
    a determiner ("my refund", "the change"), an amount or a count after one ("a £3 tip"), or as
    the object of the word before it (``_object_of``)."""
    return bool(before) and (
        before[-1] in _DETERMINERS
        or bool(before[-1][:1].isdigit() and before[-2:-1] and before[-2] in _DETERMINERS)
        or _object_of(before[-1], after)
    )


# Words whose "'s" is "is" or "us" ("it's", "what's", "let's"), not a possessive.
_CONTRACTED = word_class("it what that there here he she who where how when why let")
# Words before a determiner that make the base form after its noun a verb: "can the garage
# estimate it", "does the team survey houses", "have the shop repair it".
_BEFORE_SUBJECT = _REOPENS | _INVERTED | _CAUSING | word_class("do does don't doesn't make")


def _noun_of_phrase(before: list[str]) -> bool:
    """Whether a verb's base form after ``before`` is a noun in a noun phrase: after a possessive
    ("the garage's estimate") or as the head of a compound after a determiner ("the repair
    estimate", "the survey" in "the survey results"), unless a modal, an inverted "be"/"do" or
    a causing verb opens the phrase ("can the garage estimate it")."""
    if before and before[-1].endswith("'s") and before[-1][:-2] not in _CONTRACTED:
        return True
    if (
        len(before) < 2
        or before[-2] not in _DETERMINERS
        or before[-1] in _NOT_SUBJECT | _PERSONS | WH_SET
        or before[-1].endswith("ly")
    ):
        return False
    return len(before) == 2 or before[-3] not in _BEFORE_SUBJECT


def _as_verb(words: list[str], index: int, same: frozenset[str]) -> bool:
    """Whether the word at ``index`` of a clause's ``words`` is a form of the verbs ``same`` used
    as a verb: a past or participle, a base form that is no noun (``_noun_after``,
    ``_noun_of_phrase``), or an "-ing" form after "mind"; a gerund or a noun of the same form
    ("the forecast", "tracking says", "the test results") is none."""
    before, word = words[:index], words[index]
    if _past_base(word, same) in same:
        return True
    if word in same:
        return not (_noun_after(before, words[index + 1 :]) or _noun_of_phrase(before))
    return bool(before) and before[-1] == _MIND and _gerund_base(word, same) in same


def _readings(text: str, name: str, description: str = "") -> list[tuple[int, bool, bool]]:
    """Each reading of the tool's verb in ``text``: the sentence it is in, whether that sentence
    is a question (``is_question``), and the reading (``_asks_at``)."""
    verb = _tool_verb(name, description)
    if not verb:
        return []
    same = _same_action(verb)
    found: list[tuple[int, bool, bool]] = []
    for number, sentence in enumerate(s.text for s in split_sentences(text)):
        question = is_question(sentence)
        clauses = _clauses(sentence)
        stopped = bool(_STOPPED.intersection(_words(sentence)))
        for words in clauses:
            for index in range(len(words)):
                reading = _asks_at(words, index, same, stopped=stopped)
                if reading is not None:
                    found.append((number, question, reading))
    return found


def _asking(readings: list[tuple[int, bool, bool]]) -> bool:
    """Whether a reading asks: in a sentence that is no question, or in a question after a
    reading that names the change ("did you refill it or should I ask someone to refill it?")."""
    named: set[int] = set()
    for sentence, question, reading in readings:
        if reading and (not question or sentence in named):
            return True
        if not reading:
            named.add(sentence)
    return False


def asks_for_change(text: str, name: str, *, description: str = "") -> bool:
    """Whether ``text`` asks for the change of the tool ``name``: a sentence of it that is no
    question unless a polite request (``is_question``) uses the base or imperative form of the
    tool's verb or of a verb of the same action ("cancel my order", "are you able to cancel it",
    "move me to an aisle seat"), not negated before it in its clause ("I don't want to cancel
    it"), not a state or a past ("is it open", "did you cancel it"), not after a supposing "if
    I" ("if I cancel my order ..."), not as a noun ("my refund"); a past or passive form asks
    only after a word of wanting or a modal ("I want my membership frozen", "my order must be
    cancelled"). A question asks too when, after naming the change, it asks for it ("did you
    refill it or should I ask someone to refill it?"). A want of a thing beside a past ("I
    upgraded my room yesterday but I need the room key") does not ask. False for a tool that
    reads; ``description`` is the tool's, read as ``acts`` reads it."""
    return _asking(_readings(text, name, description))


def names_action(text: str, name: str, *, description: str = "") -> bool:
    """Whether ``text`` names the action of the tool ``name`` in any form: its verb or one of
    the same action, as a verb, a past or a noun ("I want a refund" for ``refund_booking``;
    "two seats in the stalls please" names no action of ``cancel_seats``). For a tool whose name
    opens with no verb of change, its name's first word."""
    verb = _tool_verb(name, description)
    named = _words(name)
    same = (_GROUPS.get(verb, frozenset()) | {verb}) if verb else frozenset(named[:1])
    if verb and len(named) > 1 and named[1] in _GROUPS:
        same |= _GROUPS[named[1]]  # "request_refund": asked for as a refund too
    verbs = same if verb else frozenset()
    return any(
        w in same or _past_base(w, verbs) in same or _gerund_base(w, verbs) in same
        for w in _words(text)
    )


def uses_verb(text: str, name: str, *, description: str = "") -> bool:
    """Whether ``text`` uses the verb of the tool ``name`` (read with its ``description``, as
    ``acts`` reads it) or one of the same action as a verb (``_as_verb``): a past, a base form
    or a request ("which days do you mow?", "who tuned it?"), never a noun or a gerund of the
    same form ("the forecast", "the test results", "what does tracking say"); unlike
    ``names_action``, not the name's second word ("bill" of ``explain_bill``). False for a tool
    that reads."""
    verb = _tool_verb(name, description)
    if not verb:
        return False
    same = _same_action(verb)  # every group holds its own verb
    return any(
        _as_verb(words, index, same) for words in _clauses(text) for index in range(len(words))
    )


def mentions_change(text: str, name: str, *, description: str = "") -> bool:
    """Whether ``text`` names the change of the tool ``name`` (its verb or one of the same action)
    without asking for it, and nowhere asks for it: as a past or a state ("someone renewed my
    loan", "is my ticket still open", "did you freeze my membership", "my card got blocked"), a
    refusal ("don't cancel it") or a supposition ("if I cancel my order, ..."). False for a tool
    that reads, for a request that never uses such a verb ("my card was stolen"), and for one
    that also uses it in a way that asks or may ask ("can I cancel it?")."""
    readings = [reading for _, _, reading in _readings(text, name, description)]
    return False in readings and True not in readings


# How a question that is a polite request opens: "can you", "could I get", "are you able to".
_MODALS = word_class("can could would will")
_HAVING = word_class("get have")


def _modal_passive(words: list[str]) -> bool:
    """Whether ``words`` open with a modal, its subject, "be" and a participle: "can my seat be
    changed", "could a massage be booked" ask for the change politely."""
    be = words.index("be") if "be" in words[: _MAX_SUBJECT + 3] else 0
    return (
        be > 1
        and _modal_reaches(words[:be])
        and be + 1 < len(words)
        and (_participle(words[be + 1]) or words[be + 1] in _GROUPS)
    )


def is_question(text: str) -> bool:
    """Whether ``text`` is a question by its form: it opens (after a greeting) with a question
    word or an auxiliary ("is my ticket still open", "can I cancel it"), and not with a polite
    request ("can you cancel it", "could I get a window seat", "are you able to cancel it",
    "please cancel it", "can my seat be changed")."""
    words = _words(text)
    start = 0
    while start < len(words) - 1 and words[start] in GREETINGS:
        start += 1
    words = words[start:]
    if not words or words[0] == "please":
        return False
    first, second, third = [*words, "", ""][:3]
    if first in _MODALS and second == "you":
        return False
    if first in ("can", "could") and second in ("i", "we") and third in _HAVING:
        return False
    if first in ("can", "could") and _modal_passive(words):
        return False
    if words[:4] == ["are", "you", "able", "to"]:
        return False
    return first in WH_SET or first in AUXILIARIES


# Irregular past forms of common verbs (English), read as their base form when a request's words
# are matched against a tool's: "when are the penguins fed" shares "feed" with ``feeding_times``.
_IRREGULAR_PASTS = {
    "fed": "feed", "rode": "ride", "ridden": "ride", "spent": "spend", "went": "go",
    "gone": "go", "ran": "run", "drove": "drive", "driven": "drive", "flew": "fly",
    "flown": "fly", "ate": "eat", "eaten": "eat", "drank": "drink", "swam": "swim",
    "sold": "sell", "told": "tell", "built": "build", "brought": "bring", "caught": "catch",
    "taught": "teach", "met": "meet", "broke": "break", "stole": "steal", "found": "find",
    "got": "get", "won": "win", "fell": "fall", "felt": "feel", "slept": "sleep",
    "kept": "keep", "lent": "lend", "sat": "sit", "saw": "see", "seen": "see", "grew": "grow",
    "grown": "grow", "threw": "throw", "thrown": "throw", "wore": "wear", "worn": "wear",
    "began": "begin", "begun": "begin", "sang": "sing", "sung": "sing", "hung": "hang",
    "dug": "dig", "fought": "fight", "thought": "think", "understood": "understand",
    **_IRREGULAR,
}  # fmt: skip
_TOKEN = re.compile(r"[A-Za-z]+")


def base_forms(text: str) -> str:
    """``text`` with the base form of each irregular past of a common verb in it added at its end
    ("when are the penguins fed" → "when are the penguins fed feed"), for matching words only:
    the past still matches a tool that names it ("days taken")."""
    found = [_IRREGULAR_PASTS[w] for w in _TOKEN.findall(text.lower()) if w in _IRREGULAR_PASTS]
    return " ".join([text, *found]) if found else text


_ANY_MODAL = word_class("can could would will shall should may might must")


def wh_question(text: str, *, modals: bool = False) -> bool:
    """Whether ``text`` is a question that asks for a fact: it opens with a question word ("how
    many scooters are there", "when are the penguins fed", "what did my rides cost"), not with a
    how-to ("how do I reset my password" asks how the change is made) nor a suggestion ("how
    about an appointment on Saturday?", "why don't you try 11:45?"), and has no modal
    anywhere ("when can you book me in" may ask for the change). A yes/no question is none:
    "is my account locked?" may be answered by the change's tool (a reset link). With
    ``modals``, a modal does not make it none ("when will order 55123 arrive?")."""
    words = _words(text)
    start = 0
    while start < len(words) - 1 and words[start] in GREETINGS:
        start += 1
    first, second = [*words[start:], "", ""][:2]
    if first not in WH_SET or (first == "how" and second in AUXILIARIES):
        return False
    if second == "about" or (first == "why" and (second == "not" or second.endswith("n't"))):
        return False  # a suggestion: "how about Saturday?", "why don't you try 11:45?"
    return is_question(text) and (modals or not _ANY_MODAL.intersection(words))


# How a statement words a request for a thing: "please", "I'd like", "can I have", "I want",
# "would you ...".
_REQUEST_FORM = re.compile(
    r"\bplease\b|\b(?:i|we)(?:'d| would) like\b|\b(?:i|we) (?:want|need)\b"
    r"|\b(?:can|could|may) (?:i|we) (?:please )?(?:have|get)\b"
    r"|^(?:can|could|would|will) you\b"
)
# A question that asks for a change: "can you cancel it", "could I book a table".
_ASKING_QUESTION = re.compile(
    r"^(?:(?:hi|hello|hey|please|so|and|also) )*"
    r"(?:(?:can|could|would|will) you|(?:can|could|may) (?:i|we)) (?:please )?([a-z]+)"
)


_WHERE_I_CAN = re.compile(r"\b(?:i|we) can (?:please )?([a-z]+)")


def request_form(text: str) -> bool:
    """Whether ``text`` is worded as a request for something ("2 adults for Saturday please",
    "I'd like two tickets", "can I have a table for four"), not as a statement of a fact ("my 2
    children loved the zoo on Saturday", "my order 55123 hasn't arrived")."""
    return bool(_REQUEST_FORM.search(" ".join(_words(text))))


def asks_by_question(text: str, name: str, *, description: str = "") -> bool:
    """Whether the question ``text`` asks for the change of the tool ``name``: it opens with
    "can/could/would you <its verb>" or "can I <its verb>" (a verb of the same action counts;
    "can I have/get" asks for a thing), or asks it of someone the bot speaks for
    (``_asked_of.asked_of_other``: "can the workshop estimate job 3312", "could your team
    cancel it"), or says "I can <its verb>" ("where I can reserve a table"). "when will order
    55123 arrive?" and "how many tickets can I buy?" ask for no change."""
    verb = _tool_verb(name, description)
    if not verb:
        return False
    same = _GROUPS.get(verb, frozenset()) | {verb}
    words = " ".join(_words(text))
    for match in _ASKING_QUESTION.finditer(words):  # at the start only
        said = match.group(1)
        if said in same or said in _HAVING:
            return True
    if asked_of_other(words, same, frozenset(_words(name)) | frozenset(_words(description))):
        return True
    # "what's a good restaurant where I can reserve a table": the asker wants the change.
    return any(m.group(1) in same for m in _WHERE_I_CAN.finditer(words))


# Forms that state what happened or what is: a past or a negated state ("my order hasn't
# arrived", "my children loved it", "2 adults were rude").
_STATING = word_class("""
    was were wasn't weren't hasn't haven't hadn't isn't aren't didn't did had
    """)
# Past forms that still ask ("I wanted two tickets") or describe a thing ("a place called X").
_ASKING_PASTS = word_class("wanted needed liked hoped wondered called named interested based")
# Words that keep a statement with a past a request ("I was hoping you could ...", "let's").
_STILL_ASKING = word_class("can could would will let's lets")


def states_past(text: str) -> bool:
    """Whether ``text`` states what happened or what is not, by a past or a negated state ("my
    order 55123 hasn't arrived", "my 2 children loved the zoo on Saturday"), not worded as a
    request (``request_form``): such a statement asks for no change."""
    words = _words(text)
    if request_form(text) or _STILL_ASKING.intersection(words):
        return False
    return any(
        (
            w in _STATING
            or w in _IRREGULAR_PASTS
            or (len(w) > 4 and w.endswith("ed") and w not in _ASKING_PASTS)
        )
        and "you" not in words[:index]  # "the event you found" describes the thing asked for
        for index, w in enumerate(words)
    )

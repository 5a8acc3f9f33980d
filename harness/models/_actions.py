"""Which tools change something, and which requests ask for that change or only name it: what the
offline model reads when the tool a request's words match best changes something.

A tool *acts* when its name's first word is a common English verb of change ("cancel_order",
"change_seat", "book_room") and its last word is not a noun of state or of reading ("open_hours",
"pay_date", "book_search", "change_log" read). Every other tool reads; a description is not read.

A request *asks for the change* of a tool when it uses the base or imperative form of the tool's
verb, or of a verb of the same action ("move me to an aisle seat" for ``change_seat``), and the
clause neither states a past change ("my order was cancelled", "did you cancel it"), nor negates it
anywhere before the verb ("I don't want to cancel it"), nor only supposes it ("if I cancel my order,
..."), nor is a question, unless the question opens with a polite request ("can you ...", "could I
get ...", "are you able to ...", "please ..."). Its past participle asks after a word of wanting
("I want my membership frozen"). A noun is no verb: "my refund", "a reservation".

A request *names the change without asking* when it uses such a verb only as a past or a state
("someone renewed my loan", "is my ticket still open", "did you freeze it"), a refusal or a
supposition, and nowhere asks for it; a request with no such verb ("my card was stolen") does
neither.

Everything here is English, closed classes and common verbs, not any one bot's words.
"""

from __future__ import annotations

import re

from harness.text._shapes import AUXILIARIES, GREETINGS, WH_SET, word_class

__all__ = ["acts", "asks_for_change", "is_question", "mentions_change"]


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
)


def _groups() -> dict[str, frozenset[str]]:
    groups: dict[str, frozenset[str]] = {}
    for group in _SAME_ACTION:
        for verb in group:
            groups[verb] = groups.get(verb, frozenset()) | frozenset(group)
    return groups


_GROUPS = _groups()
# The common English verbs of change a tool's name may open with ("cancel_order", "book_room").
# Words that are as often a noun opening a reading tool's name ("order_status", "store_hours",
# "leave_balance", "issue_status", "top_stories", "share_price") are left out.
_ACTING = word_class("""
    cancel change delete remove block unblock reset book reserve transfer pay refund report log
    file submit move switch upgrade downgrade renew open close create add update edit modify
    schedule reschedule send buy purchase apply register subscribe unsubscribe freeze unfreeze
    lock unlock activate deactivate suspend make place claim replace dispute withdraw deposit
    redeem enroll enrol rebook postpone terminate revoke extend approve reject assign rename
    archive erase upload install uninstall refill void lodge raise
    """)
# Nouns of state or of reading a name ends with when it tells something ("open_hours",
# "transfer_limits", "change_log", "book_search", "order_tracking").
_TELLING_ENDS = word_class("""
    status hours balance balances policy policies date dates time times limit limits history log
    logs list search lookup tracking info
    """)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _words(text: str) -> list[str]:
    return _WORD.findall(_CAMEL.sub(" ", text).lower().replace("\u2019", "'").replace("_", " "))


def _tool_verb(name: str) -> str:
    """The verb of change the tool ``name`` opens with, or "" when the tool reads."""
    named = _words(name)
    if not named or named[0] not in _ACTING or named[-1] in _TELLING_ENDS:
        return ""
    return named[0]


def acts(name: str) -> bool:
    """Whether the tool ``name`` changes something: its first word is a verb of change and its
    last word no noun of state or reading ("cancel_order"; not "order_status", "get_balance",
    "orders", "open_hours")."""
    return bool(_tool_verb(name))


# Clause-internal words that end the reach of a negation or a past form before a verb.
_CLAUSE_BREAK = re.compile(r"[,;.!?]|\bbut\b|\band\b|\bthen\b")
_NEGATION = word_class("not don't dont never no didn't didnt won't wont can't cant cannot n't")
# Before a verb's base form, these make it no request: a past ("did you cancel it") or the
# subject's own supposition ("if I cancel my order").
_PAST_AUX = word_class("did didn't didnt")
_SUPPOSING = word_class("if whether unless once")
_SUBJECTS = word_class("i we he she they it my our his her their someone somebody")
# A word of these before a verb's form makes it a noun: "my refund", "the change", "a transfer".
_DETERMINERS = word_class("my our your his her their the this that these those its a an any no")
# After "would you mind" / "do you mind" the -ing form asks: "would you mind cancelling it".
_MIND = "mind"


def _clauses(text: str) -> list[list[str]]:
    return [w for part in _CLAUSE_BREAK.split(text.lower()) if (w := _words(part))]


# A form of "be" or "get" before a verb's form, with no "to" or modal between, makes it a state
# or a passive ("is my ticket still open", "is my room booked"); "are you able to cancel" asks.
_BEING = word_class("is isn't are aren't was wasn't were weren't am be been being get got gets")
_REOPENS = word_class("to can could will would should may might must please let's lets")
# A state names the change only when nothing but its subject stands between ("is ticket 4411
# open"): a preposition, "so" or a word of wanting before the verb opens another phrase ("I'm
# interested in making a transfer", "I'm still interested so add it", "that's the one I want
# book it").
_PHRASE_OPENS = _REOPENS | word_class("in of about for with from into at on so want wants need")


def _states(before: list[str], reopens: frozenset[str] = _REOPENS) -> bool:
    for word in reversed(before):
        if word in reopens:
            return False
        if word in _BEING or word.endswith("'s") or word.endswith("'re") or word in ("i'm", "im"):
            return True
    return False


def _gerund_base(word: str) -> str:
    if not word.endswith("ing"):
        return ""
    stem = word[:-3]
    for candidate in (
        stem,
        stem + "e",
        stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else "",
    ):
        if candidate in _GROUPS:
            return candidate
    return ""


# The past and participle forms of verbs of change that do not end in "-ed" (common English).
_IRREGULAR = {
    "made": "make", "sent": "send", "paid": "pay", "bought": "buy", "took": "take",
    "taken": "take", "chose": "choose", "chosen": "choose", "froze": "freeze", "frozen": "freeze",
    "gave": "give", "given": "give", "withdrew": "withdraw", "withdrawn": "withdraw",
    "wrote": "write", "written": "write", "left": "leave", "held": "hold",
}  # fmt: skip


def _past_base(word: str) -> str:
    """The verb of change ``word`` is the past or participle form of ("cancelled", "filed",
    "applied", "frozen"), or ""."""
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
        if candidate in _GROUPS:
            return candidate
    return ""


# Before a participle, these make it a wanted change ("I want my membership frozen", "please get
# it cancelled", "can I have my loans renewed"); "have"/"get" only with an object after them, so
# that "I have renewed it" and "I have already renewed it" stay a past.
_WANTING = word_class("want wants wanna need needs like please")
_CAUSING = word_class("have get having getting")
# After "have", these make a perfect ("I have already renewed it"), not "have tickets bought".
_PERFECT = word_class("already just also never ever recently since now not still only been")
_TO_PASSIVE = word_class("be have get")


def _causes(after: list[str]) -> bool:
    """Whether "have"/"get" followed by ``after`` (its next word) takes an object before a
    participle ("have tickets bought", "get my card blocked"), not a perfect."""
    return bool(after) and after[0] not in _PERFECT and not after[0].endswith("ly")


# Words that may stand between a negation and the verb it refuses ("I don't want to cancel it",
# "please do not ever cancel it"); any other word ends the negation's reach for a mention.
_NEGATED_REACH = word_class("""
    want wants wanna need needs to ever really just yet like please you i actually go try even
    do does
    """)


def _wanted(before: list[str]) -> bool:
    """Whether a participle after ``before`` is a change the speaker wants: a word of wanting (or
    "have"/"get" with an object) before it, not negated ("I don't want it frozen"), with no form
    of "be" but "to be" ("I want it to be added"), no negation and no other "to" in between."""
    for index in range(len(before) - 1, -1, -1):
        word = before[index]
        if word in _CAUSING and _causes(before[index + 1 : index + 2]):
            return True
        if word in _NEGATION or word.endswith("n't"):
            return False
        if word in _BEING and not (word == "be" and before[index - 1 : index] == ["to"]):
            return False
        if word == "to" and not (
            before[index + 1 : index + 2] and before[index + 1] in _TO_PASSIVE
        ):
            return False
        if word in _WANTING:
            return not _refused(before[:index])
    return False


def _refused(before: list[str]) -> bool:
    """Whether a negation reaches the verb after ``before`` ("don't cancel", "I do not want to
    cancel"), with only words of wanting, "to" or adverbs between."""
    for word in reversed(before):
        if (word in _NEGATION and word != "no") or word.endswith("n't"):
            return True
        if word not in _NEGATED_REACH:
            return False
    return False


def _asks_at(before: list[str], word: str, same: frozenset[str]) -> bool | None:
    """How the form ``word`` after ``before`` in a clause reads against the verbs ``same``: True
    when it asks for the change, False when it names the change without asking for it (a past,
    a state, a refusal, a supposition), None when it is no form of those verbs or reads as
    neither (a noun, "can I cancel ...")."""
    past = _past_base(word)
    if past in same:
        return _wanted(before)
    if word in same:
        if before and before[-1] in _DETERMINERS:
            return None
    elif not (before and before[-1] == _MIND and _gerund_base(word) in same):
        return None
    if _PAST_AUX.intersection(before):
        return False
    if _states(before):
        return False if _states(before, _PHRASE_OPENS) else None
    if _NEGATION.intersection(before) or any(w.endswith("n't") for w in before):
        return False if _refused(before) else None
    supposed = [i for i, w in enumerate(before) if w in _SUPPOSING]
    return not (supposed and _SUBJECTS.intersection(before[supposed[-1] + 1 :]))


def _readings(text: str, name: str) -> list[bool]:
    verb = _tool_verb(name)
    if not verb:
        return []
    same = _GROUPS.get(verb, frozenset({verb}))
    found: list[bool] = []
    for words in _clauses(text):
        for index, word in enumerate(words):
            reading = _asks_at(words[:index], word, same)
            if reading is not None:
                found.append(reading)
    return found


def asks_for_change(text: str, name: str) -> bool:
    """Whether ``text`` asks for the change of the tool ``name``: it is no question unless a polite
    request (``is_question``), and it uses the base or imperative form of the tool's verb or of a
    verb of the same action ("cancel my order", "are you able to cancel it", "move me to an aisle
    seat"), not negated before it in its clause ("I don't want to cancel it"), not after "did" or
    a supposing "if I" ("if I cancel my order ..."), not as a noun ("my refund"); a past or passive
    form asks only after a word of wanting ("I want my membership frozen"; not "my order was
    cancelled"). False for a tool that reads."""
    return not is_question(text) and any(_readings(text, name))


def mentions_change(text: str, name: str) -> bool:
    """Whether ``text`` names the change of the tool ``name`` (its verb or one of the same action)
    without asking for it, and nowhere asks for it: as a past or a state ("someone renewed my
    loan", "is my ticket still open", "did you freeze my membership", "my card got blocked"), a
    refusal ("don't cancel it") or a supposition ("if I cancel my order, ..."). False for a tool
    that reads and for a request that never uses such a verb ("my card was stolen")."""
    readings = _readings(text, name)
    if not readings:
        return False
    # A question names it wherever it does ("did you cancel it or can I cancel it?"); in any other
    # request, one place that asks is enough to ask.
    return False in readings if is_question(text) else not any(readings)


# How a question that is a polite request opens: "can you", "could I get", "are you able to".
_MODALS = word_class("can could would will")
_HAVING = word_class("get have")


def is_question(text: str) -> bool:
    """Whether ``text`` is a question by its form: it opens (after a greeting) with a question
    word or an auxiliary ("is my ticket still open", "can I cancel it"), and not with a polite
    request ("can you cancel it", "could I get a window seat", "are you able to cancel it",
    "please cancel it")."""
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
    if words[:4] == ["are", "you", "able", "to"]:
        return False
    return first in WH_SET or first in AUXILIARIES

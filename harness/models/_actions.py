"""Which tools change something, and which requests ask for a change: the offline model's guard
against acting when the user only asked.

A tool's name and description say what it does with the verb they lead with ("change_seat",
"Cancel an appointment.", "Log a lost-property report ...") or say that it tells something
("current_seat", "Which seat the passenger is in.", "order_status", "get_balance"). A tool that
leads with a verb of change (``ACTION_VERBS``) *acts*; any other tool *reads*. A request asks for
information when it is a question by its form (a question word, an opening "is", "do", "did", "can
I bring ...", a question mark) or asks to be told or shown ("tell me", "show me", "let me know");
it names a tool's action when it uses the tool's own verb or one of the same action ("move me to
an aisle seat" for a tool that changes seats).

Everything here is English, closed classes and common verbs, not any one bot's words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

__all__ = ["acts", "asks_for_information", "names_action", "names_done", "reading_question"]


def _class(text: str) -> frozenset[str]:
    """A closed class of words, written as one string."""
    return frozenset(text.split())


# Verbs of change a tool's name or description leads with, each with the verbs of the same action
# a user may ask for it with (common English; a verb may be in several groups).
_SAME_ACTION: tuple[tuple[str, ...], ...] = (
    ("change", "move", "switch", "swap", "modify", "alter", "update", "edit", "adjust", "amend"),
    ("pick", "choose", "select", "take", "assign", "allocate"),
    ("cancel", "drop", "scrap", "void", "terminate", "end", "stop", "remove", "delete", "revoke"),
    ("book", "reserve", "schedule", "arrange", "make", "set", "buy", "purchase", "order"),
    ("reschedule", "move", "change", "postpone", "rebook", "push"),
    ("transfer", "send", "move", "wire", "pay"),
    ("pay", "settle", "send"),
    ("open", "create", "file", "raise", "submit", "start", "log", "lodge", "report", "add"),
    ("report", "log", "file", "lodge", "raise", "submit", "register", "record"),
    ("buy", "purchase", "order", "book", "reserve"),
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
)
# The verbs a tool that acts may lead with: the first verb of every group.
ACTION_VERBS = frozenset(group[0] for group in _SAME_ACTION) | frozenset(
    ("rebook", "enroll", "enrol", "subscribe", "delete", "remove", "create", "submit", "log",
     "order", "purchase", "return", "lock", "unlock", "freeze", "unfreeze", "activate",
     "deactivate", "assign", "allocate", "claim", "lodge", "file", "record", "update", "modify",
     "edit", "move", "swap", "switch", "set", "send", "wire", "terminate", "postpone", "restore",
     "replace", "extend", "upload", "erase", "save", "write", "post", "accept", "deny", "decline",
     "suspend", "disable", "enable", "arrange", "make", "reserve", "select", "choose", "redeem")
)  # fmt: skip
# Words a tool that tells something leads with: verbs of reading and looking up, question words,
# and the nouns a name or description headed by what it tells opens or ends with ("order_status",
# "Status of an order", "get_balance").
_READING = _class("""
    get show list look lookup find search check view read fetch query tell describe explain count
    calculate estimate compute track see display retrieve answer say give know which what when
    where who whom whose why how whether if current status state balance history info information
    details detail summary total number policy policies hours options price prices cost costs fee
    fees times date dates availability location locations overview faq faqs rules terms
    """)
# What a description may open with before the verb that says what the tool does ("Use this to
# cancel ...", "Lets the user change ...", "This tool books ...").
_PREAMBLE = _class("""
    this tool function use used uses to it lets let allows allow helps help you the user users
    customer customers passenger passengers caller a an can will we for
    """)
_ARTICLES = frozenset(("the", "a", "an"))
_IRREGULAR = {
    "bought": "buy", "made": "make", "sent": "send", "chose": "choose", "chosen": "choose",
    "took": "take", "taken": "take", "paid": "pay", "set": "set", "put": "put", "wrote": "write",
    "written": "write", "gave": "give", "given": "give", "left": "leave", "shut": "shut",
}  # fmt: skip
# Nouns of an action ("make a reservation", "I want a refund"): the action's verb.
_NOUNS = {
    "reservation": "reserve", "cancellation": "cancel", "registration": "register",
    "subscription": "subscribe", "payment": "pay", "renewal": "renew", "replacement": "replace",
    "removal": "remove", "deletion": "delete", "withdrawal": "withdraw", "application": "apply",
    "purchase": "purchase", "enrollment": "enroll", "enrolment": "enrol",
}  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# A word of an action after one of these names a thing that is there already ("my transfer",
# "the reservation"), not the action asked for ("make a reservation", "transfer $200").
_DEFINITE = _class("my our your his her their the this that these those its")
_NEGATION = _class("not don't dont never no without didn't didnt won't wont")


def _forms(verb: str) -> Iterable[str]:
    yield verb
    yield verb + "s"
    yield verb + "es"
    yield verb + "ed"
    yield verb + "d"
    yield verb + "ing"
    if verb.endswith("e"):
        yield verb[:-1] + "ing"
    if verb.endswith("y"):
        yield verb[:-1] + "ies"
        yield verb[:-1] + "ied"
    if len(verb) > 2 and verb[-1] not in "aeiouwxy" and verb[-2] in "aeiou":
        yield verb + verb[-1] + "ed"
        yield verb + verb[-1] + "ing"


def _base_forms() -> dict[str, str]:
    verbs = {v for group in _SAME_ACTION for v in group} | ACTION_VERBS
    found: dict[str, str] = {}
    for verb in sorted(verbs):
        for form in _forms(verb):
            found.setdefault(form, verb)
    found.update(_IRREGULAR)
    for noun, verb in _NOUNS.items():
        found[noun] = verb
        found[noun + "s"] = verb
    return found


_BASE = _base_forms()
_GROUPS: dict[str, frozenset[str]] = {}
for _group in _SAME_ACTION:
    for _verb in _group:
        _GROUPS[_verb] = _GROUPS.get(_verb, frozenset()) | frozenset(_group)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'").replace("_", " "))


def _leading(words: list[str]) -> list[str]:
    """The words a name or description leads with once its preamble is taken off, with the
    verbs coordinated with the first ("Change or pick a seat": change, pick)."""
    start = 0
    # "The return policy": a description that opens with an article names a thing; "Lets the
    # user change ...": an article inside the preamble is part of it.
    while start < len(words) - 1 and words[start] in _PREAMBLE:
        if start == 0 and words[0] in _ARTICLES:
            break
        start += 1
    lead = words[start : start + 1]
    index = start + 1
    while index + 1 < len(words) and words[index] in ("or", "and", "and/or"):
        lead.append(words[index + 1])
        index += 2
    return lead


@functools.lru_cache(maxsize=1024)
def _tool_verbs(name: str, description: str) -> frozenset[str]:
    """The verbs of change ``name`` and ``description`` lead with (empty when the tool reads)."""
    described = _leading(_words(description))
    if described and described[0] in _READING:
        return frozenset()
    verbs = {_BASE[w] for w in described if _BASE.get(w) in ACTION_VERBS}
    named = _words(name)
    if verbs:
        return frozenset(verbs | ({_BASE[named[0]]} if named and named[0] in _BASE else set()))
    if not named or named[0] in _READING or (len(named) > 1 and named[-1] in _READING):
        return frozenset()
    base = _BASE.get(named[0])
    return frozenset({base}) if base in ACTION_VERBS else frozenset()


def acts(name: str, description: str) -> bool:
    """Whether the tool ``name`` with ``description`` changes something (it leads with a verb of
    change, and neither leads with a word of telling: "order_status" reads, "cancel_order" acts)."""
    return bool(_tool_verbs(name, description))


def names_action(text: str, name: str, description: str) -> bool:
    """Whether ``text`` uses the verb of change of the tool ``name`` / ``description``, or one of
    the same action, not negated ("please move me to an aisle seat" for "change_seat"; not
    "don't cancel it", nor "my transfer", which names a transfer there is already)."""
    return _uses(text, name, description) == "asks"


def names_done(text: str, name: str, description: str) -> bool:
    """Whether ``text`` uses the word of the tool's change only for one there is already ("my
    transfer of $200 has not arrived", "the cancellation"): it is about that one, not a new one."""
    return _uses(text, name, description) == "done"


def _uses(text: str, name: str, description: str) -> str:
    verbs = _tool_verbs(name, description)
    if not verbs:
        return ""
    same = frozenset().union(*(_GROUPS.get(v, frozenset({v})) for v in verbs))
    words = _words(text)
    found = ""
    for index, word in enumerate(words):
        base = _BASE.get(word)
        before = words[max(0, index - 2) : index]
        if base in same and not _NEGATION.intersection(before):
            if not _DEFINITE.intersection(before):
                return "asks"
            found = "done"
    return found


_WH = _class("what what's whats which when when's where where's who who's whom whose why how how's")  # fmt: skip
_ASKING_AUX = _class("""
    is isn't isnt are aren't arent am was wasn't were weren't do does did don't dont doesn't
    doesnt didn't didnt has hasn't have haven't had
    """)
_MODAL = _class("can can't cant could may might will would won't shall should")
_OPENING = _class("hi hello hey ok okay so well um and also plus then oh please excuse")
# Verbs of getting and having: after "can I", "I want", "I'd like" a wish for a thing.
_HAVING = _class("get have grab")
# Verbs of being told, shown or knowing: a request with one of them asks for information
# ("can you tell me my seat", "I'd like to know", "show me my orders").
_TELLING = _class(
    "tell show know see check view find list look display explain wonder wondering curious"
)
_POSSIBLE = re.compile(r"^(?:is|would|will)\s+(?:it|that)\s+(?:be\s+)?possible\b|^(?:is|are)\s+"
                       r"there\s+(?:any\s+)?(?:way|chance)\b")  # fmt: skip


# How a request to the bot opens before its verb ("could you please", "I'd like to", "help me").
_COURTESY = re.compile(
    r"^(?:(?:please|kindly|just|(?:can|could|would|will)\s+you|i'?d\s+like(?:\s+you)?\s+to"
    r"|i\s+would\s+like(?:\s+you)?\s+to|i\s+(?:want|need)(?:\s+you)?\s+to|help\s+me"
    r"|(?:can|could|may)\s+i|i'?d\s+love\s+to|i\s+wish\s+to)\s+)+"
)


def _opening(words: list[str]) -> list[str]:
    start = 0
    while start < len(words) - 1 and words[start] in _OPENING:
        start += 1
    return words[start:]


def _asks_to_be_told(words: list[str]) -> bool:
    """Whether the request's verb, after the words it opens with ("could you please", "I'd like
    to"), is one of being told or shown ("tell me", "show me my orders", "I'd like to know")."""
    rest = _COURTESY.sub("", " ".join(words[:12])).split()
    if rest[:3] == ["let", "me", "know"]:
        return True
    return bool(rest) and (
        rest[0] in _TELLING or rest[:2] == ["i", "wonder"] or rest[:3] == ["i", "was", "wondering"]
    )


def asks_for_information(text: str) -> bool:
    """Whether ``text`` asks to be told something rather than for something to be done: a
    question by its form ("which seat am I in", "is my order shipped", "can I bring my dog on the
    train"; not "can I get a window seat", "could you move me", "is it possible to change it"),
    or a request to be told or shown ("tell me my seat", "I'd like to know my balance")."""
    words = _opening(_words(text))
    if not words:
        return False
    first = words[0]
    if first in _WH:
        return not (len(words) > 1 and words[1] == "about")  # "how about a window seat"
    if _asks_to_be_told(words):
        return True
    if _POSSIBLE.match(" ".join(words[:5])):
        return False
    if first in _ASKING_AUX:
        return True
    if first in _MODAL:
        # "can I get ...", "could you ...": a wish or a request to the bot, not a question.
        subject = words[1] if len(words) > 1 else ""
        verb = words[2] if len(words) > 2 else ""
        return not (subject == "you" or verb in _HAVING)
    return text.rstrip().endswith("?")


def reading_question(text: str) -> bool:
    """Whether ``text`` asks something even though it may use a verb of change: a question word
    ("why was my order cancelled"), an opening "is", "did", "has" ("did you cancel it"), or a
    request to be told ("tell me if my seat changed")."""
    words = _opening(_words(text))
    if not words:
        return False
    if words[0] in _WH:
        return not (len(words) > 1 and words[1] == "about")
    if _POSSIBLE.match(" ".join(words[:5])):
        return False
    return words[0] in _ASKING_AUX or _asks_to_be_told(words)

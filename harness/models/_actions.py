"""Which tools change something, and which requests ask for that change: what the offline model
reads when two tools tie on a request's words, and before it calls an agent's lone tool for a
request no tool matched.

A tool *acts* when its name leads with a verb of change ("change_seat", "cancel_order"). A name
that leads with a verb of reading ("get_balance", "list_orders"), a word of state ("current_seat"),
a question word or an auxiliary ("is_open"), or that has no verb at all ("orders", "payments",
"lost_property", "order_status") *reads*. Only a name whose verb says neither ("handle_request",
"process") leaves it to the description, read the same way; a description that opens "Returns ...",
"Reports ...", "Shows ..." tells something.

A request *asks for the change* of a tool when it uses the base or imperative form of the tool's
verb, or of a verb of the same action ("move me to an aisle seat" for ``change_seat``), and the
clause neither states a past change ("my order was cancelled", "somebody blocked my card", "did you
cancel it"), nor negates it anywhere before the verb ("I don't want to cancel it"), nor only
supposes it ("if I cancel my order, ..."). A noun is no verb: "my refund", "a reservation".

Everything here is English, closed classes and common verbs, not any one bot's words.
"""

from __future__ import annotations

import functools
import re

from harness.text._shapes import AUXILIARIES, GREETINGS, WH_SET, word_class

__all__ = ["acts", "asks_for_change", "is_question", "without_change"]


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
_GROUPS: dict[str, frozenset[str]] = {}
for _group in _SAME_ACTION:
    for _verb in _group:
        _GROUPS[_verb] = _GROUPS.get(_verb, frozenset()) | frozenset(_group)
del _group, _verb
# Verbs of change a tool's name may lead with.
_CHANGE = frozenset(_GROUPS)
# Words a name that tells something leads with: verbs of reading and looking up, and words of
# state ("current_seat", "status_of_order").
_READING = word_class("""
    get show list look lookup find search check view read fetch query tell describe explain count
    calculate estimate compute track see display retrieve answer say give know current status
    state balance latest upcoming recent next last my
    """)
# A name's verb that says neither reading nor changing: the description decides.
_VAGUE = word_class("""
    handle process manage do run perform execute help call invoke use go act deal respond reply
    assist support serve work tool
    """)
# Verbs that are nouns too ("order", "transfer", "pay"): before a head noun of what a tool tells
# ("order_status", "transfer_limits", "pay_date") they name a thing; alone ("pay") the
# description decides.
_ALSO_NOUNS = word_class("""
    order transfer return report record book file log request claim deposit charge refund post
    change set reset top exchange bill hold pay
    """)
_HEADS = word_class("""
    status state balance balances history details detail info information summary list limits
    limit items methods options policy policies rules terms fees fee rates rate price prices
    hours times time date dates availability location locations overview faq faqs count total
    number numbers slip slips day days period
    """)
# How a description that tells opens, as a third person or an imperative verb of telling
# ("Returns the balance", "Return where an order is", "Reports the weather").
_TELLS = word_class("""
    return returns report reports record records show shows give gives get gets list lists look
    looks fetch fetches find finds tell tells describe describes check checks read reads retrieve
    retrieves provide provides display displays answer answers say says explain explains
    """)
# What a description may open with before the verb that says what the tool does ("Use this to
# cancel ...", "Lets the user change ...", "This tool books ...").
_PREAMBLE = word_class("""
    this tool function use used uses to it lets let allows allow helps help you the user users
    customer customers caller can will we for
    """)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _words(text: str) -> list[str]:
    return _WORD.findall(_CAMEL.sub(" ", text).lower().replace("’", "'").replace("_", " "))


def _third_person(word: str) -> str:
    """The verb of a third-person form ("cancels", "books", "switches", "applies")."""
    if word.endswith("ies") and word[:-3] + "y" in _CHANGE:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2] in _CHANGE:
        return word[:-2]
    if word.endswith("s") and word[:-1] in _CHANGE:
        return word[:-1]
    return word


@functools.lru_cache(maxsize=1024)
def _tool_verb(name: str, description: str) -> str:
    """The verb of change the tool ``name`` leads with, or its description when the name's verb
    says neither; "" when the tool reads."""
    named = _words(name)
    # A name of one word that is a noun too ("pay", "refund") says no more than a vague verb.
    vague = not named or named[0] in _VAGUE or (len(named) == 1 and named[0] in _ALSO_NOUNS)
    if vague:
        described = _words(description)
        start = 0
        while start < len(described) - 1 and described[start] in _PREAMBLE:
            start += 1
        lead = described[start] if described else ""
        if lead in _TELLS:
            return ""
        verb = _third_person(lead)
        return verb if verb in _CHANGE else ""
    first = named[0]
    if first in _READING or first in WH_SET or first in AUXILIARIES or first not in _CHANGE:
        return ""
    if len(named) > 1 and first in _ALSO_NOUNS and named[-1] in _HEADS:
        return ""
    return first


def acts(name: str, description: str) -> bool:
    """Whether the tool ``name`` with ``description`` changes something: its name leads with a
    verb of change ("cancel_order"; not "order_status", "get_balance", "orders"), or, when the
    name's verb is a vague one ("handle_request"), its description does."""
    return bool(_tool_verb(name, description))


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
_REOPENS = word_class("to can could will would should may might must please")


def _states(before: list[str]) -> bool:
    for word in reversed(before):
        if word in _REOPENS:
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
        if candidate in _CHANGE:
            return candidate
    return ""


def asks_for_change(text: str, name: str, description: str) -> bool:
    """Whether ``text`` asks for the change of the tool ``name`` / ``description``: it uses the
    base or imperative form of the tool's verb or of a verb of the same action ("cancel my order",
    "are you able to cancel it", "move me to an aisle seat"), not negated before it in its clause
    ("I don't want to cancel it"), not after "did" or a supposing "if I" ("if I cancel my order
    ..."), not as a noun ("my refund"); a past or passive form never asks ("my order was
    cancelled"). False for a tool that reads."""
    verb = _tool_verb(name, description)
    if not verb:
        return False
    same = _GROUPS.get(verb, frozenset({verb}))
    for words in _clauses(text):
        for index, word in enumerate(words):
            before = words[:index]
            if word in same:
                if before and before[-1] in _DETERMINERS:
                    continue
            elif not (before and before[-1] == _MIND and _gerund_base(word) in same):
                continue
            if _NEGATION.intersection(before) or any(w.endswith("n't") for w in before):
                continue
            if _PAST_AUX.intersection(before) or _states(before):
                continue
            supposed = [i for i, w in enumerate(before) if w in _SUPPOSING]
            if supposed and _SUBJECTS.intersection(before[supposed[-1] + 1 :]):
                continue
            return True
    return False


_IRREGULAR = {
    "bought": "buy", "made": "make", "sent": "send", "chose": "choose", "chosen": "choose",
    "took": "take", "taken": "take", "paid": "pay", "wrote": "write", "written": "write",
    "gave": "give", "given": "give", "left": "leave", "shut": "shut", "put": "put", "set": "set",
}  # fmt: skip


def _inflected(word: str) -> str:
    """The verb of change ``word`` is a form of ("cancelled", "opens", "booking"), or ""."""
    if word in _CHANGE:
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for ending, restore in (("ied", "y"), ("ies", "y"), ("ed", ""), ("ed", "e"), ("es", ""),
                            ("s", ""), ("ing", ""), ("ing", "e")):  # fmt: skip
        if word.endswith(ending):
            stem = word[: -len(ending)] + restore
            if stem in _CHANGE:
                return stem
            if restore == "" and len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in _CHANGE:
                return stem[:-1]
    return ""


def without_change(text: str, name: str, description: str) -> str:
    """``text`` without the words that are forms of the tool's verb of change or of a verb of the
    same action ("is my ticket still open" for ``open_ticket``: "is my ticket still"); ``text``
    itself for a tool that reads. A request that does not ask for the change uses them for a
    state or a past ("still open", "was cancelled"): they are no evidence for the tool."""
    verb = _tool_verb(name, description)
    if not verb:
        return text
    same = _GROUPS.get(verb, frozenset({verb}))
    kept = [w for w in _words(text) if _inflected(w) not in same]
    return " ".join(kept)


# A wish for a thing ("can I get a window seat", "could I have ...") is no question.
_HAVING = word_class("get have grab")
_MODALS = word_class("can could may might will would shall should")


def is_question(text: str) -> bool:
    """Whether ``text`` is a question by its form: it opens (after a greeting) with a question
    word or an auxiliary ("can I bring my dog on the train", "is there a lost property office");
    not a statement that ends with a question mark ("I think I left my phone on a train?"), a
    wish ("can I get a window seat") or a request to the bot ("could you ...")."""
    words = _words(text)
    start = 0
    while start < len(words) - 1 and words[start] in GREETINGS | {"please"}:
        start += 1
    words = words[start:]
    if not words:
        return False
    first = words[0]
    wish = len(words) > 2 and words[1] == "i" and words[2] in _HAVING
    if first in _MODALS and len(words) > 1 and (words[1] == "you" or wish):
        return False
    return first in WH_SET or first in AUXILIARIES

"""What an argument's name says it takes: the one vocabulary the offline model reads names with.

An argument is read from a request (``_arguments.fill``) and asked for when a request lacks it
(``_asking.question_for``) by the same classes of names, kept here once so that what is filled
and what is asked never drift apart: ``order_id`` is an identifier both ways, ``amount`` is
money both ways, ``problem`` a description both ways.

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

from harness.text.words import stem

__all__ = [
    "AMOUNTS",
    "CODE_NAMES",
    "CONTACTS",
    "DATE_NAMES",
    "DESCRIBING",
    "DURATIONS",
    "GENERIC_COUNTS",
    "ID_NAMES",
    "ID_SPOKEN",
    "KIN",
    "NAME_PARTS",
    "PERSON_OWNERS",
    "PLACES",
    "PLURALS",
    "TIME_NAMES",
    "UNITS",
    "UNIT_NAMES",
    "label",
    "noun",
    "takes_money",
]

ID_SPOKEN = {
    "id": "number",
    "no": "number",
    "number": "number",
    "num": "number",
    "code": "code",
    "ref": "reference",
    "reference": "reference",
}
"""The last words of an identifier's name, and how a question says them ("order_id" → "order
number")."""
ID_NAMES = frozenset(ID_SPOKEN)
"""Words that make an argument an identifier."""
CODE_NAMES = frozenset({"code", "postcode", "zip", "zipcode", "postal", "ref", "reference"})
"""Words that make an argument a code, which may be written in two parts ("LS6 2QT", "AB
12345"): an identifier, or a place's postal code."""
DATE_NAMES = frozenset({"date", "day", "night", "when", "on", "month"})
"""Nouns of an argument that takes a date, a day or a month."""
TIME_NAMES = frozenset({"time", "hour", "slot"})
"""Nouns of an argument that takes a time of day."""
AMOUNTS = frozenset(
    {"amount", "sum", "total", "price", "cost", "fee", "payment", "budget", "value"}
    | {"tip", "donation", "deposit", "fare", "money"}
)
"""Nouns of an argument that takes an amount of money ("amount", "tip_amount", "fee"): filled
only from an amount of money the request names ("£20"), never a bare number, and the tool that
takes one moves money (``takes_money``)."""
DESCRIBING = frozenset(
    {"problem", "issue", "reason", "description", "detail", "details", "note", "comment"}
    | {"fault", "complaint", "symptom", "summary", "feedback", "body", "content", "message"}
    | {"instruction", "instructions"}
)
"""Nouns of an argument that takes a description in the user's words ("problem", "reason")."""
DURATIONS = frozenset(
    stem(w) for w in ("minute", "hour", "night", "day", "week", "month", "year", "session")
)
"""Nouns (stems) of a count that is a length of time ("hours", "nights")."""
GENERIC_COUNTS = frozenset({"quantity", "qty", "count"})
"""Names of a count that say no noun of what is counted ("quantity"): the count a request names
before whatever it counts ("order 4 inner tubes")."""
CONTACTS = {"email": "email address", "mail": "email address", "phone": "phone number"}
"""Contact details, and how a question names them."""
UNITS = frozenset({"kg", "g", "lb", "lbs", "km", "m", "cm", "mm", "miles", "mi", "l", "ml"})
"""Units an argument's name may end with ("weight_kg")."""
UNIT_NAMES = {
    "m": "metre meter",
    "km": "kilometre kilometer",
    "cm": "centimetre centimeter",
    "mm": "millimetre millimeter",
    "kg": "kilo kilogram",
    "g": "gram",
    "l": "litre liter",
    "ml": "millilitre milliliter",
    "miles": "mile",
    "mi": "mile",
}
"""The units of ``UNITS`` written out, singular (a request says "a 9.5 metre boat" for
``length_m``)."""
PERSON_OWNERS = frozenset({"customer", "user", "client", "caller", "member", "my", "your", "full"})
"""Owners of a name that are the user ("customer_name" asks "What is your name?")."""
NAME_PARTS = frozenset({"first", "last", "given", "family", "middle", "sur"})
"""Words that make a name argument a part of the user's own name ("first_name")."""
KIN = frozenset(
    {"pet", "dog", "cat", "child", "kid", "son", "daughter", "partner", "patient", "baby"}
    | {"passenger", "guest", "owner", "contact", "friend", "student", "driver", "spouse"}
)
"""Owners of a name the user knows as theirs ("pet_name" asks "What is your pet's name?"); any
other owner names a thing the user picks ("show_name" asks "Which show do you mean?")."""
PLACES = frozenset(
    {"address", "location", "place", "venue", "destination", "street", "site", "pickup"}
    | {"dropoff", "premises", "property"}
)
"""Words of an argument's name that make it a place or an address ("pickup_address"): its value
keeps its numbers whole ("Flat 7, 19 Quarry Road")."""
PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman"}
"""Nouns whose plural is not the singular with "-s" (common English)."""


def noun(name: str) -> str:
    """The stem of an argument name's last word that is no identifier word or unit ("adults" →
    "adult", "bike_id" → "bike", "weight_kg" → "weight")."""
    parts = [p for p in name.lower().split("_") if p and p not in ID_NAMES and p not in UNITS]
    word = parts[-1] if parts else name.lower()
    return stem(PLURALS.get(word, word))


def label(name: str) -> tuple[str, str]:
    """The argument's name read as words, and what kind of word ends it ("order_id" → ("order
    number", "id"), "adults" → ("adults", "adults"))."""
    words = [w for w in name.lower().split("_") if w]
    if len(words) > 1 and words[-1] in ID_NAMES:
        return " ".join([*words[:-1], ID_SPOKEN[words[-1]]]), "id"
    return " ".join(words) or name, words[-1] if words else name


def takes_money(name: str) -> bool:
    """Whether the argument ``name`` takes an amount of money (its noun is one of ``AMOUNTS``)."""
    return noun(name) in AMOUNTS or name.lower().split("_")[-1] in AMOUNTS


def stem_of(word: str) -> str:
    """A word's stem through its plural ("children" -> "child"), without case or a leading
    "#" ("#12" is read as "12")."""
    word = word.lower().strip("#")
    return stem(PLURALS.get(word, word))

"""One value reads one way whatever punctuation follows it.

Every value feature of the duplicate scorer compares facts by kind and value, so a date read as a
month and a number before a colon and as a date before a comma made two formats of one value two
different values. The texts are new, written for these tests.
"""

from __future__ import annotations

import pytest

from harness.text import extract_facts

_AFTER = [
    "",
    ".",
    ",",
    ":",
    ";",
    ")",
    "!",
    "?",
    "'",
    "’",
    "”",
    "»",
    "›",
    "'s",
    "’s",
    " -",
    " —",
    "*",
]
"""What may follow a value in a sentence."""


def _keys(text: str) -> list[str]:
    return [f"{fact.kind}:{fact.value}" for fact in extract_facts(text)]


@pytest.mark.parametrize(
    ("value", "keys"),
    [
        ("March 9", ["date:03-09"]),
        ("Oct 21st", ["date:10-21"]),
        ("Sept. 4", ["date:09-04"]),
        ("4 September", ["date:09-04"]),
        ("11:15 am", ["time:11:15"]),
        ("$64.20", ["money:64.2"]),
        ("two to three weeks", ["duration:2-3 week"]),
        ("Locker K7", ["id:k7"]),
        ("orders@tidewater-supply.com", ["email:orders@tidewater-supply.com"]),
        ("https://tidewater-supply.com/returns", ["url:https://tidewater-supply.com/returns"]),
        ("www.tidewater-supply.com", ["url:www.tidewater-supply.com"]),
    ],
)
@pytest.mark.parametrize("after", _AFTER)
def test_a_value_reads_the_same_whatever_follows_it(
    value: str, keys: list[str], after: str
) -> None:
    assert _keys(f"Noted for you: {value}{after} and more") == keys
    assert _keys(f"Noted for you: {value}{after}") == keys


def test_a_date_before_a_colon_is_a_date_and_a_time_after_a_month_is_a_time() -> None:
    assert _keys("Due March 9:\nthe second instalment") == ["date:03-09"]
    assert _keys("Pickup on March 9: bring the receipt.") == ["date:03-09"]
    # A day and a time with a colon between are not a date followed by a colon.
    assert _keys("The ferry leaves March 10:45 am.") == ["month:03", "time:10:45"]


def test_an_address_in_lower_case_is_a_fact_as_it_is_capitalised() -> None:
    assert _keys("Write to returns@tidewater-supply.com") == _keys(
        "Write to Returns@tidewater-supply.com"
    )
    assert _keys("see www.tidewater-supply.com/returns/ for the form") == [
        "url:www.tidewater-supply.com/returns"
    ]
    assert _keys("mail first.last+returns@tidewater-supply.com today") == [
        "email:first.last+returns@tidewater-supply.com"
    ]
    # A word run into the next sentence or a slash between words is no address.
    assert _keys("a refund and/or a credit") == []
    assert _keys("We found 3 shops you may like.Harbor Tools is one") == [
        "number:3",
        "name:harbor tools",
    ]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Bookmark “www.harrow-kilns.org” for the schedule.", "url:www.harrow-kilns.org"),
        (
            "The form is at «https://harrow-kilns.org/glaze» for now.",
            "url:https://harrow-kilns.org/glaze",
        ),
        ("Read ‹www.harrow-kilns.org/faq› first.", "url:www.harrow-kilns.org/faq"),
        ("Check www.harrow-kilns.org’s opening hours.", "url:www.harrow-kilns.org"),
        ("See https://harrow-kilns.org/firing’s notes.", "url:https://harrow-kilns.org/firing"),
        ("Open https://harrow-kilns.org/kiln( later", "url:https://harrow-kilns.org/kiln"),
    ],
)
def test_a_url_ends_before_a_curly_quote_a_guillemet_or_a_possessive(text: str, key: str) -> None:
    assert [k for k in _keys(text) if k.startswith("url:")] == [key]


@pytest.mark.parametrize("text", ["It is CLOſED now", "Due on Auguſt 5", "AUGUſT 5 it is"])
def test_a_long_s_matched_as_s_is_no_month_or_state_and_raises_nothing(text: str) -> None:
    """The patterns ignore case, and Unicode case folding lets "ſ" (long s) match "s": the
    word is then no month or state the tables know, so it is no fact of those kinds."""
    kinds = {fact.kind for fact in extract_facts(text)}
    assert not kinds & {"month", "state"}

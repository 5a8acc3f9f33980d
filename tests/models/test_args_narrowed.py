"""The s72-args4 rules narrowed after review: a ZIP-shaped number is another thing's only after
a noun that numbers records or units, a change is asked of someone named only with "can/could",
an agent of the business and no supposition after it, parts of a party are summed only after
"for" and when no whole count was read, and a bare object marks acting only for a verb WordNet
reads as one of doing (s72-args4 mend)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.models._actions import acts, asks_by_question
from harness.models._arguments import fill

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}


def _zip(text: str, props: dict[str, Any] | None = None) -> Any:
    props = props or {"zip_code": STR, "day": STR}
    return fill(props, list(props), text, tool="send_it").get("zip_code")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("drop the parcel at my workplace 60601 on Tuesday", "60601"),
        ("bring it to the clinic 02115 on Thursday", "02115"),
        ("ship on Monday to boston ma 02108", "02108"),
        ("leave it at grandma's house 73301 on Friday", "73301"),
        ("to my studio 85004, Wednesday please", "85004"),
    ],
)
def test_a_zip_code_after_a_place_word_is_read(text: str, want: str) -> None:
    assert _zip(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "send it on Monday about invoice 40211",
        "on Friday, regarding claim 58120",
        "for suite 30012 on Tuesday",
        "ship it Monday, my reservation is 71123",
    ],
)
def test_a_number_a_record_noun_labels_is_no_zip_code(text: str) -> None:
    assert _zip(text) is None


def test_a_number_another_argument_names_is_no_zip_code() -> None:
    props = {"zip_code": STR, "locker": STR}
    assert fill(props, ["zip_code"], "use locker 55102", tool="send_it").get("zip_code") is None


_DELIVER = "Deliver an order to an address."
_CANCEL = "Cancel an order by its number."


@pytest.mark.parametrize(
    ("text", "name", "doc"),
    [
        ("will the courier deliver order 55123 on Saturday?", "deliver_order", _DELIVER),
        ("would your staff cancel order 4412 if I paid late?", "cancel_order", _CANCEL),
        ("could the storm cancel order 4412?", "cancel_order", _CANCEL),
        ("can the shop cancel my order if the parcel is lost?", "cancel_order", _CANCEL),
        ("could your driver deliver it in case nobody is in?", "deliver_order", _DELIVER),
        ("can the manager cancel order 881 even if it has shipped?", "cancel_order", _CANCEL),
        ("could the snow cancel my order?", "cancel_order", _CANCEL),
    ],
)
def test_what_will_or_might_happen_asks_for_no_change(text: str, name: str, doc: str) -> None:
    assert asks_by_question(text, name, description=doc) is False


@pytest.mark.parametrize(
    ("text", "name", "doc"),
    [
        ("can the manager cancel order 881?", "cancel_order", _CANCEL),
        ("could your courier deliver order 55123 tomorrow?", "deliver_order", _DELIVER),
        ("can the shop cancel order 4412 please?", "cancel_order", _CANCEL),
    ],
)
def test_a_change_asked_of_an_agent_of_the_business(text: str, name: str, doc: str) -> None:
    assert asks_by_question(text, name, description=doc) is True


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("a boat for 8 people on Sunday, 2 adults and 1 child get seasick", 8),
        ("a guided walk for 10 on Monday, me and my wife lead it", 10),
        ("a table for 3 adults and 1 child on Friday", 4),
    ],
)
def test_a_whole_count_wins_over_parts(text: str, want: int) -> None:
    props = {"people": INT, "day": STR}
    assert fill(props, list(props), text, tool="book_it").get("people") == want


def test_parts_not_after_for_are_not_summed() -> None:
    props = {"people": INT, "day": STR}
    got = fill(props, list(props), "on Sunday, 2 adults and 1 child", tool="book_it")
    assert "people" not in got


@pytest.mark.parametrize(
    ("name", "doc", "want"),
    [
        ("forecast_tides", "Forecast tides for a harbour on a day.", False),
        ("suggest_recipes", "Suggest recipes for an ingredient.", False),
        ("count_visitors", "Count visitors on a day.", False),
        ("compare_plans", "Compare plans for a phone.", False),
        ("review_essays", "Review essays for a student.", False),
        ("hire_bikes", "Hire bikes for a day.", True),
        ("wash_cars", "Wash cars at a depot.", True),
    ],
)
def test_a_bare_object_marks_acting_only_for_a_verb_of_doing(
    name: str, doc: str, want: bool
) -> None:
    assert acts(name, doc) is want

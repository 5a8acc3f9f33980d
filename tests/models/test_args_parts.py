"""Parties named in parts, five-digit numbers a noun labels, polite questions asked of someone
named, and tools described with a bare object (s72-args4)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.models._actions import acts, asks_by_question
from harness.models._arg_people import party_of_parts
from harness.models._arguments import fill
from harness.models._choice import described
from harness.models.base import ToolDefinition

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}


def _fill(props: dict[str, Any], text: str, about: str = "") -> dict[str, Any]:
    return fill(props, list(props), text, tool="book_it", about=about)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("book a table for 3 adults and 2 children on Saturday", 5),
        ("a session on Friday for me and my 3 sisters", 4),
        ("a room for two of us plus a baby on Sunday", 3),
        ("a class on Friday for three of us plus a toddler", 4),
        ("kayaks on Sunday for my wife and me", 2),
        ("a trip on Monday for me and 4 friends", 5),
    ],
)
def test_a_party_in_parts_gives_the_sum_of_its_parts(text: str, want: int) -> None:
    assert _fill({"people": INT, "day": STR}, text)["people"] == want


@pytest.mark.parametrize(
    "text",
    [
        "book a table for 4 guests and 2 dogs",  # a part that is no person ends the party
        "book a tour for 4 guests and 2 kids on Sunday",  # are the kids guests? asked
        "book 2 rooms and 3 nights",
        "a table for 4 and a cot",
    ],
)
def test_no_sum_of_parts_without_two_parts_of_people(text: str) -> None:
    assert party_of_parts(text.split(), ()) is None


def test_parts_another_argument_counts_are_not_summed() -> None:
    # The tool takes adults and children apart: each keeps its own count.
    args = _fill({"adults": INT, "children": INT}, "for 3 adults and 2 children")
    assert (args.get("adults"), args.get("children")) == (3, 2)
    assert party_of_parts(["for", "3", "adults", "and", "2", "children"], {"child"}) is None


@pytest.mark.parametrize(
    "text",
    [
        "book a visit on Monday for job 33120",
        "book a visit on Friday, my ticket is 48213",
        "book a callout to apartment 20417 on Friday",
        "send a voucher, my booking number is 12345",
    ],
)
def test_a_zip_shaped_number_a_noun_labels_is_no_zip(text: str) -> None:
    assert "zip_code" not in _fill({"zip_code": STR, "day": STR}, text)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("book a visit to 90210 on Monday", "90210"),
        ("book a visit on Tuesday, zip 30301", "30301"),
        ("deliver to Austin TX 78701 on Friday", "78701"),
        ("post it to LS6 2QT on Friday", "LS6 2QT"),
    ],
)
def test_a_zip_code_with_no_other_label_is_still_read(text: str, want: str) -> None:
    assert _fill({"zip_code": STR, "day": STR}, text)["zip_code"] == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("can the workshop estimate job 3312?", True),
        ("could your team estimate it for me?", True),
        ("can the workshop tell me when it opens?", False),
        ("will the estimate be ready soon?", False),
    ],
)
def test_a_change_asked_of_someone_named_is_asked_for(text: str, want: bool) -> None:
    doc = "Estimate the cost of a repair job by its job number."
    assert asks_by_question(text, "estimate_job", description=doc) is want


def _tool(name: str, doc: str) -> ToolDefinition:
    return ToolDefinition(
        name=name, description=doc, parameters={"type": "object", "properties": {}}
    )


@pytest.mark.parametrize(
    ("name", "doc", "want", "acting"),
    [
        ("hire_kayaks", "Hire kayaks for a day; paddlers is how many people paddle.", True, True),
        ("collect_bags", "Collect empty bulk bags from a postcode.", True, True),
        ("paint_colours", "Paint colours we have for fences.", False, False),
        ("sharpen_knives", "Sharpens kitchen knives left at the shop on a day.", False, False),
        ("collect_scrap", "Collect scrap metal from an address.", False, False),
        # ``acts`` reads the description alone; ``described`` also knows the name tells a value.
        ("ticket_prices", "Ticket prices for adults, children and students.", False, True),
    ],
)
def test_a_bare_object_the_name_names_is_evidence_of_acting(
    name: str, doc: str, want: bool, acting: bool
) -> None:
    assert described(_tool(name, doc)) is want
    assert acts(name, doc) is acting

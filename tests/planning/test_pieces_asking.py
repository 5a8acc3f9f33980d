"""A silent agent that lacks two values asks for both, each question clear: a count named by
what it counts ("How many people do you want?"), never by the count's own name read as words
("How many party size do you want?", "How many num tickets do you want?").

The argument names and tools are new text, written for these tests across several domains; no
labelled set is read."""

from __future__ import annotations

import pytest

from harness.models._asking import question_for


@pytest.mark.parametrize(
    ("name", "question"),
    [
        ("party_size", "How many people do you want?"),
        ("group_size", "How many people do you want?"),
        ("party", "How many people do you want?"),
        ("number_of_people", "How many people do you want?"),
        ("n_people", "How many people do you want?"),
        ("num_guests", "How many guests do you want?"),
        ("number_of_seats", "How many seats do you want?"),
        ("num_tickets", "How many tickets do you want?"),
        ("nr_bikes", "How many bikes do you want?"),
        ("adults", "How many adults do you want?"),
        ("nights", "How many nights do you want?"),
        ("ticket_count", "How many do you want?"),
    ],
)
def test_a_count_is_asked_by_what_it_counts(name: str, question: str) -> None:
    assert question_for(name, {"type": "integer"}, "", tool="book") == question


@pytest.mark.parametrize(
    ("names", "questions"),
    [
        (("date", "party_size"), ["Which date do you want?", "How many people do you want?"]),
        (
            ("check_in_date", "num_guests"),
            ["Which check in date do you want?", "How many guests do you want?"],
        ),
        (
            ("pickup_time", "number_of_seats"),
            ["Which pickup time do you want?", "How many seats do you want?"],
        ),
    ],
)
def test_two_missing_values_are_two_clear_questions(
    names: tuple[str, str], questions: list[str]
) -> None:
    types = {"date": "string", "check_in_date": "string", "pickup_time": "string"}
    asked = [question_for(n, {"type": types.get(n, "integer")}, "", tool="book") for n in names]
    assert asked == questions
    for question in asked:
        assert question.count("?") == 1 and question.endswith("?")

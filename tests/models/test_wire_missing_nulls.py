"""The OpenAI backend's schema check reads a missing required field whose schema allows null as
null (OpenAI's strict mode needs every field required: nullable-required is how an optional field
is written), and still rejects a missing field that may not be null. A library's loan desk,
written for these tests."""

from __future__ import annotations

from typing import Any

from harness.models._wire import schema_errors, with_missing_nulls

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "loans": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "due": {"type": ["string", "null"]},
                    "renewals": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                },
                "required": ["title", "due", "renewals"],
                "additionalProperties": False,
            },
        },
        "note": {"type": "null"},
    },
    "required": ["loans", "note"],
    "additionalProperties": False,
}


def test_missing_nullable_fields_read_as_null_at_any_depth() -> None:
    answer = {"loans": [{"title": "Middlemarch"}, {"title": "Emma", "due": "May 3", "renewals": 1}]}
    filled = with_missing_nulls(SCHEMA, answer)
    assert filled == {
        "loans": [
            {"title": "Middlemarch", "due": None, "renewals": None},
            {"title": "Emma", "due": "May 3", "renewals": 1},
        ],
        "note": None,
    }
    assert schema_errors(SCHEMA, filled) == []
    assert answer == {  # not changed in place
        "loans": [{"title": "Middlemarch"}, {"title": "Emma", "due": "May 3", "renewals": 1}]
    }


def test_a_complete_answer_is_returned_as_it_is() -> None:
    answer = {"loans": [{"title": "Emma", "due": None, "renewals": 0}], "note": None}
    assert with_missing_nulls(SCHEMA, answer) is answer


def test_a_missing_field_that_may_not_be_null_is_still_an_error() -> None:
    filled = with_missing_nulls(SCHEMA, {"loans": [{"due": "May 3"}]})
    assert filled == {"loans": [{"due": "May 3", "renewals": None}], "note": None}
    assert schema_errors(SCHEMA, filled)  # "title" is missing
    assert schema_errors(SCHEMA, with_missing_nulls(SCHEMA, {"loans": [{"title": 7}]}))

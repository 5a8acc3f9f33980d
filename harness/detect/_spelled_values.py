"""Values read in one form whatever their wording: :mod:`harness.text.spelled`, re-exported."""

from harness.text.spelled import (
    Value,
    agree,
    key_value,
    may_differ,
    same_values,
    spelled_values,
    stated,
    values_of,
    weight,
)

__all__ = [
    "Value",
    "agree",
    "key_value",
    "may_differ",
    "same_values",
    "spelled_values",
    "stated",
    "values_of",
    "weight",
]

"""The JSON report's writer: the text of ``json.dumps(value, indent=2, ensure_ascii=False)``."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.detect._json_text import indented

_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and the infinities too: written as json.dumps writes them
    | st.text()  # any code point: quotes, back-slashes, control characters, surrogates
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_the_text_is_that_of_json_dumps(value: Any) -> None:
    assert indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


class _Count(int):
    def __repr__(self) -> str:
        return "a count"


class _Share(float):
    def __repr__(self) -> str:
        return "a share"


@pytest.mark.parametrize(
    "value",
    [
        {"count": _Count(3), "share": _Share(0.5), "sure": True, "none": None},
        [[], {}, (), [{}], {"a": []}],
        {1: "an int key", None: "a None key", 2.5: "a float key", False: "a bool key"},
        {"nested": {"deeper": [1, {"deepest": math.inf}]}},
        '\u2028 \x00 \ud800 é "quoted" \\',
    ],
)
def test_odd_values_are_written_as_json_dumps_writes_them(value: Any) -> None:
    assert indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_what_json_dumps_refuses_it_refuses_too() -> None:
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular"):
        indented({"looped": looped})
    with pytest.raises(TypeError, match="not JSON serializable"):
        indented({"a set": {1, 2}})

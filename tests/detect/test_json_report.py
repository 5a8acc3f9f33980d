"""The JSON report's writer (``harness.detect._json.indented``) writes what
``json.dumps(document, indent=2, ensure_ascii=False)`` writes, for any document, and fails as it
fails; and the check's requests made through their slots are the declared requests they stand
for."""

from __future__ import annotations

import enum
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.detect._json import indented
from harness.detect.missed import DeclaredRequest, _request


class _Level(enum.StrEnum):
    HIGH = "high"


class _Count(enum.IntEnum):
    TWO = 2


_SCALARS = st.one_of(
    st.text(),  # quotes, back-slashes, control characters, emoji, ... (hypothesis: no surrogates)
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.sampled_from([_Level.HIGH, _Count.TWO, -0.0, 1e300, 5e-324]),
)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
    ),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(_DOCUMENTS)
def test_it_writes_what_json_dumps_writes(document: object) -> None:
    assert indented(document) == json.dumps(document, indent=2, ensure_ascii=False)


@pytest.mark.parametrize(
    "document",
    [
        {},
        [],
        {"a": []},
        {"a": {}, "b": [[], {}]},
        [math.nan, math.inf, -math.inf],
        {"é": "naïve “quoted” \\ line\nbreak \t \x00"},
        {1: "a", 2.5: "b", False: "c", None: "d"},  # keys json turns into strings
    ],
)
def test_edge_documents(document: object) -> None:
    assert indented(document) == json.dumps(document, indent=2, ensure_ascii=False)


def test_it_fails_as_json_dumps_fails() -> None:
    with pytest.raises(TypeError):
        indented({"when": object()})
    with pytest.raises(TypeError):
        indented({("a", "b"): 1})
    cycle: list[object] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular reference"):
        indented({"loop": cycle})


def test_a_request_made_through_its_slots_is_the_declared_request() -> None:
    made, declared = _request("when is payday"), DeclaredRequest(text="when is payday")
    assert made == declared and hash(made) == hash(declared) and repr(made) == repr(declared)
    # a field added to DeclaredRequest must be set by _request too
    assert [f for f in DeclaredRequest.__dataclass_fields__] == ["text", "agent", "words"]

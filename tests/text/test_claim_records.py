"""An analysis and its claims are made through their slots (``claims._claim``,
``claims._analysis``) rather than by the frozen dataclasses' ``__init__``; these tests compare the
records with the plain construction (equal, same hash, same ``repr``, same field types) and check
that a pickled analysis, as worker processes send it back, loads as an equal record."""

from __future__ import annotations

import pickle
from dataclasses import fields
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.detect import load_transcript
from harness.text import Analysis, Claim, analyse

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"

_PIECES = [
    "The order ",
    "ships on Monday",
    ". ",
    "It costs $12.50",
    " and ",
    "arrives in 3 days",
    "! ",
    "Is that OK?",
    "\n- ",
    "Room 4B",
    ", ",
    "call 555-0134",
    "**bold**",
    " not ",
    "now",
]


def _plain(analysis: Analysis) -> Analysis:
    """The same analysis, every record made by its dataclass's ``__init__``."""
    claims = tuple(
        Claim(**{f.name: getattr(c, f.name) for f in fields(Claim)}) for c in analysis.claims
    )
    values = {f.name: getattr(analysis, f.name) for f in fields(Analysis)}
    values["claims"] = claims
    return Analysis(**values)


def _check(text: str) -> None:
    made = analyse(text)
    plain = _plain(made)
    for got, want in [(made, plain), *zip(made.claims, plain.claims, strict=True)]:
        assert type(got) is type(want)
        assert got == want
        assert hash(got) == hash(want)
        assert repr(got) == repr(want)
        for f in fields(got):  # type: ignore[arg-type]
            assert type(getattr(got, f.name)) is type(getattr(want, f.name))
    loaded = pickle.loads(pickle.dumps(made))
    assert type(loaded) is Analysis
    assert loaded == made
    assert all(type(c) is Claim for c in loaded.claims)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_records_made_through_slots_are_the_plain_records(text: str) -> None:
    _check(text)


@cache
def _corpus_texts() -> tuple[str, ...]:
    texts = []
    for path in sorted(CORPUS.glob("*.transcript")):
        for conv in load_transcript(path):
            texts += [m.text for m in conv.messages if m.text.strip()]
    return tuple(dict.fromkeys(texts))


def test_records_made_through_slots_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check(text)


def test_a_frozen_record_made_through_slots_stays_frozen() -> None:
    import dataclasses

    import pytest

    made = analyse("The order ships on Monday. It costs $12.50.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.norm = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.claims[0].norm = "x"  # type: ignore[misc]

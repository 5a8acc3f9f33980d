"""The records the detector makes through their slots (``harness.text._records.slot_maker``): each
maker's object is the dataclass constructor's, pickles by reference under its module-level name,
and a field added to a class is set by its maker."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.detect import _features, missed, readers, requests
from harness.text import _split, claims, facts
from harness.text._records import slot_maker

# (module, the maker's module-level name, the class it makes)
MAKERS: list[tuple[Any, str, type]] = [
    (_split, "_span", _split.Span),
    (facts, "_fact", facts.Fact),
    (claims, "_claim", claims.Claim),
    (claims, "_analysis", claims.Analysis),
    (readers, "_plain_message", readers.Message),
    (requests, "_request", requests.Request),
    (missed, "_request", missed.DeclaredRequest),
    (_features, "_new_side", _features._Side),
]
IDS = [f"{module.__name__}.{name}" for module, name, _ in MAKERS]

# Any hashable value: a slot holds whatever it is given, and the constructor too.
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.frozensets(st.text(max_size=3), max_size=3),
    st.tuples(st.floats(allow_nan=False), st.integers()),
)


def _arity(maker: Callable[..., object]) -> int:
    return maker.__code__.co_argcount


def _plain(cls: type, names: list[str], values: list[object]) -> object:
    return cls(**dict(zip(names, values, strict=True)))


@pytest.mark.parametrize(("module", "name", "cls"), MAKERS, ids=IDS)
@given(data=st.data())
def test_the_maker_makes_the_constructors_record(
    module: Any, name: str, cls: type, data: st.DataObject
) -> None:
    maker = getattr(module, name)
    names = [f.name for f in fields(cls)][: _arity(maker)]
    values = data.draw(st.lists(_VALUES, min_size=len(names), max_size=len(names)))
    made, plain = maker(*values), _plain(cls, names, values)
    assert type(made) is cls
    assert made == plain
    assert repr(made) == repr(plain)
    assert hash(made) == hash(plain)
    loaded = pickle.loads(pickle.dumps(made))
    assert type(loaded) is cls
    assert loaded == made


@pytest.mark.parametrize(("module", "name", "cls"), MAKERS, ids=IDS)
def test_the_maker_pickles_by_its_module_level_name(module: Any, name: str, cls: type) -> None:
    maker = getattr(module, name)
    assert (maker.__module__, maker.__qualname__, maker.__name__) == (module.__name__, name, name)
    pickled = pickle.dumps(maker)
    assert module.__name__.encode() in pickled
    assert name.encode() in pickled
    assert pickle.loads(pickled) is maker
    assert maker.__wrapped__.__doc__ == maker.__doc__  # the decorated signature, kept


def test_claims_and_analyses_pickle_through_their_makers() -> None:
    analysis = claims.analyse("It costs $12.50 and ships on Monday. Is that OK?")
    assert analysis.__reduce__()[0] is claims._analysis
    assert analysis.claims[0].__reduce__()[0] is claims._claim
    assert pickle.loads(pickle.dumps(analysis)) == analysis


# A record as it is, and as it grows: the same maker's signature sets the new fields.
@dataclass(frozen=True, slots=True)
class _Record:
    text: str
    start: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class _Grown:
    text: str
    start: int
    note: str | None = None
    score: float = 0.5
    tags: frozenset[str] = frozenset({"a"})
    seen: list[int] = field(default_factory=list)
    flag: bool = field(default=True, init=False)


@slot_maker(_Record)
def _record(text: str, start: int) -> _Record:
    """A record."""
    return _Record(text, start)


@slot_maker(_Grown)
def _grown(text: str, start: int) -> _Grown:
    return _Grown(text, start)


@given(st.text(max_size=8), st.integers())
def test_a_field_added_to_the_class_is_set_by_the_maker(text: str, start: int) -> None:
    assert _record(text, start) == _Record(text, start)
    grown = _grown(text, start)
    assert grown == _Grown(text, start)
    assert (grown.score, grown.tags, grown.seen, grown.flag) == (0.5, frozenset({"a"}), [], True)
    assert grown.seen is not _grown(text, start).seen  # a factory's value is made each time
    assert pickle.loads(pickle.dumps(_grown)) is _grown
    assert pickle.loads(pickle.dumps(grown)) == grown


@dataclass(frozen=True, slots=True)
class _Derived(_Record):
    end: int = 0


@slot_maker(_Derived)
def _derived(text: str, start: int, note: str | None, end: int) -> _Derived:
    return _Derived(text, start, note, end)


def test_a_subclass_is_made_through_its_own_and_its_bases_slots() -> None:
    assert _derived("a", 1, None, 2) == _Derived("a", 1, None, 2)
    assert _derived("a", 1, "n", 2) != _Derived("a", 1, None, 2)


def test_a_made_record_stays_frozen() -> None:
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        _record("a", 1).start = 2  # type: ignore[misc]


def _maker_error(cls: type, signature: Callable[..., object]) -> str:
    with pytest.raises(TypeError) as error:
        slot_maker(cls)(signature)
    return str(error.value)


def test_a_field_left_out_without_a_default_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Needs:
        text: str
        start: int

    def make(text: str) -> Needs:
        return Needs(text, 0)

    assert "Needs.start, which has no default" in _maker_error(Needs, make)


def test_parameters_out_of_the_fields_order_are_refused() -> None:
    def swapped(start: int, text: str) -> _Record:
        return _Record(text, start)

    def defaulted(text: str, start: int = 0) -> _Record:
        return _Record(text, start)

    def keyword(text: str, *, start: int) -> _Record:
        return _Record(text, start)

    for signature in (swapped, defaulted, keyword):
        assert "the parameters must be the first fields" in _maker_error(_Record, signature)


def test_only_slotted_dataclasses_without_post_init_are_taken() -> None:
    @dataclass(frozen=True)
    class Plain:
        text: str

    @dataclass(slots=True)
    class Checked:
        text: str

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="slots=True"):
        slot_maker(Plain)
    with pytest.raises(TypeError, match="__post_init__"):
        slot_maker(Checked)


def test_a_field_not_in_init_cannot_be_a_parameter() -> None:
    def make(
        text: str, start: int, note: str | None, score: float, tags: Any, seen: Any, flag: bool
    ) -> _Grown:
        raise NotImplementedError

    assert "not an argument of __init__" in _maker_error(_Grown, make)


def test_a_maker_or_field_named_as_a_generated_global_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Odd:
        _new: str

    def make(_new: str) -> Odd:
        return Odd(_new)

    def _set_text(text: str, start: int) -> _Record:
        return _Record(text, start)

    assert "named as the maker's globals" in _maker_error(Odd, make)
    assert "named as the maker's globals" in _maker_error(_Record, _set_text)


def test_a_field_that_is_no_slot_and_a_class_with_its_own_new_are_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Base:
        text: str

    class Shadowed(Base):
        __slots__ = ()

        @property
        def text(self) -> str:  # type: ignore[override]
            return "shadowed"

    @dataclass(frozen=True, slots=True)
    class Newed:
        text: str

        def __new__(cls, text: str) -> Newed:
            return super().__new__(cls)

    def make(text: str) -> Base:
        return Base(text)

    with pytest.raises(TypeError, match="is not a slot"):
        slot_maker(Shadowed)(make)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="__new__"):
        slot_maker(Newed)

"""Makers of slotted dataclass records that skip the generated ``__init__``.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (its keyword
handling and attribute look-ups on top): 1.6 to 4 times the cost of setting each slot through its
descriptor. The detector makes a few hundred thousand spans, facts, claims and requests per
100,000 messages, so the classes it makes most are made through their slots instead, by a maker
that :func:`slot_maker` writes from the class's fields::

    @slot_maker(Span)
    def _span(start: int, end: int, text: str) -> Span:
        \"\"\"``Span(start, end, text)``, made through its slots.\"\"\"
        return Span(start, end, text)

The decorated function gives the maker's signature, and its body the constructor call the maker
stands for (type-checked, never run; kept as the maker's ``__wrapped__``). Its parameters are the
first fields of the class, in :func:`dataclasses.fields` order and by name, and every field after
them is set to its default. The maker sets every field, so a field added to the class is set by
the maker too (to its default; a field without one makes the import fail). The maker's code is
generated once per class and is the code one would write by hand (the object made by
``object.__new__``, then one slot setter call per field). It takes the decorated function's
name, module and docstring, so it pickles by reference under that name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from types import MemberDescriptorType
from typing import ParamSpec, TypeVar

__all__ = ["slot_maker"]

P = ParamSpec("P")
T = TypeVar("T")

# Defaults written into the maker's code as constants; any other default is a global of the code.
_LITERALS = (type(None), bool, int, str)


def slot_maker(cls: type[T]) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """A decorator turning a signature into a maker of ``cls`` through its slots.

    The maker's object equals ``cls(*args)`` (the same fields, the same values, defaults for the
    fields after the arguments) without calling ``__init__``.

    Args:
        cls: a dataclass with ``slots=True``, no ``__post_init__`` and no ``__new__`` of its own
            (frozen or not). An ``__init__`` written in the class body (which the dataclass
            decorator keeps) is not run by the maker either: do not make such a class this way.

    Raises:
        TypeError: ``cls`` is not such a dataclass; the decorated function's parameters are not
            the first fields of ``cls`` by name (positional, without defaults); a field after
            them has no default; or a parameter's field is not set by ``__init__``.
    """
    if not (isinstance(cls, type) and is_dataclass(cls) and "__slots__" in cls.__dict__):
        raise TypeError(f"{cls!r} is not a dataclass with slots=True")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__qualname__} has a __post_init__ a maker would not run")
    if cls.__new__ is not object.__new__:
        raise TypeError(f"{cls.__qualname__} has a __new__ a maker would not run")

    def decorate(signature: Callable[P, T]) -> Callable[P, T]:
        return _make_maker(cls, signature)

    return decorate


def _make_maker(cls: type[T], signature: Callable[P, T]) -> Callable[P, T]:
    name = signature.__name__
    params = list(inspect.signature(signature).parameters.values())
    record_fields = fields(cls)  # type: ignore[arg-type]
    field_names = [f.name for f in record_fields]
    names = [p.name for p in params]
    if names != field_names[: len(names)] or any(
        p.kind is not p.POSITIONAL_OR_KEYWORD or p.default is not p.empty for p in params
    ):
        raise TypeError(
            f"{name}{inspect.signature(signature)}: the parameters must be the first fields of "
            f"{cls.__qualname__} in order ({', '.join(field_names)}), positional, no defaults"
        )
    record = "_record"
    while record in field_names:
        record += "_"
    namespace: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def {name}({', '.join(names)}):", f"    {record} = _new(_cls)"]
    for i, f in enumerate(record_fields):
        setter = f"_set_{f.name}"
        slot = inspect.getattr_static(cls, f.name)  # the class's or a base class's
        if not isinstance(slot, MemberDescriptorType):
            raise TypeError(f"{cls.__qualname__}.{f.name} is not a slot")
        namespace[setter] = slot.__set__
        if i < len(names):
            if not f.init:
                raise TypeError(f"{cls.__qualname__}.{f.name} is not an argument of __init__")
            value = f.name
        elif f.default is not MISSING:
            if type(f.default) in _LITERALS or (type(f.default) is tuple and not f.default):
                value = repr(f.default)
            else:
                value = f"_default_{f.name}"
                namespace[value] = f.default
        elif f.default_factory is not MISSING:
            value = f"_factory_{f.name}()"
            namespace[value[:-2]] = f.default_factory
        else:
            raise TypeError(f"{name} leaves out {cls.__qualname__}.{f.name}, which has no default")
        lines.append(f"    {setter}({record}, {value})")
    lines.append(f"    return {record}")
    if clash := (set(names) | {name}) & namespace.keys():
        raise TypeError(
            f"{cls.__qualname__}: the maker or its fields named as the maker's globals: {clash}"
        )
    code = compile("\n".join(lines) + "\n", f"<slot maker {cls.__qualname__}>", "exec")
    exec(code, namespace)
    maker: Callable[P, T] = namespace[name]  # type: ignore[assignment]
    maker.__module__ = signature.__module__
    maker.__qualname__ = signature.__qualname__
    maker.__doc__ = signature.__doc__
    maker.__annotations__ = signature.__annotations__
    maker.__wrapped__ = signature  # type: ignore[attr-defined]
    return maker

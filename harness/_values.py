"""The form in which two field values are compared (``canonical_value``).

A leaf module: the aggregation (``harness.aggregate``) and the convergence report
(``harness.convergence``) both compare values this way, and the convergence module stays light
(it imports nothing of the rest of the SDK).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["canonical_value"]

# A number written as text: digits, optionally grouped by thousands, no leading zero (a code such
# as "02134" is not the number 2134).
_NUMERIC_TEXT = re.compile(r"[+-]?(?:0|[1-9]\d*|[1-9]\d{0,2}(?:,\d{3})+)(?:\.\d+)?")
_EXACT = 2**53
"""Floats at or above this size no longer hold every integer: they stay floats."""


def canonical_value(value: Any) -> Any:
    """The form in which two field values are compared: equal forms are one value.

    Numbers compare by value, whatever their type (``20``, ``20.0``, ``Decimal("20")``,
    ``Fraction(40, 2)``, a numpy scalar: any ``numbers.Number``), and so do strings that are only
    a number (``"20"``, ``"1,200"``; not ``"02134"``, a code, nor ``"20 days"``). Other strings
    compare without case and with their white space collapsed. Booleans stay booleans (``True``
    is not ``1``); lists and mappings are compared item by item.
    """
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, numbers.Number):
        return _number(value)
    if isinstance(value, str):
        text = " ".join(value.split())
        if _NUMERIC_TEXT.fullmatch(text):
            digits = text.replace(",", "")
            return _number(float(digits) if "." in digits else int(digits))
        return text.casefold()
    if isinstance(value, Mapping):
        return {str(k): canonical_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical_value(v) for v in value]
    return value


def _number(value: object) -> Any:
    """A number as an ``int`` when it is a whole number, else a ``float`` (numbers that are
    neither, such as a complex with an imaginary part, stay as they are)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, Decimal):  # registered as a Number only, not as a Real
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        return value if value.is_snan() else float(value)
    if isinstance(value, numbers.Rational) and value.denominator == 1:
        return int(value.numerator)  # exact, however large (a Fraction)
    if isinstance(value, numbers.Real):
        number = float(value)
        return int(number) if number.is_integer() and abs(number) < _EXACT else number
    if isinstance(value, numbers.Complex) and value.imag == 0:
        return _number(value.real)
    return value

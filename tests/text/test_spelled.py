"""Values read in one form whatever their wording live in the text layer (``harness.text.spelled``).

The detector and the aggregation both read them; the detector's old module re-exports them, so
both see one reader (one cache).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import harness
from harness.detect import _spelled_values
from harness.text import spelled


def test_the_text_layer_reads_a_value_in_words_and_in_digits_alike() -> None:
    assert ("d", 18.0, 1.0) in spelled.spelled_values("You get eighteen days.")
    assert spelled.same_values("You get eighteen days.", "You get 18 days.")
    assert not spelled.same_values("You get eighteen days.", "You get 20 days.")


def test_the_detectors_module_re_exports_the_same_reader() -> None:
    for name in _spelled_values.__all__:
        assert getattr(_spelled_values, name) is getattr(spelled, name), name


def test_the_aggregation_imports_nothing_of_the_detector() -> None:
    code = "import sys, harness.aggregate; print(' '.join(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(harness.__file__).parents[1])},
    ).stdout.split()
    assert [m for m in loaded if m.startswith("harness.detect")] == []


def test_spelled_values_are_remembered_per_text() -> None:
    # The duplicate comparison reads the values of the same claims again for each pair; a text's
    # values are read once (a decorator left on another function once dropped this cache).
    spelled.spelled_values.cache_clear()
    first = spelled.spelled_values("the ferry leaves at 10:15 and costs £4.60")
    again = spelled.spelled_values("the ferry leaves at 10:15 and costs £4.60")
    assert first is again
    assert spelled.spelled_values.cache_info().hits == 1
    assert spelled.count_of("twenty-one") == 21 and spelled.count_of("a") == 1
    assert spelled.count_of("ferry") is None

"""The duplicate detector on the labelled calibration set (see measure.py and build_pairs.py)."""

from __future__ import annotations

from tests.simulate.calibration.measure import PAIRS, load_pairs, measure


def test_precision_and_recall_on_the_labelled_pairs() -> None:
    pairs = load_pairs(PAIRS)
    assert len(pairs) >= 300
    report = measure(pairs)
    assert report.overall.precision >= 0.95, report.overall.line("overall")
    assert report.overall.recall >= 0.95, report.overall.line("overall")
    assert report.different_fact_pairs >= 50
    assert report.different_fact_false_positives == 0

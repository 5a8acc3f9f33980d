"""``all_stated`` reads ``within`` through an index; its verdict is the pairwise one."""

from __future__ import annotations

import random

from harness.text.spelled import Value, all_stated, stated


def _values(rng: random.Random, count: int) -> frozenset[Value]:
    out: set[Value] = set()
    for _ in range(count):
        kind = rng.choice(["n", "m", "d", "t", "date"])
        base = rng.choice([0, 2, 3, 7, 14, 20, 26, 30, 30.44, 60, 90, 182, 183, 365.25])
        amount = base * rng.choice([1, 1.01, 0.99, 1.025, 0.975, 1.03, 0.97, -1])
        out.add((kind, amount if rng.random() < 0.6 else rng.uniform(-5, 400), 1.0))
    return frozenset(out)


def test_the_indexed_check_gives_the_pairwise_verdict() -> None:
    rng = random.Random(11)
    indexed = 0
    for _ in range(3_000):
        values, within = _values(rng, rng.randint(0, 30)), _values(rng, rng.randint(0, 40))
        indexed += len(values) * len(within) > 64  # past the direct comparison of small sets
        assert all_stated(values, within) == all(stated(v, within) for v in values)
    assert indexed > 1_000


def test_durations_within_the_tolerance_are_stated() -> None:
    assert all_stated({("d", 183.0, 1.0)}, frozenset({("d", 182.0, 1.0)}))  # six months, 26 weeks
    assert not all_stated({("d", 20.0, 1.0)}, frozenset({("d", 18.0, 1.0)}))
    assert not all_stated({("n", 20.0, 1.0)}, frozenset({("d", 20.0, 1.0)}))

"""Each bot message's screen sketch, made by the process that analyses the message when the
comparison will be spread over processes: the same sketches, and the same findings, as when the
comparison makes them (the shortcut against the plain step, as ``test_check_shortcuts.py``).

With worker processes the comparison's processes are forked after the analysis: a sketch the
parent made while analysing is inherited by every one of them, instead of each making those of
the messages its slices meet (a message's candidates are often in another process's slices).
"""

from __future__ import annotations

import multiprocessing
import random
from typing import Any, Literal

import pytest

from harness.detect import _analysis, _features, _screen, duplicates
from harness.detect._meanwhile import Meanwhile
from harness.detect.duplicates import find_duplicates, worker_processes
from harness.detect.findings import DetectorConfig
from harness.detect.scorer import scorer
from harness.detect.transcript import Message
from harness.text import Analysis
from tests.simulate.test_perf_equivalence import generated

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)

_WORDS = [
    "the",
    "your",
    "order",
    "card",
    "refund",
    "ticket",
    "is",
    "was",
    "on",
    "Friday",
    "March",
    "12",
    "$40.50",
    "ready",
    "booked",
]


def _random_messages(seed: int, count: int) -> list[Message]:
    rng = random.Random(seed)
    out: list[Message] = []
    for k in range(count):
        role: Literal["user", "bot"] = "user" if k % 3 == 0 else "bot"
        sentences = [
            " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 9))).capitalize()
            + rng.choice([".", "?", "!", ""])
            for _ in range(rng.randrange(0, 4))
        ]
        out.append(
            Message(id=f"m{k}", turn=k // 3, role=role, sender=role, text=" ".join(sentences))
        )
    return out


def _cleared() -> None:
    _screen._SKETCHES.clear()
    _features._SIDES.clear()


def _plain_sketches(analyses: list[Any]) -> list[Any]:
    """Each analysis's sketch made afresh, with nothing cached."""
    _cleared()
    sketches = []
    for analysis in analyses:
        sketches.append(_screen._sketch(analysis))
        _cleared()
    return sketches


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_analysis_makes_the_sketches_the_comparison_would(seed: int) -> None:
    messages = [*_random_messages(seed, 60), *generated(seed, 20, modes_known=True).messages]
    _cleared()
    analysed = _analysis._analysed(messages, 0, len(messages), _screen._sketch)
    bots = [a for a in analysed if isinstance(a, Analysis) and a.claims]
    assert bots
    made = [_screen._SKETCHES.get(id(a)) for a in bots]
    assert all(known is not None and known[0] is a for known, a in zip(made, bots, strict=True))
    assert [known[1] for known in made if known is not None] == _plain_sketches(bots)
    # the analyses themselves are those made without it
    _cleared()
    assert analysed == _analysis._analysed(messages, 0, len(messages))


def test_without_it_the_analysis_makes_no_sketch() -> None:
    messages = generated(4, 20, modes_known=True).messages
    _cleared()
    _analysis._analysed(messages, 0, len(messages))
    assert not _screen._SKETCHES


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)


def _given(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What the comparison asks the analysis to make after each analysis (its ``then``)."""
    seen: list[object] = []
    real = _analysis.steps

    def recording(*args: Any, **given: Any) -> Any:
        seen.append(given.get("then"))
        return real(*args, **given)

    monkeypatch.setattr(duplicates, "steps", recording)
    return seen


def test_this_process_makes_it_for_the_shares_it_analyses() -> None:
    messages = generated(5, 30, modes_known=True).messages
    bots = [
        a
        for a in _analysis._analysed(messages, 0, len(messages))
        if isinstance(a, Analysis) and a.claims
    ]
    ends = _analysis.Ends.of(messages)
    ends.helper = lambda: {}  # a helper that took none: this process takes every share
    seen: list[Analysis] = []
    assert ends.analysed(then=seen.append) == _analysis._analysed(messages, 0, len(messages))
    assert seen == bots


@pytest.mark.parametrize("seed", [41, 42])
def test_with_workers_the_parent_sketches_while_analysing_and_finds_the_same(
    seed: int, parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = generated(seed, 60, modes_known=True)
    config = DetectorConfig()
    _cleared()
    alone = find_duplicates(transcript, config)
    given = _given(monkeypatch)
    for meanwhile in (Meanwhile(lambda: "checked"), None):
        _cleared()
        given.clear()
        with worker_processes(2):
            together = find_duplicates(transcript, config, meanwhile=meanwhile)
        assert together == alone
        assert given == [_screen._sketch]


def test_no_sketch_in_the_analysis_for_another_scorer_or_past_the_caches(
    parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = generated(43, 60, modes_known=True)
    config = DetectorConfig()
    given = _given(monkeypatch)
    with worker_processes(2):
        duplicates.conversation_pairs(transcript, config, pair_model=scorer())
    assert given == [None]
    bots = sum(1 for m in transcript.messages if m.role != "user")
    for held, sketched in ((0, True), (10, False)):  # sketches of another conversation held
        _cleared()
        _screen._SKETCHES.update({-k: (None, None) for k in range(1, held + 1)})  # type: ignore[misc]
        given.clear()
        monkeypatch.setattr(duplicates, "_SKETCHED", bots + 5)  # room for them, or not
        with worker_processes(2):
            find_duplicates(transcript, config)
        assert given == [_screen._sketch if sketched else None]
    _cleared()

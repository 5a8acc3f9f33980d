"""``tools.detector.misses`` puts each missed duplicate at the stage that loses it, on new text
with scorer doubles (the dev corpus's own run is a development run, not a test)."""

from __future__ import annotations

from harness.detect.scorer import FEATURES, PairScorer
from tests.detect.test_failure_classes import conversation
from tools.detector.fit import Labelled
from tools.detector.misses import stages


def _scorer(bias: float) -> PairScorer:
    n = len(FEATURES)
    return PairScorer(
        {
            "features": list(FEATURES),
            "mean": [0] * n,
            "scale": [1] * n,
            "coef": [0] * n,
            "bias": bias,
        }
    )


def _labelled(*lines: tuple[str, str], duplicates: set[tuple[str, str]]) -> Labelled:
    return Labelled(
        name="t",
        transcript=conversation(*lines),
        duplicates=frozenset(frozenset(p) for p in duplicates),
        negatives=frozenset(),
        source="new",
    )


_RESTATED = _labelled(
    ("user", "How much is the late fee on my library card?"),
    ("library", "The late fee on card 40917 is $3.60, payable at any branch desk."),
    ("user", "Can I renew the atlas I borrowed?"),
    (
        "library",
        "The atlas can be renewed once more, until June 9. Card 40917 still has a late fee of "
        "$3.60, which you can pay at any branch desk.",
    ),
    duplicates={("m2", "m4")},
)


def test_a_pair_the_scorer_turns_down_is_lost_at_the_scorer() -> None:
    # Reworded, so no stated rule (verbatim, resent) finds it whatever the scorer says.
    (miss,) = stages([_RESTATED], _scorer(-10.0))
    assert (miss.pair, miss.stage) == (("m2", "m4"), "scored")
    assert miss.probability is not None and miss.probability < 0.01
    assert miss.scope == "cross_turn"


def test_a_pair_the_scorer_takes_is_no_miss() -> None:
    assert stages([_RESTATED], _scorer(10.0)) == []


def test_a_pair_that_shares_nothing_is_no_candidate() -> None:
    item = _labelled(
        ("user", "Is the pool open today?"),
        ("gym", "The pool is open until 9 pm today."),
        ("user", "ok thanks"),
        ("gym", "Glad to help, enjoy your swim!"),
        duplicates={("m2", "m4")},
    )
    (miss,) = stages([item], _scorer(10.0))
    assert (miss.stage, miss.probability) == ("no candidate", None)


def test_a_repeat_the_user_asked_for_is_lost_to_that_rule() -> None:
    item = _labelled(
        ("user", "What do I owe on my water bill?"),
        ("billing", "Your water bill is $58.20, due on August 3."),
        ("user", "sorry, what was the amount again?"),
        ("billing", "Your water bill is $58.20, due on August 3."),
        duplicates={("m2", "m4")},
    )
    (miss,) = stages([item], _scorer(10.0))
    assert miss.stage == "excused: asked_again"

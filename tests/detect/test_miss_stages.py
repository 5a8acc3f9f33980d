"""``tools.detector.misses`` puts each missed duplicate at the stage that loses it, on new text
with scorer doubles (the dev corpus's own run is a development run, not a test)."""

from __future__ import annotations

from harness.detect.findings import Finding
from harness.detect.scorer import FEATURES, PairScorer
from tests.detect.test_failure_classes import conversation
from tools.detector.fit import Labelled, Score, found_pairs
from tools.detector.misses import stages


def _scorer(bias: float, **coef: float) -> PairScorer:
    n = len(FEATURES)
    return PairScorer(
        {
            "features": list(FEATURES),
            "mean": [0] * n,
            "scale": [1] * n,
            "coef": [coef.get(name, 0.0) for name in FEATURES],
            "bias": bias,
        }
    )


def _labelled(
    *lines: tuple[str, str], duplicates: set[tuple[str, str]], name: str = "t"
) -> Labelled:
    return Labelled(
        name=name,
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


def test_a_miss_carries_the_labels_method_and_scope_beside_the_detectors() -> None:
    labelled = Labelled(
        name=_RESTATED.name,
        transcript=_RESTATED.transcript,
        duplicates=_RESTATED.duplicates,
        negatives=_RESTATED.negatives,
        source=_RESTATED.source,
        detail={frozenset({"m2", "m4"}): ("containment", "cross_turn")},
    )
    (miss,) = stages([labelled], _scorer(-10.0))
    assert miss.labelled == ("containment", "cross_turn")
    (unlabelled,) = stages([_RESTATED], _scorer(-10.0))
    assert unlabelled.labelled == ("", "")


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


def test_a_pair_the_scorer_turns_down_is_lost_at_the_scorer_though_a_rule_fires_too() -> None:
    # Reworded: nothing but the scorer lets it through, so a scorer that turns it down loses it
    # whatever the rule after it says; the rule is named beside.
    item = _labelled(
        ("user", "When does my gym membership renew?"),
        ("gym", "Your membership renews on October 14 for $42."),
        ("user", "sorry, when was that again?"),
        ("gym", "It renews on October 14, and the charge will be $42."),
        duplicates={("m2", "m4")},
    )
    (turned_down,) = stages([item], _scorer(-10.0))
    assert (turned_down.stage, turned_down.rule) == ("scored", "asked_again")
    (taken,) = stages([item], _scorer(10.0))
    assert (taken.stage, taken.rule) == ("excused: asked_again", "asked_again")


def test_a_copy_is_taken_whatever_the_scorer_says_so_the_rule_loses_it() -> None:
    item = _labelled(
        ("user", "What is the wifi password at the cabin?"),
        ("host", "The cabin wifi password is pinecone-2291."),
        ("user", "could you repeat the password please?"),
        ("host", "The cabin wifi password is pinecone-2291."),
        duplicates={("m2", "m4")},
    )
    (miss,) = stages([item], _scorer(-10.0))
    assert (miss.stage, miss.rule) == ("excused: asked_again", "asked_again")


def test_a_closing_sent_again_in_another_turn_is_set_aside_before_the_scorer() -> None:
    item = _labelled(
        ("user", "Where do I pick up my parcel?"),
        ("post", "Your parcel waits at the Elm Street counter until Friday."),
        ("post", "Is there anything else I can help with?"),
        ("user", "no that's all"),
        ("post", "Is there anything else I can help with?"),
        duplicates={("m3", "m5")},
    )
    for bias in (-10.0, 10.0):
        (miss,) = stages([item], _scorer(bias))
        assert (miss.pair, miss.stage) == (("m3", "m5"), "excused: closing")


def test_a_scored_miss_names_the_features_that_pull_it_down() -> None:
    # The scorer reads only what the user said in between: the restatement after a long user
    # message is turned down, the one with none found, and its median lifts the miss.
    found = _labelled(
        ("user", "What time does the ferry to Vashon leave?"),
        ("ferry", "The next ferry to Vashon leaves at 4:35 pm from pier 52."),
        ("ferry", "Boarding for the 4:35 pm ferry to Vashon at pier 52 starts ten minutes early."),
        duplicates={("m2", "m3")},
        name="a",
    )
    lost = _labelled(
        ("user", "How much is a day pass for the museum?"),
        ("museum", "A day pass for the museum costs $24 and includes the rooftop garden."),
        (
            "user",
            "great, and can I bring my dog along when I visit on the weekend with my kids and "
            "my parents?",
        ),
        (
            "museum",
            "Dogs are not allowed inside, sorry. The museum day pass is $24, with the "
            "rooftop garden included.",
        ),
        duplicates={("m2", "m4")},
        name="b",
    )
    (miss,) = stages([found, lost], _scorer(1.0, user_said=-1.0))
    assert (miss.transcript, miss.stage) == ("b", "scored")
    assert miss.pulling[0][0] == "user_said" and miss.pulling[0][1] > 0.7


def test_a_pair_is_found_as_the_fit_counts_it() -> None:
    # Three messages in one finding hold three pairs, for the stage tool and the fit's score alike.
    finding = Finding(
        kind="duplicate",
        turn=3,
        message_ids=("m2", "m4", "m6"),
        senders=("desk",) * 3,
        evidence="the same opening hours",
    )
    other = Finding(
        kind="missed_request", turn=1, message_ids=("m1", "m2"), senders=(), evidence=""
    )
    pairs = {frozenset(p) for p in (("m2", "m4"), ("m2", "m6"), ("m4", "m6"))}
    assert found_pairs([finding, other]) == pairs
    item = _labelled(("user", "hi"), duplicates={("m2", "m6")})
    score = Score()
    score.add(item, [finding, other])
    assert (score.tp, score.fp, score.findings) == (1, 2, 1)

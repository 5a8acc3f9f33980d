"""The per-bot classifier the matcher adds to its figures (``harness.planning._classifier``)."""

from __future__ import annotations

from harness.models import AgentCard
from harness.planning._classifier import AgentClassifier, features
from harness.planning.match import FEATURES, AgentMatcher

TEXTS = [
    (0, "when is payday"),
    (0, "when do i get paid"),
    (0, "where is my payslip"),
    (1, "how many vacation days do i have left"),
    (1, "book time off next week"),
    (1, "how many days of leave have i used"),
]


def test_words_and_word_pairs_are_the_features() -> None:
    got = features("When do I get paid? 2 days")
    assert {"when", "paid", "when do", "get paid", "paid day"} <= set(got)
    assert "2" not in got  # a bare number says nothing about the agent


def test_it_learns_which_words_tell_the_agents_apart() -> None:
    classifier = AgentClassifier(TEXTS, 2)
    pay, leave = classifier.probabilities("when will I be paid")
    assert pay > 0.6 > leave
    pay, leave = classifier.probabilities("how many days off do I have")
    assert leave > 0.6 > pay


def test_function_words_alone_are_no_evidence() -> None:
    classifier = AgentClassifier(TEXTS, 2)
    assert classifier.probabilities("when is it") == [0.0, 0.0]
    assert classifier.probabilities("zzz qqq") == [0.0, 0.0]


def test_the_same_texts_give_the_same_weights() -> None:
    one = AgentClassifier(TEXTS, 2).probabilities("payday leave")
    two = AgentClassifier(list(TEXTS), 2).probabilities("payday leave")
    assert one == two


def test_an_agent_with_few_texts_is_not_outvoted_by_one_with_many() -> None:
    many = [(0, f"the meeting room {name}") for name in ("alpha", "beta", "gamma", "delta")] * 5
    few = [(1, "the room service menu")]
    classifier = AgentClassifier(many + few, 2)
    meetings, service = classifier.probabilities("room service")
    assert service > meetings


def test_the_matcher_counts_it_as_one_of_its_figures() -> None:
    cards = (
        AgentCard(name="payroll", description="Pay.", mode="silent", examples=("when is payday",)),
        AgentCard(name="pto", description="Leave.", mode="silent", examples=("days off left",)),
    )
    index = FEATURES.index("classifier_probability")
    figures = dict(AgentMatcher(cards).features("payday"))
    assert figures["payroll"][index] > figures["pto"][index] > 0.0

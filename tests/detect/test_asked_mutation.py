"""The mutation that drops a request behind a question back about another task
(:attr:`tests.detect.multi_intent.Mutation.asked_flagged`): a bot that leaves a request out and
sends, in its answer's place, a real SGD question for a detail of another domain's task ("How many
bedrooms do you need?"). Measured on the development split ``own`` (session s66, every finding,
one message per answer): 376 of 1,606 such turns flagged (23.4 %), against 1,518 of 1,606 (94.5 %)
with the answer's message removed. The floor keeps the figure from falling further; the check
does not yet tell a question about another task from one about the request (the journal's
2026-12-06 s66-mut section)."""

from __future__ import annotations

import random

from tests.detect.multi_intent import mutation, question_back_for, questions_back

ASKED_OWN = 0.23  # 23.41 % (376 / 1,606), s66


def test_questions_back_come_from_sgd_train_for_development_splits() -> None:
    questions = questions_back("own")
    assert questions == questions_back("sgd-train")
    assert len({domain for domain, _ in questions}) >= 10
    assert all(domain and text for domain, text in questions)


def test_the_question_chosen_is_of_another_domain_than_the_request() -> None:
    request = {"text": "Find me a restaurant for Friday", "intent": "Restaurants", "agent": "x"}
    rng = random.Random(1)
    chosen = {question_back_for(request, questions_back("own"), rng) for _ in range(200)}
    restaurants = {text for domain, text in questions_back("own") if domain == "Restaurants"}
    assert chosen and not chosen & restaurants


def test_a_drop_behind_a_question_back_is_flagged_at_least_as_often_as_measured() -> None:
    result = mutation("own")
    assert result.asked_flagged / result.dropped_turns >= ASKED_OWN

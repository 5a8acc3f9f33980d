"""The mutation that drops a request behind a question back about another task
(:attr:`tests.detect.multi_intent.Mutation.asked_flagged`): a bot that leaves a request out and
sends, in its answer's place, a real SGD question for a detail of another domain's task ("How many
bedrooms do you need?"). Measured on the development split ``own`` (every finding, one message
per answer): 376 of 1,606 such turns flagged (23.4 %) in session s66 before the check told a
question about another task from one about the request (:mod:`harness.detect._asked_about`),
546 (34.0 %) after it (s66-qback, held back on positive evidence only), against 1,519 of 1,606
(94.6 %) with the answer's message removed. The floor keeps the figure from falling (the
journal's 2026-12-06 s66 sections)."""

from __future__ import annotations

import random

from tests.detect.multi_intent import fillers, mutation, question_back_for, questions_back

ASKED_OWN = 0.33  # 34.00 % (546 / 1,606), s66-qback (23.41 % before)


def test_questions_back_come_from_sgd_train_for_development_splits() -> None:
    questions = questions_back("own")
    assert questions == questions_back("sgd-train")
    assert len({domain for domain, _ in questions}) >= 10
    assert all(domain and text for domain, text in questions)


def test_every_development_split_draws_its_closers_from_sgd_train() -> None:
    closers = fillers("own")
    assert all(fillers(split) == closers for split in ("dev", "styled", "ways-dev", "sgd-train"))


def test_the_question_chosen_is_of_another_domain_than_the_request() -> None:
    request = {"text": "Find me a restaurant for Friday", "intent": "Restaurants", "agent": "x"}
    rng = random.Random(1)
    chosen = {question_back_for(request, questions_back("own"), rng) for _ in range(200)}
    restaurants = {text for domain, text in questions_back("own") if domain == "Restaurants"}
    assert chosen and not chosen & restaurants


def test_a_drop_behind_a_question_back_is_flagged_at_least_as_often_as_measured() -> None:
    result = mutation("own")
    assert result.asked_flagged / result.dropped_turns >= ASKED_OWN

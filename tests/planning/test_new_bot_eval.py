"""The new-bot evaluation keeps what it routes out of what the planner learnt
(``tests/planning/new_bot_eval.py``): a request is never a card's example, and a domain left out
is in no source request of its table."""

from __future__ import annotations

import pytest

from tests.planning.build_concepts import sourced
from tests.planning.new_bot_eval import SGD, bot, requests

pytestmark = pytest.mark.skipif(not SGD.is_dir(), reason="needs ../shared/data/sgd")


def test_no_request_is_an_example_of_its_bot() -> None:
    for fold in (0, 1):
        examples = {e for card in bot(fold, 0) for e in card.examples}
        texts = {text for text, _ in requests(fold)}
        assert texts and examples and not texts & examples


def test_the_cards_examples_come_from_the_other_fold() -> None:
    mine = {text for text, _ in requests(0)}
    assert len({e for card in bot(0, 0) for e in card.examples} & mine) == 0
    assert {card.name for card in bot(0, 0)} == {gold for _, gold in requests(0)}


def test_a_left_out_domain_is_in_no_source_request() -> None:
    # ``table(fold, "Buses")`` is built from exactly these rows.
    rows = [(t, i) for t, i, f, domains in sourced() if f != 0 and "Buses" not in domains]
    assert rows and not any(intent.startswith("sgd:Buses:") for _, intent in rows)

"""An answer in the bot's own words, released to its request by the paraphrase table
(``AnswerMatcher.paraphrases``), only when it gives what the request asks for and when the turn has
a sentence for every request (session s70)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from harness.detect import _matched_turn
from harness.detect.answers import matcher
from harness.detect.missed import DeclaredRequest, unanswered

TABLE = {
    "salary": {"earn": 0.6},
    "gross": {"earn": 0.4},
    "earn": {"salary": 0.6, "gross": 0.4},
}


@pytest.fixture
def with_table(monkeypatch: pytest.MonkeyPatch) -> None:
    table = replace(matcher(), paraphrases=TABLE)
    monkeypatch.setattr(_matched_turn, "matcher", lambda: table)


def _requests(*texts: str) -> list[DeclaredRequest]:
    return [DeclaredRequest(text=t) for t in texts]


def test_a_sentence_in_other_words_answers_a_request_for_an_amount_only_with_an_amount(
    with_table: None,
) -> None:
    """A request for an amount ("how much do I earn") is answered in other words by a sentence that
    gives an amount, not by one of the same subject that gives none (it answers another need)."""
    requests = _requests("how much do I earn", "set a timer for ten minutes")
    timer = "Done, counting down from ten minutes."
    assert unanswered(requests, ["Your gross salary is $4,200 a month.", timer]) == []
    assert unanswered(requests, ["Your gross salary is shown on the portal.", timer]) == [0]


def test_no_release_when_the_turn_has_fewer_answers_than_requests(with_table: None) -> None:
    """With fewer sentences than requests (a closer does not count), the sentence in other words
    may be the answer of a request with no word to match; it is not released."""
    requests = _requests("what do I earn", "set a timer for ten minutes")
    pay = "Your gross salary is shown on the portal."
    timer = "Done, counting down from ten minutes."
    assert unanswered(requests, [pay, timer]) == []
    assert unanswered(requests, [pay, "Have a great day!", timer]) == []
    three = _requests("what do I earn", "set a timer for ten minutes", "when will I be off again")
    assert unanswered(three, [pay, timer, "Your next day away is Friday."]) == []
    assert unanswered(three, [pay, timer]) == [0]
    assert unanswered(three, [pay, timer, "Is there anything else I can help with?"]) == [0]


def test_a_question_back_is_neither_released_nor_counted_as_an_answer(with_table: None) -> None:
    """A sentence that asks the user something stands in for no request: the table does not
    release it, and a turn whose other sentences are fewer than its requests releases nothing."""
    requests = _requests("what do I earn", "set a timer for ten minutes")
    timer = "Done, counting down from ten minutes."
    assert unanswered(requests, ["Your gross salary is shown on the portal.", timer]) == []
    # Two requests, one answer and a question back: one request went without, whichever the
    # question is read as following up.
    assert unanswered(requests, ["Your gross salary is shown on the portal.", "At what time?"])

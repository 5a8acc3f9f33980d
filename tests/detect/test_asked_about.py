"""A question back answers only a request it is about (:mod:`harness.detect._asked_about`): a bot
that leaves a request out and asks about another task in its place is flagged, while a question
back about the request, in a task the detector's tables know or in one they do not, still
covers it. Every text here was written for these tests."""

from __future__ import annotations

from harness.detect._asked_about import asked_elsewhere, task_words
from harness.detect.answers import matcher
from harness.detect.missed import missed_requests
from harness.detect.transcript import Message, Transcript


def _missed(text: str, said: list[str]) -> list[str]:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=text)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    found = missed_requests(Transcript(conversation="c", messages=messages))
    return [f.evidence.split('"')[1] for f in found]


def test_a_question_about_another_task_does_not_stand_in_for_the_answer() -> None:
    text = "Check my savings balance and find me a bus to Denver."
    said = ["Your savings balance is $2,140.", "How many bedrooms do you need?"]
    assert _missed(text, said) == ["find me a bus to Denver"]


def test_a_question_back_about_the_request_still_covers_it() -> None:
    text = "Check my savings balance and find me a bus to Denver."
    assert not _missed(text, ["Your savings balance is $2,140.", "When do you want to leave?"])
    text = "Check my savings balance and book a table at a restaurant."
    assert not _missed(text, ["Your savings balance is $2,140.", "Which cuisine would you like?"])
    assert _missed(text, ["Your savings balance is $2,140.", "How many bedrooms do you need?"])


def test_in_a_task_the_tables_never_saw_a_question_back_keeps_its_lenient_reading() -> None:
    text = "Get me a chimney sweep and check my savings balance."
    said = ["Which neighbourhood is the property in?", "Your savings balance is $2,140."]
    assert not _missed(text, said)
    table = matcher().associations
    assert not asked_elsewhere("Which neighbourhood is the property in?", text, table)


def test_a_question_of_any_task_or_a_request_named_by_a_pronoun_says_nothing() -> None:
    table = matcher().associations
    # no word of one kind of task: it may follow up nearly anything
    assert not asked_elsewhere("In what city?", "book me a bus to Denver", table)
    # the request names its task elsewhere
    assert task_words("can you book it for me") == frozenset()
    assert not asked_elsewhere("How many bedrooms do you need?", "can you book it for me", table)
    # "this" before a word is a determiner, the task is named
    assert task_words("look for a concert this weekend")
    assert asked_elsewhere("How many bedrooms do you need?", "what time is the movie", table)

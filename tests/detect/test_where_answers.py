"""What counts as an answer in the missed-request check (issue 25): a phone number, an e-mail or a
web address is no place, time or amount, so a bot's handoff line answers no "where"; "where are
you" is judged though it has no content word ("where was I" is not); a phrase of time is no
place; a list of noun phrases each naming a kind of value ("<X> time, <Y> price and opening
hours") is several requests.

``tests/fixtures/where_answers/messages.json`` (written by hand for session s64, it says so)
holds multi-request messages with one complete answer per request and bots' handoff lines. What
was measured on it is in docs/journal/simulate.md (s64-where)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.detect._kinds import asked_kinds, given_kinds
from harness.detect._value_lists import value_list
from harness.detect.missed import _segmented, missed_requests
from harness.detect.transcript import Message, Transcript

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "where_answers" / "messages.json"


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def _flagged(text: str, said: list[str]) -> list[str]:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=text)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    found = missed_requests(Transcript(conversation="c", messages=messages))
    return [f.evidence for f in found]


ZOO = "When do you open tomorrow? Also where are the red pandas?"


@pytest.mark.parametrize(
    "handoff",
    [
        "For anything else, call Hollow Oak Zoo on 01632 960 555.",
        "Our phone line is 01632 960 555.",
        'I can\'t help with "where are the red pandas" here. For anything else, call Hollow Oak'
        " Zoo on 01632 960 555.",
    ],
)
def test_a_phone_number_answers_no_where(handoff: str) -> None:
    found = _flagged(ZOO, ["We open at 9 am tomorrow.", handoff])
    assert len(found) == 1 and "red pandas" in found[0]


def test_a_place_still_answers_where() -> None:
    said = [
        "We open at 9 am tomorrow.",
        "The red pandas are behind the reptile house.",
        "For anything else, call Hollow Oak Zoo on 01632 960 555.",
    ]
    assert _flagged(ZOO, said) == []


def test_a_phone_number_in_groups_is_a_contact() -> None:
    assert given_kinds("Our phone line is 01632 960 555.") == {"id"}
    assert "id" in asked_kinds("what's your phone number")
    # A house number and a street stay an address; an amount in groups stays an amount.
    assert given_kinds("Suite 210, 45 Oak Street") == {"name", "number"}
    assert "money" in given_kinds("The total is $1 200 000.")


def test_a_phrase_of_time_is_no_place() -> None:
    for said in (
        "The swimming gala is in the spring.",
        "Theses are handed in by the deadline.",
        "It's on the second Tuesday of the month.",
        "We are closed on the bank holiday.",
        "We reopen in the next two weeks.",
    ):
        assert "place" not in given_kinds(said), said
    text = "Where do I hand in my thesis and when is the deadline?"
    said = ["Theses are handed in by the deadline, 30 May.", "The deadline is 30 May at noon."]
    assert any("Where do I hand in" in f for f in _flagged(text, said))


def test_where_was_i_is_no_request() -> None:
    text = "OK where was I... how much is left on my gift card?"
    assert _flagged(text, ["You have $23.50 left on your gift card."]) == []


def test_an_amount_in_other_words_still_answers() -> None:
    text = "How much is a day pass, and where do I collect my bike?"
    said = ["It's £12.", "Bikes are collected from the dock outside the Corn Exchange."]
    assert _flagged(text, said) == []


def test_a_list_of_values_is_several_requests() -> None:
    text = "Swim lesson price, lane swim times and sauna opening hours please."
    assert [r.text for r in _segmented(text)] == [
        "Swim lesson price",
        "lane swim times",
        "sauna opening hours",
    ]
    found = _flagged(text, ["The sauna is open noon to 8 pm."])
    assert len(found) == 2


@pytest.mark.parametrize(
    "text",
    [
        "salt, pepper and vinegar",
        "price and location",
        "Book the pickup time and the drop-off time",
        "What's the start time and the end time",
    ],
)
def test_other_lists_are_not_cut_as_values(text: str) -> None:
    assert value_list(text) is None


def test_the_fixture_answered_with_a_handoff_is_not_flagged() -> None:
    data = _data()
    handoffs = data["handoffs"]
    flagged = []
    for n, m in enumerate(data["messages"]):
        if m["part"] != "a":
            continue
        said = [r["answer"] for r in m["requests"]] + [handoffs[n % len(handoffs)]]
        if _flagged(m["text"], said):
            flagged.append(m["id"])
    assert flagged == []

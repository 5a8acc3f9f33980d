"""A tool that acts only by its description, asked about with its verb's form as a noun or a
gerund ("the estimate", "monitoring", "the survey results"), answers as a reader did before it
was marked acting; only a use of the form as a verb (a past, a request, a mention of the change)
gives it the handling of a tool that acts (docs/models.md, "A verb off that list acts when the
tool's description says so"). Domains and words of session s71's mend of s71-acts2; dev, in
sample."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from harness import ChildAgent, Parent, run_sync


def estimate_repair(job_number: str) -> str:
    """Estimates the cost of a repair job by its job number."""
    return f"Job {job_number}: about 120 pounds."


def workshop_hours() -> str:
    """Opening times of the repair workshop each day."""
    return "Monday to Friday, 8 to 6."


def parts_in_stock(part: str) -> str:
    """Which spare parts the workshop has in stock of a kind."""
    return f"{part}: 3 in stock."


def monitor_flight(flight_number: str) -> str:
    """Monitors a flight by its flight number: boarding, in the air, landed."""
    return f"Flight {flight_number}: in the air."


def lounge_hours(terminal: str) -> str:
    """Opening times of the airport lounge in a terminal."""
    return f"Terminal {terminal}: 5am to 11pm."


def flight_history(email: str) -> str:
    """Past flights booked under an email address."""
    return f"{email}: 3 flights."


def survey_house(address: str) -> str:
    """Surveys a house at an address and reports its condition."""
    return f"{address}: sound roof, damp in the cellar."


def survey_prices() -> str:
    """Prices of house surveys by size."""
    return "From 300 pounds."


def tune_piano(address: str, date: str) -> str:
    """Tunes a piano at an address on a date."""
    return f"A tuner comes to {address} on {date}."


def pianos_for_sale(kind: str) -> str:
    """Pianos the shop has for sale of a kind: upright, grand."""
    return f"{kind}: two for sale."


def shop_hours() -> str:
    """Opening times of the piano shop."""
    return "10 to 5."


_BOTS: dict[str, tuple[tuple[Callable[..., str], ...], str]] = {
    "repair": (
        (estimate_repair, workshop_hours, parts_in_stock),
        "Repair estimates, workshop hours and spare parts.",
    ),
    "flight": (
        (monitor_flight, lounge_hours, flight_history),
        "Flight monitoring, lounge hours and past flights.",
    ),
    "survey": ((survey_house, survey_prices), "House surveys and their prices."),
    "piano": ((tune_piano, pianos_for_sale, shop_hours), "Piano tuning, sales and shop hours."),
}


def _send(bot: str, text: str) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    tools, about = _BOTS[bot]
    calls: list[tuple[str, dict[str, Any]]] = []

    def wrapped(tool: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(tool)
        def call(**kwargs: Any) -> str:
            calls.append((tool.__name__, kwargs))
            return tool(**kwargs)

        return call

    agent = ChildAgent(
        name="desk_agent", mode="direct", description=about, tools=[wrapped(t) for t in tools]
    )
    parent = Parent(name="front", instructions="Help.", subagents=[agent], model="rules")
    return run_sync(parent.conversation().send(text)).text, calls


@pytest.mark.parametrize(
    ("bot", "text", "call"),
    [
        # a noun after a determiner
        (
            "repair",
            "what's the estimate for job 3312?",
            ("estimate_repair", {"job_number": "3312"}),
        ),
        # a gerund after a determiner, and a bare gerund as the subject
        (
            "flight",
            "what does the monitoring show for flight BA220?",
            ("monitor_flight", {"flight_number": "BA220"}),
        ),
        (
            "flight",
            "what does monitoring say for flight BA220?",
            ("monitor_flight", {"flight_number": "BA220"}),
        ),
        # the head of a compound after a determiner
        (
            "survey",
            "what were the survey results for 12 Oak Street?",
            ("survey_house", {"address": "12 Oak Street"}),
        ),
        # a statement about the gerund
        (
            "flight",
            "the monitoring for flight BA220 hasn't updated in hours",
            ("monitor_flight", {"flight_number": "BA220"}),
        ),
    ],
)
def test_a_noun_or_gerund_of_the_verb_is_answered_as_by_a_reader(
    bot: str, text: str, call: tuple[str, dict[str, Any]]
) -> None:
    said, calls = _send(bot, text)
    assert calls == [call]
    assert "can't help" not in said


def test_a_compound_noun_of_the_verb_asks_for_the_missing_value() -> None:
    said, calls = _send("repair", "what's the repair estimate?")
    assert not calls
    assert "job number" in said and "can't help" not in said


def test_a_past_of_the_verb_is_handed_back_with_no_sibling_call() -> None:
    """No reader gets the words the mention leaves ("last month" as a kind of piano)."""
    _, calls = _send("piano", "you tuned my piano last month and it sounds off again")
    assert not calls
    _, calls = _send("repair", "did you estimate job 3312 already?")
    assert not calls


@pytest.mark.parametrize(
    ("bot", "text", "call"),
    [
        ("repair", "please estimate job 3312", ("estimate_repair", {"job_number": "3312"})),
        ("repair", "could you estimate job 3312?", ("estimate_repair", {"job_number": "3312"})),
        (
            "survey",
            "can you survey my house at 12 Oak Street?",
            ("survey_house", {"address": "12 Oak Street"}),
        ),
    ],
)
def test_the_verb_used_as_a_verb_still_asks_for_the_change(
    bot: str, text: str, call: tuple[str, dict[str, Any]]
) -> None:
    _, calls = _send(bot, text)
    assert calls == [call]


def test_a_request_lacking_its_values_is_asked_for_them() -> None:
    said, calls = _send("piano", "can you tune my piano?")
    assert not calls
    assert "address" in said and "date" in said


@pytest.mark.parametrize(
    ("bot", "text", "tool"),
    [
        ("piano", "when is the shop open?", "shop_hours"),
        ("flight", "when does the lounge in terminal 5 open?", "lounge_hours"),
        ("survey", "how much is a house survey?", "survey_prices"),
    ],
)
def test_questions_for_the_readers_stay_with_them(bot: str, text: str, tool: str) -> None:
    _, calls = _send(bot, text)
    assert [name for name, _ in calls] == [tool]

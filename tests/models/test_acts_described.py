"""A tool named with a verb off the offline model's list acts when its description says it does
(docs/models.md, "A verb off that list acts when the tool's description says so"). The dev set
is tests/fixtures/acting (session s70, written before any measurement; dev, in sample)."""

from __future__ import annotations

import pytest

from harness import ChildAgent, Parent, run_sync
from harness.models._actions import acts, asks_for_change, mentions_change
from tests.fixtures.acting import dev


@pytest.mark.parametrize(
    ("name", "description", "acting"),
    [
        ("print_poster", "Prints a poster in a size.", True),
        ("reprint_order", "Reprint an earlier order again.", True),
        ("tune_piano", "Tunes a piano at the customer's address on a date.", True),
        ("hire_temp", "Hire a temporary worker for a role.", True),
        ("pump_out_tank", "Pump out a septic tank at an address.", True),
        ("empty_bins", "Empties the bins of a street.", True),
        # A noun phrase, a relative clause, a name ending in a noun of reading: these read.
        ("hire_rates", "Hire rates per hour for a role.", False),
        ("print_queue", "The print queue: how many jobs are waiting.", False),
        ("plots_vacant", "Plots that are vacant now, by site.", False),
        ("class_timetable", "Classes each day: spin, yoga and HIIT.", False),
        ("print_status", "Prints the status of a job.", False),
        ("collect_scrap", "Collect scrap metal from an address.", False),
        ("print_poster", "", False),
    ],
)
def test_a_description_is_evidence_of_acting(name: str, description: str, acting: bool) -> None:
    assert acts(name, description) is acting


def test_a_listed_verb_acts_with_or_without_a_description() -> None:
    assert acts("cancel_order") and acts("cancel_order", "The orders of a customer.")
    assert not acts("order_status", "Cancels nothing.")


def test_a_described_verb_is_asked_for_and_mentioned_by_its_own_forms() -> None:
    about = "Tunes a piano at the customer's address on a date."
    assert asks_for_change("tune my piano", "tune_piano", description=about)
    assert asks_for_change("I need my piano tuned", "tune_piano", description=about)
    assert not asks_for_change("tune my piano", "tune_piano")  # no description: a reader
    assert mentions_change("you tuned my piano last spring", "tune_piano", description=about)
    assert not asks_for_change("you tuned my piano last spring", "tune_piano", description=about)


def _mower() -> tuple[Parent, list[dict[str, str]]]:
    calls: list[dict[str, str]] = []

    def mow_lawn(address: str) -> str:
        """Mows the lawn at an address."""
        calls.append({"address": address})
        return f"The lawn at {address} is on the list."

    def mowing_days(area: str) -> str:
        """The days the crew mows in an area."""
        return f"{area}: Wednesdays."

    agent = ChildAgent(
        name="mowing",
        mode="direct",
        description="Mows lawns and tells the mowing days.",
        tools=[mow_lawn, mowing_days],
    )
    return Parent(name="desk", instructions="Help.", subagents=[agent], model="rules"), calls


def test_an_acting_request_lacking_its_value_is_asked_for_not_refused() -> None:
    parent, calls = _mower()
    said = run_sync(parent.conversation().send("mow my lawn")).text
    assert not calls
    assert "?" in said and "can't help" not in said


def test_a_past_mention_makes_no_change() -> None:
    parent, calls = _mower()
    run_sync(parent.conversation().send("you mowed my lawn at 3 Birch Close on Tuesday"))
    assert not calls


@pytest.mark.parametrize(("half", "floor"), [("fit", 27), ("check", 21)])
def test_the_dev_halves_keep_their_accuracy(half: str, floor: int) -> None:
    # Measured at s70-acts (dev, in sample): main 34339d92 fit 23 of 28, check 19 of 24.
    outcomes = dev.measure(half)
    misses = [(o.request.id, o.said) for o in outcomes if not o.ok]
    assert sum(o.ok for o in outcomes) >= floor, misses


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("slots_open", "Slots the clinic has open on a day, by doctor."),
        ("courses", "Courses a student can take in a term."),
        ("walks_listed", "Walks the club leads each month, with their length."),
        ("lessons", "Lessons it offers each week."),
    ],
)
def test_a_plural_noun_before_its_relative_clause_reads(name: str, description: str) -> None:
    assert not acts(name, description)


def test_a_name_word_verb_before_its_object_still_acts() -> None:
    assert acts("weighs", "Weighs a suitcase at the desk.")  # no verb after "a suitcase"
    assert acts("sand_floor", "Sands the floor of a room on a date.")


def _bot(*tools: object, about: str) -> tuple[Parent, list[str]]:
    calls: list[str] = []

    def wrapped(tool: object) -> object:
        import functools

        @functools.wraps(tool)  # type: ignore[arg-type]
        def call(*args: object, **kwargs: object) -> object:
            calls.append(tool.__name__)  # type: ignore[attr-defined]
            return tool(*args, **kwargs)  # type: ignore[operator]

        return call

    agent = ChildAgent(
        name="desk_agent", mode="direct", description=about, tools=[wrapped(t) for t in tools]
    )
    return Parent(name="front", instructions="Help.", subagents=[agent], model="rules"), calls


def measure_rainfall(station: str) -> str:
    """Measures the rainfall at a weather station this week."""
    return f"{station}: 14 mm this week."


def courses(term: str) -> str:
    """Courses the college runs in a term, with their fees."""
    return f"{term}: pottery 90 pounds, Italian 120 pounds."


def sand_floor(address: str, date: str) -> str:
    """Sands a wooden floor at an address on a date."""
    return f"A sander comes to {address} on {date}."


@pytest.mark.parametrize(
    ("tool", "about", "question"),
    [
        (measure_rainfall, "Rainfall figures.", "how much rain fell at Kew station this week?"),
        (courses, "Evening courses at the college.", "which courses are on in the spring term?"),
    ],
)
def test_a_reader_described_by_its_name_word_answers_a_question(
    tool: object, about: str, question: str
) -> None:
    parent, calls = _bot(tool, about=about)
    said = run_sync(parent.conversation().send(question)).text
    assert calls == [tool.__name__]  # type: ignore[attr-defined]
    assert "can't help" not in said


@pytest.mark.parametrize("request_", ["sand my floor please", "can you sand my floor?"])
def test_a_described_change_asked_for_still_asks_for_its_values(request_: str) -> None:
    parent, calls = _bot(sand_floor, about="Floor sanding.")
    said = run_sync(parent.conversation().send(request_)).text
    assert not calls
    assert "?" in said and "can't help" not in said


def test_a_described_change_named_as_done_is_not_made() -> None:
    parent, calls = _bot(sand_floor, about="Floor sanding.")
    run_sync(parent.conversation().send("you sanded my floor at 4 Elm Road on Monday"))
    assert not calls

"""Tools of a small railway bot for the scenario tests (made-up data)."""

from __future__ import annotations


def last_train(request: str) -> str:
    """The last train of the day to a station (late evening departures)."""
    return "The last train to Hull tonight leaves Leeds at 23:41."


def line_status() -> str:
    """Whether trains are running on time: delays, cancellations, disruption on the line."""
    return "Trains between Leeds and York are running about 20 minutes late after a signal fault."

"""What the offline model calls for a request to an agent with tools that read and tools that act,
and what it passes them (s64-act).

The bots are new ones written as a new user writes them from the docs (tests/fixtures/act_choice,
written in session s64): the request's verb of change outweighs nouns it shares with a reading
tool, a question that asks for a fact with a question word calls no acting tool, irregular pasts
("fed") match their verb, and each argument gets the part of the request its name asks for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness import load_bot, run_sync
from harness.models.base import ToolDefinition
from harness.models.rules import RulesModel
from tests.models._acting import act_context

_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "act_choice"
_BOTS: dict[str, Any] = json.loads((_FIXTURE / "bots.json").read_text())


def _tools(bot: str) -> list[ToolDefinition]:
    out = []
    for name, doc, *rest in _BOTS[bot]["tools"]:
        params = rest[0] if rest else {}
        schema = {
            "type": "object",
            "properties": {k: {"type": v} for k, v in params.items()},
            "required": list(params),
        }
        out.append(ToolDefinition(name=name, description=doc, parameters=schema))
    return out


def _calls(bot: str, text: str) -> list[tuple[str, dict[str, Any]]]:
    mode = _BOTS[bot]["mode"]
    context = act_context(text, agent=bot, mode=mode, can_message=mode != "silent")
    return [(c.name, dict(c.arguments)) for c in RulesModel()._pick_tools(_tools(bot), context)]


@pytest.mark.parametrize(
    ("bot", "text", "tool", "arguments"),
    [
        ("stream", "switch me to the Basic plan", "change_plan", {"plan": "Basic"}),
        ("stream", "could you change my plan to Premium?", "change_plan", {"plan": "Premium"}),
        (
            "museum",
            "2 adults and a child for Saturday please",
            "buy_tickets",
            {"date": "Saturday", "adults": 2, "children": 1},
        ),
        (
            "museum",
            "buy 2 adult tickets for Sunday",
            "buy_tickets",
            {"date": "Sunday", "adults": 2, "children": 0},
        ),
        (
            "scooters",
            "how many rides did I do in May and how much did they cost",
            "ride_history",
            {"month": "May"},
        ),
        (
            "scooters",
            "scooter 7731 has a broken brake",
            "report_damage",
            {"scooter": "7731", "problem": "has a broken brake"},
        ),
        (
            "repairs",
            "can you report scooter 2290? the brake is loose",
            "report_damage",
            {"scooter": "2290", "problem": "brake is loose"},
        ),
        ("scooters", "are there any scooters near Mill Road?", "scooters_nearby", None),
    ],
)
def test_the_tool_the_request_asks_for_with_its_arguments(
    bot: str, text: str, tool: str, arguments: dict[str, Any] | None
) -> None:
    calls = _calls(bot, text)
    assert [name for name, _ in calls] == [tool]
    if arguments is not None:
        assert calls[0][1] == arguments


@pytest.mark.parametrize(
    ("bot", "text", "tool"),
    [
        # A question with a question word asks for a fact: no fault is filed for it.
        ("repairs", "how many scooters are there on Elm Street?", None),
        # Questions and past mentions still read beside an acting tool whose verb they use.
        ("stream", "what does the Premium plan include?", "subscription_plans"),
        ("stream", "did you cancel my subscription?", "subscription_plans"),
        ("museum", "how much is an adult ticket?", "ticket_prices"),
        ("museum", "I bought two tickets for Sunday, when do you open?", "opening_hours"),
        ("stream", "I switched to the Basic plan yesterday, which plans are there?", None),
    ],
)
def test_a_question_or_a_mention_does_not_act(bot: str, text: str, tool: str | None) -> None:
    called = [name for name, _ in _calls(bot, text)]
    acting = {"change_plan", "cancel_subscription", "buy_tickets", "report_damage", "end_ride"}
    assert not acting.intersection(called)
    if tool is not None:
        assert called == [tool]


def test_the_whole_request_is_never_passed_to_two_arguments() -> None:
    for text in ("scooter 6610 has a flat tyre", "is scooter 40213 broken", "my scooter broke"):
        for _, arguments in _calls("repairs", text):
            assert sum(1 for v in arguments.values() if v == text) <= 1


def test_a_suggestion_is_no_question_of_fact() -> None:
    tools = [
        ToolDefinition(name=n, description="", parameters={"type": "object", "properties": {}})
        for n in ("book_appointment", "find_provider")
    ]
    context = act_context("how about an appointment on Saturday?", agent="doctors")
    assert [c.name for c in RulesModel()._pick_tools(tools, context)] == ["book_appointment"]


def test_the_fixture_requests_in_sample() -> None:
    """The s64 fixture as a whole (in sample: the rules were changed while looking at it)."""
    right = 0
    rows = [r for r in (_FIXTURE / "requests.tsv").read_text().splitlines() if r[:1] != "#"]
    for row in rows:
        bot, text, gold, wanted = row.split("\t")
        calls = _calls(bot, text)
        names = [name for name, _ in calls] or ["-"]
        given = calls[0][1] if calls else {}
        values = all(
            str(given.get(k)).lower() == str(v).lower() for k, v in json.loads(wanted).items()
        )
        right += names == [gold] and values
    assert right >= 40, f"{right} of {len(rows)}"


def test_a_typed_tool_runs_end_to_end_with_its_arguments(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(
        "def report_damage(scooter: str, problem: str) -> str:\n"
        '    """Report a damaged or broken scooter."""\n'
        '    return f"Reported scooter {scooter}: {problem}."\n\n\n'
        "def scooters_nearby(street: str) -> str:\n"
        '    """How many scooters are parked near a street."""\n'
        '    return f"3 scooters near {street}."\n'
    )
    (tmp_path / "bot.yaml").write_text(
        "parent:\n  name: scooter_bot\nsubagents:\n  - name: scooters\n    kind: child\n"
        "    mode: direct\n    description: Scooters to hire, and damage reports.\n"
        '    tools: ["tools.py:report_damage", "tools.py:scooters_nearby"]\n'
    )
    bot = load_bot(tmp_path / "bot.yaml")
    text = run_sync(bot.conversation().send("Scooter 7731 has a broken brake")).text
    assert "Reported scooter 7731: has a broken brake." in text


def test_a_verb_of_change_without_what_the_change_needs_leaves_the_search() -> None:
    """A tool that takes the request as free text only gets no value from it: "rent a car"
    beside a search that shares "car" stays the search (SGD train words it so for a search)."""
    free = {"type": "object", "properties": {"request": {"type": "string"}}}
    tools = [
        ToolDefinition(name=n, description="", parameters=free)
        for n in ("get_cars_available", "reserve_car")
    ]
    context = act_context("I would like to rent a car", agent="cars")
    assert [c.name for c in RulesModel()._pick_tools(tools, context)] == ["get_cars_available"]

"""A tool that acts only by its description changes what happens to requests for it, never which
reading tool a question goes to (docs/models.md, "A verb off that list acts when the tool's
description says so"). The probes are tests/fixtures/acting/siblings.yaml (session s71, written
before any measurement; dev, in sample)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from harness.models._choice import _choose, choose, described, tool_router
from harness.models.base import ToolDefinition
from tests.fixtures.acting import dev

_BOTS, _REQUESTS = dev.load("siblings")


def _tools(bot: str) -> list[ToolDefinition]:
    space: dict[str, Any] = {}
    exec(_BOTS[bot]["tools"], space)  # the fixture's own tool source
    tools = []
    for name in _BOTS[bot]["agents"][0]["tools"]:
        params = inspect.signature(space[name]).parameters
        kinds = {"int": "integer", "str": "string"}  # annotations read as text
        tools.append(
            ToolDefinition(
                name=name,
                description=inspect.getdoc(space[name]) or "",
                parameters={
                    "type": "object",
                    "properties": {
                        p: {"type": kinds[_named(v.annotation)]} for p, v in params.items()
                    },
                    "required": list(params),
                },
            )
        )
    return tools


def _named(annotation: Any) -> str:
    return annotation if isinstance(annotation, str) else annotation.__name__


def test_four_bots_have_one_tool_that_acts_only_by_its_description() -> None:
    """ "Sharpens kitchen knives ..." has no determiner after its verb (``_actions._described``):
    ``sharpen_knives`` reads, and the knife bot is a control."""
    marked = {bot: [t.name for t in _tools(bot) if described(t)] for bot in _BOTS}
    assert marked == {
        "dog_grooming": ["groom_dog"],
        "knife_sharpening": [],
        "window_cleaning": ["wash_windows"],
        "ring_engraving": ["engrave_ring"],
        "boiler_servicing": ["service_boiler"],
    }


@pytest.mark.parametrize(
    "request_", [r for r in _REQUESTS if r.kind in ("reads", "near")], ids=lambda r: r.id
)
def test_a_question_for_a_reader_is_chosen_as_if_the_tool_read(request_: dev.Request) -> None:
    """The choice is the one made with no tool marked acting by its description (as before it
    was marked: ``_choose`` with no marks)."""
    tools = _tools(request_.bot)
    router = tool_router(tools)
    text = request_.say
    assert choose(tools, router, text, text) is _choose(tools, router, text, text, frozenset())


def test_a_count_and_a_day_for_prices_stay_with_the_prices() -> None:
    tools = _tools("dog_grooming")
    text = "prices for 2 dogs on Saturday please"
    chosen = choose(tools, tool_router(tools), text, text)
    assert chosen is not None and chosen.name == "grooming_prices"


@pytest.mark.parametrize(
    ("bot", "text", "tool"),
    [
        ("dog_grooming", "please groom my dog Bella on Friday", "groom_dog"),
        ("window_cleaning", "can you wash my windows?", "wash_windows"),
        ("boiler_servicing", "please service my boiler at 4 Mill Lane on Monday", "service_boiler"),
    ],
)
def test_the_tools_own_verb_picks_it(bot: str, text: str, tool: str) -> None:
    tools = _tools(bot)
    chosen = choose(tools, tool_router(tools), text, text)
    assert chosen is not None and chosen.name == tool


def test_a_past_of_the_tools_verb_asks_for_no_change() -> None:
    tools = _tools("dog_grooming")
    text = "did you groom my dog Bella on Friday?"
    chosen = choose(tools, tool_router(tools), text, text)
    assert chosen is None or chosen.name != "groom_dog"


def test_the_probes_keep_their_score() -> None:
    """Dev (in sample): 56 of 63 on ee740b17, on s70-acts and here; the misses are the same
    requests as on ee740b17."""
    outcomes = [dev.run(r, _BOTS[r.bot]) for r in _REQUESTS]
    assert sum(o.ok for o in outcomes) >= 56, [o.request.id for o in outcomes if not o.ok]

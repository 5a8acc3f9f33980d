"""The helpdesk scenarios through both configs: the naive parent restates answers, the good one never does."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from harness import Parent, Turn, load_bot
from harness.text.instructions import checks_answered
from tests.core._support import HELPDESK, HELPDESK_NAIVE, SCENARIOS, sentences

SCENARIO_LIST: list[dict[str, Any]] = YAML(typ="safe").load(SCENARIOS.read_text())["scenarios"]
IDS = [s["name"] for s in SCENARIO_LIST]


async def _run(bot: Parent, scenario: dict[str, Any]) -> list[Turn]:
    conversation = bot.conversation()
    return [await conversation.send(step["user"]) for step in scenario["turns"]]


def _restated(turn: Turn, parent: str) -> list[str]:
    """Sub-agent sentences that a parent message repeats later in the same turn."""
    found: list[str] = []
    for index, message in enumerate(turn.messages):
        if message.sender == parent:
            continue
        later = [m.text for m in turn.messages[index + 1 :] if m.sender == parent]
        found += [s for s in sentences(message.text) if any(s in text for text in later)]
    return found


def test_only_the_good_parent_checks_answered() -> None:
    assert checks_answered(load_bot(HELPDESK).system)
    assert not checks_answered(load_bot(HELPDESK_NAIVE).system)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=IDS)
async def test_the_good_helpdesk_never_repeats_a_sub_agent(scenario: dict[str, Any]) -> None:
    bot = load_bot(HELPDESK)
    turns = await _run(bot, scenario)
    for turn, step in zip(turns, scenario["turns"], strict=True):
        assert _restated(turn, bot.name) == [], turn.text
        for request in step.get("requests", []):
            # Each expected answer reaches the user exactly once, from the right component.
            carrying = [m for m in turn.messages if request["expect"] in m.text]
            assert len(carrying) == 1, (request, turn.text)
            silent = bot.subagents[request["agent"]].mode.value == "silent"
            assert carrying[0].sender == (bot.name if silent else request["agent"])


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=IDS)
async def test_the_naive_helpdesk_restates_what_direct_agents_said(
    scenario: dict[str, Any],
) -> None:
    bot = load_bot(HELPDESK_NAIVE)
    turns = await _run(bot, scenario)
    for turn in turns:
        restated = _restated(turn, bot.name)
        for result in turn.results:
            if result.answered and result.messages:
                # Every answer a direct agent gave is said again by the parent.
                for sentence in sentences(result.messages[0]):
                    assert sentence in restated, (sentence, turn.text)
        if not any(r.answered for r in turn.results):
            assert restated == []


async def test_the_naive_helpdesk_repeats_and_the_good_one_does_not_in_numbers() -> None:
    repeats: dict[str, int] = {}
    for label, config in (("good", HELPDESK), ("naive", HELPDESK_NAIVE)):
        bot = load_bot(config)
        repeats[label] = 0
        for scenario in SCENARIO_LIST:
            for turn in await _run(bot, scenario):
                repeats[label] += len(_restated(turn, bot.name))
    assert repeats["good"] == 0
    assert repeats["naive"] >= 4

"""The adapters' cached conversation state detects changes as the SDKs' own does.

Both SDKs decide whether to write a conversation's state by hashing all of it (botbuilder flattens
it with jsonpickle, the Agents SDK hashes its ``str()``), twice per save. The adapters replace the
hash by a copy of the value (``_ValueCachedState``), which costs no pass over a long message's
text. Here the same edits are made to both and each must give the SDK's answer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from botbuilder.core.bot_state import CachedBotState
from microsoft_agents.hosting.core.state.agent_state import CachedAgentState

from harness.hosting import agents_sdk, botbuilder

Edit = Callable[[dict[str, Any]], None]

EDITS: list[tuple[str, Edit]] = [
    ("nothing", lambda s: None),
    ("same text, a new string", lambda s: s.__setitem__("harness", "".join(["x" * 50_000]))),
    ("another text, same length", lambda s: s.__setitem__("harness", "x" * 49_999 + "y")),
    ("a longer text", lambda s: s.__setitem__("harness", "x" * 50_001)),
    ("an etag", lambda s: s.__setitem__("e_tag", "3")),
    ("a nested value changed in place", lambda s: s["nested"]["list"].append(2)),
    ("a nested key removed", lambda s: s["nested"].pop("list")),
    ("a key removed", lambda s: s.pop("harness")),
    (
        "a value replaced by an equal copy",
        lambda s: s.__setitem__("nested", copy.deepcopy(s["nested"])),
    ),
]


def _state() -> dict[str, Any]:
    return {"harness": "x" * 50_000, "nested": {"list": [1], "n": None}}


def _botbuilder(cls: type, state: dict[str, Any]) -> Any:
    cached = cls(state)

    class Probe:
        state = cached.state

        def changed(self) -> bool:
            return bool(cached.is_changed)

        def saved(self) -> None:  # what BotState.save_changes does after its write
            cached.hash = cached.compute_hash(cached.state)

    return Probe()


def _agents(cls: Any, state: dict[str, Any]) -> Any:
    cached = cls.from_json_to_store_item(state)

    class Probe:
        state = cached.state

        def changed(self) -> bool:
            return bool(cached.is_changed)

        def saved(self) -> None:  # what AgentState.save does after its write
            cached.hash = cached.compute_hash()

    return Probe()


SDKS = {
    "botbuilder": (
        lambda s: _botbuilder(CachedBotState, s),
        lambda s: _botbuilder(botbuilder._ValueCachedState, s),
    ),
    "agents-sdk": (
        lambda s: _agents(CachedAgentState, s),
        lambda s: _agents(agents_sdk._ValueCachedState, s),
    ),
}


@pytest.mark.parametrize("sdk", list(SDKS))
def test_changes_are_detected_as_the_sdk_detects_them(sdk: str) -> None:
    theirs_of, ours_of = SDKS[sdk]
    theirs, ours = theirs_of(_state()), ours_of(_state())
    answers = []
    for name, edit in EDITS:
        edit(theirs.state)
        edit(ours.state)
        expected, got = theirs.changed(), ours.changed()
        answers.append(expected)
        assert got == expected, name
        theirs.saved()
        ours.saved()
        assert not theirs.changed() and not ours.changed(), name
    # The sequence checks both answers (a detector that always said one thing would fail).
    assert True in answers and False in answers


@pytest.mark.parametrize("sdk", list(SDKS))
def test_an_empty_state_is_unchanged_until_written(sdk: str) -> None:
    theirs_of, ours_of = SDKS[sdk]
    for make in (theirs_of, ours_of):
        probe = make({})
        assert not probe.changed()
        probe.state["harness"] = "{}"
        assert probe.changed()

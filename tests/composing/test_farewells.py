"""The offline composer's own replies (s70-args2): a farewell the farewell reader reads is never
refused, and the readers of a part that asks nothing run once per part."""

from __future__ import annotations

import pytest

import harness.composing.rules as composer
from harness.runtime.loading import load_bot
from tests.planning.short_eval import HERE


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("Good night.", "Goodbye!"),
        ("Thanks, good night", "You're welcome! Goodbye!"),
        ("Bye!", "Goodbye!"),
    ],
)
async def test_a_farewell_gets_a_goodbye(message: str, reply: str) -> None:
    turn = await load_bot(HERE / "phone.yaml").conversation().send(message)
    assert turn.text == reply


@pytest.mark.parametrize(
    "message",
    [
        "I can't get a good night's sleep, can you help?",
        "Where can I get a good night out around here?",
        "Good night shift staff - can you check my bill?",
    ],
)
async def test_good_night_inside_a_request_is_no_goodbye(message: str) -> None:
    turn = await load_bot(HERE / "phone.yaml").conversation().send(message)
    assert "Goodbye" not in turn.text


@pytest.mark.parametrize("text", ["Good night.", "Sorry to bother you.", "cancel my order"])
def test_each_reader_runs_once_per_part(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    calls: list[str] = []
    real_farewell, real_nothing = composer._farewell, composer.asks_nothing

    def farewell(text: str, *, asked: bool = False) -> bool:
        calls.append("farewell")
        return real_farewell(text, asked=asked)

    def nothing(text: str) -> bool:
        calls.append("nothing")
        return real_nothing(text)

    monkeypatch.setattr(composer, "_farewell", farewell)
    monkeypatch.setattr(composer, "asks_nothing", nothing)
    composer._own_reply(text)
    assert calls.count("farewell") == 1
    assert calls.count("nothing") <= 1

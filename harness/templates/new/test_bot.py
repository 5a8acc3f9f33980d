"""Tests that drive the bot: every request answered once, nothing said twice, no silent leaks.

`harness_driver` comes with the SDK's pytest plugin; a relative path is found next to this file.
Async tests run without extra plugins (pytest-asyncio or anyio are used when installed).
"""

from __future__ import annotations

from collections.abc import Callable

from harness.testing import ConversationDriver

Driver = Callable[..., ConversationDriver]


async def test_two_requests_in_one_message_are_each_answered_once(harness_driver: Driver) -> None:
    driver = harness_driver("bot.yaml")
    await driver.send(
        "When does registration open, and what are the library hours?",
        expect=[("registration", "January 12"), ("library", "8 am to 10 pm")],
    )
    driver.assert_each_request_answered_once()
    driver.assert_no_duplicates()
    driver.assert_no_silent_leaks()


async def test_the_housing_dialogue_keeps_a_second_request(harness_driver: Driver) -> None:
    driver = harness_driver("bot.yaml")
    await driver.send("I want to change my dorm room")
    turn = await driver.send(
        "Maple Hall, and also when does registration open?",
        expect=[("housing", "Maple Hall"), ("registration", "January 12")],
    )
    assert [m.sender for m in turn.messages if m.sender == "housing"] == ["housing"]
    driver.assert_clean()

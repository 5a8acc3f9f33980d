"""A crash or a failed save part-way through a turn does not forget the open dialogue (issue 27).

The state saved before each reply holds the floor and the dialogue step, so whatever stops the turn
after a reply went out, the user's next message continues the dialogue. A save that fails stops the
turn cleanly: nothing unsaved is sent, the user gets one apology at most, and the log says which
save failed.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from harness.hosting import HarnessBot, OutgoingMessage
from harness.hosting.core import SAVE_FAILED_APOLOGY
from tests.hosting._support import helpdesk

START = "I want to change my direct deposit account"
ACCOUNT = "12345678"
CONFIRM = "Please confirm: switch direct deposit to the account ending in 5678? (yes/no)"


class _Killed(BaseException):
    """The worker dies (kill -9): nothing in the turn catches it, nothing after it runs."""


class _Store:
    """One conversation's stored value; ``fail`` lists the saves (1-based) that raise."""

    def __init__(self, *, fail: tuple[int, ...] = (), kill_after_send: bool = False) -> None:
        self.value: Any = None
        self.sent: list[OutgoingMessage] = []
        self.saves = 0
        self.fail = fail
        self.kill_after_send = kill_after_send

    async def load(self) -> Any:
        return self.value

    async def save(self, value: str) -> None:
        self.saves += 1
        if self.saves in self.fail:
            raise ConnectionError("the store is unreachable")
        self.value = value

    async def send(self, message: OutgoingMessage) -> None:
        self.sent.append(message)
        if self.kill_after_send:
            raise _Killed  # the reply reached the user; the worker died before anything else


async def _say(bot: HarnessBot, store: _Store, text: str, activity: str) -> Any:
    return await bot.handle_message(
        key="k",
        conversation_id="c",
        text=text,
        load=store.load,
        save=store.save,
        send=store.send,
        activity_id=activity,
    )


async def test_after_a_crash_mid_reply_the_next_message_continues_the_dialogue() -> None:
    store = _Store(kill_after_send=True)
    with pytest.raises((_Killed, BaseExceptionGroup)):
        await _say(HarnessBot(helpdesk()), store, START, "a1")
    assert [m.text for m in store.sent] == [
        "Sure, I can change your direct deposit. What is the new account number?"
    ]
    saved = json.loads(store.value)
    assert saved["active_agent"] == "direct_deposit"  # the floor, saved before the reply
    assert saved["agent_states"]["direct_deposit"]["step"] == "account"  # and the step

    store.kill_after_send = False
    store.sent.clear()
    restarted = HarnessBot(helpdesk())  # a new worker, from the store alone
    turn = await _say(restarted, store, ACCOUNT, "a2")
    assert turn is not None
    assert [m.text for m in store.sent] == [CONFIRM]
    yes = await _say(restarted, store, "yes", "a3")
    assert yes is not None and store.sent[-1].text.startswith("Done: your pay will go")


async def test_a_failed_final_save_sends_no_apology_and_the_dialogue_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = _Store(fail=(2,))  # 1: before the agent's question; 2: the turn's final save
    bot = HarnessBot(helpdesk())
    assert await _say(bot, store, START, "a1") is not None
    assert [m.text for m in store.sent] == [
        "Sure, I can change your direct deposit. What is the new account number?"
    ]
    assert any("final save failed" in r.getMessage() for r in caplog.records)
    assert not any("stopped" in r.getMessage() for r in caplog.records if "final" in r.getMessage())
    store.sent.clear()
    await _say(bot, store, ACCOUNT, "a2")
    assert [m.text for m in store.sent] == [CONFIRM]
    saved = json.loads(store.value)
    errors = [t.get("error", "") for t in saved["turns"]]
    assert not any("server stopped" in e for e in errors)


async def test_a_failed_save_before_a_later_reply_stops_the_turn_with_one_apology(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = _Store(fail=(2,))
    bot = HarnessBot(helpdesk())
    question = "How many vacation days do I have remaining, and when is my next paycheck?"
    turn = await _say(bot, store, question, "a1")
    assert turn is not None
    sent = [m.text for m in store.sent]
    assert len([m for m in turn.messages if m.role == "bot"]) >= 2  # the turn had more to say
    assert sent[-1] == SAVE_FAILED_APOLOGY and sent.count(SAVE_FAILED_APOLOGY) == 1
    assert len(sent) == 2  # the first reply (saved), then the apology; nothing unsaved
    assert any(
        r.levelno == logging.ERROR
        and "could not save the conversation before a reply" in r.getMessage()
        for r in caplog.records
    )
    # The stored state is the turn up to its saved reply; the next message goes on from it.
    saved = json.loads(store.value)
    assert [m["text"] for m in saved["messages"] if m["role"] == "bot"] == sent[:1]
    store.sent.clear()
    again = await _say(bot, store, question, "a2")
    assert again is not None and SAVE_FAILED_APOLOGY not in [m.text for m in store.sent]


async def test_a_failed_first_save_sends_nothing_and_fails_the_request() -> None:
    store = _Store(fail=(1,))
    with pytest.raises(ConnectionError):
        await _say(HarnessBot(helpdesk()), store, START, "a1")
    assert store.sent == [] and store.value is None
    await _say(HarnessBot(helpdesk()), store, START, "a2")  # the channel's retry starts afresh
    assert [m.text for m in store.sent] == [
        "Sure, I can change your direct deposit. What is the new account number?"
    ]


async def test_a_storage_outage_before_a_later_reply_is_a_503_and_the_retry_finishes_the_turn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The store is out (``StorageUnavailableError``) before the turn's second reply: no apology,
    the request fails as unavailable (503 with Retry-After), and the channel's retry of the same
    activity sends the rest of the turn; a reply it may send again carries the same reply id (the
    last saved reply may not have gone out), which the channel drops."""
    from harness.hosting._errors import StorageUnavailableError

    class _Out(_Store):
        async def save(self, value: str) -> None:
            self.saves += 1
            if self.saves in self.fail:
                raise StorageUnavailableError("Redis is unavailable (TimeoutError)")
            self.value = value

    store = _Out(fail=(2,))
    bot = HarnessBot(helpdesk())
    question = "How many vacation days do I have remaining, and when is my next paycheck?"
    with pytest.raises(StorageUnavailableError):
        await _say(bot, store, question, "a1")
    first = [m.text for m in store.sent]
    assert len(first) == 1 and SAVE_FAILED_APOLOGY not in first
    retried = await _say(bot, store, question, "a1")  # the channel sends the activity again
    assert retried is not None
    replies = [m.text for m in retried.messages if m.role == "bot"]
    shown: dict[str | None, str] = {}  # what a channel that drops repeated reply ids shows
    for message in store.sent:
        assert message.reply_id is not None
        shown.setdefault(message.reply_id, message.text)
    assert list(shown.values()) == replies  # each reply once, in order
    assert len(replies) >= 2 and SAVE_FAILED_APOLOGY not in replies

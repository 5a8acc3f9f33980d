"""The runtime duplicate guard on the parent's draft."""

from __future__ import annotations

import logging

import pytest

from harness.detect import DuplicateGuard
from harness.detect.transcript import Message
from harness.exceptions import ConfigError

PTO = "You have 12 vacation days left for 2026."
SENT = [
    Message(id="u1", turn=1, role="user", sender="user", text="Vacation days left and payday?"),
    Message(id="m1", turn=1, role="bot", sender="pto", text=PTO, mode="direct"),
]
DRAFT = "You have 12 vacation days left for 2026, and your next payday is Friday, March 13."


def test_drop_removes_only_the_duplicated_part() -> None:
    decision = DuplicateGuard("drop").check(DRAFT, sent=SENT, turn=1, sender="helpdesk")
    assert decision.text == "Your next payday is Friday, March 13."
    assert decision.dropped == ("You have 12 vacation days left for 2026",)
    [finding] = decision.findings
    assert finding.message_ids == ("m1", "draft") and finding.senders == ("pto", "helpdesk")


def test_drop_keeps_new_sentences_and_returns_nothing_when_nothing_is_new() -> None:
    guard = DuplicateGuard("drop")
    text = f"The PTO agent found that {PTO[0].lower()}{PTO[1:]} Your next payday is Friday."
    assert guard.check(text, sent=SENT, turn=1).text == "Your next payday is Friday."
    nothing = guard.check(f"{PTO} Anything else I can help with?", sent=SENT, turn=1)
    assert nothing.text == "" and nothing.findings


def test_warn_keeps_the_text_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="harness.guard"):
        decision = DuplicateGuard("warn").check(DRAFT, sent=SENT, turn=1)
    assert decision.text == DRAFT and decision.dropped == ()
    assert decision.findings and "duplicate in the draft" in caplog.text


def test_off_and_new_content_pass_through() -> None:
    assert DuplicateGuard("off").check(PTO, sent=SENT, turn=1).text == PTO
    fresh = "Your next payday is Friday, March 13."
    decision = DuplicateGuard("drop").check(fresh, sent=SENT, turn=1)
    assert (decision.text, decision.findings) == (fresh, ())


def test_recent_turns_count_unless_the_user_asked_again() -> None:
    history = [*SENT, Message(id="u2", turn=2, role="user", sender="user", text="And payday?")]
    decision = DuplicateGuard("drop").check(
        f"Your next payday is Friday, March 13. {PTO}", sent=history, turn=2
    )
    assert decision.text == "Your next payday is Friday, March 13."
    assert decision.findings[0].scope == "cross_turn"
    asked = [
        *SENT,
        Message(
            id="u2",
            turn=2,
            role="user",
            sender="user",
            text="Sorry, how many vacation days do I have left again?",
        ),
    ]
    assert DuplicateGuard("drop").check(PTO, sent=asked, turn=2).text == PTO


def test_a_second_closer_in_a_turn_is_dropped() -> None:
    sent = [
        *SENT[:1],
        Message(
            id="m1", turn=1, role="bot", sender="pto", text=f"{PTO} Anything else I can help with?"
        ),
    ]
    decision = DuplicateGuard("drop").check(
        "Your next payday is Friday. Is there anything else I can help you with today?",
        sent=sent,
        turn=1,
    )
    assert decision.text == "Your next payday is Friday."


def test_an_unknown_policy_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        DuplicateGuard("loud")  # type: ignore[arg-type]


def test_an_answer_the_user_asked_for_again_this_turn_is_no_duplicate() -> None:
    guard = DuplicateGuard("drop")
    bus = "The number 7 bus leaves Elm Street at 8:20 every weekday."
    sent = [
        Message(id="u1", turn=1, role="user", sender="user", text="Museum hours and my bus?"),
        Message(id="m1", turn=1, role="bot", sender="concierge", text=bus),
        Message(id="u2", turn=2, role="user", sender="user", text="And my bus?"),
    ]
    # Answered again by the agent the plan routed the request to this turn: it goes out.
    museum = "The museum opens at 10 on Sundays."
    draft = f"{museum} {bus}"
    assert guard.check(draft, sent=sent, turn=2).text == museum
    asked = guard.check(draft, sent=sent, turn=2, answers=[f"Found it. {bus}"])
    assert asked.text == draft and not asked.findings
    # Only part of the draft was asked for: the rest, restated unasked, is still dropped.
    sent[1] = Message(id="m1", turn=1, role="bot", sender="concierge", text=draft)
    partly = guard.check(draft, sent=sent, turn=2, answers=[bus])
    assert partly.text == bus and partly.dropped == (museum,)
    # Nobody answered it this turn: the parent repeats it unasked.
    assert guard.check(draft, sent=sent, turn=2).text == ""

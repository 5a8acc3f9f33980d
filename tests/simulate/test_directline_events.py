"""Copilot Studio's plan events over Direct Line are not the turn's reply: they start no quiet
period, an open plan step keeps the turn open as typing does, and a turn that ends with no text
(only events, or an empty message) is a missed request in ``harness simulate``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.detect.activities import user_message
from harness.detect.transcript import Message, Transcript
from harness.simulate.directline import DirectLineTarget
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from harness.simulate.targets import ConversationError, Target
from tests.simulate._directline_fake import FakeDirectLine

QUIET = 0.4
LATER = 1.5
"""When the slow agent's answer comes: well after the quiet period, well before reply_timeout."""
SETTINGS = {
    "quiet_period": QUIET,
    "reply_timeout": 8.0,
    "turn_timeout": 30.0,
    "poll_interval": 0.05,
    "typing_limit": 20.0,
}
TRANSPORTS = pytest.mark.parametrize("transport", ["websocket", "polling"])
ANSWER = "Your next payday is Friday, December 4."
STEP = {"stepId": "s1", "taskDialogId": "cr1_hd.agent.Payroll", "type": "Agent"}


def _event(name: str, value: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "event", "name": name, "value": value or {}, "from": {"id": "bot"}}


def _bot(text: str) -> dict[str, Any]:
    return {"type": "message", "text": text, "from": {"id": "bot", "name": "Helpdesk"}}


class _Scripted:
    """A bot that sends ``first`` at once and ``then`` ``LATER`` seconds later (its tasks are
    awaited by :meth:`finish`)."""

    def __init__(
        self, fake: FakeDirectLine, first: list[dict[str, Any]], then: list[dict[str, Any]]
    ) -> None:
        self.fake, self.first, self.then = fake, first, then
        self.pending: list[asyncio.Task[None]] = []

    async def __call__(self, activity: dict[str, Any]) -> list[dict[str, Any]]:
        conversation = self.fake.conversations[activity["conversation"]["id"]]

        async def later() -> None:
            await asyncio.sleep(LATER)
            for reply in self.then:
                self.fake._record(conversation, reply, activity["id"])

        if self.then:
            self.pending.append(asyncio.create_task(later()))
        return list(self.first)

    async def finish(self) -> None:
        await asyncio.gather(*self.pending, return_exceptions=True)


async def _talk(
    first: list[dict[str, Any]],
    then: list[dict[str, Any]],
    *,
    transport: str = "websocket",
    **settings: Any,
) -> list[tuple[int, str]]:
    fake = FakeDirectLine(_silent)
    bot = _Scripted(fake, first, then)
    fake.bot = bot
    try:
        async with (
            fake.running() as base,
            DirectLineTarget(
                base,
                secret=fake.secret,
                transport=transport,  # type: ignore[arg-type]
                **{**SETTINGS, **settings},
            ) as target,
        ):
            transcript = await target.run_conversation(["When is payday?"], conversation_id="c")
    finally:
        await bot.finish()
    return [(m.turn, m.text) for m in transcript.bot_messages()]


async def _silent(_activity: dict[str, Any]) -> list[dict[str, Any]]:
    return []


@TRANSPORTS
async def test_plan_events_do_not_start_the_quiet_period(transport: str) -> None:
    """The plan is announced at once and the answer comes after more than the quiet period:
    the answer is the turn's (it used to be lost, the turn over after the events)."""
    plan = [
        _event("DynamicPlanReceived", {"steps": ["s1"]}),
        _event("DynamicPlanStepTriggered", STEP),
    ]
    done = [_bot(ANSWER), _event("DynamicPlanStepFinished", STEP), _event("DynamicPlanFinished")]
    assert await _talk(plan, done, transport=transport) == [(1, ANSWER)]


async def test_an_open_plan_step_keeps_the_turn_open_after_a_reply() -> None:
    """The parent speaks at once and opens a step for a connected agent, whose answer comes
    after more than the quiet period, with no typing: the turn waits for the step to finish."""
    first = [_bot("Let me check with payroll."), _event("DynamicPlanStepTriggered", STEP)]
    then = [_bot(ANSWER), _event("DynamicPlanStepFinished", STEP)]
    assert await _talk(first, then) == [(1, "Let me check with payroll."), (1, ANSWER)]


async def test_a_step_that_never_finishes_is_bounded_by_the_typing_limit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    first = [_bot("Let me check with payroll."), _event("DynamicPlanStepTriggered", STEP)]
    with caplog.at_level(logging.WARNING, logger="harness.simulate.directline"):
        replies = await _talk(first, [], typing_limit=0.8)
    assert replies == [(1, "Let me check with payroll.")]
    assert "c: turn 1: the bot was still running plan step 'Payroll' 0.8s after" in caplog.text


async def test_a_turn_with_only_events_ends_at_the_reply_timeout_without_a_reply(
    caplog: pytest.LogCaptureFixture,
) -> None:
    events = [
        _event("DynamicPlanReceived"),
        _event("DynamicPlanStepTriggered", STEP),
        _event("DynamicPlanStepFinished", STEP),
        _event("DynamicPlanFinished"),
    ]
    with caplog.at_level(logging.WARNING, logger="harness.simulate.directline"):
        assert await _talk(events, [], reply_timeout=1.0) == []
    assert (
        "c: turn 1: the bot sent only events (DynamicPlanReceived, DynamicPlanStepTriggered, "
        "DynamicPlanStepFinished, DynamicPlanFinished) and no message within 1s" in caplog.text
    )


async def test_a_step_still_open_at_the_reply_timeout_is_an_error() -> None:
    with pytest.raises(ConversationError) as caught:
        await _talk([_event("DynamicPlanStepTriggered", STEP)], [], reply_timeout=1.0)
    assert str(caught.value) == (
        "turn 1: the bot sent no reply within 1s; it was still running plan step 'Payroll' "
        "(a longer reply_timeout gives it more time)"
    )


STEP2 = {"stepId": "s2", "taskDialogId": "cr1_hd.topic.Summary", "type": "CustomTopic"}


@TRANSPORTS
async def test_the_parents_summary_after_its_last_step_is_kept(transport: str) -> None:
    """A connected agent answers inside its step; the step finishes; the orchestrator's own
    summary comes after more than the quiet period, before DynamicPlanFinished: the open plan
    holds the turn (it used to end after the step, the summary lost)."""
    first = [
        _event("DynamicPlanReceived", {"planIdentifier": "p1"}),
        _event("DynamicPlanStepTriggered", STEP),
        _bot("Payroll agent: payday is the last Friday of the month."),
        _event("DynamicPlanStepFinished", STEP),
    ]
    then = [_bot(ANSWER), _event("DynamicPlanFinished", {"planId": "p1"})]
    replies = await _talk(first, then, transport=transport)
    assert replies == [(1, "Payroll agent: payday is the last Friday of the month."), (1, ANSWER)]


async def test_a_gap_between_two_steps_does_not_end_the_turn() -> None:
    first = [
        _bot("Let me check."),
        _event("DynamicPlanReceived"),
        _event("DynamicPlanStepTriggered", STEP),
        _event("DynamicPlanStepFinished", STEP),
    ]
    then = [
        _event("DynamicPlanStepTriggered", STEP2),
        _bot(ANSWER),
        _event("DynamicPlanStepFinished", STEP2),
        _event("DynamicPlanFinished"),
    ]
    assert await _talk(first, then) == [(1, "Let me check."), (1, ANSWER)]


async def test_a_plan_that_never_finishes_is_bounded_by_the_typing_limit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    first = [_bot("Let me check with payroll."), _event("DynamicPlanReceived")]
    with caplog.at_level(logging.WARNING, logger="harness.simulate.directline"):
        replies = await _talk(first, [], typing_limit=0.8)
    assert replies == [(1, "Let me check with payroll.")]
    assert "c: turn 1: the bot was still running its plan (DynamicPlanReceived without " in (
        caplog.text
    )


async def test_a_step_finished_by_its_component_alone_closes() -> None:
    """Triggered carries a stepId, Finished only the taskDialogId: the step is over (it used to
    stay open, holding the turn for typing_limit)."""
    first = [_bot("Let me check."), _event("DynamicPlanStepTriggered", STEP)]
    then = [
        _bot(ANSWER),
        _event("DynamicPlanStepFinished", {"taskDialogId": STEP["taskDialogId"]}),
    ]
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await _talk(first, then) == [(1, "Let me check."), (1, ANSWER)]
    assert loop.time() - started < LATER + 5.0  # not typing_limit (20 s) after the answer


def _scenario(tmp_path: Path, *turns: str) -> Path:
    path = tmp_path / "s.yaml"
    lines = ["scenarios:", "  - name: last", "    turns:"]
    lines += [f'      - user: "{turn}"' for turn in turns]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def _simulate(reply: Any, path: Path, **settings: Any) -> Any:
    fake = FakeDirectLine(reply)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **{**SETTINGS, **settings}) as target,
    ):
        (result,) = await run_scenarios([load_scenarios(path)], target=target)
    return result


async def test_simulate_finds_a_last_turn_whose_only_reply_is_empty(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The last turn's only reply has no text: the request is missed (it was passed, as a
    recording that stops early would be)."""

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [_bot("" if "payday" in activity["text"] else "You have 12 PTO days left.")]

    path = _scenario(tmp_path, "How many PTO days do I have?", "When is payday?")
    with caplog.at_level(logging.WARNING, logger="harness.simulate.directline"):
        result = await _simulate(reply, path)
    assert result.error is None
    assert [(f.kind, f.turn, f.evidence) for f in result.findings] == [
        (
            "missed_request",
            2,
            '"When is payday": no bot message in the turn addresses it; the bot sent no text '
            "in this turn, though the conversation ran to its end",
        )
    ]
    assert "last: turn 2: the bot sent 1 message with neither text nor a card with text" in (
        caplog.text
    )


async def test_simulate_finds_a_last_turn_with_only_events(tmp_path: Path) -> None:
    async def reply(_activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [_event("DynamicPlanReceived"), _event("DynamicPlanFinished")]

    result = await _simulate(reply, _scenario(tmp_path, "When is payday?"), reply_timeout=1.0)
    assert result.error is None
    assert [(f.kind, f.turn) for f in result.findings] == [("missed_request", 1)]


async def test_a_last_turn_that_asks_nothing_is_not_missed(tmp_path: Path) -> None:
    """ "Thanks!" with no answer: as in an earlier turn, a message that asks for nothing misses
    nothing."""

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [] if "Thanks" in activity["text"] else [_bot(ANSWER)]

    async def with_end(activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [*(await reply(activity)), {"type": "endOfConversation", "from": {"id": "bot"}}]

    result = await _simulate(with_end, _scenario(tmp_path, "When is payday?", "Thanks!"))
    assert result.error is None
    assert result.findings == ()


class _Recorded(Target):
    """A target that plays a conversation back: the bot answers each turn with ``replies[turn]``
    (none when missing), and fails at ``fail_at`` when given."""

    def __init__(self, replies: dict[int, str], *, fail_at: int | None = None) -> None:
        self.replies, self.fail_at = replies, fail_at

    async def run_conversation(self, turns: Sequence[str], *, conversation_id: str) -> Transcript:
        transcript = Transcript(conversation=conversation_id)
        for number, text in enumerate(turns, start=1):
            transcript.append(user_message(conversation_id, number, text))
            if number == self.fail_at:
                raise ConversationError("the bot went away", transcript=transcript, turn=number)
            if number in self.replies:
                transcript.append(
                    Message(
                        id=f"b{number}",
                        turn=number,
                        role="bot",
                        sender="bot",
                        text=self.replies[number],
                    )
                )
        return transcript


async def test_any_target_that_completed_a_silent_last_turn_misses_its_request(
    tmp_path: Path,
) -> None:
    path = _scenario(tmp_path, "How many PTO days do I have?", "When is payday?")
    answered = {1: "You have 12 PTO days left."}
    (result,) = await run_scenarios([load_scenarios(path)], target=_Recorded(answered))
    assert [(f.kind, f.turn) for f in result.findings] == [("missed_request", 2)]
    # A conversation that failed in its last turn: the failure is reported, not a missed request.
    failed = _Recorded(answered, fail_at=2)
    (result,) = await run_scenarios([load_scenarios(path)], target=failed)
    assert result.error == "the bot went away"
    assert result.findings == ()


async def test_a_request_answered_only_by_end_of_conversation_is_missed(tmp_path: Path) -> None:
    """The bot answers the last turn's request with endOfConversation alone: the user still got
    no answer (a second review of s60-fixdl: it used to exempt the whole turn); a farewell
    answered that way misses nothing."""

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        if "payday" in activity["text"] or "bye" in activity["text"]:
            return [{"type": "endOfConversation", "from": {"id": "bot"}}]
        return [_bot("You have 12 PTO days left.")]

    path = _scenario(tmp_path, "How many PTO days do I have?", "When is payday?")
    result = await _simulate(reply, path)
    assert result.error is None
    assert [(f.kind, f.turn) for f in result.findings] == [("missed_request", 2)]
    path = _scenario(tmp_path, "How many PTO days do I have?", "Thanks, bye")
    result = await _simulate(reply, path)
    assert result.findings == ()


@pytest.mark.parametrize(
    "request_text",
    ["Please close my savings account, bye", "Renew my parking permit, thanks bye"],
)
async def test_a_request_with_a_farewell_attached_is_still_missed(
    tmp_path: Path, request_text: str
) -> None:
    path = _scenario(tmp_path, "When is payday?", request_text)
    (result,) = await run_scenarios([load_scenarios(path)], target=_Recorded({1: ANSWER}))
    assert [(f.kind, f.turn) for f in result.findings] == [("missed_request", 2)]


@pytest.mark.parametrize("farewell", ["See you", "Have a nice day!", "Talk to you later"])
async def test_a_goodbye_left_unanswered_in_the_last_turn_is_not_missed(
    tmp_path: Path, farewell: str
) -> None:
    path = _scenario(tmp_path, "When is payday?", farewell)
    (result,) = await run_scenarios([load_scenarios(path)], target=_Recorded({1: ANSWER}))
    assert result.findings == ()


async def test_a_request_about_a_goodbye_is_still_missed(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "When is payday?", "Can you say goodbye to Anna for me")
    (result,) = await run_scenarios([load_scenarios(path)], target=_Recorded({1: ANSWER}))
    assert [(f.kind, f.turn) for f in result.findings] == [("missed_request", 2)]

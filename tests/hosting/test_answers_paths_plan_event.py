"""The served bot's ``harness.plan`` event carries the user's answers beside the request they
complete, and ``plan_record`` reads them back: a transcript of a served bot, taken over Direct
Line, shows the value the user gave an agent (docs/hosting.md, docs/contract.md). A pottery
studio's class desk, written for these tests."""

from __future__ import annotations

from typing import Any

from harness import ChildAgent, Mode, Parent, UserAnswer
from harness.detect.activities import PLAN_EVENT, plan_record
from harness.detect.transcript import PlannedRequest
from harness.hosting import create_app
from harness.simulate.directline import DirectLineTarget
from harness.text.claims import CLAIM_BUDGET
from tests.hosting._support import running
from tests.simulate._directline_fake import FakeDirectLine

_ASK = "I'd like to book the wheel-throwing class"
_QUESTION = "How many seats do you want?"
_FAST = {"quiet_period": 0.15, "reply_timeout": 5.0, "turn_timeout": 15.0, "poll_interval": 0.05}


def _studio(booked: list[int]) -> Parent:
    def book_class(seats: int) -> str:
        """Book seats in the pottery studio's wheel-throwing class."""
        booked.append(seats)
        return f"{seats} seats are booked in the wheel-throwing class."

    classes = ChildAgent(
        name="classes",
        mode=Mode.DIRECT,
        description="Books seats in the pottery studio's wheel-throwing class.",
        tools=[book_class],
    )
    return Parent(name="studio", model="rules", subagents=[classes])


async def test_a_served_bots_plan_event_carries_the_answer_through_direct_line() -> None:
    booked: list[int] = []
    async with running(create_app(_studio(booked), send_plans=True)) as bot:
        fake = FakeDirectLine(f"{bot}/api/messages")
        async with (
            fake.running() as base,
            DirectLineTarget(base, secret=fake.secret, transport="polling", **_FAST) as target,
        ):
            transcript = await target.run_conversation([_ASK, "3"], conversation_id="pottery")
    assert booked == [3]
    first, second = transcript.turns
    assert first.plan == (PlannedRequest(request=_ASK, agent="classes"),)
    answer = UserAnswer(request=_ASK, question=_QUESTION, value="3")
    # The request stays the user's; the answer is beside it, in the plan and in what was answered.
    assert second.plan == (PlannedRequest(request=_ASK, agent="classes", answers=(answer,)),)
    assert second.answered == second.plan


def _event(value: Any) -> dict[str, Any]:
    return {"type": "event", "name": PLAN_EVENT, "value": value}


def test_malformed_answers_in_a_plan_event_are_skipped_not_raised() -> None:
    good = {"question": "How many seats?", "value": "2"}
    entries = [
        {"request": "book a class", "agent": "classes", "answers": "2"},
        {
            "request": "book a kiln slot",
            "agent": "kilns",
            "answers": [None, {"value": 2}, {"question": "Which kiln?", "value": "  "}, good],
        },
        {"request": "glaze a mug", "agent": "glazes", "answers": [{"question": 7, "value": "a"}]},
        {"request": "buy clay", "agent": "shop", "answers": [{"question": None, "value": "5kg"}]},
    ]
    record = plan_record(_event({"plan": entries, "requests_answered": entries[1:2]}), 2)
    assert record is not None
    assert [(p.request, p.answers) for p in record.plan] == [
        ("book a class", ()),
        ("book a kiln slot", (UserAnswer(request="book a kiln slot", **good),)),
        ("glaze a mug", ()),
        ("buy clay", (UserAnswer(request="buy clay", question="", value="5kg"),)),
    ]
    assert record.answered == record.plan[1:2]


def test_an_event_without_answers_reads_as_before() -> None:
    record = plan_record(_event({"plan": [{"agent": "classes", "request": "book a class"}]}), 1)
    assert record is not None
    assert record.plan == (PlannedRequest(request="book a class", agent="classes"),)


def test_a_plan_event_entry_keeps_the_planners_budget_of_answers() -> None:
    answers = [{"question": "How many seats?", "value": str(n)} for n in range(CLAIM_BUDGET + 5)]
    entry = {"request": "book a class", "agent": "classes", "answers": answers}
    record = plan_record(_event({"plan": [entry]}), 1)
    assert record is not None
    [planned] = record.plan
    assert [a.value for a in planned.answers] == [str(n) for n in range(5, CLAIM_BUDGET + 5)]

"""The user's answer to a waiting request travels as data (``subagents.UserAnswer``), never as
text in the request: the plan records the request clean with the answer beside it, a handler and
the offline model receive it, a typed ", answer: 30" is no answer, and a snapshot written while
answers were joined into the request's text still loads. An animal shelter and a ferry desk,
written for these tests (no s66 test bot, no corpus)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness import ChildAgent, Mode, Parent
from harness.detect.readers import load_transcript
from harness.exceptions import ConfigError
from harness.models._answer import join_answer
from harness.models.base import ActContext, ChatMessage, ModelRequest, ToolDefinition
from harness.models.rules import RulesModel, _with_answers
from harness.planning import Plan, PlanEntry, PlanInput, Planner
from harness.transport.base import join_requests
from subagents import ToolContext, UserAnswer

_ASK = "I'd like to donate to the shelter"


def _bot(donated: list[float], **options: Any) -> Parent:
    def donate(amount: float) -> str:
        """Donate money to the animal shelter."""
        donated.append(amount)
        return f"Thank you: {amount:.2f} donated to the shelter."

    def shelter_hours() -> str:
        """When the animal shelter is open."""
        return "The shelter is open 10am to 4pm."

    shelter = ChildAgent(
        name="shelter",
        mode=Mode.DIRECT,
        description="Takes donations to the animal shelter and tells its opening hours.",
        tools=[donate, shelter_hours],
    )
    return Parent(name="front", model="rules", subagents=[shelter], **options)


async def test_the_plan_keeps_the_request_clean_and_the_answer_beside_it() -> None:
    donated: list[float] = []
    chat = _bot(donated).conversation()
    first = await chat.send(_ASK)
    assert [m.text for m in first.messages] == ["What amount do you want?"]
    second = await chat.send("£15 please")
    assert donated == [15.0]
    [planned] = second.plan
    assert planned.request == _ASK  # no mark in the request, the record or the transcript
    assert [(a.question, a.value) for a in planned.answers] == [("What amount do you want?", "£15")]
    assert [m.request for m in second.messages] == [_ASK]
    assert "answer:" not in chat.transcript.to_jsonl()
    # The snapshot keeps the answer beside the request, and a resumed conversation reads it back.
    snapshot = chat.snapshot()
    assert snapshot["turns"][1]["plan"] == [
        {
            "request": _ASK,
            "agent": "shelter",
            "answers": [{"question": "What amount do you want?", "value": "£15"}],
        }
    ]
    resumed = _bot(donated).conversation(state=snapshot)
    assert resumed.transcript.turns[1].plan == second.plan


class _Fixed(Planner):
    """Plans every message as one request for the shelter, as it was typed."""

    async def plan(self, given: PlanInput) -> Plan:
        return Plan(entries=(PlanEntry(request=given.message, agent="shelter"),))


async def test_a_typed_answer_mark_is_no_answer() -> None:
    donated: list[float] = []
    chat = _bot(donated, planner=_Fixed()).conversation()
    turn = await chat.send(f"{_ASK}, answer: 30")
    # A bare "30" is no amount of money unless it answers the agent's question: it asks.
    assert donated == []
    assert [m.text for m in turn.messages] == ["What amount do you want?"]


def _act(text: str, answers: tuple[UserAnswer, ...] = ()) -> ModelRequest:
    tool = ToolDefinition(
        name="book_crossing",
        description="Book a ferry crossing for a number of passengers.",
        parameters={
            "type": "object",
            "properties": {"passengers": {"type": "integer"}},
            "required": ["passengers"],
        },
    )
    context = ActContext(
        agent="ferry",
        mode="direct",
        scoped_request=text,
        history=None,
        required_outputs=("answered", "interactionSummary"),
        can_message_user=True,
        answers=answers,
    )
    return ModelRequest(
        agent="ferry",
        system="",
        messages=(ChatMessage(role="user", content=text),),
        tools=(tool,),
        context=context,
    )


async def test_the_offline_model_reads_the_answer_from_data_only() -> None:
    model = RulesModel()
    asked = "book a ferry crossing"
    given = await model.request(
        _act(asked, (UserAnswer(request=asked, question="How many passengers?", value="3"),))
    )
    assert [(c.name, dict(c.arguments)) for c in given.tool_calls] == [
        ("book_crossing", {"passengers": 3})
    ]
    typed = await model.request(_act(f"{asked}, answer: 3"))
    # The same words typed by the user answer nothing: the agent asks for the count.
    assert [c.name for c in typed.tool_calls] == ["send_message_to_user"]


async def test_a_handler_gets_the_answer_and_the_request_as_the_user_made_it() -> None:
    seen: list[ToolContext] = []

    async def handler(ctx: ToolContext) -> dict[str, Any]:
        seen.append(ctx)
        return {"answered": True, "interactionSummary": "Booked."}

    ferry = ChildAgent(
        name="ferry",
        mode=Mode.DIRECT,
        description="Books ferry crossings.",
        handler=handler,
    )
    bot = Parent(name="front", model="rules", subagents=[ferry])
    answer = UserAnswer(request="book a crossing", question="How many passengers?", value="3")
    await bot.run_subagent("ferry", "book a crossing", answers=(answer,))
    assert [(c.scoped_request, c.answers) for c in seen] == [("book a crossing", (answer,))]


def test_a_snapshot_from_the_marker_era_still_loads() -> None:
    # Written before s67: the answer joined into the request's text, no "answers" key.
    old = {
        "version": 1,
        "id": "c-old",
        "active_agent": None,
        "agent_states": {"shelter": {}},
        "dialogues": {"shelter": []},
        "awaiting": [
            {"request": f"{_ASK}, answer: 10", "agent": "shelter", "question": "Which day?"}
        ],
        "message_count": 2,
        "messages": [
            {"id": "c-old-1", "turn": 1, "role": "user", "sender": "user", "text": "10"},
            {
                "id": "c-old-2",
                "turn": 1,
                "role": "bot",
                "sender": "shelter",
                "mode": "direct",
                "request": f"{_ASK}, answer: 10",
                "text": "Which day?",
            },
        ],
        "turns": [
            {
                "turn": 1,
                "plan": [{"request": f"{_ASK}, answer: 10", "agent": "shelter"}],
                "answered_by": [],
                "requests_answered": [],
                "failed": [],
            }
        ],
    }
    chat = _bot([]).conversation(state=old)
    [waiting] = chat.state.awaiting
    assert (waiting.request, waiting.answers) == (f"{_ASK}, answer: 10", ())
    assert chat.transcript.turns[0].plan[0].answers == ()
    assert chat.snapshot()["turns"] == old["turns"]


def test_an_answer_joins_its_own_request_when_another_request_holds_its_text() -> None:
    # "book a crossing" is inside "book a crossing for my car": the answer to the second request
    # joins the second, and the model's numbered working text is made from its requests again.
    requests = ("book a crossing for my car", "book a crossing")
    answer = UserAnswer(request="book a crossing", question="How many passengers?", value="3")
    context = replace(_act(join_requests(requests)).context, requests=requests, answers=(answer,))
    working = _with_answers(context)
    assert working.requests == ("book a crossing for my car", join_answer("book a crossing", "3"))
    assert working.scoped_request == join_requests(working.requests)
    assert working.scoped_request.startswith("(1) book a crossing for my car; (2) ")


async def test_a_jsonl_export_keeps_the_answer_and_harness_detect_reads_it_back(
    tmp_path: Path,
) -> None:
    donated: list[float] = []
    chat = _bot(donated).conversation()
    await chat.send(_ASK)
    second = await chat.send("£15 please")
    path = tmp_path / "shelter.jsonl"
    path.write_text(chat.transcript.to_jsonl(), encoding="utf-8")
    [read] = load_transcript(path)
    assert read.turns[1].plan == second.plan
    assert [(a.question, a.value) for a in read.turns[1].plan[0].answers] == [
        ("What amount do you want?", "£15")
    ]


@pytest.mark.parametrize(
    "answers",
    [
        "£15",
        [{"value": ""}],
        [{"question": "What amount?", "value": 15}],
        [{"question": "What amount?", "value": "£15", "extra": 1}],
    ],
)
def test_a_jsonl_plan_with_malformed_answers_is_refused(tmp_path: Path, answers: Any) -> None:
    record = {
        "conversation": "c1",
        "id": "m1",
        "turn": 1,
        "role": "user",
        "sender": "user",
        "text": "donate to the shelter",
        "requests": [{"agent": "shelter", "request": "donate", "answers": answers}],
    }
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"requests\[0\]\.answers"):
        load_transcript(path)

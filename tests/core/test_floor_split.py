"""A floor holder gets only its own part of a multi-intent message; the rest is routed as usual.

The reported bug: after "I want to change my dorm room", the message "Maple Hall, and also when does
registration open?" all went to the housing agent, which submitted a request "for Maple Hall, and also
when does registration open?", and the registration question was lost.
"""

from __future__ import annotations

import pytest

from harness import (
    ChildAgent,
    FunctionModel,
    Mode,
    Parent,
    Reply,
    RulesModel,
    ToolContext,
    load_bot,
)
from harness.composing import RulesComposer
from harness.models import ModelRequest, ModelResponse
from subagents import Usage
from tests.core._support import HELPDESK

SECOND = "Maple Hall, and also when does registration open?"


def change_room(ctx: ToolContext) -> Reply:
    """Change my dorm room: move to another residence hall (housing)."""
    if not ctx.state.get("asked"):
        ctx.state["asked"] = True
        return Reply(text="Which residence hall would you like to move to?", done=False)
    ctx.state.clear()
    return Reply(text=f"Your housing request for {ctx.scoped_request} has been submitted.")


def registration_dates() -> str:
    """When course registration opens for next term."""
    return "Course registration opens on January 12 at 8 am."


def agents() -> list[ChildAgent]:
    return [
        ChildAgent(
            name="housing",
            description="Changes dorm rooms and residence hall assignments, in a short dialogue.",
            mode=Mode.CONVERSATIONAL,
            tools=[change_room],
            examples=["i want to change my dorm room", "move me to another residence hall"],
        ),
        ChildAgent(
            name="registration",
            description="Answers questions about course registration dates.",
            tools=[registration_dates],
            examples=["when does registration open", "when can i register for courses"],
        ),
    ]


def function_planner() -> FunctionModel:
    """An LLM-like planner: it sends the first message to housing and splits the second itself;
    acting and composing are rules."""
    rules = RulesModel()

    async def respond(request: ModelRequest) -> ModelResponse:
        holder = "sub-agent `housing` is in a dialogue"
        if request.output_name == "plan" and holder in request.system:
            plan = [
                {"request": "Maple Hall", "agent": "housing"},
                {"request": "When does registration open?", "agent": "registration"},
            ]
            return ModelResponse(output={"requests": plan}, usage=Usage(requests=1))
        if request.output_name == "plan":
            message = request.messages[-1].content
            plan = [{"request": message, "agent": "housing"}]
            return ModelResponse(output={"requests": plan}, usage=Usage(requests=1))
        return await rules.request(request)

    return FunctionModel(respond)


@pytest.mark.parametrize("planner", ["rules", "function"])
async def test_the_floor_holder_gets_its_part_and_the_second_request_is_kept(
    planner: str,
) -> None:
    model = RulesModel() if planner == "rules" else function_planner()
    bot = Parent(name="campus", subagents=agents(), model=model, composer=RulesComposer())
    conversation = bot.conversation()

    first = await conversation.send("I want to change my dorm room")
    assert [m.sender for m in first.messages] == ["housing"]
    assert conversation.active_agent == "housing"

    second = await conversation.send(SECOND)
    by_agent = {p.agent: p.request for p in second.plan}
    assert set(by_agent) == {"housing", "registration"}
    assert by_agent["housing"] == "Maple Hall"
    assert "registration open" in by_agent["registration"]
    housing = next(r for r in second.results if r.agent == "housing")
    assert housing.outputs is not None and housing.outputs.scoped_request == "Maple Hall"
    said = {m.sender: m.text for m in second.messages}
    assert said["housing"] == "Your housing request for Maple Hall has been submitted."
    assert "January 12" in said["registration"]
    assert "registration open" not in said["housing"]
    assert conversation.active_agent is None  # the dialogue finished


async def test_the_planner_is_told_who_holds_the_floor_and_to_split_anyway() -> None:
    rules = RulesModel()
    seen: list[ModelRequest] = []

    async def respond(request: ModelRequest) -> ModelResponse:
        if request.output_name == "plan":  # an LLM-like planner: everything to housing
            seen.append(request)
            message = request.messages[-1].content
            return ModelResponse(output={"requests": [{"request": message, "agent": "housing"}]})
        return await rules.request(request)

    bot = Parent(
        name="campus", subagents=agents(), model=FunctionModel(respond), composer=RulesComposer()
    )
    conversation = bot.conversation()
    await conversation.send("I want to change my dorm room")
    await conversation.send(SECOND)
    first, second = seen
    assert "holds the floor" not in first.system
    assert "sub-agent `housing` is in a dialogue" in second.system
    assert "Still split the user's message" in second.system
    assert second.messages[-1].content == SECOND


async def test_a_message_that_is_only_for_another_agent_leaves_the_floor_where_it_is() -> None:
    conversation = Parent(name="campus", subagents=agents()).conversation()
    await conversation.send("I want to change my dorm room")
    turn = await conversation.send("When does registration open?")
    assert [p.agent for p in turn.plan] == ["registration"]
    assert "January 12" in turn.text
    assert conversation.active_agent == "housing"
    done = await conversation.send("Oak Hall")
    assert [p.agent for p in done.plan] == ["housing"]
    assert "request for Oak Hall has been submitted" in done.text


async def test_a_bare_yes_stays_with_the_floor_holder_and_the_question_after_it_is_routed() -> None:
    conversation = load_bot(HELPDESK).conversation()
    await conversation.send("I want to change my direct deposit account")
    await conversation.send("123456789")
    turn = await conversation.send("yes please, and also when is payday?")
    assert [(p.agent, p.request) for p in turn.plan] == [
        ("direct_deposit", "yes please"),
        ("payroll", "when is payday"),
    ]
    assert "from the next payroll" in turn.text and "Friday, December 4" in turn.text
    assert conversation.active_agent is None


async def test_an_answer_that_mentions_another_agents_words_stays_with_the_floor_holder() -> None:
    conversation = load_bot(HELPDESK).conversation()
    await conversation.send("I want to change my direct deposit account")
    answer = "It's 123456789, the one I use for my paycheck"
    turn = await conversation.send(answer)
    assert [(p.agent, p.request) for p in turn.plan] == [("direct_deposit", answer)]
    assert "ending in 6789" in turn.text


async def test_the_user_can_cancel_the_dialogue_while_it_waits_for_the_account() -> None:
    conversation = load_bot(HELPDESK).conversation()
    await conversation.send("I want to change my direct deposit account")
    turn = await conversation.send("no, cancel that")
    assert [m.sender for m in turn.messages] == ["direct_deposit"]
    assert "cancelled the change" in turn.text
    assert conversation.active_agent is None

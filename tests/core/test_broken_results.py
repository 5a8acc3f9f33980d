"""What the parent says after a result that broke its contract: never again what the agent
already told the user, and, when nothing usable is left, the same apology as for a failed call
(not a request to rephrase)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness import ConnectedAgent, FunctionModel, ModelRequest, ModelResponse, Parent, ToolContext
from harness.composing import ResultView
from harness.composing.llm import SENT_NOTE
from harness.models import ToolCall
from harness.testing import fake_subagent
from subagents import IOSpec

PAYDAY = "Your next payday is Friday, December 4."
FAILED = (
    'Sorry, I could not finish "When is my next paycheck": the payroll service failed. '
    "Please try again later."
)


def _payroll(mode: str, outputs: dict[str, Any]) -> Any:
    return fake_subagent(
        "payroll",
        mode=mode,  # type: ignore[arg-type]
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        outputs=outputs,
    )


def _declaring(outputs: dict[str, Any], *declared: str) -> ConnectedAgent:
    async def handler(ctx: ToolContext) -> dict[str, Any]:
        return outputs

    return ConnectedAgent(
        name="payroll",
        mode="direct",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        handler=handler,
        outputs=[IOSpec(name=name) for name in declared],
    )


@pytest.mark.parametrize(
    "agent",
    [
        # An output it never declared: the answer itself is fine.
        _payroll("direct", {"answered": True, "interactionSummary": PAYDAY, "payDate": "Dec 4"}),
        # A contract output it declared but did not return.
        _declaring(
            {"answered": True, "interactionSummary": PAYDAY},
            "answered",
            "interactionSummary",
            "scopedRequest",
        ),
    ],
    ids=["undeclared-output", "declared-output-missing"],
)
async def test_a_direct_answer_is_not_repeated_when_its_outputs_broke_the_contract(
    agent: Any,
) -> None:
    bot = Parent(name="hd", subagents=[agent])
    turn = await bot.conversation().send("When is my next paycheck?")
    (result,) = turn.results
    assert result.broken and not result.answered  # still reported as not answered
    assert [(m.sender, m.text) for m in turn.messages] == [("payroll", PAYDAY)]


async def test_the_llm_composer_is_shown_what_the_user_already_read() -> None:
    def answer(request: ModelRequest) -> ModelResponse:
        if request.output_name == "plan":
            return ModelResponse(
                output={"requests": [{"request": "next paycheck", "agent": "payroll"}]}
            )
        return ModelResponse(output={"message": "", "route": []})

    model = FunctionModel(answer)
    outputs = {"answered": True, "interactionSummary": "told payday", "payDate": "Fri"}
    bot = Parent(name="hd", model=model, subagents=[_payroll("direct", outputs)])
    turn = await bot.conversation().send("When is my next paycheck?")
    [reply] = [c for c in model.calls if c.output_name == "reply"]
    # The results stay the last message (test doubles and users' FunctionModels read them
    # there); what the key means comes just before them.
    payload = json.loads((reply.messages[-1].content or "").split("\n", 1)[1])
    (shown,) = payload["results"]
    assert shown["answered"] is False and shown["error"]
    assert shown["sentToUser"] == ["told payday"]
    assert shown["saidAnswered"] is True
    assert reply.messages[-2].content == SENT_NOTE
    assert [m.sender for m in turn.messages] == ["payroll"]


async def test_the_llm_composer_is_told_the_agents_own_answered() -> None:
    # A holding message, then outputs that broke the contract and say answered false: the user
    # lacks the answer, and the model parent must not be told otherwise.
    calls: list[ModelRequest] = []

    def parent(request: ModelRequest) -> ModelResponse:
        calls.append(request)
        if request.output_name == "plan":
            return ModelResponse(
                output={"requests": [{"request": "When is my next paycheck?", "agent": "payroll"}]}
            )
        return ModelResponse(output={"message": "ok", "route": []})

    outputs = {"answered": False, "interactionSummary": "Payroll did not respond.", "payDate": "x"}
    bot = Parent(name="hd", model=FunctionModel(parent), subagents=[_asks_then_says(outputs)])
    await bot.conversation().send("When is my next paycheck?")
    [reply] = [c for c in calls if c.output_name == "reply"]
    (shown,) = json.loads((reply.messages[-1].content or "").split("\n", 1)[1])["results"]
    assert shown["sentToUser"] == ["One moment, checking."]
    assert shown["saidAnswered"] is False
    note = reply.messages[-2].content or ""
    assert note == SENT_NOTE
    # The note says the messages answer the request only if the agent's own outputs said so.
    assert "If `saidAnswered` is true" in note and "If it is false" in note
    assert "false only because" not in note


def test_a_result_shows_its_messages_only_when_it_broke_the_contract() -> None:
    base = {"agent": "pto", "mode": "conversational", "request": "pto", "status": "complete"}
    answered = ResultView(**base, answered=True, sent=("12 days.",))  # type: ignore[arg-type]
    talking = ResultView(**base, answered=False, sent=("Which year?",))  # type: ignore[arg-type]
    broken = ResultView(  # type: ignore[arg-type]
        **base, answered=False, sent=("12 days.",), error="invalid_output", broke_contract=True
    )
    assert "sentToUser" not in answered.to_json()
    assert "sentToUser" not in talking.to_json()  # a question kept the contract: as recorded
    assert broken.to_json()["sentToUser"] == ["12 days."]


def _asks_then_says(outputs: dict[str, Any]) -> ConnectedAgent:
    """A direct model agent that sends a holding message, then returns ``outputs``."""

    def answer(request: ModelRequest) -> ModelResponse:
        if not any(m.role == "tool" for m in request.messages):
            call = ToolCall(
                id="c0", name="send_message_to_user", arguments={"text": "One moment, checking."}
            )
            return ModelResponse(tool_calls=(call,))
        return ModelResponse(output=outputs)

    return ConnectedAgent(
        name="payroll",
        mode="direct",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        model=FunctionModel(answer),
    )


@pytest.mark.parametrize(
    ("outputs", "reply"),
    [
        # It says the user does not have the answer: what it meant to say is relayed.
        (
            {"answered": False, "interactionSummary": "Payroll did not respond.", "payDate": "x"},
            "Payroll did not respond.",
        ),
        ({"answered": False, "findings": PAYDAY, "payDate": "x"}, PAYDAY),
        # Nothing to relay: the failed call's apology, not silence.
        ({"answered": False, "interactionSummary": " ", "payDate": "x"}, FAILED),
        # What it would relay is the holding message again: not repeated, apologised for.
        (
            {"answered": False, "interactionSummary": "One moment, checking.", "payDate": "x"},
            FAILED,
        ),
    ],
    ids=["summary", "findings", "nothing", "restates-the-holding-message"],
)
async def test_a_holding_message_does_not_stand_for_the_answer_of_a_broken_result(
    outputs: dict[str, Any], reply: str
) -> None:
    bot = Parent(name="hd", subagents=[_asks_then_says(outputs)])
    turn = await bot.conversation().send("When is my next paycheck?")
    assert turn.results[0].broken
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("payroll", "One moment, checking."),
        ("hd", reply),
    ]


@pytest.mark.parametrize(
    ("mode", "outputs"),
    [
        ("direct", {"answered": True, "openQuestions": ["reset my password"]}),
        ("silent", {"answered": True, "findings": "", "openQuestions": ["reset my password"]}),
    ],
    ids=["direct", "silent"],
)
async def test_a_broken_result_with_open_questions_still_apologises_for_the_request(
    mode: str, outputs: dict[str, Any]
) -> None:
    bot = Parent(name="hd", subagents=[_payroll(mode, outputs)])
    turn = await bot.conversation().send("When is my next paycheck?")
    assert turn.results[0].broken
    assert turn.text == f'{FAILED} I can\'t help with "reset my password" here.'


async def test_a_broken_result_handing_its_request_back_is_not_apologised_for_twice() -> None:
    outputs = {"answered": True, "findings": "", "openQuestions": ["When is my next paycheck"]}
    bot = Parent(name="hd", subagents=[_payroll("silent", outputs)])
    turn = await bot.conversation().send("When is my next paycheck?")
    assert "could not finish" not in turn.text
    assert "When is my next paycheck" in turn.text


@pytest.mark.parametrize(
    ("mode", "outputs"),
    [
        ("direct", {"answered": True}),  # no summary, and nothing sent
        ("direct", {"answered": False, "interactionSummary": ""}),
        ("silent", {"answered": False, "findings": "", "openQuestions": []}),
        ("silent", {"answered": False, "interactionSummary": "told them", "openQuestions": []}),
    ],
    ids=["direct-bare", "direct-blank-summary", "silent-blank-findings", "silent-no-findings"],
)
async def test_a_broken_result_with_nothing_to_relay_gets_the_failure_apology(
    mode: str, outputs: dict[str, Any]
) -> None:
    bot = Parent(name="hd", subagents=[_payroll(mode, outputs)])
    turn = await bot.conversation().send("When is my next paycheck?")
    assert turn.results[0].broken
    assert turn.text == FAILED


async def test_the_findings_of_a_broken_direct_result_that_sent_nothing_are_relayed() -> None:
    outputs = {"answered": False, "findings": PAYDAY}  # no interactionSummary
    bot = Parent(name="hd", subagents=[_payroll("direct", outputs)])
    turn = await bot.conversation().send("When is my next paycheck?")
    assert turn.results[0].broken
    assert [(m.sender, m.text) for m in turn.messages] == [("hd", PAYDAY)]


def _agent(name: str, mode: str, outputs: dict[str, Any], *examples: str) -> Any:
    return fake_subagent(
        name,
        mode=mode,  # type: ignore[arg-type]
        description=f"Looks up {name} questions.",
        examples=list(examples),
        outputs=outputs,
    )


@pytest.mark.parametrize(
    ("mode", "outputs"),
    [
        (
            "silent",
            {"answered": False, "findings": "", "openQuestions": ["the date of the next pay run"]},
        ),
        ("direct", {"answered": False, "openQuestions": ["the date of the next pay run"]}),
    ],
    ids=["silent", "direct"],
)
async def test_a_broken_result_handing_its_request_back_in_other_words_is_not_apologised_for(
    mode: str, outputs: dict[str, Any]
) -> None:
    # The request handed back reworded (models reword), with an output it never declared; a
    # second agent takes the question up and answers it.
    payroll = _payroll(mode, {**outputs, "ticket": "T-1"})
    payrun = _agent(
        "payrun",
        "silent",
        {"answered": False, "findings": "The next pay run is on Friday.", "openQuestions": []},
        "the date of the next pay run",
    )
    bot = Parent(name="hd", subagents=[payroll, payrun])
    turn = await bot.conversation().send("When is my next paycheck?")
    assert turn.results[0].broken
    assert turn.text == "The next pay run is on Friday."


async def test_a_broken_call_is_not_apologised_for_the_request_its_items_say_it_answered() -> None:
    async def handler(ctx: ToolContext) -> dict[str, Any]:
        return {
            "answered": False,
            "interactionSummary": "Your next payday is Friday.",
            "answeredRequests": [
                {"request": "When is my next paycheck", "answered": True},
                {"request": "how many days off do I have", "answered": False, "findings": ""},
            ],
            "ticket": "T-1",
        }

    hr = ConnectedAgent(
        name="hr",
        mode="direct",
        description="Pay dates, paychecks and days off.",
        examples=["when is my next paycheck", "how many days off do I have"],
        handler=handler,
    )
    bot = Parent(name="hd", subagents=[hr])
    turn = await bot.conversation().send(
        "When is my next paycheck and how many days off do I have?"
    )
    assert turn.results[0].broken
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("hr", "Your next payday is Friday."),
        (
            "hd",
            'Sorry, I could not finish "how many days off do I have": the hr service failed. '
            "Please try again later.",
        ),
    ]


@pytest.mark.parametrize(
    ("sent", "findings"),
    [("One moment, checking.", PAYDAY), (PAYDAY, "Next pay date: Friday 4 December.")],
    ids=["findings-after-a-holding-message", "findings-repeating-the-answer-in-other-words"],
)
async def test_an_unbroken_direct_result_that_sent_a_message_has_nothing_relayed(
    sent: str, findings: str
) -> None:
    # Valid outputs, answered false, findings: what it sent is its part (as on bb9330f); the
    # parent cannot tell a holding message from the answer in other words, and does not guess.
    def answer(request: ModelRequest) -> ModelResponse:
        if not any(m.role == "tool" for m in request.messages):
            call = ToolCall(id="c0", name="send_message_to_user", arguments={"text": sent})
            return ModelResponse(tool_calls=(call,))
        return ModelResponse(
            output={"answered": False, "interactionSummary": "Checked.", "findings": findings}
        )

    agent = ConnectedAgent(
        name="payroll",
        mode="direct",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        model=FunctionModel(answer),
    )
    turn = (
        await Parent(name="hd", subagents=[agent]).conversation().send("When is my next paycheck?")
    )
    assert turn.results[0].ok
    assert [(m.sender, m.text) for m in turn.messages] == [("payroll", sent)]


async def test_a_conversational_agent_that_broke_the_contract_after_asking_loses_the_floor() -> (
    None
):
    # It asked the user something, then returned outputs that broke the contract: the runtime
    # does not keep the floor for it, so the user is told that part could not be done rather
    # than left with a question nobody will take the answer to.
    def answer(request: ModelRequest) -> ModelResponse:
        if not any(m.role == "tool" for m in request.messages):
            call = ToolCall(
                id="c0", name="send_message_to_user", arguments={"text": "Which month?"}
            )
            return ModelResponse(tool_calls=(call,))
        return ModelResponse(
            output={
                "answered": False,
                "scopedRequest": "When is my next paycheck",
                "interactionSummary": "Asked which month.",
                "payDate": "x",
            }
        )

    agent = ConnectedAgent(
        name="payroll",
        mode="conversational",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        model=FunctionModel(answer),
    )
    conversation = Parent(name="hd", subagents=[agent]).conversation()
    turn = await conversation.send("When is my next paycheck?")
    assert turn.results[0].broken
    assert conversation.active_agent is None
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("payroll", "Which month?"),
        ("hd", FAILED),
    ]


async def test_a_broken_call_hands_back_one_of_its_requests_in_other_words() -> None:
    # Two requests, nothing answered, one handed back reworded: that one is taken up as an open
    # question, the other is apologised for.
    outputs = {
        "answered": False,
        "findings": "",
        "openQuestions": ["my remaining vacation days"],
        "ticket": "T-1",
    }
    hr = _agent("hr", "silent", outputs, "when is my next paycheck", "how many days off do I have")
    bot = Parent(name="hd", subagents=[hr])
    turn = await bot.conversation().send(
        "When is my next paycheck and how many days off do I have?"
    )
    assert turn.results[0].broken and turn.results[0].requests == (
        "When is my next paycheck",
        "how many days off do I have",
    )
    assert turn.text == (
        'Sorry, I could not finish "When is my next paycheck": the hr service failed. Please try '
        'again later. I can\'t help with "my remaining vacation days" here.'
    )

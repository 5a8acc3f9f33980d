"""Fuzz the turn: whatever the models return or raise, a non-strict turn ends with a reply.

Hypothesis scripts the parent's and the sub-agents' models: arbitrary JSON as the plan, the reply
and the sub-agents' outputs, tool calls with arbitrary arguments, refusals and exceptions. Every
turn must return (never raise), every bot message must be text, and a failed sub-agent call or a
failed parent step must be recorded. Derandomised (fixed seed) and bounded by ``max_examples``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import ChildAgent, FunctionModel, ModelResponse, Parent
from harness.exceptions import ModelBehaviorError, ModelRequestError
from harness.models.base import ModelRequest, ToolCall

FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TRIED = [0]

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "requests",
                    "request",
                    "agent",
                    "message",
                    "route",
                    "answered",
                    "findings",
                    "interactionSummary",
                    "openQuestions",
                    "scopedRequest",
                    "x",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=15,
)
agent_names = st.sampled_from(["pto", "payroll", "hd", "nobody", ""])
plans = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "requests": st.lists(
                st.fixed_dictionaries(
                    {"request": st.one_of(st.text(max_size=20), json_values), "agent": agent_names}
                ),
                max_size=3,
            )
        }
    ),
)
answers = st.one_of(
    st.builds(lambda o: ModelResponse(output=o), json_values),
    st.builds(lambda t: ModelResponse(text=t), st.text(max_size=30)),
    st.builds(
        lambda name, args: ModelResponse(tool_calls=(ToolCall(id="c", name=name, arguments=args),)),
        st.sampled_from(["pto_balance", "send_message_to_user", "missing"]),
        st.dictionaries(st.sampled_from(["text", "x"]), json_values, max_size=2),
    ),
    st.just(ModelResponse(refusal="no")),
    st.sampled_from(
        [
            ModelBehaviorError("garbage", agent="x"),
            ModelRequestError("unreachable", attempts=2),
            RuntimeError("boom"),
            TimeoutError(),
        ]
    ),
)


def _bot(script: list[Any]) -> Parent:
    def answer(request: ModelRequest) -> ModelResponse:
        item = script.pop(0) if script else ModelResponse(output={"message": "ok", "route": []})
        if request.output_name == "plan" and isinstance(item, dict | list | type(None)):
            return ModelResponse(output=item)  # type: ignore[arg-type]
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, ModelResponse):
            return item
        return ModelResponse(output=item)

    def pto_balance(days: int = 12) -> Any:
        """How many PTO days are left."""
        return {"left": days, "note": object()}

    agents = [
        ChildAgent(
            name="pto",
            mode="direct",  # type: ignore[arg-type]
            description="PTO balance.",
            tools=[pto_balance],
            timeout=5,
        ),
        ChildAgent(name="payroll", mode="silent", description="Paydays.", timeout=5),  # type: ignore[arg-type]
    ]
    return Parent(name="hd", subagents=agents, model=FunctionModel(answer), max_compose_steps=1)


@FUZZ
@given(plan=plans, script=st.lists(answers, max_size=8))
async def test_a_turn_always_ends_with_text_and_a_record(plan: Any, script: list[Any]) -> None:
    TRIED[0] += 1
    conversation = _bot([plan, *script]).conversation()
    turn = await conversation.send("How many vacation days do I have, and when is payday?")
    assert turn.messages, "the user always gets an answer"
    assert all(isinstance(m.text, str) and m.text for m in turn.messages)
    record = conversation.transcript.turns[-1]
    for result in turn.results:
        if result.status in ("failed", "timed_out"):
            assert result.agent in record.failed and result.error
    second = await conversation.send("thanks")  # the conversation goes on
    assert second.number == 2


def test_report_the_fuzz_count() -> None:
    print(f"fuzzed turns: {TRIED[0]} scripted model sequences, none raised")

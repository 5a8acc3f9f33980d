"""Conflict strategies (and escalation), the QA check, and concurrent collection with timeouts."""

from __future__ import annotations

import asyncio
import time

import pytest

from harness.aggregate import AgentOutput, AggregatedResult, aggregate, collect, qa_check
from harness.exceptions import HumanEscalationError, UsageError
from harness.models import FunctionModel, ModelRequest, ModelResponse, ScriptedModel


def out(
    agent: str, value: object, confidence: float | None, text: str | None = None
) -> AgentOutput:
    return AgentOutput(
        agent=agent,
        data={"payday": value},
        text=text or f"{agent} says the payday is {value}.",
        confidence=confidence,
    )


DISAGREE = [out("a", "Friday", 0.6), out("b", "Thursday", 0.9), out("c", "Friday", 0.7)]


async def test_confidence_strategy_takes_the_most_confident_value_and_records_it() -> None:
    result = await aggregate(DISAGREE, strategy="confidence")
    assert result.details["payday"] == "Thursday"
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and conflict.winner == "b" and conflict.strategy == "confidence"
    assert {c.agent for c in conflict.candidates} == {"a", "b", "c"}
    assert result.attribution["payday"] == ("b",)
    assert not [i for i in result.qa_issues if i.code == "unresolved_conflict"]


async def test_voting_strategy_takes_the_majority_value() -> None:
    result = await aggregate(DISAGREE, strategy="voting")
    assert result.details["payday"] == "Friday"
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and "2 of 3 votes" in conflict.reason
    assert set(result.attribution["payday"]) == {"a", "c"}


async def test_a_tied_vote_goes_to_the_value_with_the_most_confident_supporter() -> None:
    tied = [out("a", "Friday", 0.6), out("b", "Thursday", 0.9)]
    result = await aggregate(tied, strategy="voting")
    assert result.details["payday"] == "Thursday"


async def test_a_tie_with_equal_confidence_stays_unresolved_and_fails_qa() -> None:
    tied = [out("a", "Friday", 0.8), out("b", "Thursday", 0.8)]
    result = await aggregate(tied, strategy="voting")
    assert "payday" not in result.details
    (conflict,) = result.conflicts_resolved
    assert not conflict.resolved
    assert [i.code for i in result.qa_issues] == ["unresolved_conflict"]


async def test_llm_arbitration_asks_the_model_to_pick_a_candidate() -> None:
    def arbiter(request: ModelRequest) -> ModelResponse:
        prompt = request.messages[0].content or ""
        # candidates come in ranking order, numbered from 0
        assert "'payday'" in prompt and '0. "Thursday" (b, confidence 0.90)' in prompt
        assert request.output_schema is not None
        return ModelResponse(output={"choice": 2, "reason": "the payroll calendar agrees"})

    model = FunctionModel(arbiter)
    result = await aggregate(DISAGREE, strategy="llm_arbitration", arbiter=model)
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and conflict.winner == "a" and result.details["payday"] == "Friday"
    assert conflict.reason == "the payroll calendar agrees"
    assert len(model.calls) == 1


async def test_llm_arbitration_reads_a_plain_text_choice() -> None:
    model = ScriptedModel([ModelResponse(text="0 - Thursday matches the calendar")])
    result = await aggregate(DISAGREE, strategy="llm_arbitration", arbiter=model)
    assert result.details["payday"] == "Thursday"


async def test_an_unusable_arbitration_leaves_the_conflict_unresolved() -> None:
    model = ScriptedModel([ModelResponse(output={"choice": 7, "reason": "?"})])
    result = await aggregate(DISAGREE, strategy="llm_arbitration", arbiter=model)
    assert not result.conflicts_resolved[0].resolved
    assert "unresolved_conflict" in [i.code for i in result.qa_issues]


async def test_llm_arbitration_without_a_model_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="needs a model"):
        await aggregate(DISAGREE, strategy="llm_arbitration")


async def test_human_escalation_raises_with_the_conflict_attached() -> None:
    with pytest.raises(HumanEscalationError) as caught:
        await aggregate(DISAGREE, strategy="human_escalation")
    conflict = caught.value.conflict
    assert conflict.field == "payday" and not conflict.resolved
    assert [c.value for c in conflict.candidates] == ["Thursday", "Friday", "Friday"]


async def test_strategies_can_differ_per_field() -> None:
    results = [
        AgentOutput(agent="a", data={"payday": "Friday", "amount": 100}, text="a", confidence=0.9),
        AgentOutput(
            agent="b", data={"payday": "Thursday", "amount": 120}, text="b", confidence=0.5
        ),
        AgentOutput(
            agent="c", data={"payday": "Thursday", "amount": 100}, text="c", confidence=0.4
        ),
    ]
    result = await aggregate(results, strategy="confidence", field_strategies={"payday": "voting"})
    assert result.details == {"payday": "Thursday", "amount": 100}
    assert {c.field: c.strategy for c in result.conflicts_resolved} == {
        "payday": "voting",
        "amount": "confidence",
    }


async def test_agreeing_fields_are_not_conflicts() -> None:
    same = [out("a", "Friday", 0.9), out("b", "Friday", 0.8, text="Another wording: Friday.")]
    result = await aggregate(same)
    assert result.conflicts_resolved == ()
    assert result.details == {"payday": "Friday"}
    assert set(result.attribution["payday"]) == {"a", "b"}


# --- QA ---------------------------------------------------------------------------------------


async def _good() -> AggregatedResult:
    result = await aggregate(
        [
            out("a", "Friday", 0.9, text="The next payday is Friday, December 4."),
            AgentOutput(agent="b", text="The W-2 form is in the payroll portal.", confidence=0.8),
        ]
    )
    assert result.qa_issues == ()
    assert result.ok
    return result


async def test_a_good_aggregation_passes_qa() -> None:
    await _good()


async def test_qa_flags_an_empty_summary() -> None:
    result = (await _good()).model_copy(update={"summary": "  "})
    assert [i.code for i in qa_check(result)] == ["summary_missing"]


async def test_qa_flags_a_summary_shorter_than_30_characters() -> None:
    result = await aggregate([AgentOutput(agent="a", text="Payday: Friday.", confidence=0.9)])
    assert [i.code for i in result.qa_issues] == ["summary_too_short"]
    assert "15 characters" in result.qa_issues[0].message


async def test_qa_flags_missing_attribution() -> None:
    good = await _good()
    no_sources = good.model_copy(update={"sources": ()})
    assert "sources_unattributed" in [i.code for i in qa_check(no_sources)]
    orphan = good.model_copy(update={"details": {**good.details, "ghost": 1}})
    issues = qa_check(orphan)
    assert [i.code for i in issues] == ["sources_unattributed"]
    assert "ghost" in issues[0].message


async def test_qa_flags_a_confidence_below_point3() -> None:
    result = await aggregate(
        [AgentOutput(agent="a", text="A long enough summary about the payday.", confidence=0.29)]
    )
    assert [i.code for i in result.qa_issues] == ["low_confidence"]


async def test_qa_flags_unresolved_conflicts() -> None:
    good = await _good()
    conflict = await aggregate([out("a", 1, 0.5), out("b", 2, 0.5)], strategy="voting")
    broken = good.model_copy(update={"conflicts_resolved": conflict.conflicts_resolved})
    assert [i.code for i in qa_check(broken)] == ["unresolved_conflict"]


async def test_nothing_usable_fails_every_relevant_check() -> None:
    result = await aggregate([AgentOutput(agent="a", status="failed", error="boom")])
    codes = {i.code for i in result.qa_issues}
    assert codes == {"summary_missing", "sources_unattributed", "low_confidence"}
    assert result.metadata.success_rate == 0.0


# --- collection -------------------------------------------------------------------------------


async def test_collect_runs_concurrently_with_a_timeout_per_agent() -> None:
    async def fast() -> AgentOutput:
        await asyncio.sleep(0.05)
        return AgentOutput(agent="fast", text="fast result", confidence=0.9)

    async def slow() -> AgentOutput:
        await asyncio.sleep(5)
        raise AssertionError("never reached")

    async def medium() -> AgentOutput:
        await asyncio.sleep(0.15)
        return AgentOutput(agent="medium", text="medium result", confidence=0.8)

    async def broken() -> AgentOutput:
        raise RuntimeError("backend down")

    started = time.perf_counter()
    results = await collect(
        {"fast": fast, "slow": slow, "medium": medium, "broken": broken},
        timeout_per_agent={"fast": 1.0, "slow": 0.2, "medium": 1.0, "broken": 1.0},
    )
    elapsed = time.perf_counter() - started
    assert [r.agent for r in results] == ["fast", "slow", "medium", "broken"]
    assert [r.status for r in results] == ["complete", "timed_out", "complete", "failed"]
    assert results[1].error == "no result within 0.2s"
    assert "RuntimeError: backend down" in (results[3].error or "")
    assert elapsed < 0.5  # concurrent, and the slow agent did not hold the others back


async def test_a_per_agent_timeout_is_not_a_global_one() -> None:
    async def takes(seconds: float, name: str) -> AgentOutput:
        await asyncio.sleep(seconds)
        return AgentOutput(agent=name, text=name, confidence=1.0)

    results = await collect(
        {"a": lambda: takes(0.1, "a"), "b": lambda: takes(0.1, "b")},
        timeout_per_agent={"a": 0.05, "b": 0.5},
    )
    assert [r.status for r in results] == ["timed_out", "complete"]


async def test_collect_requires_a_timeout_for_every_agent() -> None:
    async def never() -> AgentOutput:
        raise AssertionError("must not run")

    with pytest.raises(UsageError, match="'b'"):
        await collect({"a": never, "b": never}, timeout_per_agent={"a": 1.0})

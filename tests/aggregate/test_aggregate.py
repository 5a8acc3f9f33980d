"""Aggregation: validation categories, both deduplications, ranking, minimum confidence, synthesis."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

import pytest

from harness.aggregate import (
    AgentOutput,
    aggregate,
    canonical_hash,
    from_subagent_results,
    rank_score,
    validate_output,
)
from harness.exceptions import UsageError
from harness.models import FunctionModel, ModelRequest, ModelResponse
from subagents import (
    ContractViolation,
    Mode,
    SubagentOutputs,
    SubagentResult,
    ViolationKind,
)


class KeywordEmbedder:
    """A fake embedder: one dimension per vocabulary word, so similar wording gives a high cosine."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        words = [re.findall(r"\w+", t.lower()) for t in texts]
        vocab = sorted({w for ws in words for w in ws})
        return [[float(ws.count(w)) for w in vocab] for ws in words]


def out(agent: str, text: str | None = None, **kwargs: object) -> AgentOutput:
    return AgentOutput(agent=agent, text=text, **kwargs)  # type: ignore[arg-type]


# --- validation -------------------------------------------------------------------------------


def test_a_complete_result_with_every_required_field_is_valid() -> None:
    v = validate_output(
        out("a", "x", data={"answer": 1}, confidence=0.5), required_fields=["answer"]
    )
    assert v.category == "valid"
    assert v.score == pytest.approx(0.7 + 0.3 * 0.5)


def test_a_result_missing_a_required_field_is_partial_and_says_what_is_missing() -> None:
    v = validate_output(out("a", "x", data={"other": 1}), required_fields=["answer", "source"])
    assert v.category == "partial"
    assert v.missing == ("answer", "source")
    assert v.score == 0.4


def test_open_questions_make_a_result_partial() -> None:
    v = validate_output(out("a", "x", missing=("the second half",)))
    assert (v.category, v.missing) == ("partial", ("the second half",))


def test_a_result_with_contract_violations_is_invalid() -> None:
    v = validate_output(out("a", "x", issues=("missing_output: findings",)))
    assert v.category == "invalid"
    assert "findings" in v.reason


@pytest.mark.parametrize(
    "output",
    [
        out("a", status="failed", error="boom"),
        out("a", status="timed_out", error="no result within 1s"),
        out("a", text="   ", data={}),
    ],
    ids=["failed", "timed_out", "nothing"],
)
def test_failed_timed_out_and_blank_results_are_empty(output: AgentOutput) -> None:
    assert validate_output(output).category == "empty"


async def test_partial_results_are_kept_and_flagged_invalid_and_empty_ones_dropped() -> None:
    results = [
        out("valid", "Payday is Friday the 4th of December.", confidence=0.9),
        out(
            "partial",
            "PTO balance is 12 days, the rest is unknown.",
            confidence=0.8,
            missing=("w2",),
        ),
        out("invalid", "I answered the user myself.", confidence=0.9, issues=("silent_message",)),
        out("empty", status="timed_out", error="no result within 2s"),
    ]
    result = await aggregate(results)
    by_agent = {s.agent: s for s in result.sources}
    assert by_agent["partial"].category == "partial"
    assert by_agent["partial"].missing == ("w2",)
    assert by_agent["partial"].used_in_summary
    assert not by_agent["invalid"].used_in_summary and by_agent["invalid"].score is None
    assert not by_agent["empty"].used_in_summary
    assert "answered the user myself" not in result.summary
    assert "12 days" in result.summary and "Friday" in result.summary
    assert result.metadata.categories == {"valid": 1, "partial": 1, "invalid": 1, "empty": 1}
    assert result.metadata.success_rate == 0.5
    assert result.metadata.agent_count == 4


# --- deduplication ----------------------------------------------------------------------------


def test_canonical_hash_ignores_key_order_and_is_sha256_of_canonical_json() -> None:
    assert canonical_hash({"b": 1, "a": [1, 2]}) == canonical_hash({"a": [1, 2], "b": 1})
    expected = hashlib.sha256(json.dumps({"a": 1}, separators=(",", ":")).encode()).hexdigest()
    assert canonical_hash({"a": 1}) == expected


async def test_exact_duplicates_are_dropped_keeping_the_better_ranked_copy() -> None:
    same = {"payday": "Friday"}
    results = [
        out("low", "Payday is Friday.", data=same, confidence=0.4),
        out("high", "Payday is Friday.", data=dict(reversed(list(same.items()))), confidence=0.9),
        out("other", "Your W-2 is in the portal.", data={"w2": "portal"}, confidence=0.8),
    ]
    result = await aggregate(results)
    low = next(s for s in result.sources if s.agent == "low")
    assert (low.duplicate_of, low.duplicate_kind) == ("high", "exact")
    assert result.metadata.exact_duplicates == 1
    assert result.summary.count("Payday is Friday.") == 1
    assert result.confidence == 0.8  # the dropped duplicate's 0.4 does not drag it down


async def test_semantic_duplicates_are_dropped_with_an_embedder_only() -> None:
    results = [
        out("a", "Your next payday is Friday December 4.", confidence=0.9),
        out("b", "Your next payday is Friday, December 4.", confidence=0.7),
        out("c", "The W-2 form is in the payroll portal.", confidence=0.8),
    ]
    without = await aggregate(results)
    assert without.metadata.semantic_duplicates == 0
    embedder = KeywordEmbedder()
    result = await aggregate(results, embedder=embedder)
    b = next(s for s in result.sources if s.agent == "b")
    assert (b.duplicate_of, b.duplicate_kind) == ("a", "semantic")
    assert result.metadata.semantic_duplicates == 1
    assert len(embedder.calls) == 1


async def test_texts_with_different_numbers_are_never_semantic_duplicates() -> None:
    results = [
        out("balance", "You have 12 PTO days left this year.", confidence=0.9),
        out("used", "You have 8 PTO days left this year.", confidence=0.9),
    ]
    result = await aggregate(results, embedder=KeywordEmbedder(), semantic_threshold=0.5)
    assert result.metadata.semantic_duplicates == 0
    assert "12" in result.summary and "8 PTO" in result.summary


async def test_the_semantic_threshold_is_configurable() -> None:
    results = [
        out("a", "Payday is this Friday for everyone.", confidence=0.9),
        out("b", "Payday is Friday.", confidence=0.9),
    ]
    strict = await aggregate(results, embedder=KeywordEmbedder())  # 0.92: near-verbatim only
    loose = await aggregate(results, embedder=KeywordEmbedder(), semantic_threshold=0.6)
    assert strict.metadata.semantic_duplicates == 0
    assert loose.metadata.semantic_duplicates == 1


# --- ranking, confidence, synthesis -----------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "missing", "confidence", "expected"),
    [
        ("complete", (), 0.9, 0.4 * 0.9 + 0.4 * (0.7 + 0.3 * 0.9) + 0.2 * 1.0),
        ("complete", ("x",), 0.9, 0.4 * 0.9 + 0.4 * 0.4 + 0.2 * 0.3),
        ("partial", (), 0.5, 0.4 * 0.5 + 0.4 * 0.4 + 0.2 * 0.3),
        ("complete", (), None, 0.4 * 0.0 + 0.4 * 0.7 + 0.2 * 1.0),
    ],
)
def test_rank_score_is_point4_confidence_point4_validation_point2_completeness(
    status: str, missing: tuple[str, ...], confidence: float | None, expected: float
) -> None:
    o = out("a", "text", status=status, missing=missing, confidence=confidence)
    assert rank_score(o, validate_output(o)) == pytest.approx(expected)


async def test_sources_are_scored_and_the_summary_follows_the_ranking() -> None:
    results = [
        out("weak", "Weak finding about PTO carry-over.", confidence=0.3),
        out("strong", "Strong finding about the payday calendar.", confidence=0.95),
    ]
    result = await aggregate(results)
    assert result.summary.splitlines()[0].startswith("Strong finding")
    scores = {s.agent: s.score for s in result.sources}
    assert scores["strong"] is not None and scores["weak"] is not None
    assert scores["strong"] > scores["weak"]


async def test_overall_confidence_is_the_minimum_never_the_mean() -> None:
    results = [
        out("a", "First distinct finding about payroll.", confidence=0.9),
        out("b", "Second distinct finding about benefits.", confidence=0.5),
        out("c", "Third distinct finding about PTO.", confidence=0.8),
    ]
    result = await aggregate(results)
    assert result.confidence == 0.5
    assert result.confidence != pytest.approx((0.9 + 0.5 + 0.8) / 3)


async def test_an_unknown_confidence_makes_the_overall_confidence_zero() -> None:
    results = [
        out("a", "A finding with a confidence attached.", confidence=0.9),
        out("b", "A finding whose agent reported no confidence."),
    ]
    result = await aggregate(results)
    assert result.confidence == 0.0
    low = [i for i in result.qa_issues if i.code == "low_confidence"]
    assert low and "no confidence reported by b" in low[0].message


async def test_the_summary_uses_only_the_top_k_results() -> None:
    results = [
        out(f"agent{n}", f"Finding number {n} is distinct.", confidence=1 - n / 20)
        for n in range(9)
    ]
    result = await aggregate(results)  # top 5 by default
    used = [s.agent for s in result.sources if s.used_in_summary]
    assert used == [f"agent{n}" for n in range(5)]
    assert "number 5" not in result.summary
    seven = await aggregate(results, top_k=7)
    assert sum(s.used_in_summary for s in seven.sources) == 7
    with pytest.raises(UsageError, match="top_k"):
        await aggregate(results, top_k=8)


async def test_repeated_sentences_are_dropped_from_a_local_synthesis() -> None:
    results = [
        out("a", "Payday is Friday. Overtime is paid monthly.", confidence=0.9),
        out("b", "payday is friday! Bonuses arrive in March.", confidence=0.8),
    ]
    result = await aggregate(results)
    assert result.summary.lower().count("payday is friday") == 1
    assert "Bonuses arrive in March." in result.summary


async def test_a_model_synthesises_the_summary_from_the_top_results() -> None:
    def synth(request: ModelRequest) -> ModelResponse:
        assert request.agent == "aggregator"
        assert "[a, confidence 0.90]" in (request.messages[0].content or "")
        return ModelResponse(text="Payday is Friday and the W-2 is in the portal, per two agents.")

    model = FunctionModel(synth)
    results = [
        out("a", "Payday is Friday.", confidence=0.9),
        out("b", "The W-2 is in the portal.", confidence=0.8),
    ]
    result = await aggregate(results, model=model)
    assert result.summary == "Payday is Friday and the W-2 is in the portal, per two agents."
    assert len(model.calls) == 1


async def test_metadata_records_the_slowest_agent_and_the_aggregation_time() -> None:
    results = [
        out("a", "Finding one about payroll dates.", confidence=0.9, duration_s=0.2),
        out("b", "Finding two about benefits enrolment.", confidence=0.9, duration_s=1.5),
    ]
    result = await aggregate(results)
    assert result.metadata.slowest_agent_s == 1.5
    assert 0.0 <= result.metadata.duration_s < 1.0


# --- adapter ----------------------------------------------------------------------------------


def test_subagent_results_are_adapted_with_their_request_as_the_field() -> None:
    ok = SubagentResult(
        agent="payroll",
        mode=Mode.SILENT,
        request="when is payday",
        status="partial",
        outputs=SubagentOutputs(answered=False, findings="Friday.", open_questions=("bonus",)),
        duration_s=0.3,
    )
    bad = SubagentResult(
        agent="pto",
        mode=Mode.SILENT,
        request="pto balance",
        status="complete",
        outputs=SubagentOutputs(answered=True, findings="12 days"),
        violations=(
            ContractViolation(agent="pto", kind=ViolationKind.SILENT_ANSWERED, message="no"),
        ),
    )
    down = SubagentResult(
        agent="w2", mode=Mode.SILENT, request="w2", status="timed_out", error="no result within 5s"
    )
    adapted = from_subagent_results([ok, bad, down], confidence={"payroll": 0.7})
    assert adapted[0].data == {"when is payday": "Friday."}
    assert adapted[0].missing == ("bonus",) and adapted[0].confidence == 0.7
    assert adapted[1].issues and adapted[1].confidence is None
    assert [validate_output(a).category for a in adapted] == ["partial", "invalid", "empty"]

"""An optional LLM judge for borderline duplicate candidates.

The claim-and-fact detector decides every pair on its own; the judge is never needed for its
figures. When one is given (``harness detect --judge openai:gpt-4o-mini``, or
``detect_async(..., judge=...)``), the pairs the detector came close to calling duplicates (they
share a fact, or much of their wording, yet no rule matched) are put to a model, one pair per
request, and the ones it calls duplicates are reported with its reason as the evidence. Any
:class:`~harness.models.Model` works, so a judge replays offline from a cassette
(``--judge replay:judge.jsonl``) in CI.

A judge call that fails (the model unreachable after its retries, a cassette miss, an answer
without a verdict) does not end the check: the pair is left as the rules decided it and counted
in :attr:`ModelJudge.undecided`, with the error in :attr:`ModelJudge.errors`. After a failed
request (an outage, a timeout, a refused key; not a cassette miss) the judge asks nothing more,
so a server that never answers costs one request's retries, not one per pair; nor after
``max_bad_answers`` answers in a row without a verdict (a model that cannot follow the schema).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.exceptions import ModelBehaviorError, ModelRequestError, RunError, UsageError
from harness.models import ChatMessage, Model, ModelRequest, resolve_model
from harness.models.replay import CassetteMissError
from harness.models.rules import RulesModel

__all__ = ["JUDGE_SCHEMA", "ModelJudge", "Verdict"]

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "duplicate": {
            "type": "boolean",
            "description": "True when the later message tells the user again what the earlier "
            "one already told them, without the user asking for it.",
        },
        "reason": {"type": "string", "description": "One short sentence: why."},
    },
    "required": ["duplicate", "reason"],
    "additionalProperties": False,
}

SYSTEM = """You review transcripts of a chat bot made of a parent agent and sub-agents.
Decide whether the LATER bot message is a duplicate of the EARLIER bot message: it tells the
user again what the earlier message already told them (reworded, or as part of a longer
message), and the user did not ask for it again. It is NOT a duplicate when the two state
different facts (amounts, dates, names, ids, statuses), answer different questions, confirm an
action the user just asked for, or repeat something the user asked to hear again.
Answer with JSON: {"duplicate": true or false, "reason": "one short sentence"}."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's decision on one pair."""

    duplicate: bool
    reason: str


class ModelJudge:
    """Asks a model whether a later bot message restates an earlier one.

    Args:
        model: a ``Model``, or a model name (``openai:<model>``, ``replay:<cassette>``; not
            ``rules``, the offline model, which cannot judge: a ``UsageError``).
        max_pairs: at most this many pairs are judged per conversation (the rest are left as
            the detector decided), so a long transcript cannot run up a large bill.
        max_bad_answers: after this many answers in a row without a verdict, the judge asks
            nothing more (:attr:`stopped`).
    """

    def __init__(
        self, model: Model | str, *, max_pairs: int = 200, max_bad_answers: int = 3
    ) -> None:
        resolved = resolve_model(model)
        if isinstance(resolved, RulesModel):
            raise UsageError(
                "the rules model cannot judge duplicates (it answers sub-agents' requests only); "
                "use openai:<model> or replay:<cassette>"
            )
        self.model = resolved
        self.max_pairs = max_pairs
        self.max_bad_answers = max_bad_answers
        self._bad_in_a_row = 0
        self.requests = 0
        self.undecided = 0
        """Pairs the judge could not decide (left as the rules decided them)."""
        self.errors: list[str] = []
        """Why, one entry per distinct error, in the order they came."""
        self.stopped: str | None = None
        """Set after a failed request (an outage): the judge asks nothing more, and says why."""

    async def decide(self, earlier: str, later: str, user: Sequence[str] = ()) -> Verdict | None:
        """:meth:`judge`, or None when the judge could not decide: the failure is counted
        (:attr:`undecided`, :attr:`errors`) instead of raised."""
        if self.stopped is None:
            try:
                verdict = await self.judge(earlier, later, user)
            except RunError as exc:
                error = f"{type(exc).__name__}: {exc}"
                if error not in self.errors:
                    self.errors.append(error)
                if isinstance(exc, ModelRequestError) and not isinstance(exc, CassetteMissError):
                    self.stopped = error
                if isinstance(exc, ModelBehaviorError):
                    self._bad_in_a_row += 1
                    if self._bad_in_a_row >= self.max_bad_answers:
                        self.stopped = f"{self._bad_in_a_row} answers in a row without a verdict"
                        self.stopped += f" ({error})"
            else:
                self._bad_in_a_row = 0
                return verdict
        self.undecided += 1
        return None

    async def judge(self, earlier: str, later: str, user: Sequence[str] = ()) -> Verdict:
        """The verdict on one pair; ``user`` holds what the user said between the two."""
        said = "\n".join(f"- {text}" for text in user) or "- (nothing)"
        prompt = (
            f"EARLIER bot message:\n{earlier}\n\nWhat the user said after it:\n{said}\n\n"
            f"LATER bot message:\n{later}"
        )
        request = ModelRequest(
            agent="duplicate-judge",
            system=SYSTEM,
            messages=(ChatMessage(role="user", content=prompt),),
            output_schema=JUDGE_SCHEMA,
            output_name="duplicate_verdict",
        )
        self.requests += 1
        response = await self.model.request(request)
        output = response.output
        if not isinstance(output, dict) or not isinstance(output.get("duplicate"), bool):
            answer = output or response.text
            raise ModelBehaviorError(
                "the duplicate judge answered without a verdict: "
                + (repr(answer) if answer else "an empty answer (a refusal, or no content)")
            )
        return Verdict(duplicate=output["duplicate"], reason=str(output.get("reason", "")))

"""Turns whose results all keep the contract, with a model parent: the conversation behind
``tests/fixtures/cassettes/kept-contract-bb9330f.jsonl``.

The cassette was recorded with bb9330f's code (before ``sentToUser`` existed) by running this
module there::

    PYTHONPATH=<a bb9330f checkout> python -m tests.models.kept_contract_scenario

and must not be re-recorded with newer code: it pins that the parent's requests for results that
kept the contract (a conversational agent's question and its answer, a direct answer, silent
findings, a call that failed after a holding message) are byte for byte what they were.
``test_kept_contract_cassette.py`` replays it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from harness import ConnectedAgent, FunctionModel, ModelRequest, ModelResponse, Parent, ToolContext
from harness.exceptions import ModelBehaviorError
from harness.models import Model, ToolCall
from harness.models.replay import recording

ROOT = Path(__file__).resolve().parents[2]
CASSETTE = ROOT / "tests" / "fixtures" / "cassettes" / "kept-contract-bb9330f.jsonl"
TRANSCRIPT = CASSETTE.with_name("kept-contract-bb9330f.transcript.jsonl")

TURNS = (
    "I want to book a day off",
    "Friday, please",
    "When is my next paycheck, and which dental plan am I on?",
    "My laptop will not start",
)
_AGENTS = {
    "day off": "pto",
    "friday": "pto",
    "paycheck": "payroll",
    "dental": "benefits",
    "laptop": "it",
}


def _parent(request: ModelRequest) -> ModelResponse:
    """The parent's model: plans by keyword, and replies with a fixed sentence."""
    if request.output_name == "plan":
        text = (request.messages[-1].content or "").lower()
        planned = [
            {"request": key, "agent": agent} for key, agent in _AGENTS.items() if key in text
        ]
        return ModelResponse(output={"requests": planned})
    return ModelResponse(output={"message": "Anything else?", "route": []})


def _sends(*texts: str, then: dict[str, Any] | None) -> FunctionModel:
    """A sub-agent model that sends ``texts`` to the user, then returns ``then`` (or fails)."""

    def answer(request: ModelRequest) -> ModelResponse:
        done = sum(1 for m in request.messages if m.role == "tool")
        if done < len(texts):
            call = ToolCall(
                id=f"c{done}", name="send_message_to_user", arguments={"text": texts[done]}
            )
            return ModelResponse(tool_calls=(call,))
        if then is None:
            raise ModelBehaviorError("the model stopped answering")
        return ModelResponse(output=then)

    return FunctionModel(answer)


def _agents() -> list[ConnectedAgent]:
    asked: list[str] = []

    async def pto(ctx: ToolContext) -> dict[str, Any]:
        if not asked:
            asked.append("day")
            return {
                "answered": False,
                "scopedRequest": "book a day off",
                "interactionSummary": "Which day would you like off?",
            }
        return {
            "answered": True,
            "scopedRequest": "book a day off",
            "interactionSummary": "Friday is booked off.",
        }

    async def benefits(ctx: ToolContext) -> dict[str, Any]:
        return {
            "answered": False,
            "findings": "You are on the Dental Plus plan.",
            "openQuestions": [],
        }

    payday = "Your next payday is Friday, December 4."
    return [
        ConnectedAgent(
            name="pto", mode="conversational", description="Books days off.", handler=pto
        ),
        ConnectedAgent(
            name="payroll",
            mode="direct",
            description="Looks up paychecks.",
            model=_sends(payday, then={"answered": True, "interactionSummary": payday}),
        ),
        ConnectedAgent(
            name="benefits", mode="silent", description="Dental plans.", handler=benefits
        ),
        ConnectedAgent(
            name="it",
            mode="direct",
            description="Fixes laptops.",
            model=_sends("One moment, checking your laptop.", then=None),
        ),
    ]


async def run(parent_model: Model) -> list[dict[str, Any]]:
    """The conversation with ``parent_model`` as the parent's model; every message as JSON."""
    bot = Parent(name="desk", subagents=_agents(), model=parent_model)
    conversation = bot.conversation(id="kept")
    records: list[dict[str, Any]] = []
    for text in TURNS:
        turn = await conversation.send(text)
        records.extend({"sender": m.sender, "text": m.text} for m in (turn.user, *turn.messages))
    return records


def parent_model() -> FunctionModel:
    return FunctionModel(_parent)


if __name__ == "__main__":
    CASSETTE.unlink(missing_ok=True)
    transcript = asyncio.run(run(recording(parent_model(), CASSETTE)))
    TRANSCRIPT.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in transcript), encoding="utf-8"
    )
    print("\n".join(f"{r['sender']}: {r['text']}" for r in transcript))

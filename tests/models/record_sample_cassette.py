"""Re-record the helpdesk sample cassette against the tests' fake OpenAI server, over real HTTP.

The cassette shows the record/replay machinery on the helpdesk sample; its answers come from
``helpdesk_brain`` (a deterministic stand-in written for these tests), not from a language model,
so it is recorded under the model name ``tests-fake-server``, which has no price.

Run from the repository root when the prompts change on purpose (new instruction templates, a new
contract field), then review the diff of both files::

    .venv/bin/python -m tests.models.record_sample_cassette

It writes ``samples/helpdesk/cassettes/helpdesk-fake-server.jsonl`` (the cassette) and
``helpdesk-fake-server.transcript.jsonl`` beside it (the transcript the recording produced), which
``test_sample_cassette.py`` replays and compares.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import harness
from harness.models import Model
from harness.models.openai import OpenAIModel
from harness.models.replay import recording
from harness.simulate.scenarios import load_scenarios
from tests.models.fake_openai import FakeOpenAI
from tests.models.helpdesk_brain import helpdesk_brain

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
CASSETTE = ROOT / "samples" / "helpdesk" / "cassettes" / "helpdesk-fake-server.jsonl"
TRANSCRIPT = CASSETTE.with_name("helpdesk-fake-server.transcript.jsonl")
MODEL = "tests-fake-server"
"""The model name the fake server reports: not a real model, and no price."""
RECORDING_KEY = "sk-test-recording-key-do-not-store"
"""The API key the recording client sends; it must never reach the cassette."""

SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios-openai.yaml"
"""The recorded conversations, as a scenario file, so ``harness simulate --replay`` can run them."""

CONVERSATIONS: Sequence[tuple[str, Sequence[str]]] = tuple(
    (scenario.name, tuple(turn.user for turn in scenario.turns))
    for scenario in load_scenarios(SCENARIOS).scenarios
)


async def run_helpdesk(model: Model) -> list[dict[str, Any]]:
    """Run the sample conversations with ``model``; every message, tagged with its conversation."""
    bot = harness.load_bot(CONFIG, model=model)
    records: list[dict[str, Any]] = []
    try:
        for name, turns in CONVERSATIONS:
            conversation = bot.conversation(id=name)
            for text in turns:
                turn = await conversation.send(text)
                for message in (turn.user, *turn.messages):
                    records.append({"conversation": name, **message.to_json()})
    finally:
        await bot.aclose()
    return records


async def record(cassette: Path = CASSETTE) -> list[dict[str, Any]]:
    """Record the sample conversations against a fake server; returns the transcript records."""
    async with FakeOpenAI(helpdesk_brain, model=MODEL) as server:
        model = OpenAIModel(MODEL, base_url=server.url, api_key=RECORDING_KEY)
        return await run_helpdesk(recording(model, cassette))


def write_transcript(records: Sequence[dict[str, Any]], path: Path = TRANSCRIPT) -> None:
    """Write transcript records as JSONL."""
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )


if __name__ == "__main__":
    written = asyncio.run(record())
    write_transcript(written)
    print(f"recorded {len(written)} messages; cassette {CASSETTE.relative_to(ROOT)}")

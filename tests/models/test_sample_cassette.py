"""The checked-in helpdesk cassette replays offline to the transcript it was recorded with."""

from __future__ import annotations

import json

import pytest

from harness.models.replay import CassetteMissError, ReplayModel
from tests.models.record_sample_cassette import CASSETTE, RECORDING_KEY, TRANSCRIPT, run_helpdesk

RERECORD = (
    "the sample cassette no longer matches the prompts; if they changed on purpose, re-record it "
    "with `.venv/bin/python -m tests.models.record_sample_cassette` and review the diff"
)


async def test_sample_cassette_replays_to_the_recorded_transcript() -> None:
    replay = ReplayModel(CASSETTE)
    expected = [
        json.loads(line) for line in TRANSCRIPT.read_text(encoding="utf-8").splitlines() if line
    ]
    try:
        replayed = await run_helpdesk(replay)
    except CassetteMissError as exc:  # the plan or the reply missed: the turn cannot go on
        pytest.fail(f"{RERECORD}\n{exc}")
    assert not replay.misses, f"{RERECORD}\n{replay.misses[0]}"
    assert replayed == expected
    senders = {(r["conversation"], r["sender"]) for r in replayed}
    assert ("pto-and-payday", "pto") in senders and ("pto-and-payday", "helpdesk") in senders


def test_sample_cassette_holds_no_key() -> None:
    text = CASSETTE.read_text(encoding="utf-8")
    assert RECORDING_KEY not in text
    assert "sk-" not in text and "api-key" not in text.lower()

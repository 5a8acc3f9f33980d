"""A cassette recorded with bb9330f's code still replays: the parent's requests for results that
kept the contract have not changed (``sentToUser`` is added only for results that broke it)."""

from __future__ import annotations

import json

import pytest

from harness.models.replay import CassetteMissError, ReplayModel
from tests.models.kept_contract_scenario import CASSETTE, TRANSCRIPT, run


async def test_a_cassette_recorded_before_sent_to_user_still_replays() -> None:
    replay = ReplayModel(CASSETTE)
    expected = [json.loads(line) for line in TRANSCRIPT.read_text(encoding="utf-8").splitlines()]
    try:
        replayed = await run(replay)
    except CassetteMissError as exc:
        pytest.fail(f"a request of a result that kept the contract changed:\n{exc}")
    assert not replay.misses, replay.misses[0]
    assert replayed == expected
    # The turns it covers: a conversational agent's question (a message sent, answered false)
    # and a call that failed after a holding message.
    assert {"sender": "pto", "text": "Which day would you like off?"} in replayed
    assert {"sender": "it", "text": "One moment, checking your laptop."} in replayed

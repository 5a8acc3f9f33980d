"""The development set in ``val``'s joining styles (``styled.jsonl``): rebuilt byte for byte from
the data, and made only of CLINC150 train utterances that are none of the agents' examples."""

from __future__ import annotations

import json

import pytest

from tests.detect import build_styled_multi_intent as build
from tests.detect.build_multi_intent import AGENT_OF
from tests.detect.multi_intent import load
from tests.detect.planner_baseline import cards

needs_clinc = pytest.mark.skipif(
    not build.CLINC.is_file(), reason="../shared/data/clinc150 is not beside the repo"
)


@needs_clinc
def test_the_builder_reproduces_the_committed_file() -> None:
    committed = (build.OUT / "styled.jsonl").read_text(encoding="utf-8")
    assert build.render(build.build(json.loads(build.CLINC.read_text("utf-8")))) == committed


@needs_clinc
def test_every_request_is_a_train_utterance_and_no_agent_example() -> None:
    data = json.loads(build.CLINC.read_text("utf-8"))
    train = {build._normal(u) for u, _ in data["train"]}
    examples = {e for card in cards() for e in card.examples}
    for message in load("styled"):
        for request in message["requests"]:
            assert request["text"] in train and request["text"] not in examples
            assert request["agent"] == AGENT_OF[request["intent"]]
            assert f'"{request["text"]}"' not in request["answer"]  # never echoed verbatim

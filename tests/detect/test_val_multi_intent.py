"""The held-out routing set from CLINC150's val split (``val.jsonl``): rebuilt byte for byte from
the data, and made only of val utterances of intents that have an agent."""

from __future__ import annotations

import json
import random

import pytest

from tests.detect import build_val_multi_intent as build
from tests.detect.build_multi_intent import AGENT_OF
from tests.detect.multi_intent import load

needs_clinc = pytest.mark.skipif(
    not build.CLINC.is_file(), reason="../shared/data/clinc150 is not beside the repo"
)


@needs_clinc
def test_the_builder_reproduces_the_committed_file() -> None:
    committed = (build.OUT / "val.jsonl").read_text(encoding="utf-8")
    assert build.render(build.build(json.loads(build.CLINC.read_text("utf-8")))) == committed


@needs_clinc
def test_every_request_is_a_val_utterance_no_other_split_has() -> None:
    data = json.loads(build.CLINC.read_text("utf-8"))
    val, _ = build._pools(data)
    utterances = {u for items in val.values() for u in items}
    train_or_test = {build._normal(u) for split in ("train", "test") for u, _ in data[split]}
    requests = [r["text"] for m in load("val") for r in m["requests"]]
    assert all(r in utterances and r not in train_or_test for r in requests)


def test_every_message_holds_two_to_four_requests_each_written_in_it() -> None:
    messages = load("val")
    assert len(messages) >= 600
    assert len({m["id"] for m in messages}) == len(messages)
    for message in messages:
        assert 2 <= len(message["requests"]) <= 4
        text = message["text"].lower()
        at = 0
        for request in message["requests"]:
            assert request["agent"] == AGENT_OF[request["intent"]]
            at = text.index(request["text"].lower(), at)  # in order, each in full
    shapes = {s for m in messages for s in m["shape"].split("+")}
    assert shapes == {name for name, _, _ in build.JOINS} | {"lead_in"}


def test_a_sentence_break_ends_a_question_with_a_question_mark() -> None:
    sentence_joins = {name for name, template, _ in build.JOINS if "{a_closed}" in template}
    seen = 0
    for seed in range(200):
        text, shape = build.join(["what is my balance", "pay my phone bill"], random.Random(seed))
        names = shape.split("+")
        assert set(names) <= {name for name, _, _ in build.JOINS} | {"lead_in"}
        assert "what is my balance" in text.lower() and "pay my phone bill" in text.lower()
        assert "bill?" not in text
        if names[-1] in sentence_joins:
            seen += 1
            assert "balance? " in text and text.endswith("bill.")
    assert seen > 0

"""The sets written the many ways people write (``ways-dev.jsonl``, ``ways-held.jsonl``): rebuilt
byte for byte from the data, made only of train material, each request written in its message."""

from __future__ import annotations

import json

import pytest

from tests.detect import build_ways_multi_intent as build
from tests.detect.build_fresh_multi_intent import SGD
from tests.detect.multi_intent import load

needs_data = pytest.mark.skipif(
    not (build.CLINC.is_file() and SGD.is_dir()), reason="../shared/data is not beside the repo"
)


@needs_data
def test_the_builder_reproduces_the_committed_files() -> None:
    built = build.build(json.loads(build.CLINC.read_text("utf-8")))
    for name, messages in built.items():
        assert build.render(messages) == (build.OUT / f"{name}.jsonl").read_text("utf-8")


def test_the_halves_share_no_request_and_every_request_is_in_its_message() -> None:
    sources = {}
    for name in build.SEEDS:
        sources[name] = {r["source"] for m in load(name) for r in m["requests"]}
        for message in load(name):
            assert 2 <= len(message["requests"]) <= 4
            for request in message["requests"]:
                assert request["text"].lower() in message["text"].lower()
    assert not sources["ways-dev"] & sources["ways-held"]

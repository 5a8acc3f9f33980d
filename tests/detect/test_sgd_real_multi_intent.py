"""The real SGD multi-request set (``sgd-real-{train,dev}.jsonl``): rebuilt byte for byte from the
data, every drop takes out exactly one request's answer, and the measurement runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.detect import build_sgd_real_multi_intent as build
from tests.detect.sgd_real_multi import load, measure

SPLITS = ("train", "dev")


@pytest.mark.skipif(not build.SGD.is_dir(), reason="../shared/data/sgd is not beside the repo")
@pytest.mark.parametrize("split", SPLITS)
def test_the_builder_reproduces_the_committed_file(split: str) -> None:
    committed = (build.OUT / f"sgd-real-{split}.jsonl").read_text(encoding="utf-8")
    assert build.render(build.build(split)) == committed


@pytest.mark.parametrize("split", SPLITS)
def test_every_drop_removes_its_value_and_keeps_the_others(split: str) -> None:
    records = load(split)
    assert len({r["id"] for r in records}) == len(records)
    drops = 0
    for record in records:
        requests = record["requests"]
        assert len(requests) >= 2
        for request in requests:
            assert all(w in record["reply"] for w in request["words"])
        for mutation in record["drops"]:
            drops += 1
            gone = requests[mutation["request"]]["words"]
            kept = [
                w for j, r in enumerate(requests) if j != mutation["request"] for w in r["words"]
            ]
            reply = mutation["reply"]
            assert gone and kept
            assert not any(w.lower() in reply.lower() for w in gone), record["id"]
            assert all(w in reply for w in kept), record["id"]
            assert len(reply) < len(record["reply"])
            assert mutation["kind"] in ("sentence", "clause")
    assert drops >= len(records) // 3


def test_a_drop_cuts_a_trailing_clause_only() -> None:
    text = "Booked. The address is 12 Oak Street and the phone number is 555-0100."
    address = [(text.index("12 Oak"), text.index(" and"))]
    phone = [(text.index("555"), len(text) - 1)]
    every = address + phone
    assert build.drop(text, phone, address, every) == (
        "clause",
        "Booked. The address is 12 Oak Street.",
    )
    # the address is said first in the sentence: it cannot be cut out
    assert build.drop(text, address, phone, every) == ("", "")


def test_a_drop_removes_whole_sentences_and_never_splits_a_value() -> None:
    text = "It is at 1 St. James Place. Call 555-0100! Enjoy."
    place = [(text.index("1 St."), text.index(". Call"))]
    phone = [(text.index("555"), text.index("!"))]
    assert build.sentences(text, place + phone) == [(0, 27), (28, 42), (43, 49)]
    assert build.drop(text, place, phone, place + phone) == ("sentence", "Call 555-0100! Enjoy.")


def test_the_measurement_counts_every_turn() -> None:
    records = load("train")[:20]
    result = measure("train", "segmented", "every finding", limit=20)
    assert result.full_turns == 20
    assert result.drops.total() == sum(len(r["drops"]) for r in records)
    assert 0 <= result.full_flagged <= 20


def test_the_check_on_real_two_request_turns_of_sgd_dev() -> None:
    """``sgd-real-dev``, requests segmented, every finding: measured once at the end of the sixth
    session (2026-12-02, s37-match, 17:57 UTC): 214 of 1,034 fully answered turns flagged
    (20.7 %; 27.0 % before: a bot statement cut where "and"/"but"/"however" joins two clauses,
    the own_kind rule, the matcher refitted) and 492 of 594 drops (82.8 %, unchanged); at the
    report threshold 0.8 % and 1.5 %. Measured once at the end of the seventh session
    (2026-12-02 22:41 UTC, s38-check: the matcher also fitted on real SGD train answers to one-slot
    requests and refitted, two more finding features): 208 of 1,034 (20.1 %) and 491 of 594
    (82.7 %); at the report threshold (0.981) 2 of 1,034 (0.2 %) and 37 of 594 (6.2 %). Measured
    once at the end of the eighth session (2026-12-03 03:18 UTC, s39-check: years, yes/no
    questions, parts of bot sentences, two segmenter shapes; not refitted): 178 of 1,034
    (17.2 %) and 486 of 594 (81.8 %); at the report threshold 2 (0.2 %) and 37 (6.2 %), the same.
    Measured once at the end of the ninth session (2026-12-03 06:05 UTC, s40-check: phone
    numbers, kinds of thing, yes/no pairs, shared words; not refitted): 157 of 1,034 (15.2 %) and
    485 of 594 (81.6 %); at the report threshold 3 (0.3 %) and 103 (17.3 %).
    Measured once at the end of the tenth session (2026-12-03 08:22 UTC, s41-judge: a sentence
    with room for two answers answers two requests): 129 of 1,034 (12.5 %) and 485 of 594
    (81.6 %); at the report threshold the same as before. Measured once at the end of the tenth
    session (2026-12-03 08:19 UTC, s41-segment alone: a statement and what it leads to kept in one
    request; not refitted): 158 of 1,034 (15.3 %, one more) and 485 of 594; at the report
    threshold the same. Both merged (the lead's look, 2026-12-03 09:01 UTC): 130 of 1,034
    (12.6 %) and 485 of 594 (81.6 %); at the report threshold 3 and 103. With the review's mends
    (09:26 UTC): 131 of 1,034 (12.7 %), the rest unchanged. Measured once at the end of the
    eleventh session (2026-12-03 10:54 UTC, s42-judge: a yes/no question naming a time answered
    by a year; the question a classification leaves out named; main 221a42b run beside it gave
    131): 128 of 1,034 (12.4 %) and 485 of 594 (81.6 %); at the report threshold 3 and 103.
    Measured once at the end of the twelfth session (2026-12-03 13:16 UTC, s43-judge: what a
    request names it asks for) and in the lead's look at the merged code (14:15 UTC, with
    s43-segment's run-on questions and emoticons): 125 of 1,034 (12.1 %) and 484 of 594 (81.5 %,
    one fewer). Measured at the end of the thirteenth session (s44-segment's branch, 15:29 UTC;
    the lead's looks at the merged code, 16:22 and 16:50 UTC): 126 of 1,034 (12.2 %, one more)
    and 484 of 594; at the report threshold 8 and 225. The sixteenth session's (s47-segment's
    look 00:25 UTC; the lead's at the merged code with the review's mends, 2026-12-04 01:30 UTC):
    127 of 1,034 (12.3 %, one more) and 484 of 594; at the report threshold 8 and 225.
    With one sentence answering two requests a clause each (s60-shared; the lead's look at the
    merged code, 2026-12-05 13:52 UTC): 106 of 1,034 (10.3 %) and 484 of 594.
    The issue asks for <= 1 % and 100 %."""
    result = measure("dev", "segmented", "every finding")
    assert result.full_flagged / result.full_turns <= 0.103
    assert result.drops_flagged.total() / result.drops.total() >= 0.814


def test_the_multi_intent_command_points_at_this_module_for_these_sets() -> None:
    """``python -m tests.detect.multi_intent sgd-real-train`` crashed on a missing ``shape`` key
    (these messages' requests are slot names); it now says which command measures them."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tests.detect.multi_intent", "sgd-real-train"],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
    )
    assert done.returncode == 1, done.stderr[-500:]
    assert "python -m tests.detect.sgd_real_multi train" in done.stderr
    assert "Traceback" not in done.stderr

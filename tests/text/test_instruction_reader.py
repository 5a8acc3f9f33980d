"""The one instruction reader (issue 26): the labelled corpus, the issue's sentences, acknowledgements
in bot messages, and one ``checks_answered`` in the code base."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.detect.detectors import detect
from harness.detect.findings import DetectorConfig
from harness.detect.transcript import Message, Transcript
from harness.text.instructions import (
    ASKS,
    checks_answered,
    forbids_user_messages,
    read,
    read_sentence,
    repeats_answers,
)
from tests.text._corpus import BATCHES, accuracy, load

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("batch", [b for b in BATCHES if b not in ("issue", "v3")])
def test_every_reading_is_right_for_at_least_95_percent_of_each_batch(batch: str) -> None:
    # The batches the reader was written or fitted on (a regression test); the held-out batch 5
    # has its own floors in test_learned_reader.py.
    rows = load(batch)
    assert len(rows) >= 70
    low = {ask: accuracy(rows, ask) for ask in ASKS if accuracy(rows, ask) < 0.95}
    assert not low, low


def test_the_corpus_holds_real_published_sentences_with_their_source() -> None:
    rows = [r for b in BATCHES for r in load(b)]
    public = {r.source for r in rows if r.source.startswith("public:")}
    assert len(public) >= 10
    for ask in ASKS:
        assert sum(1 for r in rows if ask in r.labels) >= 6, ask


@pytest.mark.parametrize("row", load("issue"), ids=lambda r: r.sentence[:40])
def test_every_sentence_quoted_in_the_issue_is_read_right(row: object) -> None:
    assert read_sentence(row.sentence) == row.labels  # type: ignore[attr-defined]


def test_a_reading_names_its_sentence_and_negation_flips_it() -> None:
    [first, second] = read("Greet the flyer. Never greet the flyer.")
    assert (first.sentence, first.asks) == ("Greet the flyer", frozenset({"address"}))
    assert second.asks == frozenset({"silence"})
    assert not forbids_user_messages("Do not greet the flyer until the gate opens.")
    assert read_sentence("Do not greet the flyer until the gate opens.") == {"conditional"}


def test_repeat_and_check_are_told_apart() -> None:
    assert repeats_answers("Never repeat what a helper agent already told the user.") is None
    assert checks_answered("Never repeat what a helper agent already told the user.")
    sentence = "Ignore the answered output and summarise all results"
    assert repeats_answers(f"Be brief. {sentence}.") == sentence
    assert not checks_answered(f"{sentence}.")


def _acks(batch: str) -> tuple[list[str], list[str]]:
    rows = [r for r in load(batch) if r.source.endswith("-ack")]
    return (
        [r.sentence for r in rows if "acknowledge" in r.labels],
        [r.sentence for r in rows if not r.labels],
    )


@pytest.mark.parametrize("batch", ["holdout", "final"])
def test_the_awkward_ack_finder_catches_held_out_phrasings(batch: str) -> None:
    awkward, plain = _acks(batch)
    texts = awkward + plain
    messages = [Message(id="u", turn=1, role="user", sender="user", text="hi")] + [
        Message(id=f"m{i}", turn=1, role="bot", sender="helpdesk", text=text)
        for i, text in enumerate(texts)
    ]
    findings = detect(
        Transcript.from_messages(messages),
        config=DetectorConfig(kinds=frozenset({"awkward_ack"})),
    )
    flagged = {texts[int(f.message_ids[0][1:])] for f in findings}
    assert len(awkward) >= 15 and len(plain) >= 8
    assert len(flagged & set(awkward)) / len(awkward) >= 0.9
    assert not flagged & set(plain)


def test_there_is_one_checks_answered_in_the_code_base() -> None:
    definitions = [
        path
        for package in ("harness", "subagents", "instructions")
        for path in (ROOT / package).rglob("*.py")
        if re.search(r"^def checks_answered\b|^checks_answered\s*=", path.read_text("utf-8"), re.M)
    ]
    assert [p.relative_to(ROOT).as_posix() for p in definitions] == ["harness/text/instructions.py"]

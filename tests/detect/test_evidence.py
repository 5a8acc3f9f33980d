"""A duplicate's evidence quotes the facts both messages share, without noise: a number already
inside a quoted quantity, or status words beside specific facts (issue 29)."""

from __future__ import annotations

from harness.detect.duplicates import evidence_facts, find_duplicates
from harness.detect.findings import DetectorConfig
from harness.detect.transcript import Message, Transcript


def test_a_number_inside_a_quoted_quantity_is_not_quoted_again() -> None:
    assert evidence_facts(frozenset({"num:48", "duration:48 hour", "id:bg77310"})) == [
        "48 hour",
        "bg77310",
    ]


def test_status_words_are_quoted_only_when_nothing_specific_is_shared() -> None:
    assert evidence_facts(frozenset({"state:open", "money:12.50"})) == ["12.50"]
    assert evidence_facts(frozenset({"state:approved"})) == ["approved"]


def test_names_are_left_to_the_quoted_passages() -> None:
    assert evidence_facts(frozenset({"name:lisbon", "acronym:pto", "date:03-07"})) == ["03-07"]


def test_a_duplicates_evidence_line_has_no_repeated_number() -> None:
    texts = [
        ("user", "u", "How long can I return order QX40981, and is the shop open?"),
        ("bot", "orders", "Order QX40981 has a 72 hour return window and the shop is open."),
        ("bot", "parent", "In short: order QX40981 has a 72 hour return window; the shop is open."),
    ]
    transcript = Transcript(
        conversation="c",
        messages=[
            Message(id=f"m{i}", turn=1, role=role, sender=sender, text=text)
            for i, (role, sender, text) in enumerate(texts)
        ],
    )
    (finding,) = find_duplicates(transcript, DetectorConfig())
    facts = finding.evidence.partition("facts: ")[2]
    assert facts == "72 hour, qx40981"

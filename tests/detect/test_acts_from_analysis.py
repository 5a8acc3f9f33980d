"""``analysis_acts``: a message's dialogue acts from the sentences its analysis already cut.

The screen reads each bot message's acts. :func:`harness.detect.acts.analysis_acts` takes the
sentences from the analysis's claims instead of splitting the text again; these tests check it
equals the plain :func:`harness.detect.acts.message_acts` on random texts built from the things
that split sentences and claims (marks, list lines, clause joins, abbreviations, numbers,
Markdown), on texts over the claim and character budgets (a partial analysis), and on the dev
corpus's bot messages; and that it does not split the text again when the analysis is whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import harness.detect.acts as acts
from harness.detect.acts import analysis_acts, message_acts
from harness.detect.readers import load_transcript
from harness.text import CLAIM_BUDGET, analyse

_PIECES = st.sampled_from(
    [
        "Your balance is $42.10",
        "I booked it for Friday",
        "Would you like me to confirm",
        "Dr. Smith is at 3.5 Oak St.",
        "see https://example.com/a.b",
        "the code is `a.b; c`",
        "**Total:** 12 days",
        "and the room is free",
        "but it closes at 5 pm",
        "Anything else",
        "Goodbye",
        "ok",
        "",
        "e.g. two options",
        "Sorry, I could not finish that",
        "{x.y}",
    ]
)
_JOINS = st.sampled_from(
    [". ", "? ", "! ", "\n", "\n- ", "\n1. ", "; ", " — ", ", and ", ", but ", ": ", " ", ".\n\n"]
)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(_PIECES, min_size=1, max_size=12))
    joins = draw(st.lists(_JOINS, min_size=len(pieces), max_size=len(pieces)))
    return "".join(p + j for p, j in zip(pieces, joins, strict=True))


@settings(max_examples=400, deadline=None)
@given(_texts())
def test_equals_message_acts_on_random_texts(text: str) -> None:
    assert analysis_acts(analyse(text)) == message_acts(text)


def test_equals_message_acts_over_the_budgets() -> None:
    many = " ".join(
        f"Item {k} costs ${k}.50, and it ships today." for k in range(CLAIM_BUDGET + 20)
    )
    long = "Your order ships today. " * 600  # over the character budget
    for text in (many, long, long + "Would you like a receipt?"):
        analysis = analyse(text)
        assert analysis.partial
        assert analysis_acts(analysis) == message_acts(text)


def test_equals_message_acts_on_the_dev_corpus() -> None:
    root = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"
    texts = {
        m.text
        for path in sorted(root.glob("*.transcript"))
        for transcript in load_transcript(path)
        for m in transcript.messages
        if m.role != "user" and m.text.strip()
    }
    assert len(texts) > 100
    for text in sorted(texts):
        assert analysis_acts(analyse(text)) == message_acts(text), text


def test_a_whole_analysis_is_not_split_again(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Your balance is $42.10. It is due on May 3; would you like a reminder?"
    analysis = analyse(text)
    expected = message_acts(text)
    calls: list[str] = []
    monkeypatch.setattr(acts, "split_sentences", lambda t: calls.append(t) or ())
    assert analysis_acts(analysis) == expected
    assert calls == []

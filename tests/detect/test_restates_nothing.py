"""Candidate pairs in which no step of the comparison can find a restatement are decided before
the screen and the pair bound (``duplicates._restates_nothing``): two texts that differ and share
no fact and fewer than two content words, that are not one turn's closer twice and whose earlier
message does not stand whole in the later one. The findings are those of every pair screened,
bounded and compared: checked here on random conversations (closers, small messages, numbers in
words and in digits, contractions, masked ids), generated helpdesk conversations and the dev
corpus; and pair by pair, every step finds nothing in a pair it decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.detect import DetectorConfig, duplicates, load_transcript
from harness.detect._around import _Around, _contained
from harness.detect._candidates import _entry, _Memo
from harness.detect._users import _User, _Users
from harness.detect.duplicates import _same_closer, conversation_pairs, thresholds
from harness.detect.transcript import Message, Transcript
from harness.text import normalise
from tests.simulate.test_perf_equivalence import generated

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"

_PIECES = [
    "your",
    "order",
    "refund",
    "is",
    "not",
    "approved",
    "shipped",
    "today",
    "on Friday",
    "at 2:05 pm",
    "at 14:05",
    "$42.10",
    "three",
    "3",
    "three days",
    "12 days",
    "T-5521",
    "5521",
    "INC0012345",
    "…0012345",
    "the Gold Card",
    "the Acme Gold Card",
    "it's",
    "it is",
    "done",
    "ok",
    "thanks",
    "got it",
    "bye",
    "goodbye",
    "anything else?",
    "is there anything else I can help with?",
    "let me check",
    "one moment",
    "hi, I'm the helpdesk assistant",
]
_SENTENCE = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map(" ".join)
_MESSAGE = st.lists(_SENTENCE, min_size=1, max_size=3).map(lambda s: ". ".join(s) + ".")
_USER_TEXT = st.sampled_from(
    ["What was the total again?", "ok", "book it. also is my refund done?", "thanks", "3 please"]
)
_CONFIGS = (
    DetectorConfig(),
    DetectorConfig(boilerplate=("bye.", "goodbye.", "ok.", "thanks."), containment_threshold=0.0),
)


def _conversation(turns: list[tuple[str, list[str]]]) -> Transcript:
    messages: list[Message] = []
    for turn, (user, bots) in enumerate(turns, start=1):
        messages.append(Message(id=f"u{turn}", turn=turn, role="user", sender="user", text=user))
        for k, text in enumerate(bots):
            sender = "helpdesk" if k % 2 else "agent"
            messages.append(
                Message(id=f"b{turn}.{k}", turn=turn, role="bot", sender=sender, text=text)
            )
    return Transcript.from_messages(messages)


@contextmanager
def _counted(monkeypatch: pytest.MonkeyPatch, *, decide: bool) -> Iterator[list[int]]:
    """``_restates_nothing`` counted (``[asked, decided]``); with ``decide`` false it decides no
    pair, so that every pair is screened, bounded and compared as before it was added."""
    real = duplicates._restates_nothing
    counts = [0, 0]

    def counting(*args: object) -> bool:
        counts[0] += 1
        found = decide and real(*args)  # type: ignore[arg-type]
        counts[1] += found
        return found

    with monkeypatch.context() as patch:
        patch.setattr(duplicates, "_restates_nothing", counting)
        yield counts


def _same_pairs(
    transcript: Transcript, config: DetectorConfig, monkeypatch: pytest.MonkeyPatch
) -> int:
    """The pairs found with the shortcut equal those found without it; how many it decided."""
    with _counted(monkeypatch, decide=False):
        every = conversation_pairs(transcript, config)
    with _counted(monkeypatch, decide=True) as counts:
        decided = conversation_pairs(transcript, config)
    key = [(p.earlier.index, p.later.index, p.scope, p.found) for p in every]
    assert [(p.earlier.index, p.later.index, p.scope, p.found) for p in decided] == key
    return counts[1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(_USER_TEXT, st.lists(_MESSAGE, min_size=1, max_size=3)), min_size=1, max_size=6
    ),
    st.sampled_from(_CONFIGS),
)
def test_random_conversations_find_the_same_pairs(
    turns: list[tuple[str, list[str]]], config: DetectorConfig
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same_pairs(_conversation(turns), config, monkeypatch)


def test_generated_conversations_find_the_same_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    decided = sum(
        _same_pairs(generated(seed, 150, modes_known=True), DetectorConfig(), monkeypatch)
        for seed in (5, 6)
    )
    assert decided > 100  # the shortcut does decide pairs


def test_the_dev_corpus_finds_the_same_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(CORPUS.glob("*.transcript"))
    assert len(paths) >= 50
    decided = 0
    for path in paths:
        for transcript in load_transcript(path):
            decided += _same_pairs(transcript, DetectorConfig(), monkeypatch)
    assert decided > 100


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MESSAGE, _MESSAGE, st.booleans(), _USER_TEXT, st.sampled_from(_CONFIGS))
def test_every_step_finds_nothing_in_a_pair_it_decides(
    first: str, second: str, same_turn: bool, asked: str, config: DetectorConfig
) -> None:
    turn = 2 if same_turn else 3
    earlier = _entry(1, Message(id="b1", turn=2, role="bot", sender="agent", text=first))
    later = _entry(3, Message(id="b2", turn=turn, role="bot", sender="helpdesk", text=second))
    users = _Users()
    users.add(_User.of(Message(id="u1", turn=2, role="user", sender="user", text=asked)))
    if not same_turn:
        users.add(_User.of(Message(id="u2", turn=3, role="user", sender="user", text=asked)))
    before = [first] if same_turn else []
    around = _Around(later, users, replied=bool(before), leads=True, before=before)
    scope = "same_turn" if same_turn else "cross_turn"
    closers = frozenset(normalise(p) for p in config.boilerplate)
    if not later.text.claims or not duplicates._restates_nothing(
        earlier, later, scope, around, closers
    ):
        return
    limits, memo = thresholds(config), _Memo()
    a, b = earlier.text, later.text
    assert memo.restates(a, b, limits, False) is None
    assert memo.restates(a, b, limits, True) is None
    assert memo.spelled(a, b, limits) is None
    assert memo.borderline(a, b, limits) is None
    assert scope != "same_turn" or _same_closer(a, b, closers) is None
    assert not _contained(earlier, later, around.before, around.asked, around.said)

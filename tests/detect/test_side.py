"""What the pair features read of one message alone (``_features._side``) is made once per
message, through the record's slots and from parts it shares with ``message_values``; these tests
compare it with the plain construction (every field worked out on its own, the frozen
dataclass's ``__init__``) on random text and on the dev corpus's bot messages."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.detect import _features, load_transcript
from harness.detect._features import (
    _SAYS_REPEAT,
    _SUBJECT,
    _capitalised,
    _days,
    _flag,
    _Side,
    _weighted,
    message_values,
)
from harness.detect.acts import analysis_acts
from harness.text import Analysis, analyse

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"


def _plain_side(analysis: Analysis) -> _Side:
    """:class:`_Side` as first written: each field on its own, the dataclass's ``__init__``."""
    facts = analysis.facts
    values = frozenset(k for k in facts if not k.startswith(_SUBJECT))
    acts = analysis_acts(analysis)
    return _Side(
        values=values,
        weight=_weighted(values),
        subjects=frozenset(k for k in facts if k.startswith(_SUBJECT)),
        acts=acts,
        caps=_capitalised(analysis.text),
        days=_days(analysis.text),
        all_values=message_values(analysis),
        asks="?" in analysis.text[-200:],
        says_repeat=_SAYS_REPEAT.search(analysis.text) is not None,
        as_later=(
            _flag("CONFIRM" in acts),
            _flag("OFFER" in acts),
            _flag(acts & {"NOTIFY_SUCCESS", "NOTIFY_FAILURE"}),
            _flag("REQUEST" in acts),
            _flag(acts & {"REQ_MORE", "GOODBYE"}),
            _flag("INFORM_COUNT" in acts),
        ),
        as_earlier=(_flag("OFFER" in acts), _flag("REQUEST" in acts), _flag("CONFIRM" in acts)),
    )


def _check(text: str) -> None:
    analysis = analyse(text)
    _features._SIDES.clear()
    side = _features._side(analysis)
    plain = _plain_side(analysis)
    assert side == plain
    assert hash(side) == hash(plain)
    assert repr(side) == repr(plain)
    for name in _Side.__dataclass_fields__:
        assert type(getattr(side, name)) is type(getattr(plain, name)), name


_WORDS = " ".join(
    [
        "Your order from Brightwell ships on Monday March 3 at 2:05 pm for $12.50 today",
        "Is that OK Ticket INC0042 was approved as I mentioned To recap Summary: ACME",
        "Would you like me to book it? Anything else I can help with? Goodbye Sorry",
        "Dr. Smith the Blue Ridge Tavern's patio 3 days tomorrow weekend e-mail a@b.co",
    ]
).split()
_PIECES = [*_WORDS, *" .,;:!?\n", "é"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=16).map(" ".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_side_equals_the_plain_record_on_random_text(text: str) -> None:
    _check(text)


@cache
def _bot_texts() -> tuple[str, ...]:
    return tuple(
        message.text
        for path in sorted(CORPUS.glob("*.transcript"))
        for conversation in load_transcript(path)
        for message in conversation.messages
        if message.role == "bot"
    )


def test_side_equals_the_plain_record_on_the_dev_corpus() -> None:
    texts = _bot_texts()
    assert len(texts) > 100
    for text in texts:
        _check(text)


def test_a_side_made_through_its_slots_is_frozen() -> None:
    side = _features._side(analyse("Your table at Brightwell is booked for Friday."))
    try:
        side.weight = 9.0  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("a _Side made through its slots must stay frozen")

"""A claim said again in a later turn (issue 24), on new text written for session s70 before the
detector changed (``tests/detect/_turns_probes.py``; no corpus transcript): look-alikes that must
stay unflagged (an update with a new value, the same template about another item, a confirmation
of the user's choice, a fact reused for a new request, an answer to a re-ask) and claims said
again unasked that must be found. ``docs/journal/detector.md`` (2026-12-06, s70-turns) has the
figures. A user who asks about the thing again excuses the repeat, even beside another question;
one who asks about something else does not."""

from __future__ import annotations

import pytest

from tests.detect._turns_probes import LOOK_ALIKES, REPEATS, Lines
from tests.detect.test_failure_classes import duplicates, pairs

_KNOWN_FALSE_ALARMS = {
    "choice: ordering the kit": (
        "a go-ahead without values ('great, I'll take it') to a price the bot stated unasked, "
        "then the order's outcome restating it: confirms_choice reads no pick by values"
    ),
}


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(
            lines,
            id=name,
            marks=[pytest.mark.xfail(strict=True, reason=_KNOWN_FALSE_ALARMS[name])]
            if name in _KNOWN_FALSE_ALARMS
            else [],
        )
        for name, lines in LOOK_ALIKES.items()
    ],
)
def test_a_look_alike_in_a_later_turn_is_no_repeat(lines: Lines) -> None:
    assert duplicates(*lines) == []


@pytest.mark.parametrize(("lines", "pair"), list(REPEATS.values()), ids=list(REPEATS))
def test_a_claim_said_again_unasked_in_a_later_turn_is_a_repeat(
    lines: Lines, pair: tuple[str, str]
) -> None:
    assert pair in pairs(duplicates(*lines))


_REPAIR = "Your violin repair will be ready on 14 March."


def test_asking_whether_it_still_holds_beside_another_question_excuses_the_repeat() -> None:
    found = duplicates(
        ("user", "when will my violin be ready?"),
        ("repairs", _REPAIR),
        ("user", "is it still 14 March? and how much is a restring?"),
        ("repairs", "Yes, your violin repair will be ready on 14 March, and a restring is £25."),
    )
    assert found == []


@pytest.mark.parametrize(
    "between",
    [
        # "still" about something the earlier message never said: a new question
        "is the shop still open on Sundays? and how much is a restring?",
        "how much is a restring? is parking still free?",
    ],
)
def test_a_still_question_about_something_else_excuses_nothing(between: str) -> None:
    found = duplicates(
        ("user", "when will my violin be ready?"),
        ("repairs", _REPAIR),
        ("user", between),
        ("repairs", f"A restring is £25. {_REPAIR}"),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_still_question_naming_only_the_earlier_words_excuses_beside_another() -> None:
    found = duplicates(
        ("user", "when will my violin be ready?"),
        ("repairs", _REPAIR),
        ("user", "is the violin repair still on? and how much is a restring?"),
        ("repairs", f"A restring is £25. {_REPAIR}"),
    )
    assert found == []

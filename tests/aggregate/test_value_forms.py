"""Values compared by what they say, not how they are written; ties stay open; bad sources fail.

One number written ``20``, ``20.0`` or ``"20"`` is one value (JSON has one number type and models
mix them); so is one word in another case or spacing. A losing value is left out of the summary
in whatever form its agent's text writes it. Equal confidence on different values is a tie, never
settled by list order.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from harness.aggregate import AgentOutput, aggregate, collect
from harness.exceptions import UsageError


def said(agent: str, value: Any, confidence: float | None, text: str = "") -> AgentOutput:
    return AgentOutput(
        agent=agent,
        data={"days": value},
        text=text or f"The answer of {agent} about leave, with enough words.",
        confidence=confidence,
    )


# --- voting counts one value once, in any of its forms -------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (20, 20.0),
        (20, "20"),
        ("20.0", 20),
        (" 20 ", 20.0),
        (Decimal("20"), "20"),
        (Decimal("20.0"), 20),
        (Decimal("20.5"), 20.5),
        (Fraction(40, 2), 20.0),
    ],
    ids=[
        "int-float",
        "int-string",
        "string-int",
        "spaced-string",
        "decimal-string",
        "decimal-int",
        "decimal-float",
        "fraction-float",
    ],
)
async def test_voting_counts_one_number_written_two_ways_as_one_value(
    first: Any, second: Any
) -> None:
    result = await aggregate(
        [said("a", first, 0.5), said("b", second, 0.5), said("c", 18, 0.9)], strategy="voting"
    )
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and conflict.reason == "2 of 3 votes"
    assert result.details["days"] in (first, second)  # one of the agreeing forms, as written
    assert set(result.attribution["days"]) == {"a", "b"}
    assert result.ok


async def test_voting_compares_words_without_case_or_extra_spaces() -> None:
    result = await aggregate(
        [said("a", "Paris", 0.5), said("b", " paris", 0.5), said("c", "Lyon", 0.9)],
        strategy="voting",
    )
    assert result.details["days"] in ("Paris", " paris")
    assert result.conflicts_resolved[0].reason == "2 of 3 votes"


async def test_one_number_in_two_forms_is_no_conflict_at_all() -> None:
    result = await aggregate([said("a", 20, 0.9), said("b", 20.0, 0.6)])
    assert result.conflicts_resolved == ()
    assert result.details == {"days": 20}
    assert result.attribution["days"] == ("a", "b")


@pytest.mark.parametrize(
    ("first", "second"),
    [(True, 1), ("20 days", 20), (20, 20.5), ("1,200", 1.2)],
    ids=["bool-is-not-a-number", "unit-is-not-dropped", "other-number", "comma-groups-thousands"],
)
async def test_values_that_differ_still_conflict(first: Any, second: Any) -> None:
    result = await aggregate([said("a", first, 0.9), said("b", second, 0.6)])
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and conflict.value == first


async def test_a_number_with_thousands_separators_is_that_number() -> None:
    result = await aggregate([said("a", "1,200", 0.9), said("b", 1200, 0.6)])
    assert result.conflicts_resolved == ()


# --- a confidence tie is not settled by list order -----------------------------------------------


@pytest.mark.parametrize("reverse", [False, True], ids=["a-first", "b-first"])
async def test_equal_confidence_on_different_values_stays_unresolved(reverse: bool) -> None:
    results = [
        said("a", 20, 0.8, "You get 20 days of paid leave a year."),
        said("b", 18, 0.8, "You get 18 days of paid leave a year."),
    ]
    result = await aggregate(results[::-1] if reverse else results, strategy="confidence")
    (conflict,) = result.conflicts_resolved
    assert not conflict.resolved and conflict.value is None and conflict.winner is None
    assert "tie" in conflict.reason and "0.80" in conflict.reason
    assert "days" not in result.details
    assert [i.code for i in result.qa_issues] == ["unresolved_conflict"]
    assert not result.ok
    # nothing lost, so neither sentence is left out
    assert "20 days" in result.summary and "18 days" in result.summary


async def test_two_unknown_confidences_on_different_values_are_a_tie() -> None:
    result = await aggregate([said("a", 20, None), said("b", 18, None)], strategy="confidence")
    assert not result.conflicts_resolved[0].resolved


async def test_a_tie_among_agents_that_agree_is_still_a_winner() -> None:
    result = await aggregate(
        [said("a", 20, 0.8), said("b", 20.0, 0.8), said("c", 18, 0.6)], strategy="confidence"
    )
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and conflict.value == 20 and conflict.winner == "a"
    assert "0.80" in conflict.reason


async def test_equal_confidence_is_still_settled_by_a_better_validation() -> None:
    partial = said("b", 18, 0.8).model_copy(update={"missing": ("the carry-over rule",)})
    result = await aggregate([partial, said("a", 20, 0.8)], strategy="confidence")
    (conflict,) = result.conflicts_resolved
    assert conflict.resolved and conflict.value == 20 and conflict.winner == "a"


# --- a losing value is left out in whatever form it is written -----------------------------------


@pytest.mark.parametrize(
    ("won", "lost", "winner_text", "loser_text", "gone"),
    [
        (1200, 1150, "The laptop costs $1,200.", "The laptop costs $1,150.", "1,150"),
        (20, 18, "New hires get 20 PTO days.", "New hires get eighteen PTO days.", "eighteen"),
        (20, 18, "New hires get 20 PTO days.", "New hires get eighteen days off.", "eighteen"),
        (20, 18, "New hires get 20 PTO days.", "New hires get 18.0 PTO days.", "18.0"),
        (0.5, 0.25, "The fee is 50 cents.", "The fee is $0.25 per page.", "0.25"),
        (20, "18", "New hires get 20 PTO days.", "They get 18 days off.", "18 days"),
        ("Paris", "Lyon", "The office is in Paris.", "The office is in LYON.", "LYON"),
    ],
    ids=[
        "money",
        "in-words",
        "in-words-duration",
        "decimal",
        "cents",
        "numeric-string",
        "word-case",
    ],
)
async def test_the_losing_value_is_left_out_in_another_written_form(
    won: Any, lost: Any, winner_text: str, loser_text: str, gone: str
) -> None:
    result = await aggregate(
        [
            AgentOutput(agent="a", data={"v": won}, text=winner_text, confidence=0.9),
            AgentOutput(agent="b", data={"v": lost}, text=loser_text, confidence=0.6),
        ]
    )
    assert result.details == {"v": won}
    assert gone not in result.summary
    assert result.summary == winner_text
    source = {s.agent: s for s in result.sources}["b"]
    assert not source.used_in_summary and "lost to" in source.reason


async def test_other_numbers_in_the_losers_text_keep_their_sentences() -> None:
    result = await aggregate(
        [
            AgentOutput(agent="a", data={"v": 20}, text="You get 20 PTO days.", confidence=0.9),
            AgentOutput(
                agent="b",
                data={"v": 18},
                text="You get eighteen PTO days. Up to 180 hours carry over. Ticket 1800 is open.",
                confidence=0.6,
            ),
        ]
    )
    assert "eighteen" not in result.summary
    assert "Up to 180 hours carry over." in result.summary
    assert "Ticket 1800 is open." in result.summary


def lose(won: Any, lost: Any, winner_text: str, loser_text: str) -> list[AgentOutput]:
    return [
        AgentOutput(agent="a", data={"v": won}, text=winner_text, confidence=0.9),
        AgentOutput(agent="b", data={"v": lost}, text=loser_text, confidence=0.6),
    ]


@pytest.mark.parametrize(
    ("won", "lost", "loser_text"),
    [
        (2020, 2019, "The office opened in 2019."),
        (-3, -5, "The offset is -5."),
        (-3, -5, "The offset is (-5)."),
        (20, 18, "You get 18/year."),
        (10, 9, "The office opens at 9 am."),
    ],
    ids=["year", "negative", "negative-in-brackets", "per-year", "hour"],
)
async def test_a_losing_number_written_as_it_is_is_left_out(
    won: Any, lost: Any, loser_text: str
) -> None:
    # guards: a924b20 found each of these by the value's digits; the readers must not lose them
    result = await aggregate(lose(won, lost, "The winner says something else.", loser_text))
    assert result.summary == "The winner says something else."


@pytest.mark.parametrize(
    ("lost", "loser_text"),
    [(5, "The offset is -5."), (5, "The offset is \u22125."), (5.5, "The offset is -5.5.")],
    ids=["minus", "unicode-minus", "decimal"],
)
async def test_a_losing_number_does_not_take_its_negative_with_it(
    lost: Any, loser_text: str
) -> None:
    result = await aggregate(lose(3, lost, "The offset is 3 by default.", loser_text))
    assert loser_text in result.summary


async def test_a_range_still_states_its_bounds() -> None:
    result = await aggregate(lose(6, 5, "It takes 6 weeks.", "It takes 3-5 weeks."))
    assert "3-5" not in result.summary


async def test_a_losing_word_is_found_as_written_whatever_its_letters() -> None:
    result = await aggregate(
        lose("Marktplatz", "Hauptstraße", "It is on Marktplatz.", "The office is on Hauptstraße.")
    )
    assert "Hauptstraße" not in result.summary
    assert result.summary == "It is on Marktplatz."


async def test_a_number_that_lost_to_a_flag_is_held_to_its_text() -> None:
    result = await aggregate(
        lose(True, 1, "Remote work is allowed.", "You may work 1 day remotely.")
    )
    assert result.details == {"v": True}
    assert "1 day" not in result.summary


# --- a source that returns something other than a result --------------------------------------


async def test_collect_turns_a_source_returning_no_result_into_a_failed_result() -> None:
    async def good() -> AgentOutput:
        return AgentOutput(agent="good", text="A complete answer with enough words.", confidence=1)

    async def forgot_return() -> None:
        return None

    async def wrong_type() -> dict[str, str]:
        return {"text": "a dict, not an AgentOutput"}

    results = await collect(
        {"good": good, "none": forgot_return, "dict": wrong_type},  # type: ignore[dict-item]
        timeout_per_agent=1.0,
    )
    assert [(r.agent, r.status) for r in results] == [
        ("good", "complete"),
        ("none", "failed"),
        ("dict", "failed"),
    ]
    assert "returned None, not an AgentOutput" in (results[1].error or "")
    assert "returned dict, not an AgentOutput" in (results[2].error or "")
    aggregated = await aggregate(results)
    assert aggregated.summary == "A complete answer with enough words."
    assert {s.agent: s.category for s in aggregated.sources}["none"] == "empty"


async def test_aggregate_names_an_input_that_is_not_a_result() -> None:
    good = AgentOutput(agent="good", text="A complete answer with enough words.")
    with pytest.raises(UsageError, match=r"results\[1\] is None, not an AgentOutput"):
        await aggregate([good, None])  # type: ignore[list-item]

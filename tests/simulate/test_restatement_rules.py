"""Each rule of the claim-and-fact detector, one behaviour at a time.

Every test here fails when its rule is switched off (checked by mutating each rule: the
different-request rule, the containment rule, the fact rule, the template rule, the re-ask rule
and the confirmation rule), so a rule cannot silently stop working.
"""

from __future__ import annotations

import pytest

from harness.detect import detect
from tests.simulate._helpers import conversation, duplicates

PAYDAY = "Your next payday is Friday, March 13."


def test_different_requests_may_share_facts_without_being_duplicates() -> None:
    bonus = "The bonus arrives with your next payday on Friday, March 13."
    tagged = conversation(
        (
            "when is payday, and when is the bonus paid?",
            [
                ("payroll", PAYDAY, {"mode": "direct", "request": "when is payday"}),
                ("bonus", bonus, {"mode": "direct", "request": "when is the bonus paid"}),
            ],
        )
    )
    assert duplicates(detect(tagged)) == []
    # The same two texts with no plan behind them read as a restatement of the payday.
    untagged = conversation(("when is payday?", [("payroll", PAYDAY), ("helpdesk", bonus)]))
    assert [d[0] for d in duplicates(detect(untagged))] == [("t1b1", "t1b2")]


def test_one_sentence_restated_inside_a_longer_message_is_containment() -> None:
    answer = "Your refill of Apoquel 16 mg is ready at the front desk and costs $78.40."
    overview = (
        "Quick overview: the Apoquel 16 mg refill is ready at the front desk ($78.40). "
        "At the vaccine visit we will also run the heartworm test ($46), and flea "
        "prevention starts at about $22 a month."
    )
    t = conversation(("refill and vaccines?", [("pharmacy", answer), ("clinic", overview)]))
    [finding] = detect(t)
    assert (finding.method, finding.scope) == ("containment", "same_turn")
    assert {h.message_id for h in finding.highlights} == {"t1b1", "t1b2"}
    assert "78.4" in finding.evidence


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Your security training is on Monday, May 4 at 10:00 in room B.",
            "Your security training is on Monday, May 11 at 10:00 in room B.",
        ),
        (
            "Late checkout for room 612 is approved until 1:00 pm on Sunday.",
            "Late checkout for room 614 is approved until noon on Sunday.",
        ),
        (
            "Your order EB-57102 ships on Tuesday, 4 June from the Leeds depot.",
            "Your order EB-57108 ships on Tuesday, 4 June from the Leeds depot.",
        ),
    ],
)
def test_the_same_wording_with_a_different_fact_is_a_different_answer(
    first: str, second: str
) -> None:
    t = conversation(("status?", [("agent", first), ("agent", second)]))
    assert duplicates(detect(t)) == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "You are enrolled in the Blue Shield HMO medical plan with a $1,000 deductible.",
            "You are enrolled in the Kaiser HMO medical plan with a $1,000 deductible.",
        ),
        (
            "Your vacation request for May 23 to May 30 was approved by Marcus Chen.",
            "Good news: your vacation request for May 23 to May 30 was approved by Aisha Khan!",
        ),
    ],
)
def test_one_template_filled_with_other_names_is_a_different_answer(
    first: str, second: str
) -> None:
    t = conversation(("my plan?", [("benefits", first), ("helpdesk", second)]))
    assert duplicates(detect(t)) == []


def test_a_reworded_answer_with_the_same_facts_is_a_duplicate() -> None:
    first = (
        "The Halverson Merit Scholarship requires at least 12 credits each semester. If you "
        "drop to 9 credits, your spring award of $3,250 would be cancelled for the term."
    )
    second = (
        "Short version: 9 credits puts you under the 12-credit minimum for the Merit "
        "Scholarship, so this term's $3,250 would go away."
    )
    t = conversation(("can I drop to 9 credits?", [("aid", first), ("parent", second)]))
    assert duplicates(detect(t)) == [(("t1b1", "t1b2"), "same_turn", "semantic")]


@pytest.mark.parametrize(
    "again", ["sorry, what was the total again?", "can you repeat that?", "remind me of the total"]
)
def test_an_answer_the_user_asked_for_again_is_not_a_duplicate(again: str) -> None:
    total = "Your balance for room 612 is €569.70, charged to the card on file at checkout."
    t = conversation(("what's my bill?", [("billing", total)]), (again, [("billing", total)]))
    assert duplicates(detect(t)) == []
    t = conversation(("what's my bill?", [("billing", total)]), ("ok", [("billing", total)]))
    assert [d[1] for d in duplicates(detect(t))] == ["cross_turn"]


def test_confirming_the_slot_the_user_chose_is_not_a_repeat() -> None:
    offer = (
        "I've opened work order WO-21407 for unit 12C. Our technician Dale can come on "
        "Thursday, April 9 between 1:00 and 4:00 pm. Does that work for you?"
    )
    confirmed = "Confirmed: Dale will visit unit 12C on Thursday, April 9 between 1:00 and 4:00 pm."
    t = conversation(
        ("the bathroom fan is grinding", [("maintenance", offer)]),
        ("yes", [("maintenance", confirmed)]),
    )
    assert duplicates(detect(t)) == []
    # The same visit restated when nobody chose or asked anything is a repeat.
    restated = "Dale will visit unit 12C on Thursday, April 9 between 1:00 and 4:00 pm."
    t = conversation(
        ("the bathroom fan is grinding", [("maintenance", offer)]),
        ("is the noise dangerous?", [("maintenance", f"It is not dangerous. {restated}")]),
    )
    assert [d[1] for d in duplicates(detect(t))] == ["cross_turn"]

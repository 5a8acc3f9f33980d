"""A user's "anything else ...?" about the state of things is no request for another option when
the later message answers that there is nothing else (``harness.detect.choices.offers_another``),
and a claim restated beside that answer is a repeat (the scorer's ``restated_aside``). New text
written for these tests."""

from __future__ import annotations

from harness.detect.duplicates import find_duplicates
from harness.detect.findings import DetectorConfig
from tests.detect.test_failure_classes import conversation, duplicates, pairs
from tests.detect.test_picked_option import EVERY_PAIR


def test_a_claim_restated_beside_nothing_else_is_a_duplicate() -> None:
    # Fails before the rule: "anything else" read as asking for another option, and the
    # restatement excused because each message names something the other does not.
    found = duplicates(
        ("user", "what's the status of my visa application?"),
        (
            "visa",
            "Application VA-88213 was approved on May 20; your passport with the visa will be "
            "couriered to 12 Orchard Lane by May 27.",
        ),
        ("user", "thanks, anything else I should do?"),
        (
            "visa",
            "Application VA-88213 was approved on May 20, and your passport will be couriered to "
            "12 Orchard Lane by May 27. There is nothing else you need to do until it arrives; "
            "keep the courier's SMS handy for the signature.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_another_option_asked_for_and_offered_is_still_no_duplicate() -> None:
    found = duplicates(
        ("user", "Can you find me a hotel in Lisbon for June 4?"),
        ("hotels", "The Casa Amora in Lisbon has a double room on June 4 for 120 euros a night."),
        ("user", "anything else?"),
        ("hotels", "The Hotel Lys in Lisbon has a double room on June 4 for 120 euros a night."),
    )
    assert found == []


def test_nothing_else_at_that_price_but_another_item_is_no_duplicate() -> None:
    found = duplicates(
        ("user", "Can you find me a hotel in Lisbon for June 4?"),
        ("hotels", "The Casa Amora in Lisbon has a double room on June 4 for 120 euros a night."),
        ("user", "anything else?"),
        (
            "hotels",
            "Nothing else at that price, but the Hotel Lys in Lisbon has a double room on June 4 "
            "for 140 euros a night.",
        ),
    )
    assert found == []


def test_a_document_restated_beside_nothing_else_outstanding_is_a_duplicate() -> None:
    # Fails before the rule and the restated_aside feature (the scorer read the restatement as
    # the answer to the user's new question: 0.28 on the like pairs of the dev corpus).
    found = duplicates(
        ("user", "did my 1099-DIV from Larkfield Funds arrive?"),
        (
            "docs",
            "Your **1099-DIV from Larkfield Funds** arrived on Thursday, February 12: ordinary "
            "dividends $742.18, qualified dividends $611.40.",
        ),
        ("user", "what's the tax on the qualified part?"),
        ("tax", "At your 15% rate, the qualified dividends add about $92 in federal tax."),
        ("user", "great. is anything else outstanding?"),
        (
            "tax",
            "Your 1099-DIV from Larkfield Funds (arrived Thursday, February 12) shows ordinary "
            "dividends of $742.18 and qualified dividends of $611.40. Nothing else is "
            "outstanding: you can sign your return now.",
        ),
    )
    assert ("m2", "m6") in pairs(found)


def test_an_older_anything_else_answered_before_excuses_no_later_restatement() -> None:
    # Fails before the fix: "else" in any user message in between read as asking for another
    # option, though the later message answers a later question. A scorer double that calls
    # every pair a duplicate leaves the rules alone to decide.
    lines = (
        ("user", "how much PTO do I have left?"),
        ("hr", "You have 12 days of PTO left, and 3 of them expire on March 31."),
        ("user", "is anything else expiring soon?"),
        ("hr", "Your Wellness stipend of $150 also lapses on March 31."),
        ("user", "how do I book time off?"),
        (
            "hr",
            "You have 12 days left, and 3 expire on March 31. To book time off, open Workday, "
            "then Time Off, then Request.",
        ),
    )
    found = find_duplicates(conversation(*lines), DetectorConfig(), pair_model=EVERY_PAIR)
    assert ("m2", "m6") in pairs(found)
    # The answer to "anything else expiring?" itself names another item: no repeat.
    assert ("m2", "m4") not in pairs(found)

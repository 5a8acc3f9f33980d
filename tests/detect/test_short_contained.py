"""A short message said again word for word inside a later, longer bot message (issue 24 class
4: "a greeting contained in a later message", and any short statement the parent repeats above
its own closing line or answer).

New text written for these tests (no transcript of a labelled corpus, no audit probe). The
tests marked "fails on bb9330f" found nothing there: a short message without facts was left out
of the word-for-word rule, and the scorer rates such pairs low.
"""

from __future__ import annotations

from tests.detect.test_failure_classes import duplicates, pairs


def test_a_sub_agents_short_outcome_repeated_above_the_parents_closer_is_a_duplicate() -> None:
    # Fails on bb9330f.
    found = duplicates(
        ("user", "Please renew my library books."),
        ("library", "All three books are renewed."),
        ("concierge", "All three books are renewed. Can I do anything else for you today?"),
    )
    assert ("m2", "m3") in pairs(found)


def test_a_sub_agents_short_answer_repeated_before_another_answer_is_a_duplicate() -> None:
    # Passes on bb9330f too (the scorer takes this one); the rule takes it whatever the scorer
    # says.
    found = duplicates(
        ("user", "Is the rooftop bar open, and do you lend umbrellas?"),
        ("hotel", "The rooftop bar is closed for repairs."),
        (
            "concierge",
            "The rooftop bar is closed for repairs. Umbrellas can be borrowed at reception.",
        ),
    )
    assert ("m2", "m3") in pairs(found)


def test_a_short_statement_repeated_inside_a_later_turns_second_reply_is_a_duplicate() -> None:
    # Fails on bb9330f: the same statement inside a longer message of a later turn, after that
    # turn's own reply, told the user nothing they had not read.
    found = duplicates(
        ("user", "Did my prescription go through?"),
        ("pharmacy", "Your prescription is ready for pickup."),
        ("user", "What time does the pharmacy close?"),
        ("pharmacy", "We close at 9 pm tonight."),
        (
            "concierge",
            "Your prescription is ready for pickup. Bring a photo ID when you collect it.",
        ),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_holding_line_in_separate_turns_inside_a_longer_message_is_not_a_duplicate() -> None:
    # A control (the labelling rules' hard negative): an acknowledgement in two turns states
    # nothing the user reads twice.
    found = duplicates(
        ("user", "Where is my suitcase?"),
        ("airline", "Give me a moment to look that up."),
        ("airline", "It is on the next flight from Lisbon."),
        ("user", "And can I get compensation?"),
        ("claims", "Compensation depends on how long the delay was."),
        ("airline", "Give me a moment to look that up. Delays over a day qualify for 40 euros."),
    )
    assert not {("m2", "m6"), ("m2", "m3", "m6")} & pairs(found)


def test_the_same_short_words_as_the_first_reply_to_a_new_question_are_left_alone() -> None:
    # A control: the first reply of a turn may answer a new question in the same words.
    found = duplicates(
        ("user", "What comes with the mushroom risotto?"),
        ("bistro", "It comes with a side salad."),
        ("user", "And the grilled trout?"),
        ("bistro", "It comes with a side salad. The trout is served with lemon butter."),
    )
    assert found == []


def test_a_short_statement_repeated_after_the_user_asked_for_it_again_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "Has my visa application been approved?"),
        ("visas", "Your visa application was approved."),
        ("user", "Sorry, can you repeat that? Was it approved?"),
        ("visas", "Sure."),
        ("visas", "Your visa application was approved. The passport will be posted back to you."),
    )
    assert found == []

"""A later message that says again what two earlier messages said, and a status said again in
other words (issue 24), on new text written for session s71 (new domains; no corpus transcript;
most written before the detector changed, the rest marked "written with the fold rule").
``FOLDS``: a parent's message folds two earlier answers (of two sub-agents, or of one in two
turns) together; each earlier message it restates is its own pair.
``STATUSES``: a status said again, reworded, a turn later, unasked. ``LOOK_ALIKES`` must stay
unflagged: an update with a new status, a summary the user asked for, a confirmation of the
user's choice, the same template about another item. ``docs/journal/detector.md`` (2026-12-06,
s71-cross) has the figures."""

from __future__ import annotations

import pytest

from harness.detect.findings import Finding
from tests.detect.test_failure_classes import duplicates

U = "user"

Lines = list[tuple[str, str]]


def found_pairs(found: list[Finding]) -> set[frozenset[str]]:
    """Every two messages one finding names (as the corpora's scorer pairs them)."""
    return {
        frozenset({a, b})
        for f in found
        for i, a in enumerate(f.message_ids)
        for b in f.message_ids[i + 1 :]
    }


FOLDS: dict[str, tuple[Lines, list[tuple[str, str]]]] = {
    "same turn: kayak hire and weather": (
        [
            (U, "can I hire a double kayak on Sunday, and what's the forecast?"),
            ("hire-agent", "A double kayak is available on Sunday from 09:00 for £38."),
            ("weather-agent", "Sunday on the estuary: light winds of 8 mph and 17°C."),
            (
                "harbour-desk",
                "A double kayak is available on Sunday from 09:00 for £38. "
                "Sunday on the estuary: light winds of 8 mph and 17°C.",
            ),
        ],
        [("m2", "m4"), ("m3", "m4")],
    ),
    "same turn: allotment plot and water": (
        [
            (U, "is plot 14 free, and when is the water turned on?"),
            ("plots-agent", "Plot 14 is free and the rent is £32 a year."),
            ("site-agent", "The standpipes are turned on from 1 April."),
            (
                "allotments",
                "Good news: plot 14 is free, rent £32 a year. "
                "Also, the standpipes are turned on from 1 April.",
            ),
        ],
        [("m2", "m4"), ("m3", "m4")],
    ),
    "next turn: choir audition and fees": (
        [
            (U, "when are the choir auditions?"),
            ("auditions-agent", "Choir auditions are on Monday 9 September at 19:30 in Hall B."),
            (U, "and the membership fee?"),
            ("fees-agent", "The choir membership fee is £90 per term."),
            (U, "ok thanks"),
            (
                "choir-desk",
                "You're welcome! Auditions are on Monday 9 September at 19:30 in Hall B, "
                "and membership is £90 per term.",
            ),
        ],
        [("m2", "m6"), ("m4", "m6")],
    ),
    "next turn: boiler visit and part": (
        [
            (U, "when is the engineer coming for my boiler?"),
            ("visits-agent", "The engineer will visit on Wednesday 4 June between 8 and 12."),
            (U, "is the part in stock?"),
            ("parts-agent", "The replacement fan PF-330 is in stock at the depot."),
            (U, "great"),
            (
                "heating-desk",
                "All set: the engineer will visit on Wednesday 4 June between 8 and 12, and "
                "the replacement fan PF-330 is in stock at the depot.",
            ),
        ],
        [("m2", "m6"), ("m4", "m6")],
    ),
    "same turn: vet vaccine and bill": (
        [
            (U, "when is Pepper's booster due and what do I owe?"),
            ("records-agent", "Pepper's booster vaccination is due on 22 October."),
            ("billing-agent", "Your outstanding balance is £64.50 for the dental check."),
            (
                "vet-clinic",
                "Pepper's booster vaccination is due on 22 October, and your outstanding "
                "balance is £64.50 for the dental check.",
            ),
        ],
        [("m2", "m4"), ("m3", "m4")],
    ),
    "same turn: library loan and fine": (
        [
            (U, "when is my book due and do I have fines?"),
            ("loans-agent", "Your copy of The Salt Path is due back on 3 March."),
            ("fines-agent", "You have a fine of £1.20 on your account."),
            (
                "library",
                "Your copy of The Salt Path is due back on 3 March. "
                "You have a fine of £1.20 on your account.",
            ),
        ],
        [("m2", "m4"), ("m3", "m4")],
    ),
    "later turn, beside a new answer: loft insulation": (
        [
            (U, "when is the surveyor coming, and is my grant agreed?"),
            ("survey-agent", "The surveyor will come on Tuesday 17 June at 14:00."),
            ("grants-agent", "Your insulation grant IG-2281 of £1,200 is agreed."),
            (U, "do I need to clear the loft?"),
            (
                "home-energy",
                "Yes, please clear a path to the hatch. Your insulation grant IG-2281 of £1,200 "
                "is agreed, and the surveyor comes on Tuesday 17 June at 14:00.",
            ),
        ],
        [("m2", "m5"), ("m3", "m5")],
    ),
    "later turn, beside a new answer: bike service": (
        [
            (U, "when's my bike service and how much?"),
            ("workshop-agent", "Your bike service is booked for Friday 8 August at 09:30."),
            ("pricing-agent", "The full service for a hybrid bike costs £75."),
            (U, "can you check the brake pads too?"),
            (
                "cycle-hub",
                "I've added a brake pad check. Just so you know, your bike service is booked for "
                "Friday 8 August at 09:30 and the full service costs £75.",
            ),
        ],
        [("m2", "m5"), ("m3", "m5")],
    ),
    # written with the fold rule, after the first measure (the class the corpora's misses showed)
    "relay and an older turn: pottery wheel": (
        [
            (U, "reserve the pottery wheel for Saturday"),
            (
                "studio-agent",
                "The pottery wheel is reserved for Saturday 14 June from 10:00 to 12:00.",
            ),
            (U, "do you sell clay?"),
            ("shop-agent", "Yes, a 10 kg bag of stoneware clay costs £18."),
            (
                "studio-desk",
                "A 10 kg bag of stoneware clay is £18. And your wheel is reserved for Saturday "
                "14 June, 10:00 to 12:00.",
            ),
        ],
        [("m4", "m5"), ("m2", "m5")],
    ),
    "relay and an older turn: leisure centre": (
        [
            (U, "can you freeze my membership for March?"),
            (
                "membership-agent",
                "Yes — membership **GX-4471** is **frozen from 1 March to 31 March**. No fee is "
                "taken for March; billing resumes on **1 April** at **£42**.",
            ),
            (U, "ok. what time does the pool open in april"),
            (
                "pool-agent",
                "From April, the pool opens at **6:00** on weekdays and **8:00** at weekends.",
            ),
            (
                "leisure-desk",
                "The pool opens at 6:00 on weekdays and 8:00 at weekends from April. Your "
                "membership is paused until 31 March, and the £42 fee starts again on 1 April.",
            ),
        ],
        [("m4", "m5"), ("m2", "m5")],
    ),
    "relay and an older turn: dog walker": (
        [
            (U, "who is walking Biscuit this week?"),
            ("walkers-agent", "Sam will walk Biscuit on Monday, Wednesday and Friday at 12:30."),
            (U, "how much do I owe?"),
            ("billing-agent", "Your balance is £45 for three walks, due on 30 May."),
            (
                "paws-desk",
                "You owe £45 for three walks, due by 30 May. Sam is walking Biscuit Monday, "
                "Wednesday and Friday at 12:30.",
            ),
        ],
        [("m4", "m5"), ("m2", "m5")],
    ),
}
"""A message restating two earlier messages: each pair must be found."""

STATUSES: dict[str, tuple[Lines, tuple[str, str]]] = {
    "grant approved / went through": (
        [
            (U, "what happened with my bursary application?"),
            ("bursary-agent", "Your bursary application BU-3391 has been approved."),
            (U, "when do term dates start?"),
            (
                "college-desk",
                "Term starts on 15 September. Your bursary application BU-3391 went through.",
            ),
        ],
        ("m2", "m4"),
    ),
    "permit issued / granted": (
        [
            (U, "is my parking permit sorted?"),
            ("permits-agent", "Your parking permit PP-7720 has been issued."),
            (U, "where do I display it?"),
            (
                "council-desk",
                "Display it on the dashboard, passenger side. Your parking permit PP-7720 "
                "has been granted.",
            ),
        ],
        ("m2", "m4"),
    ),
    "refund processed / completed": (
        [
            (U, "did my refund for the concert go through?"),
            ("refunds-agent", "Your refund RF-5120 of £56 has been processed."),
            (U, "can I buy tickets for June?"),
            (
                "box-office",
                "June tickets go on sale on 1 May. Your refund RF-5120 of £56 has been completed.",
            ),
        ],
        ("m2", "m4"),
    ),
    "booking confirmed / booked": (
        [
            (U, "is my pottery taster session confirmed?"),
            ("studio-agent", "Your taster session on Saturday 12 July at 10:00 is confirmed."),
            (U, "do I need to bring an apron?"),
            (
                "studio-desk",
                "Aprons are provided. You're booked in for the taster session on Saturday "
                "12 July at 10:00.",
            ),
        ],
        ("m2", "m4"),
    ),
}
"""A status said again in other words in a later turn, unasked: the pair must be found."""

LOOK_ALIKES: dict[str, Lines] = {
    # an update with a new status
    "update: application under review, then approved": [
        (U, "where is my bursary application?"),
        ("bursary-agent", "Your bursary application BU-3391 is under review."),
        (U, "any news?"),
        ("bursary-agent", "Your bursary application BU-3391 has been approved."),
    ],
    "update: permit pending, then issued": [
        (U, "is my permit ready?"),
        ("permits-agent", "Your parking permit PP-7720 is still pending."),
        (U, "and now?"),
        ("permits-agent", "Your parking permit PP-7720 has been issued."),
    ],
    "update: refund requested, then paid": [
        (U, "what's happening with my refund?"),
        ("refunds-agent", "Your refund RF-5120 of £56 has been requested."),
        (U, "has it arrived?"),
        ("refunds-agent", "Your refund RF-5120 of £56 has been paid to your card."),
    ],
    # a summary the user asked for
    "asked summary: kayak and weather": [
        (U, "can I hire a double kayak on Sunday, and what's the forecast?"),
        ("hire-agent", "A double kayak is available on Sunday from 09:00 for £38."),
        ("weather-agent", "Sunday on the estuary: light winds of 8 mph and 17°C."),
        (U, "can you sum that up for me in one message?"),
        (
            "harbour-desk",
            "Sure: a double kayak is available on Sunday from 09:00 for £38, and the forecast "
            "is light winds of 8 mph and 17°C.",
        ),
    ],
    "asked summary: boiler visit and part": [
        (U, "when is the engineer coming?"),
        ("visits-agent", "The engineer will visit on Wednesday 4 June between 8 and 12."),
        (U, "is the part in stock?"),
        ("parts-agent", "The replacement fan PF-330 is in stock at the depot."),
        (U, "can you give me a recap of both?"),
        (
            "heating-desk",
            "Recap: the engineer visits on Wednesday 4 June between 8 and 12, and the fan "
            "PF-330 is in stock at the depot.",
        ),
    ],
    # a confirmation of the user's choice
    "choice: the later ferry": [
        (U, "what ferries are there to the island on Friday?"),
        ("ferry-agent", "There are sailings at 07:15 for £22 and 16:40 for £18."),
        (U, "the 16:40 please"),
        ("ferry-agent", "Done: you're booked on the 16:40 sailing on Friday for £18."),
    ],
    "choice: the blue paint": [
        (U, "which colours does the bench paint come in?"),
        ("paint-agent", "The bench paint comes in sage at £14 a tin or navy at £16 a tin."),
        (U, "navy, one tin"),
        ("paint-agent", "One tin of navy bench paint at £16 is in your basket."),
    ],
    # the same template about another item
    "template: another plot": [
        (U, "is plot 14 free?"),
        ("plots-agent", "Plot 14 is free and the rent is £32 a year."),
        (U, "and plot 15?"),
        ("plots-agent", "Plot 15 is free and the rent is £32 a year."),
    ],
    "template: another permit": [
        (U, "is my permit PP-7720 issued?"),
        ("permits-agent", "Your parking permit PP-7720 has been issued."),
        (U, "and my partner's, PP-7721?"),
        ("permits-agent", "Your parking permit PP-7721 has been issued."),
    ],
    "template: two fold-ins about other days": [
        (U, "kayak on Sunday? and the forecast?"),
        ("hire-agent", "A double kayak is available on Sunday from 09:00 for £38."),
        ("weather-agent", "Sunday on the estuary: light winds of 8 mph and 17°C."),
        (U, "and Monday?"),
        (
            "harbour-desk",
            "A double kayak is available on Monday from 09:00 for £38. Monday on the "
            "estuary: light winds of 12 mph and 15°C.",
        ),
    ],
}
"""Pairs that read alike and are no repeat: nothing may be flagged."""

RELAYS_ONLY: dict[str, tuple[Lines, tuple[str, str]]] = {
    # a relay of the turn's answer beside news of an older item: no fold
    "relay beside the older booking moved": (
        [
            (U, "book a double kayak for Sunday"),
            ("hire-agent", "Your double kayak is booked for Sunday at 09:00."),
            (U, "what's the forecast, and can you move the kayak to 11:00?"),
            ("weather-agent", "Sunday on the estuary: light winds of 8 mph and 17°C."),
            (
                "harbour-desk",
                "Sunday on the estuary: light winds of 8 mph and 17°C. Your double kayak is now "
                "booked for Sunday at 11:00 instead.",
            ),
        ],
        ("m4", "m5"),
    ),
    "relay beside another plot": (
        [
            (U, "is plot 14 free?"),
            ("plots-agent", "Plot 14 is free and the rent is £32 a year."),
            (U, "and plot 15? when is the water on?"),
            ("site-agent", "The standpipes are turned on from 1 April."),
            (
                "allotments",
                "The standpipes are turned on from 1 April. Plot 15 is free and the rent is £32 "
                "a year.",
            ),
        ],
        ("m4", "m5"),
    ),
    "fold asked for: remind me of both": (
        [
            (U, "when is the engineer coming?"),
            ("visits-agent", "The engineer will visit on Wednesday 4 June between 8 and 12."),
            (U, "is the fan in stock? and remind me of the visit"),
            ("parts-agent", "The replacement fan PF-330 is in stock at the depot."),
            (
                "heating-desk",
                "The replacement fan PF-330 is in stock at the depot, and the engineer will "
                "visit on Wednesday 4 June between 8 and 12.",
            ),
        ],
        ("m4", "m5"),
    ),
}
"""A message folding the turn's answer (a relay: a repeat) with an older message it must not be
paired with: news of an older item, the same template about another item, a reminder the user
asked for (written with the fold rule)."""


@pytest.mark.parametrize(("lines", "expected"), list(FOLDS.values()), ids=list(FOLDS))
def test_each_earlier_message_a_fold_restates_is_found(
    lines: Lines, expected: list[tuple[str, str]]
) -> None:
    got = found_pairs(duplicates(*lines))
    assert {frozenset(p) for p in expected} <= got


_UNLEARNED = (
    "no learned evidence says these status words mean the same: SGD train's crowd phrasings "
    "hold 'approved' and 'processed' twice each and 'issued' and 'granted' never, and both shipped "
    "embeddings put the pair no closer than an update (journal, s71-cross)"
)
_KNOWN_MISSES = {"grant approved / went through", "permit issued / granted"}
_KNOWN_MISSES |= {"refund processed / completed"}


@pytest.mark.parametrize(
    ("lines", "pair"),
    [
        pytest.param(
            *STATUSES[name],
            id=name,
            marks=[pytest.mark.xfail(strict=True, reason=_UNLEARNED)]
            if name in _KNOWN_MISSES
            else [],
        )
        for name in STATUSES
    ],
)
def test_a_status_said_again_in_other_words_is_found(lines: Lines, pair: tuple[str, str]) -> None:
    assert frozenset(pair) in found_pairs(duplicates(*lines))


_SUMMARY_UNREAD = (
    "a summary asked for in words no rule reads as one ('sum that up for me'), not said itself "
    "to sum up: the excuse that took it fired on ordinary wording ('go through', 'remind me to', "
    "'overview') and was dropped (s71-cross mend); flagged at ee740b17 too"
)


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(
            lines,
            id=name,
            marks=[pytest.mark.xfail(strict=True, reason=_SUMMARY_UNREAD)]
            if name == "asked summary: kayak and weather"
            else [],
        )
        for name, lines in LOOK_ALIKES.items()
    ],
)
def test_a_look_alike_is_no_repeat(lines: Lines) -> None:
    assert duplicates(*lines) == []


@pytest.mark.parametrize(("lines", "pair"), list(RELAYS_ONLY.values()), ids=list(RELAYS_ONLY))
def test_a_fold_the_user_asked_for_is_only_its_relay(lines: Lines, pair: tuple[str, str]) -> None:
    assert found_pairs(duplicates(*lines)) == {frozenset(pair)}


# Written for the mend (s71-cross, after review): a user message whose wording only looks like
# asking for a summary, and a status update of an item the user asked about.

UNASKED_REPEATS: dict[str, Lines] = {
    "garden centre: 'run through my order later'": [
        (U, "do you deliver compost?"),
        ("garden-agent", "Compost deliveries are free on orders over £40."),
        (U, "I'll run through my order later; do you stock seed trays?"),
        ("stock-agent", "Yes, seed trays are 80p each."),
        ("garden-agent", "Compost deliveries are free on orders over £40."),
    ],
    "library: 'set a reminder for book club'": [
        (U, "what are the late fees?"),
        ("library-agent", "Late fees are 25p per day for each book."),
        (U, "set a reminder for book club on Friday evening"),
        ("calendar-agent", "Reminder set for book club on Friday at 18:00."),
        ("library-agent", "Late fees are 25p per day for each book."),
    ],
    "observatory: 'a recap video of the meteor talk'": [
        (U, "when does the observatory open?"),
        ("observatory-agent", "The observatory opens at 20:00 on clear nights."),
        (U, "is there a recap video of last week's meteor talk?"),
        ("media-agent", "Yes, the meteor talk is on our video channel."),
        ("observatory-agent", "The observatory opens at 20:00 on clear nights."),
    ],
}
"""A word-for-word repeat nobody asked for, after a user message whose wording ("run through",
"reminder", "recap video") is no request to hear it again: the pair (m2, m5) must be found."""

ASKED_STATUSES: dict[str, Lines] = {
    "dry cleaning ticket asked about again": [
        (U, "is my suit on ticket DC-118 cleaned yet?"),
        ("cleaning-agent", "Ticket DC-118: your suit is in the cleaning queue."),
        (U, "what are your Saturday hours? any progress on DC-118?"),
        ("hours-agent", "We're open 09:00 to 13:00 on Saturdays."),
        (
            "cleaners-desk",
            "We're open 09:00 to 13:00 on Saturdays. Ticket DC-118: your suit is pressed and "
            "ready to collect.",
        ),
    ],
    "planning application asked about again": [
        (U, "where has my planning application PL-0311 got to?"),
        (
            "planning-agent",
            "Planning application PL-0311 for the rear extension is out for consultation.",
        ),
        (U, "how much is a bulky waste pickup? and has PL-0311 been decided?"),
        ("waste-agent", "A bulky waste pickup costs £35 for up to three items."),
        (
            "council-desk",
            "A bulky waste pickup costs £35 for up to three items. Planning application PL-0311 "
            "for the rear extension has been granted.",
        ),
    ],
}
"""Two status updates of an item the user asked about in between (its id named), the second
beside this turn's answer: only the relay (m4, m5) is a repeat."""


@pytest.mark.parametrize("lines", list(UNASKED_REPEATS.values()), ids=list(UNASKED_REPEATS))
def test_an_unasked_word_for_word_repeat_stays_found(lines: Lines) -> None:
    assert frozenset({"m2", "m5"}) in found_pairs(duplicates(*lines))


@pytest.mark.parametrize("lines", list(ASKED_STATUSES.values()), ids=list(ASKED_STATUSES))
def test_an_update_of_an_item_the_user_asked_about_is_no_fold(lines: Lines) -> None:
    assert found_pairs(duplicates(*lines)) == {frozenset({"m4", "m5"})}

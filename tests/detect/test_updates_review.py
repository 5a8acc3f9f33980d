"""New text from a review of the update and accepted-option rules (issue 24): 34 pairs in about
30 domains, each with the verdict a user would give. A parent that relays a sub-agent's answer
with "too", "also" or "as well" after words of its own repeats it; a change word without a
changed value ("nothing has changed", "your new phone", "now ... until 22:00") changes nothing; a
request for more ("tell me more", "check it") accepts nothing. A swapped item, a replaced value
and the outcome of an accepted option are no repeat."""

from __future__ import annotations

import pytest

from tests.detect.test_failure_classes import duplicates, pairs

U = "user"

Case = tuple[str, bool, list[tuple[str, str]], tuple[str, str]]


def _case(
    name: str,
    flagged: bool,
    lines: list[tuple[str, str]],
    pair: tuple[str, str],
    xfail: str | None = None,
) -> object:
    marks = [pytest.mark.xfail(reason=xfail, strict=True)] if xfail else []
    return pytest.param(flagged, lines, pair, id=name, marks=marks)


CASES = [
    _case(
        "relay-too-after-good-news",
        True,
        [
            (U, "when does my parcel arrive"),
            ("courier", "Your parcel 88213 arrives on Tuesday 9 June between 10:00 and 14:00."),
            (
                "assistant",
                "Good news: your parcel 88213 arrives on Tuesday 9 June between 10:00 and "
                "14:00 too.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "relay-as-well-after-source",
        True,
        [
            (U, "is my refund processed"),
            ("payments", "Your refund of £42.80 reaches your Visa card by Friday 12 June."),
            (
                "assistant",
                "Payments confirmed it as well: your refund of £42.80 reaches your Visa card "
                "by Friday 12 June.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "relay-also-clinic-says",
        True,
        [
            (U, "when is my physio appointment"),
            (
                "clinic",
                "Your physiotherapy appointment is on Monday 3 May at 09:00 with Dr Okafor.",
            ),
            (
                "assistant",
                "I checked and the clinic also says your physiotherapy appointment is on "
                "Monday 3 May at 09:00 with Dr Okafor.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "relay-i-can-confirm-that-too",
        True,
        [
            (U, "what's my gym membership renewal date"),
            ("billing", "Your gym membership renews on 1 July at £34.99 a month."),
            (
                "assistant",
                "I can confirm that too: your gym membership renews on 1 July at £34.99 a month.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "relay-also-our-records",
        True,
        [
            (U, "when is Biscuit's next vaccination"),
            (
                "records",
                "Biscuit's booster vaccination is due on 22 August at the Elm Street surgery.",
            ),
            (
                "assistant",
                "Our records also show Biscuit's booster vaccination is due on 22 August at "
                "the Elm Street surgery.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "relay-likewise-team-says",
        True,
        [
            (U, "what's the check-in time at the lodge"),
            ("lodging", "Check-in at Pine Hollow Lodge is from 15:00, and checkout is by 11:00."),
            (
                "assistant",
                "The lodging team likewise says check-in at Pine Hollow Lodge is from 15:00, "
                "and checkout is by 11:00.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "too-at-end-same-item-later",
        True,
        [
            (U, "how much is the kayak rental"),
            (
                "rentals",
                "A double kayak costs £45 for a half day, paddles and life jackets included.",
            ),
            (U, "ok and where do we meet"),
            ("rentals", "Meet at the boathouse on Quay Road at 09:30."),
            (
                "assistant",
                "Just so you know, a double kayak costs £45 for a half day, paddles and life "
                "jackets included too.",
            ),
        ],
        ("m2", "m5"),
    ),
    _case(
        "as-well-after-source-name",
        True,
        [
            (U, "when is the bin collection"),
            ("council", "Your recycling bin is collected every other Wednesday, next on 17 June."),
            (
                "assistant",
                "According to the council as well, your recycling bin is collected every "
                "other Wednesday, next on 17 June.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "as-i-said-now-same-value",
        True,
        [
            (U, "when does my order ship"),
            ("shop", "Your order A-7731 ships on Friday 12 June from the Leeds warehouse."),
            (U, "what's your returns policy"),
            ("shop", "Returns are free within 30 days."),
            (
                "shop",
                "As I said, your order A-7731 now ships on Friday 12 June from the Leeds "
                "warehouse.",
            ),
        ],
        ("m2", "m5"),
    ),
    _case(
        "now-and-an-added-value",
        True,
        [
            (U, "when does the pool open"),
            ("leisure", "The pool opens at 06:30 on weekdays."),
            (U, "thanks. is there parking"),
            ("leisure", "Yes, 40 free spaces."),
            ("leisure", "As I mentioned, the pool now opens at 06:30 on weekdays, until 22:00."),
        ],
        ("m2", "m5"),
    ),
    _case(
        "nothing-has-changed-added-value",
        True,
        [
            (U, "is my flight on time"),
            ("flights", "Your flight BA117 departs at 18:25 from Terminal 5."),
            (U, "ok"),
            (
                "flights",
                "Nothing has changed: your flight BA117 departs at 18:25 from Terminal 5, "
                "boarding 17:45.",
            ),
        ],
        ("m2", "m4"),
    ),
    _case(
        "new-as-adjective",
        True,
        [
            (U, "when does my new phone arrive"),
            ("orders", "Your Pixel 9 arrives on Thursday 11 June by 13:00."),
            ("assistant", "Your new Pixel 9 arrives on Thursday 11 June by 13:00, tracking 4471."),
        ],
        ("m2", "m3"),
    ),
    _case(
        "no-longer-of-another-thing",
        True,
        [
            (U, "how much is the upgrade"),
            ("sales", "The upgrade to Premium costs £12 a month."),
            (U, "hmm"),
            (
                "sales",
                "The upgrade to Premium costs £12 a month, and the setup fee of £20 no "
                "longer applies.",
            ),
        ],
        ("m2", "m4"),
    ),
    _case(
        "updated-heading-same-values",
        True,
        [
            (U, "what's my delivery slot"),
            ("grocer", "Your delivery slot is Saturday 13 June, 08:00 to 09:00."),
            (
                "assistant",
                "We've updated your records: your delivery slot is Saturday 13 June, 08:00 "
                "to 09:00.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "real-update-instead",
        False,
        [
            (U, "when is my haircut"),
            ("salon", "Your haircut with Jo is on Tuesday 16 June at 10:00."),
            (U, "can you move it to wednesday"),
            ("salon", "Checking Jo's diary."),
            (
                "salon",
                "Reminder: your haircut with Jo is now on Wednesday 17 June at 10:00 instead "
                "of Tuesday.",
            ),
        ],
        ("m2", "m5"),
    ),
    _case(
        "another-item-also",
        False,
        [
            (U, "when does the library open"),
            ("library", "The central library opens at 09:00 on Saturdays."),
            (U, "and the museum?"),
            ("library", "In short, the town museum also opens at 09:00 on Saturdays."),
        ],
        ("m2", "m4"),
    ),
    _case(
        "offer-book-it-outcome",
        False,
        [
            (U, "any pottery classes this week"),
            ("studio", "There's one wheel-throwing class left: Thursday 11 June at 18:00, £30."),
            (U, "book it"),
            ("studio", "Booked ✓ Wheel-throwing class, Thursday 11 June at 18:00, £30."),
        ],
        ("m2", "m4"),
    ),
    _case(
        "outcome-sent-twice-exactly",
        True,
        [
            (U, "any pottery classes this week"),
            ("studio", "There's one wheel-throwing class left: Thursday 11 June at 18:00, £30."),
            (U, "book it"),
            ("studio", "Booked ✓ Wheel-throwing class, Thursday 11 June at 18:00, £30."),
            ("studio", "Booked ✓ Wheel-throwing class, Thursday 11 June at 18:00, £30."),
        ],
        ("m4", "m5"),
    ),
    _case(
        "outcome-relayed-after-outcome",
        True,
        [
            (U, "any yoga classes saturday"),
            ("yoga", "Hatha yoga with Priya has 2 places left: Saturday 13 June at 09:00, £12."),
            (U, "yes please"),
            ("yoga", "Booked ✓ Hatha yoga with Priya, Saturday 13 June at 09:00, £12."),
            (
                "assistant",
                "All set: Hatha yoga with Priya is booked for Saturday 13 June at 09:00, £12.",
            ),
        ],
        ("m4", "m5"),
    ),
    _case(
        "outcome-repeated-next-turn",
        True,
        [
            (U, "can I rent a bike tomorrow"),
            ("bikes", "A hybrid bike is free tomorrow from 09:00 to 17:00 for £25."),
            (U, "book it"),
            ("bikes", "Booked ✓ Hybrid bike, tomorrow 09:00 to 17:00, £25."),
            (U, "where do I pick it up"),
            ("bikes", "At the Mill Lane shop."),
            ("bikes", "Booked ✓ Hybrid bike, tomorrow 09:00 to 17:00, £25."),
        ],
        ("m4", "m7"),
    ),
    _case(
        "ok-then-outcome",
        False,
        [
            (U, "any massage slots today"),
            ("spa", "A 60-minute deep tissue massage is free today at 16:00, £70."),
            (U, "ok"),
            ("spa", "Booked ✓ Deep tissue massage, today at 16:00, £70."),
        ],
        ("m2", "m4"),
        xfail="a bare 'ok' is read as an acknowledgement, not a go-ahead",
    ),
    _case(
        "tell-me-more-then-confirmed",
        True,
        [
            (U, "do you have any storage units"),
            (
                "storage",
                "A 50 sq ft unit at Riverside is available from Monday 15 June for £89 a month.",
            ),
            (U, "tell me more"),
            (
                "storage",
                "Confirmed: a 50 sq ft unit at Riverside is available from Monday 15 June "
                "for £89 a month.",
            ),
        ],
        ("m2", "m4"),
    ),
    _case(
        "send-it-again-then-sent",
        False,
        [
            (U, "what's the wifi code"),
            ("hotel", "The guest wifi network is Harbour-Guest and the code is tidepool."),
            (U, "send it again"),
            ("hotel", "Sent: the guest wifi network is Harbour-Guest and the code is tidepool."),
        ],
        ("m2", "m4"),
    ),
    _case(
        "remind-me-later-then-noted",
        True,
        [
            (U, "any dentist appointments"),
            ("dental", "Dr Shah has one slot left: Friday 12 June at 08:30, £60 check-up."),
            (U, "remind me later"),
            ("dental", "Noted: Dr Shah has one slot left, Friday 12 June at 08:30, £60 check-up."),
        ],
        ("m2", "m4"),
        xfail="'Noted: <the offer>' after 'remind me later' is excused before the choice rules",
    ),
    _case(
        "check-it-then-checked",
        True,
        [
            (U, "is there a table tonight"),
            ("tables", "Casa Lupa has a table for 2 tonight at 20:00."),
            (U, "check it"),
            ("tables", "Checked: Casa Lupa has a table for 2 tonight at 20:00."),
        ],
        ("m2", "m4"),
    ),
    _case(
        "exact-offer-after-go-ahead",
        True,
        [
            (U, "any guitar lessons"),
            ("music", "Tom has one guitar lesson left: Wednesday 10 June at 17:00, £35."),
            (U, "book it"),
            ("music", "Tom has one guitar lesson left: Wednesday 10 June at 17:00, £35."),
        ],
        ("m2", "m4"),
    ),
    _case(
        "done-after-go-ahead",
        False,
        [
            (U, "any guitar lessons"),
            ("music", "Tom has one guitar lesson left: Wednesday 10 June at 17:00, £35."),
            (U, "go ahead"),
            ("music", "Done: Tom has one guitar lesson, Wednesday 10 June at 17:00, £35."),
        ],
        ("m2", "m4"),
    ),
    _case(
        "same-offer-twice-in-turn",
        True,
        [
            (U, "any car washes"),
            ("wash", "A full valet is free today at 15:00 for £40."),
            ("assistant", "A full valet is free today at 15:00 for £40."),
        ],
        ("m2", "m3"),
    ),
    _case(
        "just-to-add-too",
        True,
        [
            (U, "what's the interest rate"),
            ("bank", "The fixed saver pays 4.1% a year on balances up to £85,000."),
            (U, "thanks"),
            (
                "bank",
                "Just to add, the fixed saver pays 4.1% a year on balances up to £85,000 too.",
            ),
        ],
        ("m2", "m4"),
    ),
    _case(
        "recap-also-added-adjective",
        True,
        [
            (U, "when's the plumber"),
            ("trades", "The plumber arrives on Monday 8 June between 08:00 and 10:00."),
            (U, "ok thanks"),
            (
                "trades",
                "To recap, the gas-safe plumber also arrives on Monday 8 June between 08:00 "
                "and 10:00.",
            ),
        ],
        ("m2", "m4"),
    ),
    _case(
        "rescheduled-same-value",
        True,
        [
            (U, "when is my MOT"),
            ("garage", "Your rescheduled MOT is on Thursday 18 June at 08:00."),
            (U, "great"),
            (
                "garage",
                "Just a reminder: your MOT is rescheduled for Thursday 18 June at 08:00, "
                "drop-off 07:45.",
            ),
        ],
        ("m2", "m4"),
    ),
    _case(
        "instead-same-answer",
        True,
        [
            (U, "book the 10:00 ferry"),
            ("ferry", "The 10:00 ferry to Cowes is full; the 11:30 sailing has space, £18."),
            (U, "what about parking"),
            ("ferry", "Parking at the terminal is £12 a day."),
            (
                "ferry",
                "As I said, the 10:00 ferry to Cowes is full; take the 11:30 sailing instead, £18.",
            ),
        ],
        ("m2", "m5"),
    ),
    _case(
        "relay-also-hotel-told-me",
        True,
        [
            (U, "is breakfast included"),
            (
                "hotel",
                "Breakfast is included in your rate and served 07:00 to 10:30 in the Orangery.",
            ),
            (
                "assistant",
                "Yes, the hotel also told me breakfast is included in your rate and served "
                "07:00 to 10:30 in the Orangery.",
            ),
        ],
        ("m2", "m3"),
    ),
    _case(
        "relay-of-outcome-booked-too",
        True,
        [
            (U, "any climbing sessions"),
            ("climb", "The intro bouldering session has space on Sunday 14 June at 11:00, £22."),
            (U, "sounds good, book me in"),
            ("climb", "Booked ✓ Intro bouldering, Sunday 14 June at 11:00, £22."),
            (
                "assistant",
                "Great news, you're booked too: intro bouldering, Sunday 14 June at 11:00, £22.",
            ),
        ],
        ("m4", "m5"),
    ),
]


@pytest.mark.parametrize(("flagged", "lines", "pair"), CASES)
def test_the_verdict_a_user_would_give(
    flagged: bool, lines: list[tuple[str, str]], pair: tuple[str, str]
) -> None:
    found = pairs(duplicates(*lines))
    assert (pair in found) is flagged, found

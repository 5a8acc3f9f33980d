"""New text (issue 24, classes 2 and 3): a later message that states a new value of the same item
or the same value of another item is an update, not a repeat; and the outcome of a single option
the user accepted with a short go-ahead confirms the choice. Neither is a duplicate."""

from __future__ import annotations

import pytest

from tests.detect.test_failure_classes import duplicates, pairs

B = "bot"
U = "user"

# (a) A new state or value of the same item, or the same value of another item: m2 vs the last.
UPDATES: list[list[tuple[str, str]]] = [
    [
        (U, "when is the piano tuner coming"),
        (B, "Your piano tuning is booked for Thursday 14 May at 11:00 with Ines."),
        (U, "can we make it friday instead"),
        (B, "Let me check Ines's diary for Friday."),
        (
            B,
            "Just a reminder: your piano tuning is now on Friday 15 May at 11:00 instead of "
            "Thursday 14 May.",
        ),
    ],
    [
        (U, "when does the archery range open"),
        (B, "The indoor archery range opens at 07:45 on weekdays."),
        (U, "and the cafe?"),
        (B, "In short, the range café also opens at 07:45 on weekdays."),
    ],
    [
        (U, "what time is the chimney sweep"),
        (B, "The chimney sweep arrives on Monday 8 June between 08:00 and 10:00."),
        (U, "push it back a week please"),
        (B, "Done, I've asked the sweep's office to move it."),
        (B, "To recap: the chimney sweep now arrives on Monday 15 June between 08:00 and 10:00."),
    ],
    [
        (U, "when is my tattoo session"),
        (B, "Your tattoo session with Mara is on Saturday 20 June at 14:00."),
        (U, "and the consultation for the second piece?"),
        (
            B,
            "Just a reminder: your consultation for the sleeve is on Saturday 20 June at 14:00 "
            "too, right after the session.",
        ),
    ],
    [
        (U, "what time does the observatory tour start"),
        (B, "The evening observatory tour starts at 21:30 on Friday 12 June."),
        (U, "is there a planetarium show that night?"),
        (B, "Yes. To sum up, the planetarium show starts at 21:30 on Friday 12 June as well."),
    ],
    [
        (U, "when do i pick up the canal boat"),
        (B, "You can pick up the canal boat at Lock 12 on Saturday 4 July from 15:00."),
        (U, "can i get it earlier"),
        (B, "The yard says an earlier handover works."),
        (
            B,
            "As a reminder, you now pick up the canal boat at Lock 12 on Saturday 4 July from "
            "12:00 instead of 15:00.",
        ),
    ],
    [
        (U, "when is the beekeeping class"),
        (B, "The beginners' beekeeping class runs on Sunday 7 June from 10:00 to 13:00."),
        (U, "what about the honey extraction workshop"),
        (
            B,
            "So you have everything in one place: the honey extraction workshop also runs on "
            "Sunday 7 June from 10:00 to 13:00.",
        ),
    ],
    [
        (U, "when is the locksmith due"),
        (B, "The locksmith is due at 16:30 today to change the front-door cylinder."),
        (U, "he's running late?"),
        (B, "He just called the office."),
        (
            B,
            "Quick reminder: the locksmith is now due at 17:15 today instead of 16:30, for the "
            "front-door cylinder.",
        ),
    ],
    [
        (U, "when does the kite surfing lesson start"),
        (B, "Your kite surfing lesson starts at 09:00 on Tuesday 23 June at North Beach."),
        (U, "and my friend's lesson?"),
        (
            B,
            "Just so it's clear: Tomas's lesson starts at 09:00 on Tuesday 23 June at North "
            "Beach too.",
        ),
    ],
    [
        (U, "what's my horse riding slot"),
        (B, "Your riding lesson is on Wednesday 17 June at 18:00 on Bramble."),
        (U, "could i switch to the thursday"),
        (B, "Thursday has a free horse."),
        (
            B,
            "To recap, your riding lesson is now on Thursday 18 June at 18:00 on Bramble, "
            "instead of Wednesday.",
        ),
    ],
    [
        (U, "when is the scuba pool session"),
        (B, "The scuba pool session is on Monday 29 June at 19:00 at the Leisure Centre."),
        (U, "and the theory exam?"),
        (
            B,
            "In brief, the theory exam is also on Monday 29 June at 19:00 at the Leisure Centre, "
            "in the room upstairs.",
        ),
    ],
    [
        (U, "when is the bowling lane booked"),
        (B, "Lane 6 is booked for Friday 3 July from 20:00 to 22:00."),
        (U, "make it lane 7, it's nearer the bar"),
        (B, "Lane 7 is free then."),
        (
            B,
            "Just a reminder: you now have lane 7 for Friday 3 July from 20:00 to 22:00, "
            "instead of lane 6.",
        ),
    ],
    [
        (U, "what time is the tree surgeon"),
        (B, "The tree surgeon starts on the oak at 08:00 on Tuesday 9 June."),
        (U, "and the stump grinding?"),
        (
            B,
            "For your records, the stump grinding starts at 08:00 on Tuesday 9 June as well, "
            "once the oak is down.",
        ),
    ],
    [
        (U, "when is the karaoke room"),
        (B, "Your karaoke room is booked for Saturday 27 June at 21:00 for 8 people."),
        (U, "we're 12 now"),
        (B, "I've moved you to the bigger room."),
        (
            B,
            "To sum up: your karaoke room is booked for Saturday 27 June at 21:00, now for 12 "
            "people instead of 8.",
        ),
    ],
    [
        (U, "when is the violin ready"),
        (B, "Your violin will be ready for collection on Friday 19 June after 15:00."),
        (U, "and the bow rehair?"),
        (
            B,
            "Just a reminder, the bow will also be ready for collection on Friday 19 June after "
            "15:00.",
        ),
    ],
    [
        (U, "when's the septic tank emptying"),
        (B, "The septic tank emptying is scheduled for Thursday 25 June, morning slot."),
        (U, "can it be earlier, it's nearly full"),
        (B, "There's a cancellation."),
        (
            B,
            "Here's where things stand: the septic tank emptying is now scheduled for Monday "
            "22 June, morning slot, instead of Thursday 25 June.",
        ),
    ],
    [
        (U, "when does the glassblowing class start"),
        (B, "The glassblowing taster starts at 10:30 on Sunday 14 June."),
        (U, "is the lampwork class the same day?"),
        (
            B,
            "Yes. To recap, the lampwork class starts at 10:30 on Sunday 14 June too, in studio B.",
        ),
    ],
    [
        (U, "what time is my balloon flight"),
        (B, "Your balloon flight launches at 05:45 on Saturday 11 July from Ashfield Farm."),
        (U, "the forecast looks windy"),
        (B, "The pilot has looked at it."),
        (
            B,
            "As a reminder, your balloon flight now launches at 06:30 on Saturday 11 July from "
            "Ashfield Farm instead of 05:45.",
        ),
    ],
    [
        (U, "when is the escape room"),
        (B, "Your escape room, The Vault, is booked for Friday 26 June at 19:15."),
        (U, "and the second room for the other team?"),
        (B, "In short, the Lighthouse room is booked for Friday 26 June at 19:15 as well."),
    ],
    [
        (U, "when is the falconry experience"),
        (B, "Your falconry experience is on Sunday 5 July at 11:00, with the owls first."),
        (U, "can we move to the afternoon"),
        (B, "The falconer can do 14:00."),
        (
            B,
            "Just so it's clear: your falconry experience is now on Sunday 5 July at 14:00 "
            "instead of 11:00, with the owls first.",
        ),
    ],
    [
        (U, "when is the aquarium dive"),
        (B, "Your shark tank dive is on Wednesday 1 July at 08:30, before opening."),
        (U, "and my son's snorkel?"),
        (
            B,
            "To sum up, your son's snorkel session is also on Wednesday 1 July at 08:30, before "
            "opening.",
        ),
    ],
    [
        (U, "how much is the sailing course"),
        (B, "The dinghy sailing course costs £240 for two weekends."),
        (U, "is there a member price"),
        (B, "Members get 15% off."),
        (
            B,
            "Just a reminder: the dinghy sailing course now costs £204 for two weekends with "
            "your member discount, instead of £240.",
        ),
    ],
]

# (b) An offer of one option, a short go-ahead, then its outcome: m2 vs m4.
CHOICES: list[list[tuple[str, str]]] = [
    [
        (U, "any piano tuning slots this week"),
        (B, "Ines has one slot left: Thursday 14 May at 11:00, £85."),
        (U, "book it"),
        (B, "Booked ✓ Piano tuning with Ines, Thursday 14 May at 11:00, £85."),
    ],
    [
        (U, "can i downgrade my archery membership"),
        (B, "The basic archery membership is £19 a month and keeps weekday range access."),
        (U, "switch to basic"),
        (
            B,
            "Switched ✓ You're on the basic archery membership at £19 a month, with weekday "
            "range access.",
        ),
    ],
    [
        (U, "is there a chimney sweep free next week"),
        (B, "The earliest sweep is Tuesday 16 June, 08:00-10:00, for £70."),
        (U, "go ahead"),
        (B, "Done: your chimney sweep is booked for Tuesday 16 June, 08:00-10:00, £70."),
    ],
    [
        (U, "need a tattoo touch-up"),
        (B, "Mara can do a touch-up on Saturday 27 June at 12:00; it's free within a year."),
        (U, "yes please"),
        (B, "All set: touch-up with Mara on Saturday 27 June at 12:00, free of charge."),
    ],
    [
        (U, "observatory tickets for friday?"),
        (B, "Two seats are left for the 21:30 tour on Friday 12 June, £12 each."),
        (U, "take both"),
        (B, "Reserved ✓ 2 seats for the 21:30 observatory tour on Friday 12 June, £24 in all."),
    ],
    [
        (U, "can i extend the canal boat hire"),
        (B, "An extra night on Sunday 5 July is £110 for the Heron."),
        (U, "do it"),
        (B, "Extended ✓ The Heron is yours for an extra night on Sunday 5 July, £110."),
    ],
    [
        (U, "do you have a beekeeping suit in medium"),
        (B, "We have one ventilated suit in medium, £64, ready to ship today."),
        (U, "order it"),
        (B, "Ordered ✓ Ventilated beekeeping suit, medium, £64, shipping today."),
    ],
    [
        (U, "can the locksmith come today"),
        (B, "Pavel can come at 16:30 today; the call-out is £55."),
        (U, "ok send him"),
        (B, "Pavel is on his way for 16:30 today, call-out £55."),
    ],
    [
        (U, "kite surfing lessons tomorrow?"),
        (B, "There's a 09:00 beginner lesson at North Beach tomorrow for £45."),
        (U, "sounds good, book me in"),
        (B, "You're booked ✓ Beginner kite surfing, North Beach, 09:00 tomorrow, £45."),
    ],
    [
        (U, "can i change my riding plan"),
        (B, "The fortnightly plan is £72 a month, two lessons, any weekday."),
        (U, "switch me to that"),
        (B, "Switched ✓ Fortnightly riding plan, £72 a month, two lessons on any weekday."),
    ],
    [
        (U, "is there space on the scuba refresher"),
        (B, "One place is left on the scuba refresher, Monday 29 June at 19:00, £38."),
        (U, "grab it"),
        (
            B,
            "Got it ✓ You have the last place on the scuba refresher, Monday 29 June at 19:00, "
            "£38.",
        ),
    ],
    [
        (U, "bowling lane saturday night?"),
        (B, "Lane 4 is free on Saturday from 20:00 to 22:00 for £36."),
        (U, "book that"),
        (B, "Booked ✓ Lane 4, Saturday 20:00-22:00, £36."),
    ],
    [
        (U, "quote for the oak"),
        (B, "Crown reduction of the oak: £480, with the team available Tuesday 9 June."),
        (U, "accept"),
        (B, "Accepted ✓ Crown reduction of the oak for £480 on Tuesday 9 June."),
    ],
    [
        (U, "karaoke room for friday?"),
        (B, "The Neon room is free on Friday 26 June at 21:00 for up to 10 people, £90."),
        (U, "perfect, reserve it"),
        (B, "Reserved ✓ Neon room, Friday 26 June at 21:00, up to 10 people, £90."),
    ],
    [
        (U, "can you rehair my bow"),
        (B, "A bow rehair is £65 and takes five working days."),
        (U, "go for it"),
        (B, "Booked in ✓ Bow rehair, £65, ready in five working days."),
    ],
    [
        (U, "septic tank emptying soon?"),
        (B, "The next opening is Monday 22 June, morning slot, £210."),
        (U, "fine, book it"),
        (B, "Booked ✓ Septic tank emptying, Monday 22 June, morning slot, £210."),
    ],
    [
        (U, "glassblowing voucher"),
        (B, "A glassblowing taster voucher is £75 and valid for a year."),
        (U, "buy one"),
        (B, "Purchased ✓ Glassblowing taster voucher, £75, valid for a year."),
    ],
    [
        (U, "can i upgrade the balloon flight"),
        (B, "The champagne upgrade is £30 per person on your 11 July flight."),
        (U, "add it"),
        (B, "Added ✓ Champagne upgrade, £30 per person, on your 11 July balloon flight."),
    ],
    [
        (U, "escape room friday?"),
        (B, "The Vault has a 19:15 slot on Friday 26 June for up to 6 players, £96."),
        (U, "yep take it"),
        (B, "Confirmed ✓ The Vault, Friday 26 June at 19:15, up to 6 players, £96."),
    ],
    [
        (U, "falconry gift for my dad"),
        (B, "The owl encounter is £55 and can be used any Sunday until December."),
        (U, "get that one"),
        (B, "Done ✓ Owl encounter gift, £55, valid any Sunday until December."),
    ],
    [
        (U, "cheaper sailing plan?"),
        (B, "The weekday-only sailing membership is £28 a month, boats included."),
        (U, "change to that"),
        (B, "Changed ✓ Your sailing membership is now weekday-only, £28 a month, boats included."),
    ],
    [
        (U, "aquarium annual pass"),
        (B, "A family annual pass is £120 for two adults and two children."),
        (U, "ok buy it"),
        (B, "Bought ✓ Family annual pass, two adults and two children, £120."),
    ],
]


def _last(lines: list[tuple[str, str]]) -> str:
    return f"m{len(lines)}"


@pytest.mark.parametrize("lines", UPDATES, ids=[f"update{i}" for i in range(len(UPDATES))])
def test_a_new_value_or_another_item_is_no_repeat(lines: list[tuple[str, str]]) -> None:
    assert ("m2", _last(lines)) not in pairs(duplicates(*lines))


@pytest.mark.parametrize("lines", CHOICES, ids=[f"choice{i}" for i in range(len(CHOICES))])
def test_the_outcome_of_an_accepted_offer_is_no_repeat(lines: list[tuple[str, str]]) -> None:
    assert ("m2", "m4") not in pairs(duplicates(*lines))


def test_a_recap_whose_additive_follows_the_same_item_is_still_a_duplicate() -> None:
    # "also" after words the earlier claim uses: the same item said again, not another one.
    lines = [
        (U, "when is the pottery wheel class"),
        (B, "The Larkspur wheel-throwing class runs on Saturday 6 June from 10:00 to 12:30."),
        (U, "do i need to bring anything"),
        (B, "Just an apron; clay and tools are provided."),
        (U, "cool"),
        (
            B,
            "To sum up: the Larkspur wheel-throwing class also runs on Saturday 6 June from "
            "10:00 to 12:30, and clay and tools are provided.",
        ),
    ]
    assert ("m2", "m6") in pairs(duplicates(*lines))


def test_a_reminder_that_changes_no_value_is_still_a_duplicate() -> None:
    # "now" without a new value of a kind the earlier claim states: the same state again.
    lines = [
        (U, "when is the organ recital"),
        (B, "The organ recital at St Brendan's is on Sunday 14 June at 16:00."),
        (U, "is there parking"),
        (B, "Yes, the church car park is free on Sundays."),
        (U, "thanks"),
        (
            B,
            "Just a reminder: the organ recital at St Brendan's is now on Sunday 14 June at 16:00.",
        ),
    ]
    assert ("m2", "m6") in pairs(duplicates(*lines))

"""Probes for a claim said again in a later turn (issue 24), written for session s70 before the
detector's code was changed (new text, new domains; no corpus transcript). ``LOOK_ALIKES`` must
stay unflagged: an update with a new value, the same template about another item, a confirmation
of the user's choice, a fact reused for a new request, an answer to a re-ask. ``REPEATS`` are
claims said again in a later turn without being asked for; each names the pair it must find."""

from __future__ import annotations

U = "user"

Lines = list[tuple[str, str]]

LOOK_ALIKES: dict[str, Lines] = {
    # an update of an item with a new value
    "update: class moved a week": [
        (U, "when is my wheel class?"),
        ("pottery", "Your wheel class PT-204 is on Thursday 5 June at 18:00."),
        (U, "can you move it a week later?"),
        ("pottery", "Done: PT-204 is now on Thursday 12 June at 18:00."),
    ],
    "update: arrival window later": [
        (U, "when will the locksmith come?"),
        ("locks", "The locksmith will arrive between 2 and 4 pm today."),
        (U, "any update?"),
        ("locks", "The locksmith is running late and will now arrive between 4 and 6 pm today."),
    ],
    "update: price with an extra": [
        (U, "how much is Bella's groom?"),
        ("grooming", "Bella's full groom costs £45."),
        (U, "add a nail trim please"),
        ("grooming", "Bella's full groom now costs £52 with the nail trim."),
    ],
    "update: order status moves on": [
        (U, "is my skate hire ready?"),
        ("rink", "Your skate hire order SK-88 is being prepared."),
        (U, "is it ready now?"),
        ("rink", "Your skate hire order SK-88 is ready for collection at desk 2."),
    ],
    "update: lane changed": [
        (U, "book me a lane for Saturday morning"),
        ("archery", "Lane 3 is booked for Saturday at 10:00."),
        (U, "actually make it lane 5"),
        ("archery", "Lane 5 is booked for Saturday at 10:00."),
    ],
    # the same template about another item
    "template: another tour day": [
        (U, "how many places are left on Tuesday's tour?"),
        ("observatory", "The Tuesday night tour has 4 places left."),
        (U, "and Wednesday?"),
        ("observatory", "The Wednesday night tour has 4 places left."),
    ],
    "template: another bow": [
        (U, "how much is a violin bow rehair?"),
        ("repairs", "A violin bow rehair is £60 and takes 3 days."),
        (U, "what about a cello bow?"),
        ("repairs", "A cello bow rehair is £70 and takes 3 days."),
    ],
    "template: another plan": [
        (U, "how many washes does Gold include?"),
        ("carwash", "The Gold plan includes 8 washes a month."),
        (U, "and Silver?"),
        ("carwash", "The Silver plan includes 4 washes a month."),
    ],
    "template: another parcel, same time": [
        (U, "was parcel BC-101 delivered?"),
        ("courier", "Parcel BC-101 was delivered at 11:20 to reception."),
        (U, "and BC-102?"),
        ("courier", "Parcel BC-102 was delivered at 11:20 to reception."),
    ],
    # a confirmation of the user's choice
    "choice: the peonies": [
        (U, "what flowers do you have for Saturday?"),
        ("florist", "We have peonies at £40 a bunch or roses at £30 a bunch."),
        (U, "the peonies please"),
        ("florist", "Great, one bunch of peonies at £40 is added to your order."),
    ],
    "choice: the lever harp": [
        (U, "how much does it cost to rent a harp?"),
        ("harps", "Pedal harps rent for £120 a month and lever harps for £50 a month."),
        (U, "the lever harp, from 1 July"),
        ("harps", "A lever harp at £50 a month from 1 July. Shall I confirm it?"),
    ],
    "choice: collection day": [
        (U, "when can you collect my sail?"),
        ("sails", "We can collect your sail on Monday or Wednesday."),
        (U, "Wednesday works"),
        ("sails", "Collection of your sail is booked for Wednesday."),
    ],
    "choice: ordering the kit": [
        (U, "how much is the starter hive kit?"),
        ("bees", "The starter hive kit is £189 and ships in 2 days."),
        (U, "great, I'll take it"),
        ("bees", "Order placed: one starter hive kit for £189, shipping in 2 days."),
    ],
    # a fact reused for a new request
    "reuse: address for a visit": [
        (U, "what address do you have for me?"),
        ("locks", "Your address on file is 14 Elm Road."),
        (U, "please send someone to fix the back door lock"),
        ("locks", "A locksmith will come to 14 Elm Road tomorrow at 9 am for the back door lock."),
    ],
    "reuse: membership for a lesson": [
        (U, "what's my membership number?"),
        ("rink", "Your membership number is IR-5531."),
        (U, "book me a lesson on Sunday"),
        ("rink", "Lesson booked for Sunday at 9:00 under membership IR-5531."),
    ],
    "reuse: firing date for a workshop": [
        (U, "when is my kiln firing?"),
        ("pottery", "Your kiln firing slot is on 3 May."),
        (U, "can I book a glaze workshop the day before?"),
        ("pottery", "Your glaze workshop is booked for 2 May, the day before your firing."),
    ],
    "reuse: collection day for a bulky pickup": [
        (U, "which day is my glass collection?"),
        ("recycling", "Your glass collection day is Friday."),
        (U, "can you also pick up an old fridge?"),
        ("recycling", "Fridge pickup is booked for Friday, with your glass collection."),
    ],
    # an answer to a re-ask
    "re-ask: start time again": [
        (U, "when does the night tour start?"),
        ("observatory", "The night tour starts at 21:30."),
        (U, "sorry, what time does it start again?"),
        ("observatory", "The night tour starts at 21:30."),
    ],
    "re-ask: pick-up time": [
        (U, "when can I pick Bella up?"),
        ("grooming", "Bella's pick-up time is 3 pm."),
        (U, "when was pick-up again?"),
        ("grooming", "Pick-up for Bella is at 3 pm."),
    ],
    "re-ask: next wash without a cue": [
        (U, "when is my next wash?"),
        ("carwash", "Your next wash is due on 9 August."),
        (U, "thanks. remind me, when is my next wash?"),
        ("carwash", "Your next wash is due on 9 August."),
    ],
    "re-ask: closing time asked again": [
        (U, "what time does the range close on weekdays?"),
        ("archery", "The range closes at 8 pm on weekdays."),
        (U, "what time does the range close on weekdays?"),
        ("archery", "The range closes at 8 pm on weekdays."),
    ],
    "re-ask: still the same date, beside a new answer": [
        (U, "when will my violin be ready?"),
        ("repairs", "Your violin repair will be ready on 14 March."),
        (U, "is it still 14 March? and how much is a restring?"),
        ("repairs", "Yes, your violin repair will be ready on 14 March, and a restring is £25."),
    ],
}

REPEATS: dict[str, tuple[Lines, tuple[str, str]]] = {
    "beside a new answer: queen bees": (
        [
            (U, "when does my queen bee order ship?"),
            ("bees", "Your queen bee order QB-77 ships on 3 May."),
            (U, "do you sell smokers?"),
            ("bees", "Yes, smokers are £24. Your queen bee order QB-77 ships on 3 May."),
        ],
        ("m2", "m4"),
    ),
    "exact after thanks: harp delivery": (
        [
            (U, "when is my harp coming?"),
            ("harps", "Your harp delivery is set for Friday at 10 am."),
            (U, "thanks!"),
            ("harps", "Your harp delivery is set for Friday at 10 am."),
        ],
        ("m2", "m4"),
    ),
    "as mentioned: sail repair price": (
        [
            (U, "how much to repair my mainsail?"),
            ("sails", "Your mainsail repair costs £340."),
            (U, "how long will it take?"),
            ("sails", "It takes about two weeks. As mentioned, your mainsail repair costs £340."),
        ],
        ("m2", "m4"),
    ),
    "beside a new answer: telescope session": (
        [
            (U, "is my telescope session booked?"),
            ("observatory", "Your telescope session is confirmed for 12 October at 20:00."),
            (U, "do I need warm clothes?"),
            (
                "observatory",
                "Yes, bring warm layers. Your telescope session is confirmed for 12 October "
                "at 20:00.",
            ),
        ],
        ("m2", "m4"),
    ),
    "beside a new answer: plan renewal": (
        [
            (U, "when does my Gold plan renew?"),
            ("carwash", "Your Gold plan renews on 1 September."),
            (U, "can I add interior cleaning?"),
            ("carwash", "Interior cleaning is £8 per visit. Your Gold plan renews on 1 September."),
        ],
        ("m2", "m4"),
    ),
    "by the way: parcel collected": (
        [
            (U, "has parcel BC-550 been collected?"),
            ("courier", "Parcel BC-550 was collected at 9:40."),
            (U, "what does same-day delivery cost?"),
            (
                "courier",
                "Same-day delivery is £12. Parcel BC-550 was collected at 9:40, by the way.",
            ),
        ],
        ("m2", "m4"),
    ),
    "reminder beside a new answer: skating lesson": (
        [
            (U, "when is my skating lesson?"),
            ("rink", "Your skating lesson is booked for Sunday at 9:00."),
            (U, "do you rent helmets?"),
            (
                "rink",
                "Helmets are free to borrow. Reminder: your skating lesson is booked for Sunday "
                "at 9:00.",
            ),
        ],
        ("m2", "m4"),
    ),
    "beside a new answer: locksmith window": (
        [
            (U, "when will the locksmith come?"),
            ("locks", "The locksmith will arrive between 2 and 4 pm today."),
            (U, "do you take cards?"),
            (
                "locks",
                "We take all major cards. The locksmith will arrive between 2 and 4 pm today.",
            ),
        ],
        ("m2", "m4"),
    ),
    "beside a new answer: course fee received": (
        [
            (U, "did you get my archery course fee?"),
            ("archery", "Your archery course fee of £95 has been received."),
            (U, "where do I park?"),
            (
                "archery",
                "Parking is behind the clubhouse. Your archery course fee of £95 has been received.",
            ),
        ],
        ("m2", "m4"),
    ),
    "beside a new answer: violin ready": (
        [
            (U, "is my violin ready?"),
            ("repairs", "Your violin is ready for collection at the Bath Street shop."),
            (U, "what are your opening hours?"),
            (
                "repairs",
                "We're open 10 to 6. Your violin is ready for collection at the Bath Street shop.",
            ),
        ],
        ("m2", "m4"),
    ),
    "unprompted after ok: groom booking": (
        [
            (U, "book Bella's groom for Tuesday"),
            ("grooming", "Bella's groom is booked for Tuesday at 11:00."),
            (U, "ok great"),
            ("grooming", "Just so you have it: Bella's groom is booked for Tuesday at 11:00."),
        ],
        ("m2", "m4"),
    ),
    "goodbye restating an answer: pottery class": (
        [
            (U, "when does my pottery class start?"),
            ("pottery", "Your pottery class starts on 5 June at 18:00."),
            (U, "and what's the price?"),
            ("pottery", "It's £30 per session."),
            (U, "thanks, that's all"),
            (
                "pottery",
                "You're welcome! Your pottery class starts on 5 June at 18:00. Goodbye!",
            ),
        ],
        ("m2", "m6"),
    ),
}

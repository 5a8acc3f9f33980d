"""A small labelled development set of bot replies beside refusals (new text, several domains):
which requests of a turn the missed-request check should report, and whether each finding's
cause is that the bot declined it. In sample for the refusal grammar of
:mod:`harness.detect._declines` (it was written to measure that grammar's false alarms and misses,
then the grammar was mended on it): a measure, not a held-out score.

Each case: a label, the user's message, the bot's messages, and the expected findings as
``{a piece of the request's text: expected cause}`` (``"declined"`` for "the bot declined it",
``None`` for any other cause or none)."""

from __future__ import annotations

from collections import Counter

from harness.detect.missed import missed_requests
from harness.detect.transcript import Message, Transcript

DECLINED = "the bot declined it"

Case = tuple[str, str, tuple[str, ...], dict[str, str | None]]

CASES: list[Case] = [
    # pure refusals: flagged, declined
    (
        "pure",
        "Can you tell me the wifi password for room 12?",
        ("Sorry, I can't help with that.",),
        {"wifi password": "declined"},
    ),
    (
        "pure",
        "What's the weather in Leeds tomorrow?",
        ("I'm afraid I'm not able to answer that.",),
        {"weather": "declined"},
    ),
    (
        "pure",
        "Where do I park my campervan?",
        ("That's not something we can help with, sorry.",),
        {"campervan": "declined"},
    ),
    (
        "pure",
        "How do I reset my online banking PIN?",
        ("Unfortunately I am unable to assist with that.",),
        {"PIN": "declined"},
    ),
    ("pure", "Which vet is open on Sundays?", ("I can't help with vets.",), {"vet": "declined"}),
    (
        "pure",
        "What's the loan rate for students and how do I open a savings account?",
        ("Our student loan rate is 4.2%.", "Sorry, I cannot help with savings accounts."),
        {"savings account": "declined"},
    ),
    (
        "pure",
        "Where can I hire a kayak?",
        ("Sorry, I can't help with anything else today.",),
        {"kayak": "declined"},
    ),
    # a refusal joined to an answer by a comma, dash, colon or because: answered
    (
        "joined",
        "How much is a day pass for the pool?",
        ("I can't help with gym memberships, a day pass for the pool is £6.",),
        {},
    ),
    (
        "joined",
        "When does the library shut tonight?",
        ("We can't deal with renewals here - the library shuts at 8 pm tonight.",),
        {},
    ),
    (
        "joined",
        "What time is the dentist open until on Friday?",
        ("I'm unable to help with bookings: on Friday the surgery is open until 5 pm.",),
        {},
    ),
    (
        "joined",
        "Is the 9:40 to Bristol running?",
        ("Sorry, I can't help with that because the 9:40 to Bristol is cancelled today.",),
        {},
    ),
    (
        "joined",
        "How much is a haircut and do you do beard trims?",
        ("I can't help with colouring, a haircut is £18.",),
        {"beard": None},
    ),
    (
        "joined",
        "What time does the museum open and is there a cafe?",
        (
            "We can't handle group tours, the museum opens at 10 am.",
            "Yes, there's a cafe on the ground floor.",
        ),
        {},
    ),
    # "No, we can't ..." to a yes/no question: answered
    ("no", "Do you repair carbon frames?", ("No, we can't handle carbon frames.",), {}),
    ("no", "Can you deliver to Galway?", ("No, we can't deliver outside Dublin.",), {}),
    (
        "no",
        "Do you take bookings for groups of twenty?",
        ("We can't deal with groups that large.",),
        {},
    ),
    (
        "no",
        "Can you help me with my visa application?",
        ("Sorry, we can't help with visa applications.",),
        {},
    ),
    (
        "no",
        "Do you price match and what are your opening hours?",
        ("We're open 8 to 6.", "No, we can't help with price matching."),
        {},
    ),
    # failure notices: answered (docs item 4)
    (
        "failure",
        "Book me a room at the Harbour Inn for Friday",
        ("Sorry, I couldn't book that.",),
        {},
    ),
    ("failure", "Reserve a table at Sorrel for 8 pm", ("Sorry, I couldn't do that.",), {}),
    ("failure", "Transfer £200 to my savings", ("I was unable to make the transfer.",), {}),
    (
        "failure",
        "Move my appointment to Thursday",
        ("Sorry, I could not do that: Thursday is fully booked.",),
        {},
    ),
    # a request for missing details: answered (the bot asks back)
    (
        "asks",
        "Can you change my flight to Monday?",
        ("I can't do that without your booking reference. What is it?",),
        {},
    ),
    (
        "asks",
        "Cancel my gym membership please",
        ("I can't help with that until I have your member number.",),
        {},
    ),
    (
        "asks",
        "Send me my last bank statement",
        ("I'm not able to help with that unless you verify your identity first.",),
        {},
    ),
    (
        "asks",
        "Renew my library books",
        ("Sorry, I can't deal with that yet.", "Which card number are they on?"),
        {},
    ),
    # offers of another time: answered
    (
        "offer",
        "Can I book a massage for Tuesday?",
        ("We can't do Tuesday, but 3 pm on Wednesday works.",),
        {},
    ),
    (
        "offer",
        "Can you fix my puncture today?",
        ("We cannot take care of that before Monday.",),
        {},
    ),
    ("offer", "Is a table for two free at 7?", ("I can't do 7, but 7:30 is free.",), {}),
    # idioms: answered
    (
        "idiom",
        "Which hike should I do near Keswick?",
        ("I can't help recommending Catbells, it's short and the views are great.",),
        {},
    ),
    ("idiom", "What should I order?", ("I can't help but suggest the lamb.",), {}),
    # the runtime fallback, with and without the documented handoff line: flagged, declined
    (
        "fallback",
        "Is my parrot allowed on board?",
        (
            'I can\'t help with "Is my parrot allowed on board" here. For anything else, call SkyHelp on 0800 555 0100 or open a case at skyhelp.example/help.',
        ),
        {"parrot": "declined"},
    ),
    (
        "fallback",
        "Can I change my seat?",
        ('I can\'t help with "Can I change my seat" here.',),
        {"seat": "declined"},
    ),
    (
        "fallback",
        "Where is the lost luggage desk?",
        (
            'I can\'t help with "Where is the lost luggage desk" here. For anything else, call the help desk on 0161 496 0000.',
        ),
        {"luggage": "declined"},
    ),
    (
        "fallback",
        "What time is check-in and where is the lost luggage desk?",
        (
            "Check-in opens at 6 am.",
            'I can\'t help with "where is the lost luggage desk" here. For anything else, call the help desk on 0161 496 0000.',
        ),
        {"luggage": "declined"},
    ),
    # a footer beside a dropped request: the cause is not "declined"
    (
        "footer",
        "What time does the sauna open and where can I leave my bike?",
        ("The sauna opens at 9 am.", "Please note I can't help with refunds or lost property."),
        {"bike": None},
    ),
    (
        "footer",
        "When is the next bus to Ripon and how much is a single?",
        ("The next bus to Ripon leaves at 11:05.", "I can't help with lost property."),
        {"single": None},
    ),
    (
        "footer",
        "How late is the pharmacy open and does it sell masks?",
        ("The pharmacy is open until 9 pm.", "Sorry, I can't help with that."),
        {"masks": None},
    ),
    # a refusal naming the one of two requests it declines
    (
        "named",
        "When is high tide and can I rent a surfboard?",
        ("High tide is at 4:12 pm.", "Sorry, I can't help with surfboard rentals."),
        {"surfboard": "declined"},
    ),
    (
        "named",
        "What's the balance on my card and can you raise my credit limit?",
        ("Your balance is £312.40.", "I'm not able to help with credit limits."),
        {"credit limit": "declined"},
    ),
]


def _found(asked: str, said: tuple[str, ...]) -> dict[str, str | None]:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=asked)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    found = missed_requests(Transcript(conversation="c", messages=messages))
    return {f.evidence.split('"')[1]: f.cause for f in found}


def outcome(case: Case) -> tuple[bool, bool]:
    """Whether the case's findings are the expected ones (which requests), and, if so, whether
    each finding's cause is the expected one."""
    _, asked, said, expected = case
    found = _found(asked, said)
    which = len(found) == len(expected) and all(
        any(piece.lower() in request.lower() for request in found) for piece in expected
    )
    if not which:
        return False, False
    causes = all(
        (found[request] == DECLINED) == (cause == "declined")
        for piece, cause in expected.items()
        for request in found
        if piece.lower() in request.lower()
    )
    return True, causes


def measure() -> dict[str, tuple[int, int, int]]:
    """For each label: (cases, right findings, right findings and causes)."""
    out: Counter[tuple[str, int]] = Counter()
    for case in CASES:
        which, causes = outcome(case)
        out[case[0], 0] += 1
        out[case[0], 1] += which
        out[case[0], 2] += which and causes
    labels = dict.fromkeys(label for label, *_ in CASES)
    return {label: (out[label, 0], out[label, 1], out[label, 2]) for label in labels}

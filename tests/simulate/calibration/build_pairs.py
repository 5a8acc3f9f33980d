"""Build the labelled calibration set for the duplicate detector (``pairs.jsonl``).

Each pair is two bot messages of an HR/IT helpdesk conversation, labelled duplicate or not, with the
user messages of their turns. The user messages and scoped requests are real CLINC150 utterances of the
``work`` domain (``clinc150/``, CC-BY-3.0); the bot answers come from the templates below, one set per
CLINC intent, filled with sampled facts (days, dates, amounts, names, ids).

Positives: the same answer sent again verbatim, lightly reworded, contained in a longer reply (a parent
relaying a sub-agent's answer among new content), re-sent in a later turn, a closer sent twice in one
turn; and, in the ``semantic`` tier, paraphrased. Negatives are the hard ones: the same template with one
fact changed, sibling intents that share every fact (PTO balance vs PTO used, submitted vs approved),
two requests of one turn, the user asking again, closers in separate turns, a holding message before
the answer.

    python tests/simulate/calibration/build_pairs.py            # pairs.jsonl from the test split
    python tests/simulate/calibration/build_pairs.py --split train --out /tmp/dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import chain
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

AGENT = {
    "pto_balance": "pto",
    "pto_used": "pto",
    "pto_request": "pto",
    "pto_request_status": "pto",
    "payday": "payroll",
    "direct_deposit": "payroll",
    "w2": "payroll",
    "taxes": "payroll",
    "income": "payroll",
    "rollover_401k": "benefits",
    "insurance": "benefits",
    "insurance_change": "benefits",
    "next_holiday": "helpdesk",
    "meeting_schedule": "calendar",
    "schedule_meeting": "calendar",
}
LABEL = {"pto": "PTO", "payroll": "payroll", "benefits": "benefits", "calendar": "calendar"}

# Per intent: the canonical answer, light rewordings (what a parent relaying it writes), and
# paraphrases (same facts, new words: only embeddings can be expected to see them).
TEMPLATES: dict[str, dict[str, list[str]]] = {
    "pto_balance": {
        "c": ["You have {n} vacation days left for {year}."],
        "l": [
            "You still have {n} vacation days left for {year}.",
            "Good news: you have {n} vacation days left for {year}!",
            "For {year}, you have {n} vacation days left.",
            "You have {n} vacation days remaining for {year}.",
            "Right now you have {n} vacation days left for {year}.",
        ],
        "p": [
            "Your remaining PTO balance for {year} is {n} days.",
            "There are {n} days of paid time off still available to you in {year}.",
        ],
    },
    "pto_used": {
        "c": ["You have used {n} vacation days so far in {year}."],
        "l": [
            "So far in {year}, you have used {n} vacation days.",
            "You've used {n} vacation days so far in {year}.",
            "According to Workday, you have used {n} vacation days so far in {year}.",
        ],
        "p": ["You've taken {n} days of PTO this year ({year})."],
    },
    "pto_request": {
        "c": ["Your vacation request for {start} to {end} has been submitted to {manager}."],
        "l": [
            "I've submitted your vacation request for {start} to {end} to {manager}.",
            "Your vacation request ({start} to {end}) has been submitted to {manager}.",
            "Done: your vacation request for {start} to {end} was submitted to {manager}.",
        ],
        "p": ["{manager} now has your time-off request for {start} through {end} in their queue."],
    },
    "pto_request_status": {
        "c": ["Your vacation request for {start} to {end} was approved by {manager}."],
        "l": [
            "{manager} approved your vacation request for {start} to {end}.",
            "Good news: your vacation request for {start} to {end} was approved by {manager}!",
            "Your vacation request for {start} to {end} has been approved by {manager}.",
        ],
        "p": ["You're all set: {manager} signed off on your time off from {start} to {end}."],
    },
    "payday": {
        "c": ["Your next payday is {pay_weekday}, {pay_date}."],
        "l": [
            "Your next payday is on {pay_weekday}, {pay_date}.",
            "The next payday is {pay_weekday}, {pay_date}.",
            "Your next payday falls on {pay_weekday}, {pay_date}.",
        ],
        "p": ["You'll get paid next on {pay_weekday}, {pay_date}."],
    },
    "direct_deposit": {
        "c": [
            "Direct deposit to your {bank} account ending in {last4} starts with the "
            "{pay_date} paycheck."
        ],
        "l": [
            "Your direct deposit to the {bank} account ending in {last4} starts with the "
            "{pay_date} paycheck.",
            "Starting with the {pay_date} paycheck, direct deposit goes to your {bank} account "
            "ending in {last4}.",
        ],
        "p": ["From the {pay_date} pay run on, your pay lands in {bank} (account ending {last4})."],
    },
    "w2": {
        "c": ["Your {year_prev} W-2 is available in Workday under Pay > Tax Documents."],
        "l": [
            "You can find your {year_prev} W-2 in Workday under Pay > Tax Documents.",
            "Your {year_prev} W-2 is now available in Workday, under Pay > Tax Documents.",
        ],
        "p": ["Open Workday and go to Pay > Tax Documents to download the {year_prev} W-2."],
    },
    "taxes": {
        "c": ["Your federal tax withholding so far in {year} is ${tax}."],
        "l": [
            "So far in {year}, your federal tax withholding is ${tax}.",
            "Your federal tax withholding for {year} so far comes to ${tax}.",
        ],
        "p": ["${tax} has been withheld for federal taxes from your pay in {year}."],
    },
    "income": {
        "c": ["Your annual base salary is ${salary}, paid every two weeks."],
        "l": [
            "Your base salary is ${salary} a year, paid every two weeks.",
            "Your annual base salary is ${salary}, and it is paid every two weeks.",
        ],
        "p": ["You earn ${salary} per year before taxes, on a biweekly schedule."],
    },
    "rollover_401k": {
        "c": [
            "To roll over your old 401(k), ask {provider} for a direct rollover to Fidelity; it "
            "takes about {n} business days."
        ],
        "l": [
            "To roll over your old 401(k), request a direct rollover from {provider} to Fidelity; "
            "it takes about {n} business days.",
            "You can roll over your old 401(k) by asking {provider} for a direct rollover to "
            "Fidelity, which takes about {n} business days.",
        ],
        "p": ["Have {provider} send the balance straight to Fidelity; expect roughly {n} days."],
    },
    "insurance": {
        "c": ["You are enrolled in the {plan} medical plan with a ${deductible} deductible."],
        "l": [
            "You're enrolled in the {plan} medical plan, which has a ${deductible} deductible.",
            "Your medical plan is the {plan} plan with a ${deductible} deductible.",
        ],
        "p": ["Your health coverage is {plan}; the deductible is ${deductible}."],
    },
    "insurance_change": {
        "c": [
            "You can change your medical plan during open enrollment, from {oe_start} to {oe_end}."
        ],
        "l": [
            "You can change your medical plan during open enrollment, which runs from {oe_start} "
            "to {oe_end}.",
            "Open enrollment runs from {oe_start} to {oe_end}, and that is when you can change "
            "your medical plan.",
        ],
        "p": ["Plan switches are only allowed in the {oe_start}-{oe_end} enrollment window."],
    },
    "next_holiday": {
        "c": ["The next company holiday is {holiday} on {hol_weekday}, {hol_date}."],
        "l": [
            "Our next company holiday is {holiday} on {hol_weekday}, {hol_date}.",
            "The next company holiday is {holiday}, on {hol_weekday}, {hol_date}.",
        ],
        "p": ["{holiday} ({hol_weekday}, {hol_date}) is the next day the office is closed."],
    },
    "meeting_schedule": {
        "c": ["You have {n} meetings today; the first is {meeting} at {time}."],
        "l": [
            "You have {n} meetings on your calendar today; the first is {meeting} at {time}.",
            "Today you have {n} meetings, and the first one is {meeting} at {time}.",
        ],
        "p": ["{n} meetings are booked for you today, starting with {meeting} at {time}."],
    },
    "schedule_meeting": {
        "c": ["I booked room {room} for {meeting} on {mt_weekday} at {time}."],
        "l": [
            "I've booked room {room} for {meeting} on {mt_weekday} at {time}.",
            "Room {room} is booked for {meeting} on {mt_weekday} at {time}.",
        ],
        "p": ["{meeting} now has {room} reserved, {mt_weekday} at {time}."],
    },
}

# Siblings: different answers that share facts and most of their words.
SIBLINGS: dict[str, list[str]] = {
    "pto_balance": [
        "You have used {n} vacation days so far in {year}.",
        "You have {n} sick days left for {year}.",
        "You have accrued {n} vacation days so far in {year}.",
    ],
    "pto_used": [
        "You have {n} vacation days left for {year}.",
        "You have used {n} sick days so far in {year}.",
    ],
    "pto_request": [
        "Your vacation request for {start} to {end} was approved by {manager}.",
        "Your vacation request for {start} to {end} was cancelled.",
        "Your vacation request for {start} to {end} is still pending with {manager}.",
    ],
    "pto_request_status": [
        "Your vacation request for {start} to {end} has been submitted to {manager}.",
        "Your vacation request for {start} to {end} was denied by {manager}.",
        "Your vacation request for {start} to {end} was not approved by {manager}.",
    ],
    "payday": [
        "Your direct deposit change takes effect on {pay_weekday}, {pay_date}.",
    ],
    "direct_deposit": [
        "Direct deposit to your {bank} account ending in {last4} is not set up yet.",
    ],
    "w2": [
        "Your {year_prev} 1099 is available in Workday under Pay > Tax Documents.",
        "Your {year_prev} W-2 is not available in Workday yet.",
    ],
    "taxes": [
        "You owe ${tax} in federal taxes for {year}.",
    ],
    "income": [
        "Your annual base salary is ${salary}, paid twice a month.",
    ],
    "rollover_401k": [
        "To roll over your old IRA, ask {provider} for a direct rollover to Fidelity; it takes "
        "about {n} business days.",
    ],
    "insurance": [
        "You are enrolled in the {plan} dental plan with a ${deductible} deductible.",
        "You are not enrolled in the {plan} medical plan with a ${deductible} deductible.",
    ],
    "insurance_change": [
        "You can add a dependent to your medical plan during open enrollment, from {oe_start} "
        "to {oe_end}.",
    ],
    "next_holiday": [
        "The office is open on {holiday}, {hol_weekday}, {hol_date}.",
    ],
    "meeting_schedule": [
        "You have {n} meetings tomorrow; the first is {meeting} at {time}.",
    ],
    "schedule_meeting": [
        "I cancelled room {room} for {meeting} on {mt_weekday} at {time}.",
        "Room {room} is not available for {meeting} on {mt_weekday} at {time}.",
    ],
}

MANAGERS = ["Priya Patel", "Marcus Chen", "Elena Rossi", "Tom Becker", "Aisha Khan", "Luis Ortega"]
BANKS = ["Chase", "Wells Fargo", "Ally", "Capital One", "Citibank"]
PLANS = ["Aetna PPO", "Blue Shield HMO", "Kaiser HMO", "UnitedHealthcare HSA"]
PROVIDERS = ["Vanguard", "Schwab", "Empower", "Principal"]
HOLIDAYS = [
    ("Memorial Day", date(2026, 5, 25)),
    ("Juneteenth", date(2026, 6, 19)),
    ("Independence Day", date(2026, 7, 3)),
    ("Labor Day", date(2026, 9, 7)),
    ("Thanksgiving", date(2026, 11, 26)),
]
MEETINGS = ["the Q3 planning review", "the design sync", "the budget check-in", "the vendor call"]
TIMES = ["9:30", "10:00", "11:15", "1:30", "2:00", "3:45", "4:00"]
ROOMS = ["4B", "Everest", "Denali", "2A", "Fuji"]
CLOSERS = [
    "Anything else I can help with?",
    "Is there anything else I can help you with today?",
    "Let me know if you need anything else.",
    "Can I help with anything else?",
]
HOLDING = [
    "Let me check that for you.",
    "One moment while I look that up.",
    "Let me check your {topic} for you.",
    "Sure, let me look into that.",
    "Checking your {topic} now...",
]
TOPIC = {
    "pto_balance": "vacation balance",
    "pto_used": "vacation days",
    "pto_request": "vacation request",
    "pto_request_status": "vacation request",
    "payday": "pay schedule",
    "direct_deposit": "direct deposit",
    "w2": "tax documents",
    "taxes": "tax withholding",
    "income": "salary",
    "rollover_401k": "401(k) options",
    "insurance": "medical plan",
    "insurance_change": "benefits",
    "next_holiday": "holiday calendar",
    "meeting_schedule": "calendar",
    "schedule_meeting": "room bookings",
}
RELAY_PREFIX = [
    "The {label} agent checked: ",
    "Here's what I found: ",
    "",
    "",
    "",
]
CROSS_PREFIX = ["Also, ", "And just so you know, ", "As a reminder, ", ""]


ORDINARY_FIRST_WORDS = {"You", "Your", "You're", "You've", "The", "To", "Today", "So", "For"}
ORDINARY_FIRST_WORDS |= {"Good", "Right", "Starting", "Direct", "Done:", "Room", "Open", "Our"}


def lower_first(text: str) -> str:
    """Lower-case a sentence's first word when it is an ordinary word (not a name or "I")."""
    if text.split()[0] in ORDINARY_FIRST_WORDS:
        return text[0].lower() + text[1:]
    return text


def fmt_date(d: date) -> str:
    return f"{d:%B} {d.day}"


def sample_facts(rng: random.Random) -> dict[str, Any]:
    start = date(2026, 3, 2) + timedelta(days=rng.randrange(0, 200))
    pay = date(2026, 3, 6) + timedelta(days=14 * rng.randrange(0, 18))
    oe = date(2026, 11, 2) + timedelta(days=rng.randrange(0, 10))
    holiday, hol = rng.choice(HOLIDAYS)
    meeting_day = date(2026, 3, 2) + timedelta(days=rng.randrange(0, 60))
    return {
        "n": rng.randrange(2, 26),
        "year": 2026,
        "year_prev": 2025,
        "start": fmt_date(start),
        "end": fmt_date(start + timedelta(days=rng.randrange(1, 10))),
        "manager": rng.choice(MANAGERS),
        "pay_weekday": f"{pay:%A}",
        "pay_date": fmt_date(pay),
        "bank": rng.choice(BANKS),
        "last4": f"{rng.randrange(1000, 10000)}",
        "tax": f"{rng.randrange(800, 20000):,}",
        "salary": f"{rng.randrange(48, 160) * 1000:,}",
        "provider": rng.choice(PROVIDERS),
        "plan": rng.choice(PLANS),
        "deductible": f"{rng.choice([500, 750, 1000, 1500, 2000, 3000]):,}",
        "oe_start": fmt_date(oe),
        "oe_end": fmt_date(oe + timedelta(days=14)),
        "holiday": holiday,
        "hol_weekday": f"{hol:%A}",
        "hol_date": fmt_date(hol),
        "meeting": rng.choice(MEETINGS),
        "time": rng.choice(TIMES),
        "room": rng.choice(ROOMS),
        "mt_weekday": f"{meeting_day:%A}",
    }


# Which facts each intent states, so that "change one fact" changes one the text shows.
USES = {
    intent: sorted(
        {
            key
            for text in chain.from_iterable(TEMPLATES[intent].values())
            for key in sample_facts(random.Random(0))
            if "{" + key + "}" in text
        }
    )
    for intent in TEMPLATES
}


def change_one_fact(rng: random.Random, intent: str, facts: dict[str, Any]) -> dict[str, Any]:
    fixed = ("year", "year_prev", "pay_weekday", "hol_weekday")
    keys = [k for k in USES[intent] if k not in fixed] or USES[intent]
    key = rng.choice(keys)
    other = dict(facts)
    while other[key] == facts[key]:
        fresh = sample_facts(rng)
        other[key] = fresh[key]
        if key == "pay_date":
            other["pay_weekday"] = fresh["pay_weekday"]
        if key in ("holiday", "hol_date"):
            for linked in ("holiday", "hol_date", "hol_weekday"):
                other[linked] = fresh[linked]
        if key in ("year", "year_prev"):
            other[key] = facts[key] - 1
    return other


@dataclass
class Builder:
    rng: random.Random
    utterances: dict[str, list[str]]
    pairs: list[dict[str, Any]]

    def ask(self, intent: str) -> str:
        return self.rng.choice(self.utterances[intent])

    def answer(self, intent: str, facts: dict[str, Any], kind: str = "c") -> str:
        return self.rng.choice(TEMPLATES[intent][kind]).format(**facts)

    def other_intent(self, *avoid: str) -> str:
        return self.rng.choice([i for i in TEMPLATES if i not in avoid and AGENT[i] != "helpdesk"])

    def msg(self, intent: str | None, text: str, *, parent: bool, request: str | None) -> dict:
        sender = "helpdesk" if parent or intent is None else AGENT[intent]
        record: dict[str, Any] = {"sender": sender, "text": text}
        if sender != "helpdesk":
            record["mode"] = "direct"
        if request is not None and self.rng.random() < 0.5:
            record["request"] = request
        return record

    def add(
        self,
        category: str,
        label: bool,
        scope: str,
        users: list[str],
        a: dict,
        b: dict,
        *,
        tier: str = "lexical",
        different_facts: bool = False,
    ) -> None:
        self.pairs.append(
            {
                "id": f"p{len(self.pairs) + 1:03d}",
                "label": label,
                "category": category,
                "tier": tier,
                "scope": scope,
                "different_facts": different_facts,
                "users": users,
                "a": a,
                "b": b,
            }
        )

    # --- positives ------------------------------------------------------------------------------

    def exact(self) -> None:
        intent, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        req = self.ask(intent)
        text = self.answer(intent, f, self.rng.choice(["c", "l"]))
        variants = [text, text.rstrip(".!") + "!", text.rstrip(".!"), text.upper()[0] + text[1:]]
        b_text = self.rng.choice(variants)
        if self.rng.random() < 0.7:
            a = self.msg(intent, text, parent=False, request=req)
            b = self.msg(intent, b_text, parent=True, request=req)
            self.add("exact", True, "same_turn", [req], a, b)
        else:
            y = self.other_intent(intent)
            a = self.msg(intent, text, parent=False, request=req)
            b = self.msg(intent, b_text, parent=True, request=None)
            self.add("exact", True, "cross_turn", [req, self.ask(y)], a, b)

    def near(self) -> None:
        intent, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        req = self.ask(intent)
        a_text = self.answer(intent, f, "c")
        b_text = self.answer(intent, f, "l")
        a = self.msg(intent, a_text, parent=False, request=req)
        b = self.msg(intent, b_text, parent=True, request=req)
        self.add("near", True, "same_turn", [req], a, b)

    def containment(self) -> None:
        x, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        y, g = self.other_intent(x), sample_facts(self.rng)
        req_x, req_y = self.ask(x), self.ask(y)
        a = self.msg(x, self.answer(x, f, "c"), parent=False, request=req_x)
        restated = self.answer(x, f, self.rng.choice(["c", "l"]))
        prefix = self.rng.choice(RELAY_PREFIX).format(label=LABEL.get(AGENT[x], "HR"))
        if prefix:
            restated = prefix + lower_first(restated)
        parts = [restated, self.answer(y, g, "c")]
        self.rng.shuffle(parts)
        if self.rng.random() < 0.5:
            parts.append(self.rng.choice(CLOSERS))
        b = self.msg(None, " ".join(parts), parent=True, request=None)
        self.add("containment", True, "same_turn", [f"{req_x} and {req_y}"], a, b)

    def cross_turn(self) -> None:
        x, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        y, g = self.other_intent(x), sample_facts(self.rng)
        a = self.msg(x, self.answer(x, f, "c"), parent=False, request=self.ask(x))
        again = self.answer(x, f, self.rng.choice(["c", "l"]))
        prefix = self.rng.choice(CROSS_PREFIX)
        if prefix:
            again = prefix + lower_first(again)
        text = f"{self.answer(y, g, 'c')} {again}"
        b = self.msg(None, text, parent=True, request=None)
        self.add("containment", True, "cross_turn", [self.ask(x), self.ask(y)], a, b)

    def closers_same_turn(self) -> None:
        x, y = self.rng.sample([i for i in TEMPLATES if AGENT[i] != "helpdesk"], 2)
        f, g = sample_facts(self.rng), sample_facts(self.rng)
        a = self.msg(
            x, f"{self.answer(x, f)} {self.rng.choice(CLOSERS)}", parent=False, request=self.ask(x)
        )
        b = self.msg(
            None, f"{self.answer(y, g)} {self.rng.choice(CLOSERS)}", parent=True, request=None
        )
        self.add(
            "boilerplate_same_turn", True, "same_turn", [f"{self.ask(x)} and {self.ask(y)}"], a, b
        )

    def paraphrase(self) -> None:
        intent, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        req = self.ask(intent)
        a = self.msg(intent, self.answer(intent, f, "c"), parent=False, request=req)
        b = self.msg(intent, self.answer(intent, f, "p"), parent=True, request=req)
        self.add("semantic", True, "same_turn", [req], a, b, tier="semantic")

    # --- negatives ------------------------------------------------------------------------------

    def different_facts(self) -> None:
        intent, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        g = change_one_fact(self.rng, intent, f)
        req = self.ask(intent)
        a = self.msg(intent, self.answer(intent, f, "c"), parent=False, request=req)
        kind = self.rng.choice(["c", "c", "l"])
        if self.rng.random() < 0.5:
            b = self.msg(intent, self.answer(intent, g, kind), parent=True, request=req)
            self.add("different_facts", False, "same_turn", [req], a, b, different_facts=True)
        else:
            y = self.other_intent(intent)
            text = f"{self.answer(intent, g, kind)} {self.answer(y, sample_facts(self.rng))}"
            b = self.msg(None, text, parent=True, request=None)
            self.add(
                "different_facts",
                False,
                "cross_turn",
                [req, self.ask(y)],
                a,
                b,
                different_facts=True,
            )

    def sibling(self) -> None:
        intent = self.rng.choice(list(SIBLINGS))
        f = sample_facts(self.rng)
        sib = self.rng.choice(SIBLINGS[intent]).format(**f)
        req = self.ask(intent)
        a = self.msg(intent, self.answer(intent, f, "c"), parent=False, request=req)
        b = self.msg(intent, sib, parent=self.rng.random() < 0.5, request=None)
        self.add("different_answer", False, "same_turn", [req], a, b)

    def two_requests(self) -> None:
        x, y = self.rng.sample(list(TEMPLATES), 2)
        f = sample_facts(self.rng)
        req_x, req_y = self.ask(x), self.ask(y)
        a = self.msg(x, self.answer(x, f), parent=False, request=req_x)
        b = self.msg(y, self.answer(y, f), parent=AGENT[y] == "helpdesk", request=req_y)
        self.add("different_request", False, "same_turn", [f"{req_x} and also {req_y}"], a, b)

    def asked_again(self) -> None:
        intent, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        first, second = self.rng.sample(self.utterances[intent], 2)
        if self.rng.random() < 0.3:
            second = self.rng.choice(["sorry, ", "wait, ", ""]) + second + " again"
        a = self.msg(intent, self.answer(intent, f, "c"), parent=False, request=first)
        b = self.msg(
            intent,
            self.answer(intent, f, self.rng.choice(["c", "l"])),
            parent=False,
            request=second,
        )
        self.add("asked_again", False, "cross_turn", [first, second], a, b)

    def closers_cross_turn(self) -> None:
        x, y = self.rng.sample([i for i in TEMPLATES if AGENT[i] != "helpdesk"], 2)
        f, g = sample_facts(self.rng), sample_facts(self.rng)
        closer = self.rng.choice(CLOSERS)
        a_text = self.rng.choice([closer, f"{self.answer(x, f)} {closer}"])
        b_text = self.rng.choice([closer, f"{self.answer(y, g)} {self.rng.choice(CLOSERS)}"])
        a = self.msg(None, a_text, parent=True, request=None)
        b = self.msg(None, b_text, parent=True, request=None)
        self.add("boilerplate_cross_turn", False, "cross_turn", [self.ask(x), self.ask(y)], a, b)

    def holding(self) -> None:
        intent, f = self.rng.choice(list(TEMPLATES)), sample_facts(self.rng)
        req = self.ask(intent)
        a = self.msg(
            None, self.rng.choice(HOLDING).format(topic=TOPIC[intent]), parent=True, request=None
        )
        b = self.msg(intent, self.answer(intent, f), parent=False, request=req)
        self.add("holding", False, "same_turn", [req], a, b)


PLAN = [
    ("exact", 30),
    ("near", 40),
    ("containment", 45),
    ("cross_turn", 30),
    ("closers_same_turn", 12),
    ("paraphrase", 30),
    ("different_facts", 60),
    ("sibling", 45),
    ("two_requests", 30),
    ("asked_again", 30),
    ("closers_cross_turn", 15),
    ("holding", 20),
]


def build(split: str, seed: int) -> list[dict[str, Any]]:
    data = json.loads((HERE / "clinc150" / "work.json").read_text(encoding="utf-8"))
    builder = Builder(random.Random(seed), data[split], [])
    for method, count in PLAN:
        for _ in range(count):
            getattr(builder, method)()
    handwritten = HERE / "handwritten.jsonl"
    if split == "test" and handwritten.exists():
        for line in handwritten.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                record["id"] = f"h{len(builder.pairs) + 1:03d}"
                builder.pairs.append(record)
    return builder.pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=["train", "val", "test"])
    parser.add_argument("--seed", type=int, default=150)
    parser.add_argument("--out", type=Path, default=HERE / "pairs.jsonl")
    args = parser.parse_args()
    pairs = build(args.split, args.seed)
    args.out.write_text(
        "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs), encoding="utf-8"
    )
    positives = sum(p["label"] for p in pairs)
    print(
        f"{len(pairs)} pairs ({positives} duplicates, {len(pairs) - positives} not) -> {args.out}"
    )


if __name__ == "__main__":
    main()

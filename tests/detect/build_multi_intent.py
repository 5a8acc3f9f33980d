"""Build the labelled multi-intent set from CLINC150's single-request utterances.

Real user text, joined the ways people write several requests into one message: "and", a comma
list, "also", "plus", "as well as", "and then", several questions or sentences, and a verb or frame
said once for two objects ("what is my credit limit and my routing number"). Every message keeps
its gold requests (the utterances it was built from, their intent and the agent the intent
belongs to) and, for the mutation test, an answer to each request built from CLINC's ``val`` split
(so the bot's words are never the user's verbatim).

- ``dev.jsonl`` is built from the ``train`` split: develop and tune on it.
- ``test.jsonl`` is built from the ``test`` split: report on it, never tune on it.

Deterministic (a fixed seed per split)::

    .venv/bin/python -m tests.detect.build_multi_intent

CLINC150: Larson et al., "An Evaluation Dataset for Intent Classification and Out-of-Scope
Prediction", EMNLP 2019, CC-BY-3.0.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# shared/ sits beside the clone (in CI, and beside the main checkout for a worktree under wt/).
CLINC = next(
    (
        p / "shared" / "data" / "clinc150" / "data_full.json"
        for p in (ROOT.parent, ROOT.parent.parent)
        if (p / "shared" / "data" / "clinc150").is_dir()
    ),
    ROOT.parent / "shared" / "data" / "clinc150" / "data_full.json",
)
OUT = ROOT / "tests" / "fixtures" / "multi_intent"

# A helpdesk-like set of agents over CLINC150 intents (docs/journal/simulate.md shows the same
# table).
AGENTS: dict[str, tuple[str, ...]] = {
    "pto": ("pto_balance", "pto_used", "pto_request", "pto_request_status", "next_holiday"),
    "payroll": ("payday", "w2", "taxes", "income", "direct_deposit", "rollover_401k"),
    "benefits": ("insurance", "insurance_change"),
    "calendar": (
        "meeting_schedule",
        "schedule_meeting",
        "calendar",
        "calendar_update",
        "reminder",
        "reminder_update",
        "todo_list",
        "todo_list_update",
        "alarm",
        "timer",
    ),
    "travel": (
        "plug_type",
        "travel_notification",
        "translate",
        "flight_status",
        "international_visa",
        "timezone",
        "exchange_rate",
        "travel_suggestion",
        "travel_alert",
        "vaccines",
        "lost_luggage",
        "book_flight",
        "book_hotel",
        "carry_on",
        "car_rental",
    ),
    "banking": (
        "freeze_account",
        "routing",
        "pin_change",
        "bill_due",
        "pay_bill",
        "account_blocked",
        "interest_rate",
        "min_payment",
        "bill_balance",
        "transfer",
        "order_checks",
        "balance",
        "spending_history",
        "transactions",
        "report_fraud",
    ),
    "cards": (
        "replacement_card_duration",
        "expiration_date",
        "damaged_card",
        "improve_credit_score",
        "report_lost_card",
        "card_declined",
        "credit_limit_change",
        "apr",
        "redeem_rewards",
        "credit_limit",
        "rewards_balance",
        "application_status",
        "credit_score",
        "new_card",
        "international_fees",
    ),
}
AGENT_OF = {intent: agent for agent, intents in AGENTS.items() for intent in intents}

DESCRIPTIONS = {
    "pto": "Paid time off: vacation days left and used, PTO requests and their status, holidays.",
    "payroll": "Pay: paydays, W-2 tax forms, taxes, income, direct deposit, 401k rollovers.",
    "benefits": "Health insurance: the plan an employee is on, its benefits, changing plans.",
    "calendar": "Meetings, the calendar, reminders, to-do lists, alarms and timers.",
    "travel": "Business travel: flights, hotels, rental cars, lost luggage, visas, currencies.",
    "banking": "The bank account: balance, transfers, bills, routing number, fraud, checks.",
    "cards": "Credit cards: limits, rewards, APR, lost or declined cards, credit score.",
}
EXAMPLES_PER_INTENT = 3
"""Examples each agent card gets per intent, from the train split (the planner baseline)."""

SIZE = 600
SEEDS = {"dev": 2501, "test": 2502}
SOURCE = {"dev": "train", "test": "test"}

_QUESTION_START = frozenset(
    [
        "what",
        "what's",
        "whats",
        "when",
        "when's",
        "where",
        "where's",
        "who",
        "who's",
        "which",
        "why",
        "how",
        "how's",
        "is",
        "are",
        "am",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "will",
        "would",
        "should",
        "may",
        "have",
        "has",
    ]
)
_DETERMINERS = frozenset(
    ["my", "the", "a", "an", "your", "our", "this", "that", "these", "those", "his", "her", "their"]
)
_AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "am",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "will",
        "would",
        "should",
        "may",
    ]
)
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "me",
        "i",
        "is",
        "are",
        "do",
        "does",
        "did",
        "can",
        "could",
        "will",
        "would",
        "to",
        "of",
        "for",
        "in",
        "on",
        "at",
        "and",
        "or",
        "what",
        "how",
        "when",
        "where",
        "which",
        "there",
        "any",
        "i'm",
        "i'd",
        "you",
        "your",
        "it",
        "be",
        "have",
        "has",
        "please",
        "tell",
        "much",
        "many",
        "this",
        "that",
    ]
)


def _is_question(utterance: str) -> bool:
    return utterance.split()[0] in _QUESTION_START


def _sentence(utterance: str) -> str:
    return utterance[0].upper() + utterance[1:] + ("?" if _is_question(utterance) else ".")


def _end(utterance: str) -> str:
    return utterance + ("?" if _is_question(utterance) else "")


def _join(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """One message made of ``parts`` (2-4 utterances) and the name of the shape used."""
    a, b = parts[0], parts[1]
    if len(parts) == 2:
        shape = rng.choice(
            ["and", "comma_and", "also", "plus", "as_well_as", "and_then", "sentences"]
        )
        text = {
            "and": lambda: f"{a} and {_end(b)}",
            "comma_and": lambda: f"{a}, and {_end(b)}",
            "also": lambda: rng.choice(
                [f"{_sentence(a)} Also, {_end(b)}", f"{a}, also {_end(b)}", f"{a} and also {b}"]
            ),
            "plus": lambda: rng.choice([f"{a}, plus {_end(b)}", f"{_sentence(a)} Plus, {_end(b)}"]),
            "as_well_as": lambda: f"{a}, as well as {_end(b)}",
            "and_then": lambda: f"{a} and then {_end(b)}",
            "sentences": lambda: f"{_sentence(a)} {_sentence(b)}",
        }[shape]()
        return text, shape
    shape = rng.choice(["list", "list_oxford", "list_plus", "and_also", "sentences"])
    head, last = parts[:-1], parts[-1]
    text = {
        "list": lambda: ", ".join(head) + f" and {_end(last)}",
        "list_oxford": lambda: ", ".join(head) + f", and {_end(last)}",
        "list_plus": lambda: ", ".join(head) + f", plus {_end(last)}",
        "and_also": lambda: " and ".join(head) + f". Also, {_end(last)}",
        "sentences": lambda: " ".join(_sentence(p) for p in parts),
    }[shape]()
    return text, shape


def _shared_frame_pairs(pool: dict[str, list[str]]) -> list[tuple[str, str, str, str, int]]:
    """Pairs (intent a, utterance a, intent b, utterance b, frame length) of different intents
    whose utterances share a leading frame ("what is", "tell me") that ends before a determiner
    in both: said once, the frame carries over to the second object."""
    by_frame: dict[tuple[str, ...], list[tuple[str, str]]] = defaultdict(list)
    for intent, utterances in pool.items():
        for u in utterances:
            words = u.split()
            for k in range(1, min(4, len(words) - 1)):
                if words[0] in _AUXILIARIES:
                    break  # "is my ... and my ..." asks one yes/no question
                if words[k] in _DETERMINERS and not (_DETERMINERS & set(words[:k])):
                    by_frame[tuple(words[:k])].append((intent, u))
                    break
    pairs = []
    for frame, items in sorted(by_frame.items()):
        for i, (ia, ua) in enumerate(items):
            for ib, ub in items[i + 1 :]:
                if ia != ib and " and " not in ua and " and " not in ub:
                    pairs.append((ia, ua, ib, ub, len(frame)))
    return pairs


def _content(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in _STOP}


def _answers(val: dict[str, list[str]]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Per intent: the val utterances (to echo the user's topic in other words) and one fixed
    answer in the bot's own terms (the intent's three most frequent val content words)."""
    own: dict[str, str] = {}
    for intent, utterances in val.items():
        counts = Counter(w for u in utterances for w in _content(u))
        top = sorted(counts, key=lambda w: (-counts[w], w))[:3]
        own[intent] = f"Here is your {' '.join(top)} information."
    return val, own


def _echo(request: str, paraphrases: Sequence[str]) -> str:
    """A bot answer that restates the request's topic with another user's words (the val
    utterance of the same intent sharing most content words with it)."""
    words = _content(request)
    best = max(paraphrases, key=lambda p: len(words & _content(p)) / (1 + len(_content(p))))
    return f'About "{best}": here is what I found.'


def build(split: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    rng = random.Random(SEEDS[split])
    pool: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data[SOURCE[split]]:
        if intent in AGENT_OF:
            pool[intent].append(" ".join(utterance.replace("’", "'").split()))
    val: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["val"]:
        if intent in AGENT_OF:
            val[intent].append(" ".join(utterance.replace("’", "'").split()))
    paraphrases, own = _answers(val)
    intents = sorted(pool)
    frames = _shared_frame_pairs(pool)
    rng.shuffle(frames)
    messages: list[dict[str, Any]] = []
    for index in range(SIZE):
        if index % 10 == 9 and frames:  # one message in ten says a frame once
            ia, ua, ib, ub, k = frames.pop()
            text = f"{ua} and {' '.join(ub.split()[k:])}"
            shape, chosen = "shared_frame", [(ia, ua), (ib, ub)]
        else:
            n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
            if rng.random() < 0.25:  # two requests for one agent
                agent = rng.choice([a for a, its in AGENTS.items() if len(its) >= 2])
                names = rng.sample(sorted(AGENTS[agent]), 2)
                rest = [i for i in intents if i not in names]
                names += rng.sample(rest, n - 2)
                rng.shuffle(names)
            else:
                names = rng.sample(intents, n)
            chosen = [(i, rng.choice(pool[i])) for i in names]
            text, shape = _join([u for _, u in chosen], rng)
        messages.append(
            message_record(f"{split}-{index + 1:04d}", text, shape, chosen, paraphrases, own)
        )
    return messages


def message_record(
    ident: str,
    text: str,
    shape: str,
    chosen: Sequence[tuple[str, str]],
    paraphrases: dict[str, list[str]],
    own: dict[str, str],
) -> dict[str, Any]:
    """One labelled message: its text, how it was joined, and each (intent, utterance) request
    with its agent and a templated answer."""
    return {
        "id": ident,
        "text": text,
        "shape": shape,
        "requests": [
            {
                "text": u,
                "intent": i,
                "agent": AGENT_OF[i],
                "answer": _echo(u, paraphrases[i]),
                "answer_own_terms": own[i],
            }
            for i, u in chosen
        ],
    }


def agent_cards(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The helpdesk-like agents for the planner baseline: a description and the first few
    train utterances of each of their intents as routing examples."""
    train: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["train"]:
        train[intent].append(" ".join(utterance.replace("’", "'").split()))
    return [
        {
            "name": agent,
            "description": DESCRIPTIONS[agent],
            "examples": [u for i in intents for u in train[i][:EXAMPLES_PER_INTENT]],
        }
        for agent, intents in AGENTS.items()
    ]


def main() -> None:
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    cards = json.dumps(agent_cards(data), indent=1, ensure_ascii=False) + "\n"
    (OUT / "agents.json").write_text(cards, encoding="utf-8")
    for split in SEEDS:
        lines = [json.dumps(m, ensure_ascii=False) + "\n" for m in build(split, data)]
        (OUT / f"{split}.jsonl").write_text("".join(lines), encoding="utf-8")
        print(f"{split}: {len(lines)} messages -> {OUT / f'{split}.jsonl'}")


if __name__ == "__main__":
    main()

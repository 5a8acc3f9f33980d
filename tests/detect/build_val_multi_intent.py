"""Build ``val.jsonl``: a held-out routing set from CLINC150's ``val`` split, built blind.

The earlier held-out routing sets (``test.jsonl`` from CLINC test, ``sgd-dev.jsonl``) were looked at
while the offline planner was tuned, so they no longer measure it cleanly. This set is made of
utterances no routing figure had used: CLINC150's ``val`` split (20 utterances for each intent).
Before it, ``val`` utterances appeared in the repository only as the *answers* of the other sets
(``build_multi_intent._answers``) and in the raw copy ``tests/simulate/calibration/clinc150/work.json``;
none was a request of any set. Its builder did not read the planner's code, its concept table or its
routing docs, and fixed everything below before the planner was run on the set once.

Each message joins 2-4 ``val`` utterances (2, 3 or 4 in the ratio 5:3:2, as the other sets) of the
intents :data:`~tests.detect.build_multi_intent.AGENT_OF` gives an agent (the same seven helpdesk-like
agents as ``agents.json``). In one message in four two of the requests are for one agent (two of its
intents). Each intent's utterances are dealt from a shuffled deck, so none is used again before all
of its intent's are used (1,305 of the 1,359 appear, none more than three times; one ``val``
utterance that is also a ``train`` utterance is left out).

How the requests are joined, and why. The styles come from how people ask for two or more things in
one turn in Schema-Guided Dialogue's **train** user turns (6,245 turns whose dialogue acts hold two
or more ``REQUEST`` / ``INFORM_INTENT`` acts; counted 2026-12-02): "and" in 62.8 % of them, two or
more sentences 56.7 %, two or more questions 34.4 %, a comma 25.1 %, "also" 5.9 %, "and also"
0.9 %, "as well as" 0.8 %, "oh" 0.4 %, "too" 0.3 %, "as well" 0.3 %, "by the way" 0.2 %, "&" and
"plus" a few each; and from issue 25's list (commas, "and", "also", "plus", "as well as", several
questions, a lead-in, two requests for one agent). Each join between two requests draws one of
:data:`JOINS` by its weight: the weights follow the SGD counts, with a floor of a few percent for the
styles the issue names that SGD's crowd workers rarely used ("plus", "as well as"). One message in
five opens with a lead-in from :data:`LEAD_INS`: the openings of those SGD turns ("can you" 326
times, "great" 55, "okay" 54, "please" 48, "could you" 33, "ok" 32, "thanks" 24, "I have some
questions;") and greetings. A message that has a sentence break or a sentence lead-in is written in
sentences (capital first letter, each closed part ends with "?" when it is a question, else "."); a
run-on message ends its last request with "?" (when it is a question) half of the time, as people
often leave it out. The list was written before the planner was run on the set.

Gold requests per message: the ``val`` utterances it was joined from, their intent and agent. Each
also carries an answer built as ``build_multi_intent`` builds them but from the ``train`` split
(another user's words for the same intent; the intent's three most frequent words), so the set can
serve the missed-request check too. Deterministic (one seed)::

    .venv/bin/python -m tests.detect.build_val_multi_intent

CLINC150: Larson et al., "An Evaluation Dataset for Intent Classification and Out-of-Scope
Prediction", EMNLP 2019, CC-BY-3.0. SGD (counted for the joining styles only, none of its text is in
the set): Rastogi et al., AAAI 2020, CC BY-SA 4.0.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tests.detect.build_multi_intent import (
    AGENT_OF,
    AGENTS,
    CLINC,
    OUT,
    _answers,
    _is_question,
    message_record,
)

SEED = 3501
SIZE = 600
SAME_AGENT = 0.25
"""The share of messages with two requests for one agent."""
LEAD_IN = 0.2
"""The share of messages that open with a lead-in."""

# How the text so far ("{a}" open, "{a_closed}" ended with "?" or ".") is joined to the next
# request ("{b}" as written, "{B}" with a capital): name, template, weight.
JOINS: tuple[tuple[str, str, int], ...] = (
    ("and", "{a} and {b}", 18),
    ("comma_and", "{a}, and {b}", 7),
    ("comma", "{a}, {b}", 10),
    ("sentences", "{a_closed} {B}", 20),
    ("sentence_and", "{a_closed} And {b}", 5),
    ("sentence_also", "{a_closed} Also, {b}", 4),
    ("comma_also", "{a}, also {b}", 2),
    ("and_also", "{a} and also {b}", 2),
    ("plus", "{a}, plus {b}", 3),
    ("sentence_plus", "{a_closed} Plus, {b}", 2),
    ("as_well_as", "{a}, as well as {b}", 3),
    ("bare_as_well_as", "{a} as well as {b}", 2),
    ("oh_and_also", "{a}, oh and also {b}", 1),
    ("by_the_way", "{a} and by the way {b}", 1),
    ("too", "{a}, and {b} too", 1),
    ("as_well", "{a} and {b} as well", 1),
    ("ampersand", "{a} & {b}", 1),
)

# Openings: the text, and whether it is a sentence of its own (the message then starts a new one).
LEAD_INS: tuple[tuple[str, bool], ...] = (
    ("Hi,", False),
    ("Hello,", False),
    ("Hey,", False),
    ("Okay,", False),
    ("Ok,", False),
    ("Great,", False),
    ("Thanks,", False),
    ("I have some questions;", False),
    ("Quick questions:", False),
    ("A couple of things:", False),
    ("Please help me with these:", False),
    ("I have a few questions.", True),
    ("Can you help me with a few things?", True),
    ("Could you help me with something?", True),
)


def _normal(utterance: str) -> str:
    return " ".join(utterance.replace("’", "'").split())


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def join(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """``parts`` (2-4 utterances) joined into one message, and its shape (the lead-in, if any,
    and the joins' names)."""
    names = []
    sentence = False
    text = parts[0]
    for previous, part in itertools.pairwise(parts):
        name, template, _ = rng.choices(JOINS, weights=[w for _, _, w in JOINS])[0]
        names.append(name)
        sentence = sentence or "{a_closed}" in template
        text = template.format(
            a=text,
            a_closed=text + ("?" if _is_question(previous) else "."),
            b=part,
            B=_capital(part),
        )
    lead = ""
    if rng.random() < LEAD_IN:
        lead, own_sentence = LEAD_INS[rng.randrange(len(LEAD_INS))]
        sentence = sentence or own_sentence
        names.insert(0, "lead_in")
    last = parts[-1]
    if sentence or rng.random() < 0.5:
        if _is_question(last) and not text.endswith("?"):
            text += "?"
        elif sentence and not text.endswith(("?", ".")):
            text += "."
    if sentence:
        text = _capital(text)
    if lead:
        text = f"{lead} {text}"
    return text, "+".join(names)


def _pools(data: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Per intent with an agent: the ``val`` utterances no other split has, and the ``train`` ones."""
    elsewhere = {_normal(u) for split in ("train", "test") for u, _ in data[split]}
    val: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["val"]:
        text = _normal(utterance)
        if intent in AGENT_OF and text not in elsewhere:
            val[intent].append(text)
    train: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["train"]:
        if intent in AGENT_OF:
            train[intent].append(_normal(utterance))
    return val, train


def build(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The set's messages from CLINC150's ``data_full.json``."""
    rng = random.Random(SEED)
    pool, train = _pools(data)
    paraphrases, own = _answers(train)
    return compose(pool, rng, size=SIZE, prefix="val", paraphrases=paraphrases, own=own)


def compose(
    pool: dict[str, list[str]],
    rng: random.Random,
    *,
    size: int,
    prefix: str,
    paraphrases: dict[str, list[str]],
    own: dict[str, str],
) -> list[dict[str, Any]]:
    """``size`` messages of 2-4 requests (5:3:2) drawn from ``pool`` (utterances by intent, each
    dealt once before any is dealt again), two of them for one agent in ``SAME_AGENT`` of the
    messages, joined by :func:`join`; ids ``PREFIX-0001`` on."""
    intents = sorted(pool)
    decks: dict[str, list[str]] = {i: [] for i in intents}

    def deal(intent: str) -> str:
        if not decks[intent]:
            decks[intent] = list(pool[intent])
            rng.shuffle(decks[intent])
        return decks[intent].pop()

    messages = []
    for index in range(size):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        if rng.random() < SAME_AGENT:
            agent = rng.choice(sorted(a for a, its in AGENTS.items() if len(its) >= 2))
            names = rng.sample(sorted(AGENTS[agent]), 2)
            names += rng.sample([i for i in intents if i not in names], n - 2)
            rng.shuffle(names)
        else:
            names = rng.sample(intents, n)
        chosen = [(i, deal(i)) for i in names]
        text, shape = join([u for _, u in chosen], rng)
        messages.append(
            message_record(f"{prefix}-{index + 1:04d}", text, shape, chosen, paraphrases, own)
        )
    return messages


def render(messages: Sequence[dict[str, Any]]) -> str:
    """The set as the committed file's text (one JSON object a line)."""
    return "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages)


def main() -> None:
    messages = build(json.loads(CLINC.read_text(encoding="utf-8")))
    (OUT / "val.jsonl").write_text(render(messages), encoding="utf-8")
    print(f"val: {len(messages)} messages -> {OUT / 'val.jsonl'}")


if __name__ == "__main__":
    main()

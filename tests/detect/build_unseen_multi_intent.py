"""Build ``unseen.jsonl``: a multi-intent set nobody working on the planner or the check has seen.

Every set before it had its errors read, or its sources are the planner's or the check's fitting
data, so none can measure session 37's planner and check changes cleanly. This one is built from
source utterances no other set uses as a request, by a builder that did not read the planner's or
the check's code or docs, with every joining style below written down before the set was first
measured (once, aggregates only; figures at the end of this docstring).

Sources (each request's text compared with every request and message text of every other file
in ``tests/fixtures/multi_intent``; ``test_unseen_multi_intent.py`` checks it):

- **CLINC150** ``val`` and ``test`` utterances of the intents
  :data:`~tests.detect.build_multi_intent.AGENT_OF` gives an agent (the seven helpdesk-like agents
  of ``agents.json``) that no set uses and that are not ``train`` utterances (``train`` feeds the
  dev sets and the agents' routing examples). Only 141 are left (54 ``val``, 87 ``test``), so each
  is dealt two or three times, in different messages. Answers as ``build_val_multi_intent``: another
  user's words for the intent and the intent's three most frequent words, both from ``train``.
- **Schema-Guided Dialogue dev** user turns that open one task (as ``build_fresh_multi_intent``:
  one ``REQUEST`` or ``INFORM_INTENT`` act, no reply act, one sentence, not opening as a reply)
  and that point back at nothing said before (:data:`_POINTS_BACK`, narrower than the fresh
  builder's list so that "this month" and "is there" stay in), at most 160 characters, each with
  the real system turn that followed it as ``answer`` (as ``holdout.jsonl``). The agent is the
  service's domain, as in ``sgd-dev`` and ``holdout``; ``Alarm`` is left out (SGD train has no
  alarm dialogue to take routing examples from). The planner routes these over
  ``agents-sgd.json``: one card per domain, a description written here and the first
  :data:`EXAMPLES` request turns of the domain from SGD **train** (never dev).

A message is all CLINC (``unseen-clinc-NNNN``, over ``agents.json``) or all SGD
(``unseen-sgd-NNNN``, ``"agents": "agents-sgd"``). It has 2, 3 or 4 requests (65 : 25 : 10); in
:data:`SAME_AGENT` of the messages two of them are for one agent (two intents of one agent; for
SGD, two turns of one domain asking different things). Each source utterance is dealt from a
shuffled deck, so none is used again before all of its pool are. A request's ``source`` is the
utterance as the data set has it; its ``text`` is the same unless the message was written with a
typo in it, then ``text`` is the request as written.

How the requests are joined (written before the set was built or measured): a message takes a
layout (:data:`LAYOUTS`): run on, joining each request to the next by one of :data:`JOINS`;
several questions or sentences, one after another; a numbered list (``1.`` / ``1)``, one a line or
on one line); a bulleted list (``-``, ``*``, ``•``); one request a line. A quarter open with a
lead-in (:data:`LEAD_INS`, some counting the requests), one in ten ends with a thank-you
(:data:`CLOSERS`), one run-on message in six is written all lower case without punctuation, and one
message in ten has one typo (two letters of a longer word swapped, or one left out).

Deterministic (one seed)::

    .venv/bin/python -m tests.detect.build_unseen_multi_intent

CLINC150: Larson et al., EMNLP 2019, CC-BY-3.0. SGD: Rastogi et al., AAAI 2020, CC BY-SA 4.0 (the
SGD user and system turns in ``unseen.jsonl`` and ``agents-sgd.json`` are shared under it).

Measured once, aggregates only, no single error read (2026-12-02 17:19 UTC, load 3.8-4.5, branch
``s37-unseen`` at 3f82be1: main 337ba73's planner and check; ``[clinc]`` / ``[sgd]``: the same
figures over the messages of one source):

- ``planner_baseline.routing("unseen")``: 1,542 requests, routed right 1,095 (71.0 %), in no plan
  entry 10, merged 414, messages planned in full 257/630, requests lost 0 (1,455 entries, 153
  covering no request); [clinc] 351/398 (88.2 %), 0, 104, 110/160, 0; [sgd] 744/1,144 (65.0 %),
  10, 310, 147/470, 0 (190 of the SGD messages' 1,070 entries went to the parent).
- the same with ``embeddings=True``: 1,101 (71.4 %), 10, 414, 262/630, 0; [clinc] 356 (89.4 %),
  0, 104, 114/160, 0; [sgd] 745 (65.1 %), 10, 310, 148/470, 0.
- ``multi_intent.mutation("unseen")``: turns with every request answered flagged 115/630
  (18.3 %), one request dropped flagged 1,176/1,542 (76.3 %, the dropped one named in 902), two
  merged 692/912 (75.9 %), one answer replaced by a closer 1,169/1,542 (75.8 %); [clinc] 19/160
  (11.9 %), 359/398 (90.2 %), 211/238 (88.7 %); [sgd] 96/470 (20.4 %), 817/1,144 (71.4 %),
  481/674 (71.4 %).
- ``mutation("unseen", sure=True)``: 11/630 (1.7 %), 382/1,542 (24.8 %, named in 269), 215/912
  (23.6 %), closer 1,073/1,542 (69.6 %); [clinc] 0/160, 167/398 (42.0 %), 96/238 (40.3 %); [sgd]
  11/470 (2.3 %), 215/1,144 (18.8 %), 119/674 (17.7 %).

Measured a second time, aggregates only, no single error read (2026-12-02 18:22 UTC, load 1-2,
the merge of session 37's planner and check branches: the router's focused word weights, the
split's lines, list markers, connectives and run-on openings, the check's bot sentences cut at
joins and its refitted matcher; none of them developed on this set):

- routing: 1,216 routed right (78.9 %), in no plan entry 9, merged 28, in full 362/630, lost 0;
  [clinc] 390/398 (98.0 %), 0, 8, 150/160; [sgd] 826/1,144 (72.2 %), 9, 20, 212/470. With
  ``embeddings=True``: 1,204 (78.1 %), 9, 28, 356/630; [clinc] 392 (98.5 %); [sgd] 812 (71.0 %).
- ``mutation("unseen")``: 104/630 (16.5 %), 1,164/1,542 (75.5 %, named in 896), 683/912 (74.9 %),
  closer 1,158/1,542 (75.1 %); [clinc] 20/160 (12.5 %), 359/398 (90.2 %), 211/238 (88.7 %); [sgd]
  84/470 (17.9 %), 805/1,144 (70.4 %), 472/674 (70.0 %).
- ``mutation("unseen", sure=True)``: 12/630 (1.9 %), 292/1,542 (18.9 %), 172/912 (18.9 %).

A third look at the check only, after the check's segmenter learned list numbers, line breaks,
discourse connectives and announcements before a colon (2026-12-02 19:02 UTC, load 0.5, developed
on ``ways-dev``; merged before this look): ``mutation("unseen")`` 100/630 (15.9 %), 1,217/1,542
(78.9 %, named in 971), 715/912 (78.4 %), closer 1,211/1,542 (78.5 %); ``sure=True`` 10/630
(1.6 %), 305/1,542 (19.8 %), 178/912 (19.5 %).

A fourth look, at both (2026-12-02 23:20 UTC, load 2, aggregates only, session 38's merged code:
the planner's learnt acknowledgements, the check's matcher refitted with real SGD answers and its
report threshold refitted, none developed on this set): routing exactly as at the second look
(1,216, 9, 28, 362/630; [sgd] 826/1,144, 72.2 %); ``mutation("unseen")`` 97/630 (15.4 %),
1,202/1,542 (78.0 %, named in 958), 707/912 (77.5 %), closer 1,189/1,542 (77.1 %); [clinc] 19/160
(11.9 %), 373/398 (93.7 %); [sgd] 78/470 (16.6 %), 829/1,144 (72.5 %); ``sure=True`` 8/630
(1.3 %), 408/1,542 (26.5 %), 233/912 (25.5 %); [clinc] 0/160, 229/398 (57.5 %); [sgd] 8/470
(1.7 %), 179/1,144 (15.6 %).

A fifth look, at both (2026-12-03 05:28 UTC, load under 1, aggregates only, session 39's merged
code: the split's joins and the examples without their acknowledgements, the check's years, yes/no
questions and parts of sentences; none developed on this set). A sixth, routing only, of a branch
trusting the concept table per agent, which the merge then reverted (1,204 routed right, all of
the loss on [sgd]). Routing: 1,217 (78.9 %), 9, merged 32, 362/630, entries covering no request
135 -> 130; [clinc] 390/398 as before; [sgd] 827/1,144 (72.3 %), 9, 24, 212/470. With
``embeddings=True``: 1,205 (78.1 %); [clinc] 392; [sgd] 813. ``mutation("unseen")`` 92/630
(14.6 %), 1,201/1,542 (77.9 %, named in 957), 706/912 (77.4 %), closer 1,188/1,542 (77.0 %);
[clinc] 19/160, 373/398, 219/238; [sgd] 73/470 (15.5 %), 828/1,144 (72.4 %), 487/674;
``sure=True`` 7/630 (1.1 %), 405/1,542 (26.3 %), 231/912 (25.3 %); [clinc] 0/160, 227/398
(57.0 %); [sgd] 7/470 (1.5 %), 178/1,144 (15.6 %).

A seventh look, at both (2026-12-03 06:18 UTC, load 3-5, aggregates only, session 40's merged
code: the split's pronoun objects, "also" and judgements of something named; the check's phone
numbers as one id, kinds asked for, one yes or no for two questions; the scorer refitted; none
developed on this set). Routing: 1,220 (79.1 %), 9, merged 32, 363/630, entries covering no
request 123; [clinc] 390/398 as before; [sgd] 830/1,144 (72.6 %). With ``embeddings=True``: 1,208
(78.3 %). ``mutation("unseen")`` 89/630 (14.1 %), 1,198/1,542 (77.7 %, named in 952), 703/912
(77.1 %), closer 1,185/1,542 (76.8 %); [clinc] 16/160 (10.0 %), 372/398; [sgd] 73/470 (15.5 %),
826/1,144; ``sure=True`` 7/630 (1.1 %), 418/1,542 (27.1 %), 240/912 (26.3 %); [clinc] 0/160,
232/398 (58.3 %); [sgd] 7/470 (1.5 %), 186/1,144 (16.3 %).

An eighth look, at both (2026-12-03 09:01 UTC, load under 2, aggregates only, session 41's merged
code: word pairs in the concept table; the check's segmenter keeping a statement with what it
leads to, its answer units; a new duplicate-scorer feature and refit; none developed on this
set). Routing: 1,246 (80.8 %), 9, merged 32, 382/630, entries covering no request 123; [clinc]
395/398 (99.2 %); [sgd] 851/1,144 (74.4 %). With ``embeddings=True``: 1,240 (80.4 %).
``mutation("unseen")`` 79/630 (12.5 %), 1,196/1,542 (77.6 %, named in 955), 703/912 (77.1 %),
closer 1,183/1,542 (76.7 %); [clinc] 16/160 (10.0 %), 372/398; [sgd] 63/470 (13.4 %), 824/1,144
(72.0 %); ``sure=True`` 6/630 (1.0 %), 426/1,542 (27.6 %), 246/912 (27.0 %); [clinc] 0/160,
238/398 (59.8 %); [sgd] 6/470 (1.3 %), 188/1,144 (16.4 %).

A ninth look (2026-12-03 09:26 UTC, aggregates only, the eighth look's code with the review's
mends to the check's joins and answer units): the same figures but the dropped one named 955 ->
953 and ``sure=True`` drops 426 -> 425.

A tenth look (2026-12-03 11:35-11:43 UTC, load under 2 at the start, aggregates only, session
42's merged code: the check's segmenter reading "+"/"&", titles, scene-setters and look-ups; a
yes/no naming a time; the planner's matcher scaled by each agent's coherence and its split keeping
details and plans with a request; the finding confidence refitted; none developed on this set).
Routing: 1,247 (80.9 %), 9, merged 32, 385/630, entries covering no request 115; [clinc] 395/398;
[sgd] 852/1,144 (74.5 %). With ``embeddings=True``: 1,239 (80.4 %). ``mutation("unseen")``
81/630 (12.9 %), 1,233/1,542 (80.0 %, named in 988), 730/912 (80.0 %), closer 1,220/1,542
(79.1 %); [clinc] 16/160 (10.0 %), 384/398; [sgd] 65/470 (13.8 %), 849/1,144 (74.2 %);
``sure=True`` (the refitted confidence) 13/630 (2.1 %), 722/1,542 (46.8 %), 410/912 (45.0 %);
[clinc] 4/160, 335/398; [sgd] 9/470 (1.9 %), 387/1,144 (33.8 %).

An eleventh look (2026-12-03 12:00-12:06 UTC, aggregates only, the tenth look's code with the
review's fixes to the check's look-up join, titles, closers and the planner's details,
acknowledgements and coherence): every figure the same as the tenth's.

A twelfth look (2026-12-03 13:18-13:34 UTC, aggregates only, helper branch s43-split alone: a
schedule in the present, "I'm thinking" a value, a stated preference, a name before a comma kept
with their request): the planner unchanged (1,247 routed right, 32 merged, 385 of 630 in full).
A thirteenth (13:49 and 14:15 UTC, the lead's looks at session 43's merged code before and after
the review's fixes, the planner): the same. A
fourteenth (14:21 UTC, the same code with the review's fixes, the check): answered turns flagged
81 -> 79, drops found 1,233 -> 1,245, merges 730 -> 737.
A fifteenth and sixteenth (2026-12-03, session 44: the lead's looks at the merged code, 16:22 UTC,
and after the review's mends, 16:50-16:55 UTC; helper branch s44-route alone had looked at
15:47 UTC): the planner unchanged (a statement the scope gate keeps setting a request's scene
does not occur here); the check, with session 44's segmenter: answered turns flagged 79 -> 77,
drops found 1,245 -> 1,264, merges 737 -> 748.
A seventeenth to nineteenth (2026-12-03, session 45: the lead's looks at the merged code, 18:40
UTC, and after the review's mends, 19:03 UTC for the check and 19:15 UTC for the planner;
s45-plan alone had looked at 18:32 UTC): the planner, with a schedule, place or time fragment
after a request joined to it, 1,247 -> 1,251 routed right, in no plan entry 9 -> 6, 385 of 630 in
full; the check, with session 45's segmenter: answered turns flagged 77 -> 78, drops found 1,264
-> 1,262, merges 748 -> 746.
A twentieth (2026-12-03, session 46: s46-plan's look at 20:48 UTC, the lead's at the merged code,
21:22 UTC): the planner unchanged (conditions and narrowing searches joined to the request before
them); the check, with session 46's segmenter: answered turns flagged 78 -> 76, drops and merges
the same.
``test_unseen_multi_intent.py`` holds the twentieth look's figures as floors.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from harness.text import split_sentences
from tests.detect.build_fresh_multi_intent import SGD, _clause
from tests.detect.build_multi_intent import (
    AGENT_OF,
    CLINC,
    OUT,
    _answers,
    _is_question,
    message_record,
)

SEED = 3701
CLINC_MESSAGES = 160
SGD_MESSAGES = 470
SIZES = ((2, 65), (3, 25), (4, 10))
SAME_AGENT = 0.25
LEAD_IN = 0.25
CLOSER = 0.1
PLAIN = 1 / 6
"""The share of run-on messages written all lower case without punctuation."""
TYPO = 0.1
EXAMPLES = 4
"""Routing examples per SGD domain card."""
MAX_LENGTH = 160
NAME = "unseen"
OTHERS = (
    "dev",
    "test",
    "val",
    "fresh",
    "holdout",
    "own",
    "styled",
    "sgd-train",
    "sgd-dev",
    "sgd-real-train",
    "sgd-real-dev",
)
"""The other multi-intent files, whose requests and messages this set must not reuse."""

# Written before the set was built. "{a}": the text so far, open; "{a_closed}": the same ended
# with "?" (a question) or "."; "{b}": the next request; "{B}": the same with a capital.
JOINS: tuple[str, ...] = (
    "{a}, {b}",
    "{a} and {b}",
    "{a}, and {b}",
    "{a_closed} Also, {b}",
    "{a}, also {b}",
    "{a} also {b}",
    "{a}, and also {b}",
    "{a}, plus {b}",
    "{a} plus {b}",
    "{a_closed} Plus {b}",
    "{a}, as well as {b}",
    "{a} as well as {b}",
    "{a_closed} And {b}",
    "{a}; {b}",
    "{a_closed} {B}",
    "{a} and then {b}",
    "{a_closed} Oh and {b}",
    "{a_closed} One more thing, {b}",
    "{a_closed} Then {b}",
    "{a} & {b}",
    "{a_closed} Additionally, {b}",
    "{a} + {b}",
    "{a} - {b}",
    "{a_closed} Another thing: {b}",
    "{a_closed} Secondly, {b}",
    "{a}... {b}",
    "{a} n {b}",
    "{a} and {b} too",
)
LAYOUTS: tuple[tuple[str, int], ...] = (
    ("run_on", 50),
    ("sentences", 15),
    ("numbered", 10),
    ("numbered_inline", 4),
    ("bullets", 10),
    ("lines", 11),
)
LEAD_INS: tuple[str, ...] = (
    "Hi, quick ones:",
    "Hey,",
    "Hello!",
    "Hi there, I have a few questions.",
    "A few things:",
    "Couple of questions.",
    "Need help with a few things:",
    "{n} things:",
    "{n} questions for you:",
    "Quick questions -",
    "Good morning.",
    "Can you help me with the following?",
    "ok so",
)
CLOSERS: tuple[str, ...] = ("Thanks!", "Thank you.", "thx", "Appreciate it.", "Thanks in advance.")
_COUNT = {2: "Two", 3: "Three", 4: "Four"}

# A turn that points back at something said before is no request on its own ("what is their
# address?", "book it again", "what genre is that"): "this" and "that" unless in "this month" and
# the like; "there" as a place ("a cab to get there"), not "is there".
_POINTS_BACK = re.compile(
    r"\b(?:it|its|it's|they|them|their|theirs|he|him|his|she|her|same|again|also|too|another|"
    r"other|those|these|one|ones|else|instead|then)\b|"
    r"(?<!\bis )(?<!\bare )(?<!\bany )\bthere\b(?!\s+(?:is|are|was|were)\b)|"
    r"\b(?:this|that)\b(?!\s+(?:month|week|weekend|year|morning|afternoon|evening|time|city)\b)",
    re.IGNORECASE,
)
_REPLY_START = re.compile(
    r"^(?:yes|yeah|yep|no|nope|ok|okay|sure|great|thanks|thank|perfect|cool|alright|fine|oh|hmm|um|"
    r"well|so)\b",
    re.IGNORECASE,
)
_REPLIES = frozenset(
    ["AFFIRM", "NEGATE", "THANK_YOU", "GOODBYE", "SELECT", "AFFIRM_INTENT", "NEGATE_INTENT"]
)

SGD_DESCRIPTIONS = {
    "Banks": "Bank accounts: balances of checking and savings accounts, money transfers.",
    "Buses": "Intercity buses: finding bus trips between cities and buying bus tickets.",
    "Calendar": "The user's calendar: events on a date, free time, adding events.",
    "Events": "Concerts, sports games and shows: finding events and buying tickets.",
    "Flights": "Air travel: finding one-way and round-trip flights and booking them.",
    "Homes": "Renting or buying a home: finding apartments and scheduling property visits.",
    "Hotels": "Hotels and house stays: finding places to stay and reserving rooms.",
    "Media": "Online movies to stream: finding films and playing them.",
    "Movies": "Movies at the cinema: showtimes, theaters and movie tickets.",
    "Music": "Songs and albums: finding music and playing it on a device.",
    "RentalCars": "Rental cars: finding cars to pick up and reserving them.",
    "Restaurants": "Restaurants: finding places to eat and booking tables.",
    "RideSharing": "Taxis and ride sharing: booking a cab or a shared ride to a place.",
    "Services": "Appointments with salons, dentists, doctors and therapists: finding and booking.",
    "Travel": "Tourist attractions: museums, parks and sights to visit in a city.",
    "Weather": "The weather forecast for a city on a date.",
}


def _normal(text: str) -> str:
    return " ".join(text.replace("’", "'").split())


def used_elsewhere() -> set[str]:
    """Every request and message text of the other multi-intent files."""
    used: set[str] = set()
    for name in OTHERS:
        for line in (OUT / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            message = json.loads(line)
            used.add(_normal(message["text"]))
            used.update(_normal(r["text"]) for r in message["requests"])
    return used


def clinc_pool(data: dict[str, Any], used: set[str]) -> dict[str, list[str]]:
    """Per intent with an agent: its ``val`` and ``test`` utterances no set uses, not in ``train``."""
    train = {_normal(u) for u, _ in data["train"]}
    pool: dict[str, list[str]] = defaultdict(list)
    seen: set[str] = set()
    for split in ("val", "test"):
        for utterance, intent in data[split]:
            text = _normal(utterance)
            if intent in AGENT_OF and text not in used and text not in train and text not in seen:
                seen.add(text)
                pool[intent].append(text)
    return dict(pool)


def _dialogues(split: str) -> Iterator[dict[str, Any]]:
    with gzip.open(SGD / f"sgd-{split}.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def sgd_turns(split: str) -> Iterator[tuple[str, str, str, str]]:
    """(domain, what it asks for, user turn, the system turn that followed) for every user turn
    of ``split`` that opens one task on its own."""
    for dialogue in _dialogues(split):
        for user, system in itertools.pairwise(dialogue["turns"]):
            if user["speaker"] != "USER" or system["speaker"] != "SYSTEM":
                continue
            acts = [a for frame in user["frames"] for a in frame["actions"]]
            names = [a[0] for a in acts]
            asks = [a for a in acts if a[0] in ("REQUEST", "INFORM_INTENT")]
            if set(names) & _REPLIES or len(asks) != 1:
                continue
            text = _normal(user["text"])
            if (
                len(text) > MAX_LENGTH
                or len(split_sentences(text)) != 1
                or _POINTS_BACK.search(text)
                or _REPLY_START.match(text)
            ):
                continue
            kind, slot, values = asks[0][0], asks[0][1], asks[0][2]
            label = f"{kind}:{slot}:{values[0] if values else ''}"
            yield user["frames"][0]["service"].split("_")[0], label, text, _normal(system["text"])


def sgd_pool(used: set[str]) -> dict[str, list[tuple[str, str, str]]]:
    """Per SGD dev domain (not Alarm): (label, user turn, answer), each turn once."""
    pool: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    seen: set[str] = set()
    for domain, label, text, answer in sgd_turns("dev"):
        if domain in SGD_DESCRIPTIONS and text not in used and text not in seen:
            seen.add(text)
            pool[domain].append((label, text, answer))
    return dict(pool)


def sgd_cards() -> list[dict[str, Any]]:
    """One routing card per SGD domain: its description and its first request turns in train."""
    examples: dict[str, list[str]] = defaultdict(list)
    for domain, _, text, _ in sgd_turns("train"):
        if len(examples[domain]) < EXAMPLES and text not in examples[domain]:
            examples[domain].append(text)
    return [
        {"name": domain.lower(), "description": text, "examples": examples[domain]}
        for domain, text in SGD_DESCRIPTIONS.items()
    ]


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _bare(part: str) -> str:
    return part.rstrip("?.! ")


def _closed(part: str) -> str:
    return _bare(part) + ("?" if part.endswith("?") or _is_question(part.lower()) else ".")


def _typo(part: str, rng: random.Random) -> str:
    """``part`` with one typo: two letters of a word of five or more swapped, or one left out."""
    words = part.split(" ")
    long = [k for k, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not long:
        return part
    k = rng.choice(long)
    w = words[k]
    i = rng.randrange(1, len(w) - 2)
    words[k] = w[:i] + w[i + 1] + w[i] + w[i + 2 :] if rng.random() < 0.5 else w[:i] + w[i + 1 :]
    return " ".join(words)


def _run_on(parts: Sequence[str], rng: random.Random) -> tuple[str, list[str]]:
    text = _bare(parts[0])
    names = []
    for previous, part in itertools.pairwise(parts):
        k = rng.randrange(len(JOINS))
        names.append(str(k))
        text = JOINS[k].format(
            a=text,
            a_closed=text + _closed(previous)[-1],
            b=_bare(part),
            B=_capital(_bare(part)),
        )
    if rng.random() < 0.5 or "{a_closed}" in "".join(JOINS[int(k)] for k in names):
        text += _closed(parts[-1])[-1]
    return text, names


def join(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """``parts`` (2-4 requests as the sources write them) joined into one message, and its
    shape: the layout, the joins' indexes in :data:`JOINS`, lead-in, closer, plain, typo."""
    layout = rng.choices([n for n, _ in LAYOUTS], weights=[w for _, w in LAYOUTS])[0]
    shape = [layout]
    if layout == "run_on":
        text, names = _run_on(parts, rng)
        shape += names
    elif layout == "sentences":
        text = " ".join(_capital(_closed(p)) for p in parts)
    elif layout == "numbered":
        mark = rng.choice(["{k}. ", "{k}) "])
        text = "\n".join(mark.format(k=k) + _capital(_closed(p)) for k, p in enumerate(parts, 1))
    elif layout == "numbered_inline":
        text = " ".join(f"{k}) {_bare(p)}" for k, p in enumerate(parts, 1))
    elif layout == "bullets":
        mark = rng.choice(["- ", "* ", "• "])
        text = "\n".join(mark + _bare(p) for p in parts)
    else:
        text = "\n".join(_capital(_bare(p)) for p in parts)
    block = layout in ("numbered", "bullets", "lines")
    if rng.random() < LEAD_IN:
        lead = rng.choice(LEAD_INS).format(n=_COUNT[len(parts)])
        text = f"{lead}{chr(10) if block else ' '}{text}"
        shape.append("lead_in")
    if rng.random() < CLOSER:
        text = f"{text}{chr(10) if block else ' '}{rng.choice(CLOSERS)}"
        shape.append("closer")
    if layout == "run_on" and rng.random() < PLAIN:
        text = re.sub(r"[.,?!;:]+(?=\s|$)", "", text.lower())
        text = re.sub(r"\s+-\s+", " ", text)
        shape.append("plain")
    return text, "+".join(shape)


def _pick(pool: dict[str, list[Any]], keys: Sequence[str], n: int, rng: random.Random) -> list[str]:
    """``n`` different keys of ``keys``, each drawn in proportion to its pool's size (so a small
    pool's utterances are not dealt again and again)."""
    left = list(keys)
    out: list[str] = []
    for _ in range(n):
        key = rng.choices(left, weights=[len(pool[k]) for k in left])[0]
        left.remove(key)
        out.append(key)
    return out


def _size(rng: random.Random) -> int:
    return rng.choices([n for n, _ in SIZES], weights=[w for _, w in SIZES])[0]


def _dealer(pool: dict[str, list[Any]], rng: random.Random) -> Any:
    decks: dict[str, list[Any]] = {key: [] for key in pool}

    def deal(key: str, avoid: Sequence[Any] = ()) -> Any:
        for _ in range(2):
            if not decks[key]:
                decks[key] = list(pool[key])
                rng.shuffle(decks[key])
            for i in range(len(decks[key]) - 1, -1, -1):
                if decks[key][i] not in avoid:
                    return decks[key].pop(i)
            decks[key] = []
        raise ValueError(f"no item of {key!r} left but {avoid!r}")

    return deal


def _written(
    chosen: list[tuple[str, str]], rng: random.Random
) -> tuple[list[str], list[str], bool]:
    """The requests as the message writes them (one with a typo in :data:`TYPO` of messages)."""
    written = [u for _, u in chosen]
    typo = rng.random() < TYPO
    if typo:
        k = rng.randrange(len(written))
        written[k] = _typo(written[k], rng)
    return written, [u for _, u in chosen], typo


def build_clinc(data: dict[str, Any], used: set[str], rng: random.Random) -> list[dict[str, Any]]:
    pool = clinc_pool(data, used)
    train: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["train"]:
        if intent in AGENT_OF:
            train[intent].append(_normal(utterance))
    paraphrases, own = _answers(train)
    by_agent: dict[str, list[str]] = defaultdict(list)
    for intent in sorted(pool):
        by_agent[AGENT_OF[intent]].append(intent)
    deal = _dealer(pool, rng)
    intents = sorted(pool)
    messages = []
    for index in range(CLINC_MESSAGES):
        n = _size(rng)
        if rng.random() < SAME_AGENT:
            agent = rng.choice(sorted(a for a, its in by_agent.items() if len(its) >= 2))
            names = _pick(pool, by_agent[agent], 2, rng)
            names += _pick(pool, [i for i in intents if AGENT_OF[i] != agent], n - 2, rng)
            rng.shuffle(names)
        else:
            names = _pick(pool, intents, n, rng)
        chosen = [(i, deal(i)) for i in names]
        written, sources, typo = _written(chosen, rng)
        text, shape = join(written, rng)
        record = message_record(
            f"{NAME}-clinc-{index + 1:04d}",
            text,
            shape + ("+typo" if typo else ""),
            list(zip(names, written, strict=True)),
            paraphrases,
            own,
        )
        for request, source in zip(record["requests"], sources, strict=True):
            request["source"] = source
        messages.append(record)
    return messages


def build_sgd(used: set[str], rng: random.Random) -> list[dict[str, Any]]:
    pool = sgd_pool(used)
    domains = sorted(d for d, items in pool.items() if len(items) >= 5)
    deal = _dealer({d: pool[d] for d in domains}, rng)
    varied = [d for d in domains if len({label for label, _, _ in pool[d]}) >= 2]
    messages = []
    for index in range(SGD_MESSAGES):
        n = _size(rng)
        if rng.random() < SAME_AGENT:
            twice = _pick(pool, varied, 1, rng)[0]
            names = [twice, twice, *_pick(pool, [d for d in domains if d != twice], n - 2, rng)]
            rng.shuffle(names)
        else:
            names = _pick(pool, domains, n, rng)
        picked: list[tuple[str, str, str]] = []
        for d in names:
            labels = [lab for lab, _, _ in picked]
            avoid = [item for item in pool[d] if item[0] in labels]
            picked.append(deal(d, avoid))
        chosen = [(d, _clause(u)) for d, (_, u, _) in zip(names, picked, strict=True)]
        written, _, typo = _written(chosen, rng)
        text, shape = join(written, rng)
        requests = []
        for d, w, (_, source, answer) in zip(names, written, picked, strict=True):
            same = w == _clause(source)
            requests.append(
                {
                    "text": source if same else w,
                    "intent": d,
                    "agent": d.lower(),
                    "answer": answer,
                    "source": source,
                }
            )
        messages.append(
            {
                "id": f"{NAME}-sgd-{index + 1:04d}",
                "text": text,
                "shape": shape + ("+typo" if typo else ""),
                "agents": "agents-sgd",
                "requests": requests,
            }
        )
    return messages


def build(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The set's messages from CLINC150's ``data_full.json`` and SGD dev."""
    rng = random.Random(SEED)
    used = used_elsewhere()
    return build_clinc(data, used, rng) + build_sgd(used, rng)


def render(messages: Sequence[dict[str, Any]]) -> str:
    """The set as the committed file's text (one JSON object a line)."""
    return "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages)


def render_cards() -> str:
    return json.dumps(sgd_cards(), indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    messages = build(json.loads(CLINC.read_text(encoding="utf-8")))
    (OUT / f"{NAME}.jsonl").write_text(render(messages), encoding="utf-8")
    (OUT / "agents-sgd.json").write_text(render_cards(), encoding="utf-8")
    requests = sum(len(m["requests"]) for m in messages)
    print(f"{NAME}: {len(messages)} messages, {requests} requests -> {OUT / f'{NAME}.jsonl'}")


if __name__ == "__main__":
    main()

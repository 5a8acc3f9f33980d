"""Build ``ways-dev.jsonl`` and ``ways-held.jsonl``: multi-request messages written the many ways
people write, for the offline planner's split (``harness.planning.split``).

The other sets join requests in few styles, mostly punctuated prose ("and", commas, "also",
"plus", sentences). People also write lists (numbered, one per line or inline; bulleted with
"-", "*" or "•"), one request per line with no punctuation, lower-case run-ons with no punctuation
and no joining word at all ("whats my balance can you book a table for 2 tonight"), a typo, a
lead-in or a thank-you, and many other joins ("then", "oh and", "btw", ";", " - ", "after that",
"next", "one more thing", "while you're at it", "Secondly,", "on top of that", ...). This set uses
all of them (:data:`FORMATS`, :data:`JOINS`, :data:`RUN_ON_JOINS`, :data:`LEAD_INS`,
:data:`CLOSINGS`), written for it before the planner was run on it.

Made only of **train** material: CLINC150 train utterances of the intents
:data:`~tests.detect.build_multi_intent.AGENT_OF` gives an agent (not the agents' own examples),
and Schema-Guided Dialogue train user turns that open one task (``sgd_requests``). An SGD request's
agent is the helpdesk agent of its service (:data:`SGD_AGENT`: banks, travel, calendar), else the
parent (``helpdesk``), which keeps what no agent does. Each gold request is the text as the message
writes it (its case, punctuation and typo), with ``source``, the utterance it came from.

Two halves: the utterances are dealt into two disjoint pools by one seeded shuffle, and each half
is composed from its own pool with its own seed. ``ways-dev`` is developed on; ``ways-held`` is
measured once, at the end. Deterministic::

    PYTHONPATH=. .venv/bin/python -m tests.detect.build_ways_multi_intent

CLINC150: Larson et al., EMNLP 2019, CC-BY-3.0. SGD: Rastogi et al., AAAI 2020, CC BY-SA 4.0.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from tests.detect.build_fresh_multi_intent import _clause, sgd_requests
from tests.detect.build_multi_intent import (
    AGENT_OF,
    CLINC,
    EXAMPLES_PER_INTENT,
    OUT,
    _answers,
    _echo,
    _is_question,
)

SEEDS = {"ways-dev": 3701, "ways-held": 3702}
POOL_SEED = 3700
SIZE = 600
SGD_SHARE = 0.3
"""The share of requests drawn from SGD (the rest from CLINC150)."""
PARENT = "helpdesk"
SGD_AGENT = {
    "Banks": "banking",
    "Flights": "travel",
    "Hotels": "travel",
    "RentalCars": "travel",
    "Travel": "travel",
    "Buses": "travel",
    "RideSharing": "travel",
    "Calendar": "calendar",
}
"""The helpdesk agent of an SGD service; any other service's request is the parent's."""
LEAD_IN = 0.25
CLOSING = 0.2
TYPO = 0.5

# How a message is laid out: name, weight.
FORMATS: tuple[tuple[str, int], ...] = (
    ("joined", 38),
    ("numbered_lines", 7),
    ("numbered_inline", 5),
    ("bullets", 8),
    ("lines", 8),
    ("run_on", 14),
    ("lower_joined", 10),
    ("first_then", 5),
    ("ordinals", 5),
)

# Joins between two requests in written prose ("{a}" the text so far, bare; "{a_closed}" ended
# with "?" or "."; "{b}" the next request as written, "{B}" with a capital).
JOINS: tuple[str, ...] = (
    "{a}, then {b}",
    "{a} then {b}",
    "{a_closed} Then, {b}",
    "{a}, oh and {b}",
    "{a_closed} Oh and {b}",
    "{a} oh and {b}",
    "{a_closed} Oh, and {b}",
    "{a_closed} btw {b}",
    "{a}, btw {b}",
    "{a_closed} BTW, {b}",
    "{a} btw {b}",
    "{a}; {b}",
    "{a} ; {b}",
    "{a} - {b}",
    "{a_closed} After that, {b}",
    "{a}, after that {b}",
    "{a}, and after that {b}",
    "{a_closed} Next, {b}",
    "{a}, next {b}",
    "{a_closed} One more thing, {b}",
    "{a_closed} One more thing: {b}",
    "{a}. one more thing {b}",
    "{a}, and also {b}",
    "{a_closed} While you're at it, {b}",
    "{a}, while you're at it {b}",
    "{a_closed} Secondly, {b}",
    "{a_closed} On top of that, {b}",
    "{a}, on top of that {b}",
    "{a_closed} Additionally, {b}",
    "{a_closed} In addition, {b}",
    "{a_closed} Furthermore, {b}",
    "{a_closed} Besides that, {b}",
    "{a_closed} Another thing: {b}",
    "{a}, another thing, {b}",
    "{a_closed} Last but not least, {b}",
    "{a_closed} Finally, {b}",
    "{a_closed} Lastly, {b}",
    "{a}... {b}",
    "{a}.. {b}",
    "{a}!! {b}",
    "{a} :) {b}",
    "{a_closed} and {b}",
    "{a_closed} And then {b}",
    "{a} + {b}",
    "{a_closed} Also: {b}",
    "{a_closed} Oh also {b}",
    "{a} — also, {b}",
    "{a_closed} And one more: {b}",
    "{a_closed} Separately, {b}",
    "{a_closed} Unrelated, but {b}",
    "{a_closed} Apart from that, {b}",
    "{a_closed} Other than that, {b}",
    "{a_closed} Also {b}",
    "{a_closed}\n{B}",
    "{a}\n{b}",
    "{a_closed} {B}",
    "{a}, {b}",
    "{a} and {b}",
    "{a_closed} And could you also {b}",
    "{a}, and could you please {b}",
    "{a} and also could you {b}",
)
# Joins that ask a verb to follow ("could you {b}"): used only when the next request opens with
# a request verb, else a join is drawn again.
_NEEDS_VERB = ("could you",)
_OPENING_VERBS = frozenset(
    re.findall(
        r"\w+",
        "tell show give find get check look book reserve cancel change update set reset order pay"
        " send transfer add remove delete make schedule remind call turn start stop freeze block"
        " report help let play search locate share translate convert list read",
    )
)

# Joins of a lower-case run-on with no punctuation, by weight ("" is no joining word at all).
RUN_ON_JOINS: tuple[tuple[str, int], ...] = (
    ("", 40),
    ("and", 25),
    ("also", 8),
    ("then", 5),
    ("and then", 4),
    ("plus", 4),
    ("oh and", 4),
    ("btw", 4),
    ("and also", 3),
    ("also can you", 2),
    ("next", 1),
)

# Openings: text, and the separator after it.
LEAD_INS: tuple[str, ...] = (
    "Hi, quick ones:",
    "Hey!",
    "hi",
    "Hello there.",
    "Good morning!",
    "ok so",
    "So,",
    "Hi team,",
    "Quick questions:",
    "couple of things",
    "Need help with a few things:",
    "Hey there, two things.",
    "Hello, I have several requests.",
    "yo",
    "Hi! A few things:",
    "Question:",
    "Morning!",
    "Help please:",
    "hey, can you help me out?",
    "Hi there, I need some help.",
)
CLOSINGS: tuple[str, ...] = (
    "thanks!",
    "Thanks.",
    "thx",
    "Thank you!",
    "ty",
    "cheers",
    "Thanks in advance.",
    "that's all",
    "Appreciate it!",
    "thank you so much",
    "Thanks a lot!",
    "pls",
)
_NUMBERS = ("{n}. ", "{n}) ", "{n} - ", "({n}) ", "#{n} ", "{n}- ")
_BULLETS = ("- ", "* ", "• ", "-", "– ")
_ORDINALS = (
    ("First, ", "Second, ", "Third, ", "Fourth, "),
    ("Firstly, ", "Secondly, ", "Thirdly, ", "Fourthly, "),
    ("First off, ", "Second, ", "Third, ", "And fourth, "),
)
_FIRST_THEN = (
    ("First ", "then ", "then ", "and finally "),
    ("First, ", "Then, ", "After that, ", "Finally, "),
    ("to start, ", "next ", "after that ", "lastly "),
)
_PUNCT = re.compile(r"[^\w\s'&$%/:-]|(?<!\w)[-:/]|[-:/](?!\w)")
_APOSTROPHE = re.compile(r"'")


def _bare(text: str) -> str:
    return text.rstrip(" ?.!")


def _closed(text: str, source: str) -> str:
    return _bare(text) + ("?" if source.rstrip().endswith("?") or _is_question(source) else ".")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unpunctuated(text: str, rng: random.Random) -> str:
    """``text`` in lower case without punctuation (and, half of the time, without apostrophes)."""
    out = " ".join(_PUNCT.sub(" ", text.lower()).split())
    return _APOSTROPHE.sub("", out) if rng.random() < 0.5 else out


def _typo(text: str, rng: random.Random) -> str:
    """``text`` with one typo in one of its longer words (two letters swapped, one dropped or
    one doubled), or as it was when it has none."""
    words = text.split(" ")
    long = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not long:
        return text
    i = rng.choice(long)
    w = words[i]
    k = rng.randrange(1, len(w) - 2)
    kind = rng.randrange(3)
    if kind == 0:
        w = w[:k] + w[k + 1] + w[k] + w[k + 2 :]
    elif kind == 1:
        w = w[:k] + w[k + 1 :]
    else:
        w = w[:k] + w[k] + w[k:]
    words[i] = w
    return " ".join(words)


def _join_prose(parts: list[str], sources: Sequence[str], rng: random.Random) -> tuple[str, str]:
    text = _bare(parts[0])
    names = []
    for k in range(1, len(parts)):
        b = _bare(parts[k])
        while True:
            index = rng.randrange(len(JOINS))
            template = JOINS[index]
            if not any(v in template for v in _NEEDS_VERB):
                break
            if b.split()[0].lower() in _OPENING_VERBS:
                b = b[0].lower() + b[1:]
                break
        names.append(str(index))
        text = template.format(
            a=_bare(text), a_closed=_closed(text, sources[k - 1]), b=b, B=_capital(b)
        )
    if rng.random() < 0.5:
        text = _closed(text, sources[-1])
    return text, "joined-" + "-".join(names)


def _layout(fmt: str, parts: list[str], sources: Sequence[str], rng: random.Random) -> str:
    """The message body in layout ``fmt`` (``parts`` already in their final wording)."""
    n = len(parts)
    ends = rng.random() < 0.5  # whether list items end with their punctuation
    item: Callable[[int], str] = lambda k: (  # noqa: E731
        _closed(parts[k], sources[k]) if ends else _bare(parts[k])
    )
    if fmt == "numbered_lines":
        mark = rng.choice(_NUMBERS)
        return "\n".join(mark.format(n=k + 1) + item(k) for k in range(n))
    if fmt == "numbered_inline":
        mark = rng.choice(_NUMBERS[:4])
        return " ".join(mark.format(n=k + 1) + item(k) for k in range(n))
    if fmt == "bullets":
        mark = rng.choice(_BULLETS)
        return "\n".join(mark + item(k) for k in range(n))
    if fmt == "lines":
        return "\n".join(_bare(p) for p in parts)
    if fmt in ("run_on", "lower_joined"):
        words = [w for w, _ in RUN_ON_JOINS]
        weights = [c for _, c in RUN_ON_JOINS]
        text = parts[0]
        for part in parts[1:]:
            join = rng.choices(words, weights=weights)[0]
            if fmt == "lower_joined" and not join:
                join = rng.choice(["and", "also", "btw", "oh and", "then", "plus"])
            text = f"{text} {join} {part}" if join else f"{text} {part}"
        return text
    if fmt == "first_then":
        words_ = rng.choice(_FIRST_THEN)
        said = [
            words_[0 if k == 0 else 3 if k == n - 1 else min(k, 2)] + _bare(parts[k])
            for k in range(n)
        ]
        sentences = rng.random() < 0.5
        if sentences:
            return " ".join(_capital(_closed(s, sources[k])) for k, s in enumerate(said))
        return ", ".join(said)
    assert fmt == "ordinals"
    words_ = rng.choice(_ORDINALS)
    return " ".join(words_[k] + _closed(parts[k], sources[k]) for k in range(n))


def compose(
    clinc: dict[str, list[str]],
    sgd: dict[str, list[tuple[str, str]]],
    rng: random.Random,
    *,
    prefix: str,
    paraphrases: dict[str, list[str]],
) -> list[dict[str, Any]]:
    """``SIZE`` messages of 2-4 requests (5:3:2) drawn from the pools, laid out and joined in the
    styles above."""
    intents, domains = sorted(clinc), sorted(sgd)
    formats = [f for f, _ in FORMATS]
    weights = [w for _, w in FORMATS]
    messages = []
    for index in range(SIZE):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        from_sgd = sum(rng.random() < SGD_SHARE for _ in range(n))
        chosen: list[dict[str, str]] = []
        for intent in rng.sample(intents, n - from_sgd):
            text = rng.choice(clinc[intent])
            chosen.append(
                {
                    "source": text,
                    "intent": intent,
                    "agent": AGENT_OF[intent],
                    "answer": _echo(text, paraphrases[intent]),
                }
            )
        for domain in rng.sample(domains, from_sgd):
            text, answer = rng.choice(sgd[domain])
            agent = SGD_AGENT.get(domain, PARENT)
            chosen.append({"source": text, "intent": domain, "agent": agent, "answer": answer})
        rng.shuffle(chosen)
        fmt = rng.choices(formats, weights=weights)[0]
        sources = [c["source"] for c in chosen]
        parts = [_clause(s) if s[:1].isupper() else s for s in sources]
        if fmt in ("run_on", "lower_joined") or (fmt == "lines" and rng.random() < 0.5):
            parts = [_unpunctuated(p, rng) for p in parts]
        if rng.random() < TYPO:
            k = rng.randrange(n)
            parts[k] = _typo(parts[k], rng)
        if fmt == "joined":
            body, shape = _join_prose(parts, sources, rng)
        else:
            body, shape = _layout(fmt, parts, sources, rng), fmt
        lower = fmt in ("run_on", "lower_joined")
        if rng.random() < LEAD_IN:
            lead = rng.choice(LEAD_INS)
            lead = _unpunctuated(lead, rng) if lower else lead
            newline = fmt in ("numbered_lines", "bullets", "lines") or rng.random() < 0.15
            body = f"{lead}{chr(10) if newline else ' '}{body}"
            shape = f"lead_in+{shape}"
        if rng.random() < CLOSING:
            closing = rng.choice(CLOSINGS)
            closing = _unpunctuated(closing, rng) if lower else closing
            newline = fmt in ("numbered_lines", "bullets", "lines")
            body = f"{body}{chr(10) if newline else ' '}{closing}"
            shape = f"{shape}+closing"
        requests = [{"text": _bare(p), **c} for p, c in zip(parts, chosen, strict=True)]
        messages.append(
            {"id": f"{prefix}-{index + 1:04d}", "text": body, "shape": shape, "requests": requests}
        )
    return messages


def pools(
    data: dict[str, Any],
) -> list[tuple[dict[str, list[str]], dict[str, list[tuple[str, str]]]]]:
    """The two halves' disjoint pools: CLINC train utterances by intent (no agent's example) and
    SGD train requests by service (of four words or more)."""
    train: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["train"]:
        if intent in AGENT_OF:
            train[intent].append(" ".join(utterance.replace("’", "'").split()))
    clinc = {i: sorted(set(us[EXAMPLES_PER_INTENT:])) for i, us in train.items()}
    sgd = {
        d: sorted({(u, a) for u, a in items if len(u.split()) >= 4})
        for d, items in sgd_requests("train").items()
    }
    rng = random.Random(POOL_SEED)
    halves: list[tuple[dict[str, list[str]], dict[str, list[tuple[str, str]]]]] = [
        ({}, {}),
        ({}, {}),
    ]
    for intent in sorted(clinc):
        items = list(clinc[intent])
        rng.shuffle(items)
        halves[0][0][intent], halves[1][0][intent] = items[::2], items[1::2]
    for domain in sorted(sgd):
        pairs = list(sgd[domain])
        rng.shuffle(pairs)
        halves[0][1][domain], halves[1][1][domain] = pairs[::2], pairs[1::2]
    # A text said under two intents or services, or in several dialogues (with other answers),
    # may have been dealt to both: the second half keeps none of the first half's texts.
    first = {u for us in halves[0][0].values() for u in us}
    first |= {u for pairs in halves[0][1].values() for u, _ in pairs}
    second_clinc, second_sgd = halves[1]
    for intent, us in second_clinc.items():
        second_clinc[intent] = [u for u in us if u not in first]
    for domain, pairs in second_sgd.items():
        second_sgd[domain] = [(u, a) for u, a in pairs if u not in first]
    return halves


def build(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Both halves' messages from CLINC150's ``data_full.json`` and SGD's train dialogues."""
    val: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["val"]:
        if intent in AGENT_OF:
            val[intent].append(" ".join(utterance.replace("’", "'").split()))
    paraphrases, _ = _answers(val)
    out = {}
    for (name, seed), (clinc, sgd) in zip(SEEDS.items(), pools(data), strict=True):
        out[name] = compose(clinc, sgd, random.Random(seed), prefix=name, paraphrases=paraphrases)
    return out


def render(messages: Sequence[dict[str, Any]]) -> str:
    """A half as the committed file's text (one JSON object a line)."""
    return "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages)


def main() -> None:
    for name, messages in build(json.loads(CLINC.read_text(encoding="utf-8"))).items():
        (OUT / f"{name}.jsonl").write_text(render(messages), encoding="utf-8")
        print(f"{name}: {len(messages)} messages -> {OUT / f'{name}.jsonl'}")


if __name__ == "__main__":
    main()

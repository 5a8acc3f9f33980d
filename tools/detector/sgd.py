"""Labelled bot-message material from the Schema-Guided Dialogue data (SGD, CC BY-SA 4.0).

SGD system turns carry their dialogue acts with slots and values, and the character spans of the
values. Turns with the same service and the same (act, slot) set are one outline written by
different crowd workers, so putting one turn's values into another turn's wording (through the
spans) gives a **paraphrase**, and putting other values into a turn's own wording gives a
**template-same** hard negative.

:func:`build` turns each dialogue into a transcript with at most one insertion, drawn with a
seeded generator from the dialogue's id (so a subset builds exactly as it does in the full run):

- ``none``: the dialogue as it was: every pair is a non-duplicate (confirmations and offers of
  what the user chose, facts reused for a new request; the false-alarm material);
- ``para_same`` / ``para_cross``: a paraphrase of a bot turn sent again in the same turn (another
  sender) or after the next bot reply, unprompted: a duplicate;
- ``exact_cross``: the same text sent again after the next bot reply: a duplicate;
- ``contain_cross``: a paraphrase put at the top of the next bot reply: a duplicate;
- ``template_same``: the same wording with other values, in the same turn: not a duplicate;
- ``reask``: the user asks for the turn's content again and the bot repeats it reworded: not a
  duplicate.

A claim said again **beside new content** (:data:`RECAP_KINDS`) is drawn, with a generator of its
own, for a share (:data:`RECAP_SHARE`, 0.0 as shipped: measured, not adopted) of the dialogues
left ``none`` (drawn so, or with no wording for their insertion), so every other dialogue builds
as it did before these kinds existed. The claims restated are bot turns that
state values and ask nothing (no "?"); no user turn between the claim and its restatement, and not
the bot turn it stands beside, states one of its values (so nothing the user said or the reply
says brings it up):

- ``aside``: a paraphrase of the claim put into a later bot turn (one or more user turns later),
  after its own sentences or between them, before any question it asks: a duplicate;
- ``recap``: paraphrases of two earlier claims joined in one message (after a lead-in from
  :data:`_RECAP_LEADS`, or none) sent after a later bot turn, in its turn: two duplicates;
- ``aside_asked`` / ``recap_asked``: the same, but the user turn before asks for a summary or the
  details (:data:`_RECAP_ASKS`): not duplicates;
- ``aside_other`` / ``recap_other``: the same positions with the claims' wording and other values
  (template-same): not duplicates.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from harness.detect.transcript import Message, Transcript

__all__ = [
    "Built",
    "SystemTurn",
    "Templates",
    "build",
    "build_all",
    "read_dialogues",
    "system_turns",
]

KINDS = (
    "none",
    "para_same",
    "para_cross",
    "exact_cross",
    "contain_cross",
    "template_same",
    "reask",
)
_WEIGHTS = (3, 2, 2, 1, 1, 2, 1)
RECAP_KINDS = ("aside", "recap", "aside_asked", "recap_asked", "aside_other", "recap_other")
_RECAP_WEIGHTS = (2, 2, 1, 1, 1, 1)
RECAP_SHARE = 0.0
"""The share of the dialogues left ``none`` that take one of :data:`RECAP_KINDS` instead: 0.0, so
the shipped rows are built without them (measured with 1.0 and not adopted: they raised the false
alarms on unchanged SGD-train dialogues far beyond the refit noise; docs/journal/detector.md,
s52-kinds)."""
POSITIVE = frozenset({"para_same", "para_cross", "exact_cross", "contain_cross", "aside", "recap"})

_REASKS = (
    "Sorry, what was the {slot} again?",
    "Can you repeat the {slot}?",
    "I missed the {slot}. Could you say it once more?",
    "Remind me of the {slot}, please.",
    "Wait, what did you say the {slot} was?",
    "Could you tell me the {slot} again?",
)

_RECAP_LEADS = (
    "",
    "",
    "",
    "Quick recap: ",
    "To sum up: ",
    "Here is a summary. ",
    "Just so you have everything in one place: ",
    "For your reference: ",
    "Summary so far: ",
    "A quick overview. ",
)
_RECAP_ASKS = (
    "Can you give me a quick summary of everything?",
    "Could you sum up what we have so far?",
    "Please recap the details for me.",
    "Can you go over the details once more?",
    "Let me hear all of it together, please.",
    "Could you list everything you told me so far?",
    "Give me an overview of what we have, please.",
    "Send me all the details in one message, please.",
    "Can you summarize the {slot} and the rest for me?",
    "What were the details again, including the {slot}?",
    "Also, remind me of the {slot}.",
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True, slots=True)
class SystemTurn:
    """One SGD system turn with its acts."""

    dialogue: str
    index: int
    service: str
    text: str
    actions: tuple[tuple[str, str, str], ...]
    """(act, slot, first value) of each action."""
    spans: dict[str, tuple[int, int]] = field(hash=False, compare=False)
    listed: bool = field(default=False, compare=False)
    """An action gives several values of one slot ("Dumbo, Hellboy or Shazam!"): only the first
    is in :attr:`actions`, so the turn cannot be rendered with another turn's values."""

    @property
    def signature(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        return self.service, tuple(sorted({(a, s) for a, s, _ in self.actions}))

    @property
    def acts(self) -> frozenset[str]:
        return frozenset(a for a, _, _ in self.actions)

    def located(self) -> dict[tuple[str, str], tuple[int, int, str]] | None:
        """Where each valued action's value stands in the text, or None when one cannot be found,
        two overlap or an action lists several values (:attr:`listed`)."""
        if self.listed:
            return None
        out: dict[tuple[str, str], tuple[int, int, str]] = {}
        lower = self.text.lower()
        for act, slot, value in self.actions:
            if not value or (act, slot) in out:
                continue
            if slot in self.spans:
                start, end = self.spans[slot]
            else:
                found = re.search(r"(?<!\w)" + re.escape(value.lower()) + r"(?!\w)", lower)
                if found is None:
                    return None
                start, end = found.span()
            out[(act, slot)] = (start, end, value)
        places = sorted((s, e) for s, e, _ in out.values())
        for (_, e1), (s2, _) in itertools.pairwise(places):
            if s2 < e1:
                if any(p == (s2, e1) for p in places):
                    continue
                return None
        return out

    def render(self, values: dict[tuple[str, str], str]) -> str | None:
        """This turn's wording with ``values`` (by act and slot) in place of its own."""
        located = self.located()
        if located is None:
            return None
        text = self.text
        done: set[tuple[int, int]] = set()
        for key, (start, end, _) in sorted(located.items(), key=lambda kv: -kv[1][0]):
            if (start, end) in done:
                continue
            done.add((start, end))
            if key not in values:
                return None
            text = text[:start] + values[key] + text[end:]
        return text

    def values(self) -> dict[tuple[str, str], str]:
        return {(a, s): v for a, s, v in self.actions if v}


def read_dialogues(path: Path) -> Iterator[dict[str, object]]:
    """The dialogues of one ``sgd-*.jsonl.gz`` file, in file order."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def system_turns(dialogue: dict[str, object]) -> list[SystemTurn | None]:
    """Each turn of ``dialogue``: a :class:`SystemTurn` for system turns, None for user turns."""
    out: list[SystemTurn | None] = []
    turns = dialogue["turns"]
    assert isinstance(turns, list)
    for index, turn in enumerate(turns):
        if turn["speaker"] != "SYSTEM":
            out.append(None)
            continue
        actions: list[tuple[str, str, str]] = []
        spans: dict[str, tuple[int, int]] = {}
        service = ""
        listed = False
        for frame in turn["frames"]:
            service = service or frame["service"]
            for act, slot, values in frame["actions"]:
                actions.append((act, slot, values[0] if values else ""))
                listed = listed or len(values) > 1
            for slot, start, end in frame["spans"]:
                spans[slot] = (start, end)
        out.append(
            SystemTurn(
                dialogue=str(dialogue["id"]),
                index=index,
                service=service.split("_")[0],
                text=turn["text"],
                actions=tuple(actions),
                spans=spans,
                listed=listed,
            )
        )
    return out


class Templates:
    """Every system turn of a split by signature (service and act-slot set)."""

    def __init__(self, dialogues: Sequence[dict[str, object]]) -> None:
        self.by_signature: dict[tuple[str, tuple[tuple[str, str], ...]], list[SystemTurn]] = (
            defaultdict(list)
        )
        for dialogue in dialogues:
            for turn in system_turns(dialogue):
                if turn is not None and turn.located() is not None:
                    self.by_signature[turn.signature].append(turn)

    def paraphrase(self, turn: SystemTurn, rng: random.Random) -> str | None:
        """Another crowd worker's wording of ``turn``'s outline, with ``turn``'s values."""
        pool = self.by_signature.get(turn.signature, [])
        if len(pool) < 2:
            return None
        mine = turn.values()
        norm = _norm(turn.text)
        for _ in range(8):
            other = pool[rng.randrange(len(pool))]
            if other.dialogue == turn.dialogue:
                continue
            text = other.render(mine)
            if text is not None and _norm(text) != norm:
                return text
        return None

    def other_values(self, turn: SystemTurn, rng: random.Random) -> str | None:
        """``turn``'s wording with another dialogue's values of the same outline."""
        pool = self.by_signature.get(turn.signature, [])
        mine = turn.values()
        for _ in range(8):
            if not pool:
                return None
            other = pool[rng.randrange(len(pool))]
            theirs = other.values()
            if other.dialogue == turn.dialogue or not theirs:
                continue
            if all(_norm(theirs.get(k, "")) == _norm(v) for k, v in mine.items()):
                continue
            text = turn.render(theirs)
            if text is not None and _norm(text) != _norm(turn.text):
                return text
        return None


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


@dataclass(frozen=True, slots=True)
class Built:
    """One built transcript with its labels."""

    transcript: Transcript
    kind: str
    duplicates: frozenset[tuple[str, str]]
    """Labelled duplicate pairs (earlier id, later id)."""
    negatives: frozenset[tuple[str, str]]
    """Labelled hard-negative pairs (template-same, re-asked)."""


def _has_values(turn: SystemTurn | None) -> bool:
    return (
        turn is not None
        and not turn.listed
        and bool(turn.values())
        and turn.acts & {"INFORM", "OFFER", "CONFIRM", "INFORM_COUNT", "NOTIFY_SUCCESS"}
        != frozenset()
    )


def build(
    dialogue: dict[str, object],
    templates: Templates,
    *,
    seed: int = 24,
    plain: bool = False,
    recaps: bool = True,
) -> Built:
    """One labelled transcript from one dialogue (see the module docstring); ``plain``: the
    dialogue unchanged; ``recaps``: some of the dialogues drawn ``none`` take one of
    :data:`RECAP_KINDS` (False: every dialogue builds as before those kinds existed)."""
    name = str(dialogue["id"])
    rng = random.Random(f"{seed}:{name}")
    kind = rng.choices(KINDS, weights=_WEIGHTS)[0] if not plain else "none"
    turns = system_turns(dialogue)
    raw = dialogue["turns"]
    assert isinstance(raw, list)
    # Only a bot turn followed by a user turn and another bot turn can take a cross-turn insertion.
    choices = [
        i
        for i, t in enumerate(turns)
        if _has_values(t) and i + 2 < len(turns) and turns[i + 2] is not None
    ]
    target = choices[rng.randrange(len(choices))] if choices and kind != "none" else -1
    extra = ""
    if target >= 0:
        source = turns[target]
        assert source is not None
        if kind in ("para_same", "para_cross", "contain_cross", "reask"):
            extra = templates.paraphrase(source, rng) or ""
        elif kind == "exact_cross":
            extra = source.text
        elif kind == "template_same":
            extra = templates.other_values(source, rng) or ""
    if not extra:
        kind, target = "none", -1
    if kind == "none" and not plain and recaps:
        # A generator of its own: the draws of every other dialogue stay as they were.
        other = random.Random(f"{seed}:{name}:recaps")
        if other.random() < RECAP_SHARE:
            made = beside(
                dialogue, templates, other.choices(RECAP_KINDS, weights=_RECAP_WEIGHTS)[0], other
            )
            if made is not None:
                return made
    messages: list[Message] = []
    duplicates: set[tuple[str, str]] = set()
    negatives: set[tuple[str, str]] = set()
    turn_no = 0
    source_id = ""

    def add(role: str, sender: str, text: str) -> str:
        mid = f"{name}-{len(messages)}"
        messages.append(
            Message(id=mid, turn=turn_no, role=role, sender=sender, text=text)  # type: ignore[arg-type]
        )
        return mid

    for i, turn in enumerate(raw):
        if turn["speaker"] == "USER":
            turn_no += 1
            add("user", "user", turn["text"])
            continue
        text = turn["text"]
        if kind == "contain_cross" and i == target + 2:
            mid = add("bot", "assistant", extra + " " + text)
            duplicates.add((source_id, mid))
            continue
        mid = add("bot", "assistant", text)
        if i == target:
            source_id = mid
            if kind == "para_same":
                duplicates.add((mid, add("bot", "concierge", extra)))
            elif kind == "template_same":
                negatives.add((mid, add("bot", "concierge", extra)))
            elif kind == "reask":
                source = turns[target]
                assert source is not None
                slot = next(s for a, s, v in source.actions if v).replace("_", " ")
                turn_no += 1
                add("user", "user", rng.choice(_REASKS).format(slot=slot))
                negatives.add((mid, add("bot", "assistant", extra)))
        if i == target + 2 and kind in ("para_cross", "exact_cross"):
            duplicates.add((source_id, add("bot", "concierge", extra)))
    transcript = Transcript(conversation=name, messages=messages)
    return Built(
        transcript=transcript,
        kind=kind,
        duplicates=frozenset(duplicates),
        negatives=frozenset(negatives),
    )


CLAIM_ACTS = frozenset({"INFORM", "INFORM_COUNT", "OFFER", "NOTIFY_SUCCESS"})
"""The acts of a bot turn whose claims the new kinds restate (with values and no question)."""
_CLOSING = frozenset({"GOODBYE", "REQ_MORE"})
_TRIES = 8
ASIDE_ANSWERS_ONLY = False
"""``aside`` kinds restate a claim only beside a bot turn that informs and does nothing else (an
answer), not beside an offer, a confirmation or an outcome."""
"""Places tried for a restatement before a dialogue is left as it was."""


def _claim(turn: SystemTurn | None) -> bool:
    """A bot turn that states values and asks nothing: a claim that can be said again."""
    return (
        turn is not None
        and _has_values(turn)
        and "?" not in turn.text
        and bool(turn.acts & CLAIM_ACTS)
        and not turn.acts & {"CONFIRM", "REQUEST"}
    )


def _stated(turn: SystemTurn) -> list[str]:
    """The values ``turn``'s text states, as its words (normalised)."""
    located = turn.located() or {}
    out = {_norm(turn.text[start:end]) for start, end, _ in located.values()}
    return sorted(v for v in out if v)


def _mentions(texts: Sequence[str], values: Sequence[str]) -> bool:
    padded = [f" {_norm(t)} " for t in texts]
    return any(f" {v} " in t for v in values for t in padded)


def _slots(text: str) -> list[int]:
    """Where a sentence can go into ``text``: after one or more of its sentences and before any
    question it asks (an index into its sentences)."""
    sentences = _SENTENCES.split(text.strip())
    out = []
    for k in range(1, len(sentences) + 1):
        if "?" in sentences[k - 1]:
            break
        out.append(k)
    return out


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1:] in ".!" else text + "."


def beside(
    dialogue: dict[str, object], templates: Templates, kind: str, rng: random.Random
) -> Built | None:
    """``dialogue`` with a claim said again beside new content (one of :data:`RECAP_KINDS`, see
    the module docstring), or None when it has no place for one or no wording."""
    name = str(dialogue["id"])
    turns = system_turns(dialogue)
    raw = dialogue["turns"]
    assert isinstance(raw, list)
    texts = [str(t["text"]) for t in raw]
    claims = [i for i, t in enumerate(turns) if _claim(t)]
    stated = {i: _stated(turns[i]) for i in claims}  # type: ignore[arg-type]
    recap = kind.startswith("recap")

    def quiet(i: int, j: int) -> bool:
        """Nothing from after claim ``i`` up to turn ``j`` states one of its values."""
        return bool(stated[i]) and not _mentions(texts[i + 1 : j + 1], stated[i])

    bots = [
        j
        for j, t in enumerate(turns)
        if t is not None and j >= 2 and raw[j - 1]["speaker"] == "USER"
    ]
    options: list[tuple[tuple[int, ...], int]] = []
    for j in bots:
        acts = turns[j].acts  # type: ignore[union-attr]
        if not recap and (not _slots(texts[j]) or acts <= _CLOSING):
            continue
        if not recap and ASIDE_ANSWERS_ONLY and (acts - _CLOSING != {"INFORM"}):
            continue
        before = [i for i in claims if i + 2 <= j and quiet(i, j)]
        if not recap:
            options.extend(((i,), j) for i in before)
            continue
        for a, b in itertools.combinations(before, 2):
            if not set(stated[a]) & set(stated[b]):
                options.append(((a, b), j))
    if not options:
        return None
    rng.shuffle(options)
    for sources, target in options[:_TRIES]:  # noqa: B007 (the place found is used below)
        said = []
        for i in sources:
            turn = turns[i]
            assert turn is not None
            if kind.endswith("_other"):
                text = templates.other_values(turn, rng)
            else:
                text = templates.paraphrase(turn, rng)
            if not text:
                break
            said.append(_sentence(text))
        if len(said) == len(sources):
            break
    else:
        return None
    if len(said) < len(sources):
        return None
    ask = ""
    if kind.endswith("_asked"):
        first = turns[sources[0]]
        assert first is not None
        slot = next(s for a, s, v in first.actions if v).replace("_", " ")
        ask = rng.choice(_RECAP_ASKS).format(slot=slot)
    lead = rng.choice(_RECAP_LEADS) if recap else ""
    slot_at = rng.choice(_slots(texts[target])) if not recap else 0

    messages: list[Message] = []
    turn_no = 0
    ids: dict[int, str] = {}
    pairs: set[tuple[str, str]] = set()

    def add(role: str, sender: str, text: str) -> str:
        mid = f"{name}-{len(messages)}"
        messages.append(
            Message(id=mid, turn=turn_no, role=role, sender=sender, text=text)  # type: ignore[arg-type]
        )
        return mid

    for i, text in enumerate(texts):
        if raw[i]["speaker"] == "USER":
            turn_no += 1
            add("user", "user", text + " " + ask if ask and i == target - 1 else text)
            continue
        if i == target and not recap:
            sentences = _SENTENCES.split(text.strip())
            text = " ".join([*sentences[:slot_at], said[0], *sentences[slot_at:]])
        ids[i] = add("bot", "assistant", text)
        if i == target and not recap:
            pairs.add((ids[sources[0]], ids[i]))
        if i == target and recap:
            later = add("bot", "assistant", lead + " ".join(said))
            pairs.update((ids[s], later) for s in sources)
    positive = kind in POSITIVE
    return Built(
        transcript=Transcript(conversation=name, messages=messages),
        kind=kind,
        duplicates=frozenset(pairs if positive else ()),
        negatives=frozenset(() if positive else pairs),
    )


POOL = 1500
"""Paraphrases and other values come from the split's first this many dialogues, so any subset
builds exactly as it does in the full run while reading only the start of the file."""


def build_all(
    path: Path,
    *,
    limit: int | None = None,
    seed: int = 24,
    every: int = 1,
    offset: int = 0,
    plain: bool = False,
    recaps: bool = True,
) -> list[Built]:
    """Built transcripts of one split: every ``every``-th dialogue from position ``offset``, at
    most ``limit`` of them."""
    pool: list[dict[str, object]] = []
    chosen: list[dict[str, object]] = []
    for position, dialogue in enumerate(read_dialogues(path)):
        if position < POOL:
            pool.append(dialogue)
        if position % every == offset and (limit is None or len(chosen) < limit):
            chosen.append(dialogue)
        if position >= POOL and limit is not None and len(chosen) >= limit:
            break
    templates = Templates(pool)
    return [build(d, templates, seed=seed, plain=plain, recaps=recaps) for d in chosen]

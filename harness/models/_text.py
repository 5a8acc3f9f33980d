"""Small, deterministic text tools for the offline rules model: tokens, clauses and routing scores."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence

from harness.text._shapes import NUMBER_ABBREV, NUMBERED_NEXT, is_field
from harness.text.facts import extract_facts
from harness.text.words import REQUEST_STOPWORDS, stem

__all__ = ["Router", "content_tokens", "split_clauses", "split_commands"]


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Conjunctions that usually start a new request in a multi-intent message. The spaces before one
# are taken possessively: a long run of spaces costs linear time per position, not cubic.
_SPLIT = re.compile(
    # Not the dot of "no." (number) before "of" or a digit: "No. of dogs: 3", "bay no. 12".
    rf"(?:(?!(?<=\b{NUMBER_ABBREV})\.\s+{NUMBERED_NEXT})[?!.;]+\s+|\?\s*$)"
    r"|(?:\s*+,)?\s++\b(?:and then|and also|and|also|plus|as well as)\b\s+",
    re.IGNORECASE,
)

# A letter and a number joined by a hyphen name one thing (a W-2, an I-9 form): one token, "w2".
_FORM = re.compile(r"\b([a-z])-(\d+)\b")
# Joining words left at a clause's start, and the "(2) " of a numbered request (several requests
# for one agent travel numbered in one scoped request).
_LEAD = re.compile(r"^\s*(?:(?:and|also|plus|then|so)\b[\s,]*|\(\d+\)\s*)+", re.IGNORECASE)
_MEMO_SIZE = 2048


def content_tokens(text: str) -> list[str]:
    """Lower-case, stop-word-free, lightly stemmed tokens."""
    return list(_content_tokens(text))


# One turn tokenises and splits the same texts several times (the plan, the router, the act step's
# tool choice, the compose step), so the pure functions below remember recent answers. Callers get
# fresh lists; the cached values are tuples.
@functools.lru_cache(maxsize=4096)
def _content_tokens(text: str) -> tuple[str, ...]:
    words = _WORD.findall(_FORM.sub(r"\1\2", text.lower().replace("’", "'")))
    return tuple(stem(w.split("'")[0]) for w in words if w not in REQUEST_STOPWORDS and len(w) > 1)


# Commands chained in order ("top up £20 please, then pay bill 4410"; "..., after that ...";
# "...; ..."): a cut the planner's clause split leaves to the offline model, which acts on each.
_THEN = re.compile(
    r"\s*(?:[,;]\s*(?:and\s+)?|\s(?:and\s+)?)(?:then|after that|afterwards)\s+|;\s*", re.IGNORECASE
)


# A piece that states a supposition ("if it rains tomorrow", "when my salary comes in"): its
# "then" opens the consequence, not another command (closed class).
_SUPPOSING = re.compile(
    r"\b(?:if|when|whenever|once|unless|as soon as|in case|provided|providing|assuming|suppose)\b",
    re.IGNORECASE,
)


def split_commands(text: str) -> list[str]:
    """``split_clauses``, each clause cut again where it chains another command with "then",
    "after that", "afterwards" or a semicolon. No cut after a piece that holds no request of
    its own (one word or no content words: "since then ...", "back then ...") or states a
    supposition ("if it rains tomorrow then cancel ..."), nor before a piece with no content
    words ("should I donate £20 then?"). A detail written "label: value" after a clause is part
    of it when its value is a number, a date, a time or an identifier ("... on Saturday. bay:
    B7", "... Friday. No. of dogs: 3": ``is_field``); the planner keeps it with the clause, but
    "Second thing: pool opening hours" is a request it cut off, sent here with the one before."""
    out: list[str] = []
    for clause in split_clauses(text):
        if out and is_field(clause) and _gives_value(clause.partition(":")[2]):
            out[-1] = f"{out[-1]}. {clause}"
            continue
        start = 0
        for cut in _THEN.finditer(clause):
            left = clause[start : cut.start()].strip(" ,;")
            right = clause[cut.end() :]
            if (
                len(left.split()) < 2
                or not content_tokens(left)
                or _SUPPOSING.search(left)
                or not content_tokens(right)
            ):
                continue
            out.append(left)
            start = cut.end()
        last = clause[start:].strip(" ,;")
        if last:
            out.append(last)
    return out


def _gives_value(text: str) -> bool:
    """Whether ``text`` holds a number or a value the fact reader reads (a day, a date, a time,
    an identifier)."""
    return any(c.isdigit() for c in text) or bool(extract_facts(text))


def split_clauses(text: str) -> list[str]:
    """Split a message into candidate requests at sentence ends and request-joining conjunctions.

    Fragments with no content words are glued back onto their neighbour, so "yes, and thanks"
    stays whole; the router merges neighbouring clauses that go to the same agent.
    """
    return list(_split_clauses(text))


@functools.lru_cache(maxsize=1024)
def _split_clauses(text: str) -> tuple[str, ...]:
    pieces = [_LEAD.sub("", p).strip(" ,;") for p in _SPLIT.split(text.strip()) if p]
    pieces = [p for p in pieces if p]
    # Each clause as its pieces, joined once at the end, and whether it has content words yet
    # (linear: a long run of content-free pieces is not re-joined and re-read at every piece).
    clauses: list[list[str]] = []
    contentful: list[bool] = []
    for piece in pieces:
        has = bool(_content_tokens(piece))
        if clauses and not has:
            clauses[-1].append(f" and {piece}")
        elif clauses and not contentful[-1]:
            clauses[-1].append(f" {piece}")
            contentful[-1] = True
        else:
            clauses.append([piece])
            contentful.append(has)
    return tuple("".join(c) for c in clauses) or (text.strip(),)


class Router:
    """Scores text against named bags of words (descriptions, examples, tool names), IDF-weighted."""

    def __init__(self, bags: Sequence[tuple[str, Iterable[str], Sequence[str]]]) -> None:
        """Args:
        bags: (name, texts describing it, example requests) per target.
        """
        self._names = [name for name, _, _ in bags]
        self._bags: list[set[str]] = []
        self._examples: list[list[set[str]]] = []
        for _, texts, examples in bags:
            bag: set[str] = set()
            for text in texts:
                bag.update(_content_tokens(text))
            example_sets = [set(_content_tokens(e)) for e in examples]
            for example in example_sets:
                bag.update(example)
            self._bags.append(bag)
            self._examples.append([e for e in example_sets if e])
        count = max(len(self._bags), 1)
        df: dict[str, int] = {}
        for bag in self._bags:
            for token in bag:
                df[token] = df.get(token, 0) + 1
        # With one target there is nothing to tell apart: every word is evidence for it.
        self._idf = {t: math.log(1 + count / n) if count > 1 else 1.0 for t, n in df.items()}
        self._memo: dict[str, tuple[tuple[str, float], ...]] = {}

    def scores(self, text: str) -> list[tuple[str, float]]:
        """(name, score) for every target, best first; 0 means no evidence at all."""
        # A turn scores the same clause more than once (plan, then the tool choice); the bags never
        # change, so the answer for a text is remembered (a bounded memo, cleared when full).
        memo = self._memo
        known = memo.get(text)
        if known is None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            known = memo[text] = tuple(self._scores(text))
        return list(known)

    def _scores(self, text: str) -> list[tuple[str, float]]:
        tokens = set(_content_tokens(text))
        if not tokens:
            return [(name, 0.0) for name in self._names]
        out: list[tuple[str, float]] = []
        for name, bag, examples in zip(self._names, self._bags, self._examples, strict=True):
            # Summed exactly: a set's order follows the string hashing (PYTHONHASHSEED).
            overlap = math.fsum([self._idf.get(t, 0.0) for t in tokens & bag])
            best_example = max((len(tokens & e) / len(tokens | e) for e in examples), default=0.0)
            out.append((name, overlap + 2.0 * best_example))
        out.sort(key=lambda item: -item[1])
        return out

    def best(self, text: str, *, minimum: float = 0.5) -> str | None:
        """The best-scoring target, or None when nothing scores at least ``minimum``."""
        ranked = self.scores(text)
        if not ranked or ranked[0][1] < minimum:
            return None
        return ranked[0][0]

"""Which part of the bot's reply goes with which request: the matcher's probabilities as the
missed-request check (:mod:`harness.detect.missed`) reads a turn, with questions back read in the
message that asks them (:func:`matched`). The fitting tools replay the check through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set

from harness.detect._kinds import asked_kinds, asks_back_in, given_kinds
from harness.detect.answers import AnswerMatcher, words_of
from harness.text._shapes import SUBJECTS

__all__ = ["matched"]


def matched(
    model: AnswerMatcher,
    texts: Sequence[str],
    found: Sequence[tuple[str, frozenset[str], bool, str]],
    *,
    adjust: Callable[[list[list[float]]], None] | None = None,
    fixed: Set[int] = frozenset(),
) -> tuple[list[list[float]], list[float]]:
    """How likely each part of the bot's reply (:func:`reply_parts`) answers each request, as the
    check reads a turn, and the limit each part must pass: the matcher's probabilities (then
    ``adjust``-ed in place), read again with questions back without a question mark counted as
    questions when several messages answer something or ask back, and kept to one request per
    message (:func:`_keep_to_topic`; rows in ``fixed`` are left as they are). The fitting tools
    replay the check through this."""
    claims = [text for text, _, _, _ in found]
    wholes = [whole for _, _, _, whole in found]
    opens = [first for _, _, first, _ in found]
    limits = [model.threshold if first else model.later_threshold for first in opens]

    def read(bare_questions: bool) -> list[list[float]]:
        p = model.probabilities(texts, claims, wholes, bare_questions=bare_questions)
        if adjust is not None:
            adjust(p)
        return p

    p = read(False)
    # A question back without its question mark is read as one only where each message is one
    # agent's (then the message says which request it is about: _keep_to_topic); in one message
    # holding every answer it could go with any request. Only a message that asks back or holds
    # some request's best answer counts: "One moment please." or "Thanks for waiting." beside one
    # composed reply leaves it one.
    bare = [
        asks_back_in(c, whole) and not c.rstrip().endswith("?")
        for c, whole in zip(claims, wholes, strict=True)
    ]
    if any(bare):
        tops = [max(range(len(claims)), key=row.__getitem__) for row in p]
        best = {k for k, row in zip(tops, p, strict=True) if row[k] >= limits[k]}
        speaking = sum(
            1 for parts in _by_message(opens) if any(bare[j] or j in best for j in parts)
        )
        if speaking > 1:
            p = read(True)
    asked = [words_of(t) for t in texts]
    _go_on_about(p, texts, asked, found, fixed=fixed)
    _keep_to_topic(p, texts, asked, found, limits, fixed=fixed)
    return p, limits


SURE_TOPIC = 0.9
"""How likely a part sharing words with a request must be to answer it for the questions back
after it in its message to go on about that request (:func:`_go_on_about`)."""


def _go_on_about(
    p: list[list[float]],
    texts: Sequence[str],
    asked: Sequence[frozenset[str]],
    found: Sequence[tuple[str, frozenset[str], bool, str]],
    *,
    fixed: Set[int],
) -> None:
    """A bot that answers in several messages (one agent each) asks back about what it was just
    talking about: a question back that shares no word with any request ("Who should receive
    it?", "In what city?") after a part of its message that shares words with one request and
    very likely answers it ("Which account do you want the money transferred from?" for "make a
    transfer for me") goes on about that request, and answers no other, unless it gives a value
    of a kind that other request asks for. Generic questions back fit most requests about as
    well ("What city?" after a restaurant's question could follow up a weather question too), so
    without this one of them stands in for the answer of a request the bot dropped. A question
    that opens its message, or follows no such part, keeps its own reading; so does a single
    message (a reply composed of several answers), and rows in ``fixed`` (declared requests)."""
    groups = _by_message([first for _, _, first, _ in found])
    if len(groups) < 2:
        return
    every = frozenset().union(*asked)
    open_rows = [i for i in range(len(asked)) if i not in fixed]
    for parts in groups:
        topic = None
        for j in parts:
            text, words, _, whole = found[j]
            if words & every:
                sure = [i for i, own in enumerate(asked) if words & own and p[i][j] >= SURE_TOPIC]
                topic = sure[0] if len(sure) == 1 else None
                continue
            if topic is None or not asks_back_in(text, whole):
                continue
            given = given_kinds(text)
            for i in open_rows:
                if i != topic and not asked_kinds(texts[i]) & given:
                    p[i][j] = 0.0


def _value_phrase(text: str) -> bool:
    """Whether a part may be a value phrase hung on the clause before it ("on April 4th", "for
    $27", "Saturday"): it does not open a clause of its own, with a joining word ("and $1,250 in
    wages arrives Friday") or a subject ("an invitation went to him", "the radiator is off")."""
    words = text.lower().split(maxsplit=1)
    return bool(words) and words[0].strip("\"'(") not in _OPENS_CLAUSE


# A joining word or a subject (determiners, pronouns) at the start of a part opens a clause.
_OPENS_CLAUSE = frozenset(SUBJECTS.split("|")) | {"and", "but", "or", "so", "then"}


def _by_message(opens: Sequence[bool]) -> list[list[int]]:
    """The parts of each message, by the part that opens it."""
    groups: list[list[int]] = []
    for j, first in enumerate(opens):
        if first or not groups:
            groups.append([])
        groups[-1].append(j)
    return groups


def _keep_to_topic(
    p: list[list[float]],
    texts: Sequence[str],
    asked: Sequence[frozenset[str]],
    found: Sequence[tuple[str, frozenset[str], bool, str]],
    limits: Sequence[float],
    *,
    fixed: Set[int],
) -> None:
    """A bot that answers in several messages (one agent each) goes on about one request in each:
    a question back in a message that shares no word with any request ("Which city?", "How
    many tickets?") answers only the request the message's other parts answer,
    when they answer one and share words with it ("Would you prefer a certain hotel? What is
    your check in date?" for "book me a hotel", not for "who directed it" beside it), no other
    message answers that one (then what this one shares with it may be chance), and those
    questions give no value of a kind the other request asks for. Several such questions of one
    message ask about one request between them: the one any of them answers best. The rest of
    the sentence that answers that request goes with it on the same terms: a part cut from it
    (at a value, a clause) that shares no word with any request and does not open the message
    ("Your table at Nonna's is booked" + "for 8 pm on Friday") answers no other request, unless
    it gives a value of a kind that request asks for; only value phrases hung on that part one
    after another count, not a clause opened by "and" or a subject ("... and an invitation went
    to him"). Anything else (a sentence of its own, an
    answer worded unlike its request) keeps its own reading. A single
    message (a reply composed of several answers) is not held to one request. Rows in ``fixed``
    (declared requests) are left as they are."""
    groups = _by_message([first for _, _, first, _ in found])
    if len(groups) < 2:
        return
    every = frozenset().union(*asked)
    # The messages in which each request passes its limit, taken once, as the matching left them
    # (so the rule reads every message alike, whatever order they come in).
    answering = [
        {m for m, parts in enumerate(groups) for j in parts if row[j] >= limits[j]} for row in p
    ]
    for m, parts in enumerate(groups):
        unworded = [j for j in parts if not found[j][1] & every]
        free = [j for j in unworded if asks_back_in(found[j][0], found[j][3])]
        # What may be the rest of a sentence that answers the message's request (read below).
        rest = [j for j in unworded if j not in free]
        if not free and not rest:
            continue
        open_rows = [i for i in range(len(asked)) if i not in fixed]
        if len(free) > 1 and open_rows:
            # The questions of one message go on about one request: "Where are you heading? And
            # when do you want to depart?" asks about one, the one either answers best.
            best = max(open_rows, key=lambda i: max(p[i][j] for j in free))
            p[best][free[0]] = max(p[best][j] for j in free)
            for i in open_rows:
                for j in free[1:]:
                    p[i][j] = 0.0
        topics = {
            i
            for j in parts
            for i, words in enumerate(asked)
            if found[j][1] & words and p[i][j] >= limits[j]
        }
        if len(topics) != 1:
            continue
        (topic,) = topics
        if answering[topic] - {m}:
            continue  # another message answers it: what this one shares with it may be chance
        given = frozenset().union(*(given_kinds(found[j][0]) for j in free))
        # The sentences that answer the topic in its own words: a part cut from one of them goes
        # with it ("12:45 pm" + "at Dr Okafor's clinic" answers the appointment, not the music).
        own = {j for j in parts if found[j][1] & asked[topic] and p[topic][j] >= limits[j]}
        # Only value phrases hung on such a part of this message, one after another ("for 8 pm" +
        # "on Friday"; never the part that opens the message): a clause after "and" with a
        # subject of its own ("and an invitation went to him") is an answer of its own, however
        # the sentence was cut.
        held: set[int] = set()
        for j in parts:
            if (
                j in rest
                and j - 1 in own | held
                and found[j - 1][3] == found[j][3]
                and _value_phrase(found[j][0])
            ):
                held.add(j)
        rest = [j for j in rest if j in held]
        for i in open_rows:
            if i == topic:
                continue
            if not asked_kinds(texts[i]) & given:
                for j in free:
                    p[i][j] = 0.0
            for j in rest:
                if not asked_kinds(texts[i]) & given_kinds(found[j][0]):
                    p[i][j] = 0.0

"""One turn's matching of the missed-request check (:mod:`harness.detect.missed`), up to reading
meaning: the bot's parts given to the requests by the learned matcher, declared requests judged by
their words, refusals and apologies read; then which requests are left out, and how sure that is
(:meth:`_Matched.missing`, with or without the vectors of ``--semantic``). Kept apart from
:mod:`harness.detect.missed`, which reads the turns of a transcript and reports."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.detect._answer_findings import finding_features
from harness.detect._answer_terms import claim_acts, own_words
from harness.detect._assigning import matched
from harness.detect._declines import (
    decline_rows,
    declines,
    gives_up,
    names,
    polarity,
    refusals,
)
from harness.detect._kinds import asks_back, asks_back_in
from harness.detect._meaning import (
    Closeness,
    Meanings,
    meaning_features,
    semantic_confidence,
)
from harness.detect._reply_parts import part_clauses, reply_parts
from harness.detect._units import answered_instead, clause_answer, second_answer
from harness.detect.answers import all_words_of, matcher, says_yes_or_no, words_of

if TYPE_CHECKING:
    from harness.detect.missed import DeclaredRequest

__all__ = ["_Matched", "_match", "answer_terms"]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Rows:
    """The matcher's side of a turn's matching: its rows (the requests it judges) against the
    bot's parts, after the matching."""

    judged: list[int]
    """The request of each row."""
    texts: list[str]
    found: list[tuple[str, frozenset[str], bool, str]]
    """The bot's parts (:func:`~harness.detect._reply_parts.reply_parts`)."""
    words: list[frozenset[str]]
    """Each part's words."""
    asked: list[frozenset[str]]
    """Each request's words."""
    polar: list[int]
    """Whether each request asks yes or no (0: it does not), and how a refusal reads for it
    (:func:`~harness.detect._declines.polarity`)."""
    p: list[list[float]]
    limits: list[float]
    left_out: dict[int, float]
    """The rows the matching leaves without a part, with the default confidence."""
    owner: dict[int, int]
    """Part -> the row the matching gave it to."""
    said: Sequence[str]
    """What the bot said, message by message (the parts' sentences and clauses are read from it
    only when a request is left out: :func:`~harness.detect._units.clause_answer`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Matched:
    """One turn's matching, which reads no meaning (:func:`~harness.detect.missed.judge` up to the requests it leaves
    out), kept so that the check under ``--semantic`` matches each turn once: to learn which
    texts to embed (:func:`~harness.detect.missed.check_texts`), then to judge with their vectors."""

    declared: set[int]
    """The requests that declare their words."""
    unsaid: dict[int, float]
    """The declared requests none of whose words was said."""
    rows: _Rows | None
    """The matcher's side; None when every request judged declares its words."""
    declined: frozenset[int] = frozenset()
    """The requests a refusal of the bot matched or named (:mod:`harness.detect._declines`)."""

    def missing(self, meanings: Meanings | None) -> dict[int, float]:
        """:func:`~harness.detect.missed.judge`'s result, reading ``meanings`` if given."""
        missing = dict(self.unsaid)
        if self.rows is None:
            return missing
        declared, rows = self.declared, self.rows
        judged, texts, found, words = rows.judged, rows.texts, rows.found, rows.words
        asked, polar, p, limits = rows.asked, rows.polar, rows.p, rows.limits
        left_out, owner = dict(rows.left_out), rows.owner
        model = matcher()
        claims = [text for text, _, _, _ in found]
        opens = [first for _, _, first, _ in found]
        own = own_words(asked)
        closeness = (
            Closeness.of(meanings, texts, claims, opens)
            if meanings is not None and left_out
            else None
        )
        semantic = (
            semantic_confidence(meanings.model)
            if closeness is not None and meanings is not None
            else None
        )

        def confidence(k: int, owner: dict[int, int]) -> float:
            features = finding_features(p, owner, k, texts[k], claims, model.associations)
            if closeness is None or semantic is None:
                return model.confidence(features)
            return semantic([*features, *meaning_features(closeness, owner, k)])

        if closeness is not None:
            left_out = {k: confidence(k, owner) for k in left_out}
        wholes = [whole for _, _, _, whole in found]
        clauses: list[tuple[int, int]] | None = None
        for k, sure in left_out.items():
            i = judged[k]
            if i not in declared and second_answer(k, texts, claims, wholes, owner):
                continue
            if i not in declared:
                clauses = part_clauses(rows.said) if clauses is None else clauses
                if clause_answer(k, texts, found, clauses, owner, limits):
                    continue
            instead = answered_instead(k, texts, claims, owner) if i not in declared else None
            if instead is not None and judged[instead] not in declared:
                # The sentence answers ``k``, not the question: the question is left out, as
                # sure as its own figures say with that sentence given to ``k``.
                swapped = {j: k if o == instead else o for j, o in owner.items()}
                k, i, sure = instead, judged[instead], confidence(instead, swapped)
            # One yes or no often answers two yes/no questions ("Is it free and child-friendly?"
            # "Yes, both free and child-friendly."; "They don't have live music or alcohol"):
            # a sentence that says one answers this question, even when the matching gave it to
            # another, when it is likely enough to or has all of the question's own words.
            if i in declared or (
                polar[i]
                and any(
                    (p[k][j] >= limits[j] or (own[i] and own[i] <= words[j]))
                    and says_yes_or_no(claims[j])
                    and not declines(claims[j], polar=polar[i])
                    for j in range(len(claims))
                )
            ):
                continue
            missing[i] = sure
        return missing


def _match(requests: Sequence[DeclaredRequest], said: Sequence[str]) -> _Matched:
    """A turn's matching, without meaning (:class:`_Matched`)."""
    found = reply_parts(said)
    claims = [text for text, _, _, _ in found]
    words = [all_words_of(text) for text in claims]
    declared = {i for i, r in enumerate(requests) if r.words}
    # What a declared request's words are looked for in (none declared: not needed).
    terms = [w | _numbers(text) for w, text in zip(words, claims, strict=True)] if declared else []
    asked = [words_of(r.text) for r in requests]
    # "Sorry, it cannot be refunded" answers "is the ticket refundable": a yes/no question is
    # answered by a no, apology or not.
    polar = [polarity(r.text) for r in requests]  # 0 unless it asks yes or no
    gave_up = [gives_up(text) for text in claims]
    opens = [first for _, _, first, _ in found]
    refused = refusals(claims, polar)
    missing = {
        i: 1.0
        for i in declared
        if not any(
            _needs(requests[i]) & t
            and not (up and not polar[i] and names(asked[i], w))
            and not refused[i][j]
            for j, (w, t, up) in enumerate(zip(words, terms, gave_up, strict=True))
        )
    }
    declined = {  # a declared request whose words only a refusal said
        i
        for i in missing
        if any(no and _needs(requests[i]) & t for t, no in zip(terms, refused[i], strict=True))
    }
    judged = [i for i, r in enumerate(requests) if i in declared or asked[i]]
    if len(judged) <= len(declared):
        return _Matched(declared=declared, unsaid=missing, rows=None, declined=frozenset(declined))
    model = matcher()
    if model.paraphrases and _fewer_answers(len(requests), found):
        # A question back, or fewer sentences than requests: some sentence must answer two, or
        # a request went without. A sentence said in other words is the weakest reading of all,
        # so it is not released to a request here (it could be the answer of a request with no
        # word to match, "when will I be off again", given to a neighbour whose own answer is
        # missing, or a question back could stand in for the request left without).
        model = model.holding_to_words()
    texts = [requests[i].text for i in judged]
    fixed = {row for row, i in enumerate(judged) if i in declared}

    def adjust(p: list[list[float]]) -> None:
        """The matcher's probabilities ``p`` corrected in place: declared rows, apologies naming
        a request, refusals (``matched`` calls it once per reading of the reply; every reading
        adds the requests its refusals matched or named to ``declined``)."""
        for row, i in enumerate(judged):
            if i in declared:  # its sentences are those with its words, and no others
                p[row] = [1.0 if _needs(requests[i]) & t else 0.0 for t in terms]
            for j, up in enumerate(gave_up):
                if up and not polar[i] and names(asked[i], words[j]):
                    p[row][j] = 0.0  # "Sorry, I could not finish ...": named, not answered
        declined.update(decline_rows(model, p, judged, refused, opens, asked, claims))

    p, limits = matched(model, texts, found, adjust=adjust, fixed=fixed)
    left_out, owner = model.judged(p, texts, claims, opens)
    rows = _Rows(
        judged=judged,
        texts=texts,
        found=found,
        words=words,
        asked=asked,
        polar=polar,
        p=p,
        limits=limits,
        left_out=left_out,
        owner=owner,
        said=said,
    )
    return _Matched(declared=declared, unsaid=missing, rows=rows, declined=frozenset(declined))


CLOSING = 0.5
"""The least probability of a part only closing for it not to count as a possible answer."""


def _fewer_answers(requests: int, found: Sequence[tuple[str, frozenset[str], bool, str]]) -> bool:
    """Whether the turn may lack an answer: the bot asks the user something (a question back,
    :func:`asks_back_in` of a part or the whole sentence: "At what time?"), or its sentences (a
    sentence cut into clauses counts once) that do not only close ("Anything else?", a goodbye:
    the dialogue-act tagger, whose readings the matcher's features reuse) are fewer than the
    requests. A question back answers no request: it follows one up, or stands in for an answer
    the bot did not give, so it is no sentence that answers."""
    wholes = {whole for _, _, _, whole in found}
    if len(wholes) < requests:
        return True
    if any(asks_back_in(text, whole) or asks_back(whole) for text, _, _, whole in found):
        return True
    kept = {whole for text, _, _, whole in found if claim_acts(text)[0] < CLOSING}
    return len(kept) < requests


# A number as written, its separators included ("2016", "4.5", "650-341-6888", "5:30", "$1,200"),
# and digit groups written apart, as phone numbers are ("(650) 341 6888").
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_GROUPED = re.compile(r"\d+(?:[ .()-]{1,3}\d+)+")


def _numbers(text: str) -> frozenset[str]:
    """The numbers of a text by their digits ("650-341-6888", "(650) 341-6888" alike), which
    content words leave out."""
    runs = _NUMBER.findall(text) + _GROUPED.findall(text)
    return frozenset("#" + re.sub(r"\D", "", m) for m in runs)


def answer_terms(words: Sequence[str]) -> frozenset[str]:
    """What the check looks for in an answer for declared ``words``: their content words and
    numbers (an entry that gives none, "no" or "£", can match no answer)."""
    return frozenset(w for word in words for w in all_words_of(word) | _numbers(word))


def _needs(request: DeclaredRequest) -> frozenset[str]:
    """What a declared request's answer contains: its words' content words and numbers."""
    return answer_terms(request.words)

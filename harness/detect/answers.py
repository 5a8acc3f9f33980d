"""Which request of a user message each sentence the bot sent addresses: a learned matcher.

Deciding "answered" from shared words alone fails both ways: an answer in the bot's own words
("Your balance is $3,120" for "how much money do I have") shares none, and a sentence about one
request can mention another's subject in passing. So every pair (request, sentence the bot sent)
is described by a few general features and a logistic regression turns them into the probability
that the sentence addresses that request:

- **wording**: the share of the request's content words (stems) the sentence has, of its
  distinctive words (those no other request of the message has), and of its words matched by a
  shared prefix ("reservation" / "reserve");
- **rank**: whether this request is the one the sentence shares most with, and by what margin;
  whether it shares only words the request has in common with another request ("PTO days" for
  "how many PTO days have I accrued" beside "... used": a hard negative);
- **what was asked for**: a "when" question answered with a date or time (a year only when it
  is the value the sentence gives, not beside another value: "26 days left for 2026"), a "how
  much" with an amount, a "where" with a place or an address, a phone number or a contact
  with an id ("+44 20 7946 0018"), a kind of thing ("what genre") with a name, a yes/no
  question with a yes or a no (:mod:`harness.detect._kinds`); and whether the sentence gives a kind of value this request asks for and no other
  request of the message does;
- **values**: numbers, dates and names the request gives that the sentence repeats ("AA123");
- **shape**: the sentence is a question back (a follow-up about the request), or it shares no
  word with any request (and how many words it has then: a specific sentence about something
  nobody asked is not a vague follow-up); how likely it only closes ("anything else?") or asks for details (the
  dialogue-act tagger of :mod:`harness.detect.acts`);
- **association**: how strongly the sentence's words go with the request's words in replies
  ("leave" and "depart" with "flight" or "bus", "album" with "song"): normalised pointwise mutual
  information between the words of a user turn and those of the system turn after it (and of
  the sentences of it that give a slot the user asked for), the system's side counted with the
  kinds of value it gives ("damage" with an amount) and whether it says yes or no ("alcohol"
  with a "no"; :func:`reply_terms`), on the Schema-Guided Dialogue *train* dialogues (CC BY-SA
  4.0), and the margin over the other requests.

A sentence that shares only the words a request has in common with another is held back from
it (:func:`_may_answer`) unless its words go with that request's own words more than with the
other's ("The destination is Union Station" for "arrive", not "depart"), or it is likely to
answer no request at all and shares more with this one than with any other. A question back
that shares no word with any request follows one up only if nothing says it is about another
task (:mod:`harness.detect._asked_about`: "How many bedrooms do you need?" for "what time is
the movie").

Then the sentences are assigned to the requests: each sentence answers at most one request, and a
request is answered when some assignment of sentences with a probability of at least
``threshold`` gives it one (a maximum matching: a request is flagged only when no way of reading
the bot's sentences leaves one for it). A sentence after the first of its message more often
goes on about the same request ("What city? And for what date?"), so it needs more
(``later_threshold``) to answer a request on its own. A sentence may also answer a second
request, when it is very likely to (``shared_threshold``): "You used 8 PTO days and have 12
left".

Weights and thresholds ship in ``_models/answers.json``, fitted by ``tools/detector/fit_answers.py``
on the development sets only (among them real SGD train requests answered by the reply sentences
that give what they asked for) (``docs/journal/simulate.md`` says which, and gives held-out
figures). Inference is pure Python.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from harness.detect._answer_findings import (
    FINDING_FEATURES,
    assignment,
    finding_features,
    unmatched,
)
from harness.detect._answer_terms import (
    ASSOCIATED,
    Associations,
    all_words_of,
    association,
    claim_acts,
    own_words,
    prefix_share,
    reply_terms,
    words_of,
)
from harness.detect._asked_about import asked_elsewhere
from harness.detect._kinds import (
    asked_kinds,
    asks_a_count,
    asks_back,
    asks_back_in,
    asks_yes_or_no,
    facts_of,
    given_kinds,
    only_counts,
    says_yes_or_no,
)

__all__ = [
    "ASSOCIATED",
    "FEATURES",
    "FINDING_FEATURES",
    "AnswerMatcher",
    "all_words_of",
    "asks_yes_or_no",
    "assignment",
    "association",
    "finding_features",
    "matcher",
    "pair_features",
    "reply_terms",
    "says_yes_or_no",
    "words_of",
]

_MODEL = Path(__file__).resolve().parent / "_models" / "answers.json"

FEATURES = (
    "overlap",
    "distinctive",
    "any_distinctive",
    "prefix",
    "claim_share",
    "best",
    "margin",
    "only_match",
    "asked_kind",
    "shared_value",
    "claim_question",
    "claim_unclaimed",
    "request_words",
    "claim_closing",
    "claim_asks",
    "follows_own",
    "associated",
    "associated_margin",
    "misses_distinctive",
    "unclaimed_words",
    "own_kind",
)


def pair_features(
    requests: Sequence[str],
    claims: Sequence[str],
    table: Associations | None = None,
    *,
    bare_questions: bool = False,
    wholes: Sequence[str] | None = None,
    with_acts: bool = True,
) -> list[list[list[float]]]:
    """``features[i][j]``: the :data:`FEATURES` of request ``i`` and sentence ``j``.

    ``bare_questions``: a sentence that reads as a question without its question mark counts as
    one (:func:`~harness.detect._kinds.asks_back`, read with the sentence it was cut from,
    ``wholes[j]``, when given); otherwise only a question mark makes one. ``with_acts=False``:
    the two features of the sentence's dialogue acts (``closing``, ``asks``) are 0, for a caller
    that reads neither (the act tagger is the costliest step of a sentence's features)."""
    table = table or {}
    if not requests:
        return []
    words = [words_of(r) for r in requests]
    distinct = own_words(words)
    claim_words = [words_of(c) for c in claims]
    # How much each sentence shares with each request (wording, prefixes counted).
    share = [[prefix_share(words[i], cw) for cw in claim_words] for i in range(len(requests))]
    terms = [reply_terms(c) for c in claims]
    assoc = [[association(words[i], t, table) for t in terms] for i in range(len(requests))]
    # The request each sentence shares most with (None: none, or a tie).
    owner: list[int | None] = []
    for j in range(len(claims)):
        column = [share[k][j] for k in range(len(requests))]
        top = max(column, default=0.0)
        owner.append(column.index(top) if top > 0 and column.count(top) == 1 else None)
    asked = [asked_kinds(r) for r in requests]
    # What each sentence brings whatever the request: made once per sentence, not per pair.
    count = len(requests)
    facts = [(given_kinds(c), facts_of(c)[1]) for c in claims]
    acts = [claim_acts(c) for c in claims] if with_acts else [(0.0, 0.0)] * len(claims)
    matched = [[k for k in range(count) if share[k][j] > 0] for j in range(len(claims))]
    questions = [
        1.0
        if (
            (asks_back_in(c, wholes[j]) if wholes is not None else asks_back(c))
            if bare_questions
            else c.rstrip().endswith("?")
        )
        else 0.0
        for j, c in enumerate(claims)
    ]
    sizes = [math.log1p(len(cw)) for cw in claim_words]
    # Per sentence, the best share and association among the other requests than each one
    # (read once per sentence, not once per pair).
    share_others = [_others_best([share[k][j] for k in range(count)]) for j in range(len(claims))]
    assoc_others = [_others_best([assoc[k][j] for k in range(count)]) for j in range(len(claims))]
    out: list[list[list[float]]] = []
    for i, request in enumerate(requests):
        kinds = asked[i]
        rival_kinds = frozenset().union(*(a for k, a in enumerate(asked) if k != i))
        _, request_values = facts_of(request)
        own = words[i]
        mine = distinct[i]
        size = math.log1p(len(own))
        row = []
        for j, cw in enumerate(claim_words):
            best_other = share_others[j][i]
            claim_kinds, claim_values = facts[j]
            hits = matched[j]
            closing, asks = acts[j]
            shared = own & cw
            row.append(
                [
                    len(shared) / len(own) if own else 0.0,
                    len(mine & cw) / len(mine) if mine else 0.0,
                    1.0 if mine & cw else 0.0,
                    share[i][j],
                    len(shared) / len(cw) if cw else 0.0,
                    1.0 if share[i][j] > best_other else 0.0,
                    share[i][j] - best_other,
                    1.0 if hits == [i] else 0.0,
                    1.0 if kinds & claim_kinds else 0.0,
                    1.0 if request_values & claim_values else 0.0,
                    questions[j],
                    1.0 if not hits else 0.0,
                    size,
                    closing,
                    asks,
                    1.0 if j > 0 and owner[j - 1] == i and not hits else 0.0,
                    assoc[i][j],
                    assoc[i][j] - assoc_others[j][i],
                    1.0 if mine and not mine & cw and shared else 0.0,
                    sizes[j] if not hits else 0.0,
                    1.0 if (kinds - rival_kinds) & claim_kinds else 0.0,
                ]
            )
        out.append(row)
    return out


def _others_best(column: list[float]) -> list[float]:
    """For each ``k``, the largest of ``column``'s other values than ``column[k]`` (0 when it has
    none): ``max((column[m] for m in range(len(column)) if m != k), default=0.0)`` for every
    ``k``, from the column's largest and second largest values."""
    if len(column) < 2:
        return [0.0] * len(column)
    top = max(column)
    out = [top] * len(column)
    at = column.index(top)
    if column.count(top) == 1:  # the top's own best other is the second largest
        out[at] = max(column[:at] + column[at + 1 :])
    return out


@dataclass(frozen=True, slots=True)
class AnswerMatcher:
    """A fitted logistic regression over :data:`FEATURES` and the two assignment thresholds."""

    weights: tuple[float, ...]
    bias: float
    threshold: float
    """The least probability for a sentence to answer a request at all."""
    later_threshold: float
    """The same for a sentence that is not the first of its message."""
    shared_threshold: float
    """The least probability for a sentence already given to one request to answer another."""
    associations: Associations = field(default_factory=dict)
    paraphrases: Associations = field(default_factory=dict)
    """Per word of a sentence, the words of a request it goes with when both are one need put
    in two people's words (CLINC150 *train* utterances of one intent); read only by the release
    of the first rule (:func:`_said_otherwise`), never by the learned score."""
    finding_weights: tuple[float, ...] = ()
    """A logistic regression over :data:`FINDING_FEATURES`: how sure a request the matching
    leaves out is really unanswered (none: every one is sure)."""
    finding_bias: float = 0.0
    report_threshold: float = 0.0
    """The least confidence at which a missed request is reported, chosen on the development
    sets so that at most 1 % of their turns where every request was answered, taken together,
    are flagged."""

    @classmethod
    def load(cls, path: Path = _MODEL) -> AnswerMatcher:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if list(raw["features"]) != list(FEATURES):
            raise ValueError(f"{path} was fitted on other features: {raw['features']}")
        found = raw.get("finding_features", list(FINDING_FEATURES))
        if list(found) != list(FINDING_FEATURES):
            raise ValueError(f"{path} was fitted on other finding features: {found}")
        return cls(
            weights=tuple(float(w) for w in raw["weights"]),
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
            later_threshold=float(raw["later_threshold"]),
            shared_threshold=float(raw["shared_threshold"]),
            associations=_unpack(raw.get("associations", {})),
            paraphrases=_unpack(raw.get("paraphrases", {})),
            finding_weights=tuple(float(w) for w in raw.get("finding_weights", ())),
            finding_bias=float(raw.get("finding_bias", 0.0)),
            report_threshold=float(raw.get("report_threshold", 0.0)),
        )

    def probabilities(
        self,
        requests: Sequence[str],
        claims: Sequence[str],
        wholes: Sequence[str] | None = None,
        *,
        bare_questions: bool = False,
    ) -> list[list[float]]:
        """``p[i][j]``: how likely sentence ``j`` addresses request ``i``.

        ``wholes[j]``: the sentence claim ``j`` was cut from, when it is a part of one ("have 12
        left" of "You used 8 PTO days and have 12 left"); a part that shares no word with any
        request, cut from a sentence that does, answers only the requests its whole sentence may
        answer (:func:`_may_answer`), so cutting a sentence never lets a part whose subject was
        left in the rest of it answer what the sentence could not. Other parts are judged by
        their own words ("The workshop is located at 40 Mill Lane" of "... and starts at 10 am",
        "you can reach them at 617-555-0199" of "they are at 41 Elm Street and ...")."""
        features = pair_features(
            requests, claims, self.associations, bare_questions=bare_questions, wholes=wholes
        )
        leads = _distinct_leads(requests, claims, features, self.associations)
        released = _said_otherwise(requests, claims, features, self.paraphrases, wholes)
        counted = _counted_only(requests, claims, features)
        counted |= _asked_of_another(requests, claims, features, self.associations)
        p = [
            [
                self._probability(x)
                if (_may_answer(x) or (i, j) in leads) and (i, j) not in counted
                else 0.0
                for j, x in enumerate(row)
            ]
            for i, row in enumerate(features)
        ]
        # A release that would leave some request of the message with no sentence likely to
        # answer it is not made: the sentence may be that request's own answer, given to a
        # neighbour of one domain whose answer is missing ("I've added it to your calendar"
        # released to "what's on my schedule tomorrow" when the bot never answered it, while
        # "add lunch with Sam" goes without), or the reply to a part asking nothing ("Great,
        # I've booked it" for "yes, that works"). The turn is flagged either way; withheld, it
        # is flagged for the request left unanswered.
        if released:
            least = min(self.threshold, self.later_threshold)
            unmet = {i for i, row in enumerate(p) if max(row, default=0.0) < least}
            if unmet <= {i for i, _ in released}:
                for i, j in released:
                    p[i][j] = self._probability(features[i][j])
        # A sentence the second rule of ``_may_answer`` holds back from the request it shares
        # most with, and likely to answer no request, answers that one after all: it is about
        # that request in the words it has in common with another ("which insurance plan do I
        # have" for "what insurance plan I enrolled in" beside "a new car insurance plan").
        # A sentence sharing as much with two requests ("12 PTO days left" for "accrued" and
        # "used") is still held back from both.
        for j in range(len(claims)):
            if all(p[i][j] < self.threshold for i in range(len(requests))):
                for i, pairs in enumerate(features):
                    x = pairs[j]
                    if x[_AT["best"]] and x[_AT["misses_distinctive"]] and not p[i][j]:
                        p[i][j] = self._probability(x)
        if wholes is not None:
            _held_to_wholes(p, requests, claims, wholes, features, self.associations)
        return p

    def holding_to_words(self) -> AnswerMatcher:
        """This matcher without its paraphrase table: no sentence is released to a request
        by what people say for one need (:func:`_said_otherwise`)."""
        return replace(self, paraphrases={}) if self.paraphrases else self

    def _probability(self, x: Sequence[float]) -> float:
        return _logistic(self.bias + sum(w * v for w, v in zip(self.weights, x, strict=True)))

    def confidence(self, x: Sequence[float]) -> float:
        """How sure an unanswered request (its :func:`finding_features`) is really unanswered."""
        if not self.finding_weights:
            return 1.0
        z = self.finding_bias + sum(w * v for w, v in zip(self.finding_weights, x, strict=True))
        return _logistic(z)

    def judged(
        self,
        p: Sequence[Sequence[float]],
        requests: Sequence[str],
        claims: Sequence[str],
        opens: Sequence[bool] | None = None,
    ) -> tuple[dict[int, float], dict[int, int]]:
        """The requests the matching leaves out, each with how sure that is (reported from
        :attr:`report_threshold` up), and the matching itself (sentence -> request)."""
        columns = len(p[0]) if p else 0
        limits = [
            self.threshold if opens is None or opens[j] else self.later_threshold
            for j in range(columns)
        ]
        missing, owner = assignment(p, limits, self.shared_threshold)
        sure = {
            i: self.confidence(
                finding_features(p, owner, i, requests[i], claims, self.associations)
            )
            for i in missing
        }
        return sure, owner

    def unanswered(
        self, requests: Sequence[str], claims: Sequence[str], opens: Sequence[bool] | None = None
    ) -> list[int]:
        """The indexes of the requests no sentence addresses (see the module's docstring).

        ``opens[j]`` says whether sentence ``j`` is the first of its message (all are, when
        not given)."""
        return self.unanswered_of(self.probabilities(requests, claims), opens)

    def unanswered_of(
        self, p: Sequence[Sequence[float]], opens: Sequence[bool] | None = None
    ) -> list[int]:
        """:meth:`unanswered` from the probabilities ``p[i][j]`` (some rows may be given)."""
        columns = len(p[0]) if p else 0
        limits = [
            self.threshold if opens is None or opens[j] else self.later_threshold
            for j in range(columns)
        ]
        return unmatched(p, limits, self.shared_threshold)


def _unpack(raw: dict[str, str]) -> Associations:
    """``{"leav": "bus 0.481 flight 0.423"}`` into ``{"leav": {"bus": 0.481, "flight": 0.423}}``."""
    out: Associations = {}
    for word, packed in raw.items():
        parts = packed.split()
        out[word] = {parts[k]: float(parts[k + 1]) for k in range(0, len(parts) - 1, 2)}
    return out


_AT = {name: k for k, name in enumerate(FEATURES)}


def _may_answer(x: Sequence[float]) -> bool:
    """The two rules above the learned score, so that a bot answering the wrong thing is seen:

    - a sentence that shares no word with any request answers one only when it gives what that
      request asks for (a date for "when", an amount for "how much"), asks back about it, or its
      words go with that request more than with the others ("12 PTO days left" answers neither
      "reset my VPN password" nor "when do I get paid");
    - a sentence that shares only the words a request has in common with another request, and
      none of its own, does not answer it ("12 PTO days left" for "how many PTO days have I
      accrued" beside "how many PTO days have I used"), unless it gives a kind of value this
      request asks for and the others do not ("The shuttle gets there at 4:15 pm" for "when
      does the shuttle arrive" beside "which stop does the shuttle leave from") or its words go
      with this request more than with the others ("destination" with "arrive").

    A learned feature for the first rule, fitted with wrong-topic answers as negatives, was
    tried (2026-12-02) and did not keep these cases flagged, so the rules stay."""
    if x[_AT["claim_unclaimed"]]:
        return bool(
            x[_AT["asked_kind"]]
            or x[_AT["claim_question"]]
            or (x[_AT["associated_margin"]] > 0 and x[_AT["associated"]] > ASSOCIATED)
        )
    return not x[_AT["misses_distinctive"]] or bool(
        x[_AT["own_kind"]]
        or (x[_AT["associated_margin"]] > 0 and x[_AT["associated"]] > ASSOCIATED)
    )


def _held_to_wholes(
    p: list[list[float]],
    requests: Sequence[str],
    claims: Sequence[str],
    wholes: Sequence[str],
    features: Sequence[Sequence[Sequence[float]]],
    table: Associations,
) -> None:
    """A part cut from a sentence (``wholes[j]``) that shares no word with any request answers
    only the requests its whole sentence may answer (:func:`_wholes_allow`): ``p`` set to 0 in
    place for the others. A whole sentence that shares no word with any request says nothing its
    parts do not ("located at 860 Willow Street and can be contacted at 408-289-8879").

    Whether a part shares a word with some request is the same in every row (the
    ``claim_unclaimed`` feature), and each whole sentence is read on its own, so only the
    sentences of such parts are read (most parts share a word with some request)."""
    unclaimed = _AT["claim_unclaimed"]
    cut = [
        j
        for j, claim in enumerate(claims)
        if features and wholes[j] != claim and features[0][j][unclaimed]
    ]
    if not cut:
        return
    allowed = _wholes_allow(requests, sorted({wholes[j] for j in cut}), table)
    for i, row in enumerate(p):
        for j in cut:
            if not allowed[wholes[j]][i]:
                row[j] = 0.0


def _wholes_allow(
    requests: Sequence[str], sentences: Sequence[str], table: Associations
) -> dict[str, list[bool]]:
    """Per whole sentence, whether it may answer each request: by the rules of
    :func:`_may_answer` and :func:`_distinct_leads`, or as a sentence that shares no word with any
    request. Each sentence's answer reads only that sentence and the requests (not the other
    sentences), and neither rule reads the dialogue acts, so the features are made without the
    act tagger."""
    whole = pair_features(requests, sentences, table, with_acts=False)
    leads = _distinct_leads(requests, sentences, whole, table)
    unclaimed = _AT["claim_unclaimed"]
    return {
        sentence: [
            _may_answer(row[j]) or (i, j) in leads or bool(row[j][unclaimed])
            for i, row in enumerate(whole)
        ]
        for j, sentence in enumerate(sentences)
    }


def _counted_only(
    requests: Sequence[str],
    claims: Sequence[str],
    features: Sequence[Sequence[Sequence[float]]],
) -> set[tuple[int, int]]:
    """The pairs the first rule of :func:`_may_answer` lets through only because the sentence
    gives a number of the kind the request asks for, where that number counts what the bot
    found ("I found 10.", "There are 7 movies available") and the request asks no count: a count
    of results is no balance, price or address ("what is my checking balance" beside "find me
    a hotel" is not answered by the hotel's "I found 10.")."""
    out: set[tuple[int, int]] = set()
    for j, claim in enumerate(claims):
        if not features or not features[0][j][_AT["claim_unclaimed"]] or not only_counts(claim):
            continue
        given = given_kinds(claim)
        for i, row in enumerate(features):
            x = row[j]
            if (
                x[_AT["asked_kind"]]
                and not x[_AT["claim_question"]]
                and not (x[_AT["associated_margin"]] > 0 and x[_AT["associated"]] > ASSOCIATED)
                and asked_kinds(requests[i]) & given == {"number"}
                and not asks_a_count(requests[i])
            ):
                out.add((i, j))
    return out


def _asked_of_another(
    requests: Sequence[str],
    claims: Sequence[str],
    features: Sequence[Sequence[Sequence[float]]],
    table: Associations,
) -> set[tuple[int, int]]:
    """The pairs the first rule of :func:`_may_answer` lets through only because the sentence
    asks back, where the question is about another task than the request
    (:func:`~harness.detect._asked_about.asked_elsewhere`: positive evidence from SGD train that
    the question is of another domain than the request, or that another request of the message
    is of its domain): "How many people will be dining?" does not follow up "what's my checking
    balance". Without such evidence a question back keeps its lenient reading."""
    out: set[tuple[int, int]] = set()
    for j, claim in enumerate(claims):
        if not features or not features[0][j][_AT["claim_unclaimed"]]:
            continue
        if not features[0][j][_AT["claim_question"]]:
            continue
        for i, row in enumerate(features):
            x = row[j]
            if x[_AT["asked_kind"]] or (
                x[_AT["associated_margin"]] > 0 and x[_AT["associated"]] > ASSOCIATED
            ):
                continue
            others = [r for k, r in enumerate(requests) if k != i]
            if asked_elsewhere(claim, requests[i], table, others=others):
                out.add((i, j))
    return out


def _distinct_leads(
    requests: Sequence[str],
    claims: Sequence[str],
    features: Sequence[Sequence[Sequence[float]]],
    table: Associations,
) -> set[tuple[int, int]]:
    """The pairs the second rule of :func:`_may_answer` holds back whose sentence goes with the
    request's own words (those no other request has) more than with any other request's own
    words: "The destination is Union Station" shares only "station" with "which station does the
    bus arrive to" beside "... depart from", and its words go with "arrive" more than with
    "depart". The association over all the request's words cannot tell, as the shared words
    weigh the same for both; "You have 12 PTO days left" goes with neither "accrued" nor "used"."""
    held = [
        (i, j)
        for i, row in enumerate(features)
        for j, x in enumerate(row)
        if x[_AT["misses_distinctive"]] and not _may_answer(x)
    ]
    if not held:
        return set()
    words = [words_of(r) for r in requests]
    own = own_words(words)
    out = set()
    for i, j in held:
        terms = reply_terms(claims[j])
        mine = association(own[i], terms, table)
        rivals = max(
            (association(own[k], terms, table) for k in range(len(own)) if k != i), default=0.0
        )
        if mine > ASSOCIATED and mine > rivals:
            out.add((i, j))
    return out


def _said_otherwise(
    requests: Sequence[str],
    claims: Sequence[str],
    features: Sequence[Sequence[Sequence[float]]],
    table: Associations,
    wholes: Sequence[str] | None = None,
) -> set[tuple[int, int]]:
    """The pairs the first rule of :func:`_may_answer` holds back whose sentence says what the
    request asks for in other words: a whole sentence sharing no word with any request, which the
    first rule holds back from every request, answers the one whose words go with its words, and
    its words with the request's, in what people say for one need (``table``:
    :attr:`AnswerMatcher.paraphrases`, both ways, the weaker of the two), more than any other
    request's ("Your annual pay is on the payroll page" for "what do I earn" beside "set a
    timer"). A part cut from a sentence is left to its sentence's reading; a sentence that goes
    with two requests as much is released to neither; :meth:`AnswerMatcher.probabilities` makes
    the release only when no other request of the message is left without a likely answer. A
    sentence that asks the user something (:func:`~harness.detect._kinds.asks_back`: "At what
    time?") is never released: a question back is no answer said in other words, and released
    it would stand in for the request it leaves unanswered. No table: nothing is released."""
    if not table:
        return set()
    held = [
        j
        for j in range(len(claims))
        if (wholes is None or wholes[j] == claims[j])
        and features
        and features[0][j][_AT["claim_unclaimed"]]
        and not any(_may_answer(row[j]) for row in features)
        and not asks_back(claims[j])
    ]
    if not held:
        return set()
    words = [words_of(r) for r in requests]
    terms = [reply_terms(r) for r in requests]
    kinds = [asked_kinds(r) for r in requests]
    out = set()
    for j in held:
        said, back = reply_terms(claims[j]), words_of(claims[j])
        scores = [
            min(association(w, said, table), association(back, t, table))
            for w, t in zip(words, terms, strict=True)
        ]
        best = max(range(len(scores)), key=scores.__getitem__)
        rivals = max((v for k, v in enumerate(scores) if k != best), default=0.0)
        # What the request asks for (a time, an amount, a place) must be what the sentence
        # gives: a sentence of the request's subject that gives none answers another need
        # of that subject ("Your vacation request was not approved" for "how much PTO have I
        # used"), not this one.
        fits = not kinds[best] or bool(kinds[best] & given_kinds(claims[j]))
        if scores[best] > ASSOCIATED and scores[best] > rivals and fits:
            out.add((best, j))
    return out


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def matcher() -> AnswerMatcher:
    """The shipped matcher (``_models/answers.json``)."""
    return AnswerMatcher.load()

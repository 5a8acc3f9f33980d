"""The missed-request check under ``--semantic``: with an embedder, ``detect`` embeds the
requests and the bot's sentences once each, and the semantic finding confidence
(``_models/answers-semantic.json``) withholds a finding whose answer means what its request
asks in other words; a dropped request stays flagged. Without an embedder the check is the
default one. docs/simulate.md, "The check under ``--semantic``", gives the figures."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

import pytest

from harness.detect import DetectorConfig, detect
from harness.detect._answer_findings import FINDING_FEATURES
from harness.detect._meaning import MEANING_FEATURES, Meanings, semantic_confidence
from harness.detect.answers import matcher
from harness.detect.embeddings import Embedder
from harness.detect.missed import check_texts, missed_requests
from harness.detect.transcript import Message, Transcript

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
    reads_requests = True

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
        reads_requests = False

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

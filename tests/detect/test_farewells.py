"""The farewell reader of ``harness simulate``'s silent last turns (``harness.detect._farewells``).

New text, written for these tests: imperatives that share words with bot closings are requests,
and a silent last turn after one is a ``missed_request``; the shipped model is what its training
script fits.
"""

from __future__ import annotations

import base64
import json
from array import array
from pathlib import Path

import pytest

from harness.detect._farewells import farewell_words, farewells
from harness.detect.transcript import Message, Transcript
from harness.simulate._silent import reads_as_goodbye, silent_last_turns

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
MODEL = ROOT / "harness" / "detect" / "_models" / "goodbyes.json"


def _last_turn_silent(text: str) -> Transcript:
    t = Transcript(conversation="c")
    t.append(Message(id="u1", turn=1, role="user", sender="user", text="When does the gym open?"))
    t.append(Message(id="b1", turn=1, role="bot", sender="bot", text="The gym opens at 6 am."))
    t.append(Message(id="u2", turn=2, role="user", sender="user", text=text))
    return t


@pytest.mark.parametrize(
    "request_text",
    ["Please take care of the refund", "Have the invoice sent to my office"],
)
def test_an_imperative_sharing_words_with_a_bot_closing_is_still_missed(request_text: str) -> None:
    # The act tagger, fitted on bot sentences ("Take care!", "Have a great day"), read these as
    # goodbyes, so a bot that said nothing to them passed.
    assert not reads_as_goodbye(request_text)
    (finding,) = silent_last_turns(_last_turn_silent(request_text), {})
    assert finding.kind == "missed_request"
    assert finding.turn == 2


@pytest.mark.parametrize(
    "farewell", ["See you soon, thanks a lot", "Bye for now!", "Have a lovely weekend"]
)
def test_a_farewell_left_unanswered_is_not_missed(farewell: str) -> None:
    assert reads_as_goodbye(farewell)
    assert silent_last_turns(_last_turn_silent(farewell), {}) == []


@pytest.mark.parametrize(
    "request_text",
    [
        "Thanks, that's all I need, but can you update my reservation",
        "Cheers, that is everything, but please make my appointment later",
    ],
)
def test_a_thank_you_before_a_request_is_no_goodbye(request_text: str) -> None:
    # The whole text may read as a farewell (its words are farewells' words), but a clause asks.
    assert not reads_as_goodbye(request_text)
    assert silent_last_turns(_last_turn_silent(request_text), {})


def test_a_farewell_none_of_whose_clauses_is_one_reads_whole() -> None:
    # Fitted on whole utterances: the two clauses alone read as no farewell, the whole does.
    text = "That is all I need. Thank you."
    assert not any(farewells().reads(clause) for clause in ("That is all I need", "Thank you"))
    assert reads_as_goodbye(text)
    assert silent_last_turns(_last_turn_silent(text), {}) == []


def test_a_word_no_farewell_holds_keeps_a_text_from_reading_as_one() -> None:
    reader = farewells()
    assert reader.probability("See you") >= 0.5
    assert reader.reads("See you")
    # "dentist" is in no farewell of the training material: the text asks for something.
    assert "dentist" not in reader.words
    assert not reader.reads("See you at the dentist")
    assert farewell_words("Room 12, bye!") == ["room", "0", "bye"]


@pytest.mark.skipif(
    not (DATA / "sgd").is_dir() or not (DATA / "clinc150").is_dir(),
    reason="../shared/data/sgd and clinc150 are not beside the repo",
)
def test_the_shipped_model_is_what_its_script_fits(tmp_path: Path) -> None:
    from tools.detector.fit_goodbyes import main

    out = tmp_path / "goodbyes.json"
    main(["--sgd", str(DATA / "sgd"), "--clinc", str(DATA / "clinc150"), "--out", str(out)])
    fitted = json.loads(out.read_text(encoding="utf-8"))
    shipped = json.loads(MODEL.read_text(encoding="utf-8"))
    # Features, words and acts exactly; the weights to one int8 step and the bias and scale
    # closely (another CPU or numpy may round a float of the fit the other way).
    for key in ("acts", "features", "words", "about"):
        assert fitted[key] == shipped[key], key
    assert fitted["scale"] == pytest.approx(shipped["scale"], rel=1e-6)
    assert fitted["bias"] == pytest.approx(shipped["bias"], abs=1e-3)
    a = array("b", base64.b64decode(fitted["weights"]))
    b = array("b", base64.b64decode(shipped["weights"]))
    assert len(a) == len(b)
    assert max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1

"""The SGD pair builder (``tools/detector/sgd.py``) on small dialogues written in SGD's format:
a turn that lists several values of one slot is no paraphrase of another turn's wording."""

from __future__ import annotations

import random

from tools.detector.sgd import SystemTurn, Templates, system_turns


def _dialogue(name: str, text: str, values: list[str]) -> dict[str, object]:
    spans = []
    for value in values:
        start = text.index(value)
        spans.append(["movie_name", start, start + len(value)])
    return {
        "id": name,
        "turns": [
            {"speaker": "USER", "text": "Any movies tonight?", "frames": []},
            {
                "speaker": "SYSTEM",
                "text": text,
                "frames": [
                    {
                        "service": "Movies_1",
                        "actions": [["OFFER", "movie_name", values]],
                        "spans": spans,
                    }
                ],
            },
        ],
    }


def _turn(dialogue: dict[str, object]) -> SystemTurn:
    turn = system_turns(dialogue)[1]
    assert turn is not None
    return turn


def test_a_turn_listing_several_values_is_no_paraphrase_source() -> None:
    # Fails before lists were refused: only the first value was put into the other wording,
    # whose other titles stayed ("... Citizen Kane, Dogman or Dumbo?"), and the pair was
    # labelled a paraphrase of an offer of three other films.
    listed = _dialogue(
        "1_00001", "How about Dumbo, Hellboy or Shazam?", ["Dumbo", "Hellboy", "Shazam"]
    )
    other = _dialogue(
        "1_00002",
        "Would you like Citizen Kane, Dogman or Little?",
        ["Citizen Kane", "Dogman", "Little"],
    )
    templates = Templates([listed, other])
    assert _turn(listed).listed and _turn(listed).located() is None
    assert templates.paraphrase(_turn(listed), random.Random(1)) is None
    assert templates.paraphrase(_turn(other), random.Random(1)) is None


def test_a_turn_with_one_value_per_slot_is_still_paraphrased() -> None:
    one = _dialogue("1_00001", "How about Dumbo tonight?", ["Dumbo"])
    two = _dialogue("1_00002", "Would you like to see Little?", ["Little"])
    templates = Templates([one, two])
    assert templates.paraphrase(_turn(one), random.Random(1)) == "Would you like to see Dumbo?"

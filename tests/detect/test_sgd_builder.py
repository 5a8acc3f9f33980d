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


# --- a claim said again beside new content (the recap kinds) ---------------------------------


def _system(text: str, actions: list[tuple[str, str, str]]) -> dict[str, object]:
    spans = []
    for _, slot, value in actions:
        if value and value in text:
            start = text.index(value)
            spans.append([slot, start, start + len(value)])
    return {
        "speaker": "SYSTEM",
        "text": text,
        "frames": [
            {
                "service": "Libraries_1",
                "actions": [[a, s, [v] if v else []] for a, s, v in actions],
                "spans": spans,
            }
        ],
    }


def _user(text: str) -> dict[str, object]:
    return {"speaker": "USER", "text": text, "frames": []}


def _library(name: str, words: int, *, asked_hours: bool = False) -> dict[str, object]:
    """A library help dialogue in SGD's format; ``words`` picks one of two crowd wordings."""
    hours = ("The Central Library opens at 10 am on Sunday.", "On Sunday it opens at 10 am.")
    loans = ("You can borrow up to 5 e-books at a time.", "The limit is 5 e-books at once.")
    fines = ("Late returns cost $1 a day.", "A late return is charged $1 a day.")
    return {
        "id": name,
        "turns": [
            _user("Is the Central Library open on Sunday?"),
            _system(hours[words], [("INFORM", "open_time", "10 am")]),
            _user("Does it still open at 10 am?" if asked_hours else "Can I borrow e-books?"),
            _system(loans[words], [("INFORM", "max_items", "5")]),
            _user("What if I bring them back late?"),
            _system(
                fines[words] + " Anything else?",
                [("INFORM", "late_fee", "$1"), ("REQ_MORE", "", "")],
            ),
            _user("Do you have study rooms?"),
            _system(
                "Yes, there are 4 study rooms on the second floor.", [("INFORM", "rooms", "4")]
            ),
        ],
    }


def _templates() -> Templates:
    return Templates([_library("7_00001", 0), _library("7_00002", 1)])


def _texts(built: object) -> list[str]:
    from tools.detector.sgd import Built

    assert isinstance(built, Built)
    return [m.text for m in built.transcript.messages]


def test_a_claim_is_restated_beside_a_later_reply_before_its_question() -> None:
    from tools.detector.sgd import beside

    seen = set()
    for seed in range(12):
        built = beside(_library("7_00001", 0), _templates(), "aside", random.Random(seed))
        assert built is not None and built.kind == "aside" and not built.negatives
        ((earlier, later),) = built.duplicates
        texts = {m.id: m.text for m in built.transcript.messages}
        # the other crowd worker's wording with this dialogue's values, among the reply's own
        # sentences and never after the question it asks
        assert later != earlier and int(later.split("-")[1]) >= int(earlier.split("-")[1]) + 2
        reply = texts[later]
        assert "Anything else?" not in reply or reply.endswith("Anything else?")
        seen.add(earlier)
        # the user turns stay as they were
        assert [m.text for m in built.transcript.messages if m.role == "user"] == [
            t["text"]
            for t in _library("7_00001", 0)["turns"]
            if t["speaker"] == "USER"  # type: ignore[index]
        ]
    assert len(seen) >= 2  # several claims take a turn


def test_a_claim_the_user_brought_up_again_is_not_restated_unprompted() -> None:
    from tools.detector.sgd import beside

    dialogue = _library("7_00003", 0, asked_hours=True)
    for seed in range(12):
        built = beside(dialogue, _templates(), "aside", random.Random(seed))
        assert built is not None
        ((earlier, _),) = built.duplicates
        assert earlier != "7_00003-1"  # the opening hours the user named in between


def test_a_recap_of_two_claims_follows_the_turns_reply_in_a_message_of_its_own() -> None:
    from tools.detector.sgd import beside

    built = beside(_library("7_00001", 0), _templates(), "recap", random.Random(3))
    assert built is not None and built.kind == "recap" and len(built.duplicates) == 2
    messages = built.transcript.messages
    (later,) = {b for _, b in built.duplicates}
    at = next(i for i, m in enumerate(messages) if m.id == later)
    assert messages[at - 1].role == "bot" and messages[at - 1].turn == messages[at].turn
    assert len(messages) == len(_library("7_00001", 0)["turns"]) + 1  # type: ignore[arg-type]


def test_the_same_recap_asked_for_is_a_negative() -> None:
    from tools.detector.sgd import beside

    built = beside(_library("7_00001", 0), _templates(), "recap_asked", random.Random(3))
    assert built is not None and not built.duplicates and len(built.negatives) == 2
    (later,) = {b for _, b in built.negatives}
    messages = built.transcript.messages
    at = next(i for i, m in enumerate(messages) if m.id == later)
    asked = messages[at - 2]
    assert asked.role == "user" and asked.text != _library("7_00001", 0)["turns"][at - 2]["text"]  # type: ignore[index]


def test_other_values_in_the_same_place_are_a_negative() -> None:
    from tools.detector.sgd import beside

    built = beside(_library("7_00001", 0), _templates(), "aside_other", random.Random(1))
    other = _library("7_00002", 1)
    other["turns"][1] = _system(
        "The Central Library opens at 9 am on Sunday.", [("INFORM", "open_time", "9 am")]
    )  # type: ignore[index]
    other["turns"][3] = _system(
        "You can borrow up to 3 e-books at a time.", [("INFORM", "max_items", "3")]
    )  # type: ignore[index]
    other["turns"][5] = _system(
        "Late returns cost $2 a day. Anything else?",
        [("INFORM", "late_fee", "$2"), ("REQ_MORE", "", "")],
    )  # type: ignore[index]
    built = beside(
        _library("7_00001", 0),
        Templates([_library("7_00001", 0), other]),
        "aside_other",
        random.Random(1),
    )
    assert built is not None and not built.duplicates and len(built.negatives) == 1
    ((_, later),) = built.negatives
    text = next(m.text for m in built.transcript.messages if m.id == later)
    assert any(v in text for v in ("9 am", "3 e-books", "$2"))


def test_the_recap_kinds_leave_every_other_draw_as_it_was(monkeypatch: object) -> None:
    import tools.detector.sgd as sgd

    monkeypatch.setattr(sgd, "RECAP_SHARE", 1.0)  # type: ignore[attr-defined]
    templates = _templates()
    changed = 0
    for k in range(40):
        dialogue = _library(f"7_{k:05d}", k % 2)
        before = sgd.build(dialogue, templates, recaps=False)
        after = sgd.build(dialogue, templates)
        if before.kind != "none":
            assert after == before
        elif after != before:
            changed += 1
            assert after.kind in sgd.RECAP_KINDS
    assert changed

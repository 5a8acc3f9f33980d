"""How the per-sentence act tagger's training labels are placed (``tools.detector.fit_acts``), on
SGD-shaped turns written for these tests."""

from __future__ import annotations

from harness.detect.acts import tagger
from tools.detector.fit_acts import _turn, place


def test_acts_with_slot_values_go_to_the_sentence_holding_them() -> None:
    text = "Your table is booked. The restaurant is at 12 Main Street. Anything else?"
    turn = _turn(
        {
            "text": text,
            "frames": [
                {
                    "actions": [
                        ["NOTIFY_SUCCESS", "", []],
                        ["INFORM", "street_address", ["12 Main Street"]],
                        ["REQ_MORE", "", []],
                    ],
                    "spans": [["street_address", text.index("12"), text.index("12") + 14]],
                }
            ],
        }
    )
    assert turn.located == (frozenset(), frozenset({"INFORM"}), frozenset())
    assert turn.floating == {"NOTIFY_SUCCESS", "REQ_MORE"}
    # The acts without a value go where the first tagger finds them likeliest.
    assert place(turn, tagger()) == [
        frozenset({"NOTIFY_SUCCESS"}),
        frozenset({"INFORM"}),
        frozenset({"REQ_MORE"}),
    ]


def test_a_one_sentence_turn_keeps_all_its_acts() -> None:
    turn = _turn(
        {
            "text": "I booked it and it costs $40.",
            "frames": [
                {
                    "actions": [["NOTIFY_SUCCESS", "", []], ["INFORM", "price", ["$40"]]],
                    "spans": [],
                }
            ],
        }
    )
    assert place(turn, tagger()) == [frozenset({"NOTIFY_SUCCESS", "INFORM"})]

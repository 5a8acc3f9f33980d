"""The answer matcher's features and probabilities, and the needs model's, are the same to the
last bit in every process: a sum over a set of words is made exactly, not in the set's order
(which follows the process's string hashing, ``PYTHONHASHSEED``)."""

from __future__ import annotations

import pytest

from tests import hash_seeds

# New texts (written for this test): requests of one message and the sentences a bot answered.
_CASES = [
    (
        [
            "Can you move my dentist appointment to Thursday afternoon?",
            "and how much will the cleaning cost with my insurance plan",
        ],
        [
            "Your dentist visit is now on Thursday at 2:30 pm.",
            "With your plan the cleaning comes to $45.",
            "Anything else I can do for you?",
        ],
    ),
    (
        [
            "I want to rent a small car in Denver from the airport next Friday",
            "is there a hotel close to the convention center with free parking",
        ],
        [
            "A compact sedan is reserved for pickup at Denver airport on Friday.",
            "The Marriott on Welton Street has free parking and is a short walk away.",
        ],
    ),
    (
        [
            "What time does the bakery on Pine open tomorrow?",
            "Do they sell gluten free bread?",
            "Can I order a birthday cake for Sunday",
        ],
        [
            "They open at 7 am.",
            "Yes, they bake gluten free loaves daily.",
            "Which flavour would you like for the cake?",
        ],
    ),
    (
        [
            "book two tickets for the late showing of the space documentary",
            "and find me an Italian restaurant nearby for dinner before it",
        ],
        [
            "Two seats are booked for the 9:45 pm showing.",
            "Trattoria Roma is three blocks away and has a table at 7 pm.",
            "Enjoy the film!",
        ],
    ),
    (
        [
            "How many vacation days do I have left this year",
            "and when does my benefits enrollment close",
        ],
        ["You have 11 vacation days remaining.", "Open enrollment ends on November 15th."],
    ),
]

_SCRIPT = """
import json, sys
from harness.detect._needs import needs_probability
from harness.detect.answers import matcher, pair_features
m = matcher()
out = {"features": [], "probabilities": [], "needs": []}
hexes = lambda values: [v.hex() for v in values]
for requests, claims in json.loads(sys.stdin.read()):
    features = pair_features(requests, claims, m.associations)
    out["features"].append([[hexes(x) for x in row] for row in features])
    out["probabilities"].append([hexes(row) for row in m.probabilities(requests, claims)])
    out["needs"].append(hexes(map(needs_probability, requests + claims)))
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def by_seed() -> dict[int, dict[str, object]]:
    return hash_seeds.by_seed(_SCRIPT, _CASES)


@pytest.mark.parametrize("part", ["features", "probabilities", "needs"])
def test_the_same_texts_give_the_same_floats_whatever_the_string_hashing(
    by_seed: dict[int, dict[str, object]], part: str
) -> None:
    hash_seeds.assert_same(by_seed, part)

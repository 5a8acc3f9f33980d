"""Repeating named by a noun ("end with a summary of everything the sub-agents told the user"):
the instruction reader reads it as the verb, so the linter (HC017) and the offline rules model see
it; a negated or unrelated summary is not read (new sentences, several domains)."""

from __future__ import annotations

import pytest

from harness.text.instructions import read_sentence, repeats_answers

NOUN_REPEATS = [
    "Always end with a short summary of everything the sub-agents told the customer.",
    "Close every reply with a quick rundown of what the specialists told the passenger.",
    "Your last message should be a summary of all the answers the helper agents gave.",
    "Finish with a round-up of each sub-agent's response for the patient.",
    "Begin your reply with a repetition of what the connected agents said.",
    "Include a summary of the information each agent returned.",
]

NOT_REPEATS = [
    "Never finish with a summary of everything the sub-agents told the customer.",
    "Do not write a rundown of the specialists' answers.",
    "Give the guest a summary of their booking details.",
    "End with a summary of the next steps for the tenant.",
    "A recap of the sub-agents' replies is not needed.",
    "Write a summary of everything the caller told you, then pass it to the sub-agents.",
    "Reply without a recap of what the specialists said.",
    "Answer without repeating what the sub-agents said.",
    "If a sub-agent did not answer, end with a summary of the results.",
]


@pytest.mark.parametrize("sentence", NOUN_REPEATS)
def test_a_noun_of_repeating_is_read_as_repeat(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)
    assert repeats_answers(f"Greet the user. {sentence}") == sentence.rstrip(".")


@pytest.mark.parametrize("sentence", NOT_REPEATS)
def test_a_negated_or_unrelated_summary_is_not(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)

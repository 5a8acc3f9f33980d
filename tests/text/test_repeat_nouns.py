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
    "Ask the sub-agents, then end with a summary of what they said.",
    "Close with a rundown of what each specialist replied to the guest.",
    "Don't forget to end with a short summary of everything the specialists told the guest.",
    "Never interrupt the customer, and always close with a summary of what the sub-agents said.",
    "Never guess, just end with a summary of what the specialists told the passenger.",
    "End with a summary of what each of them said, after calling the sub-agents.",
    # The user as the indirect object of an imperative: the agent gives the summary.
    "Give the user a summary of what the sub-agents said.",
    "Always send the guest a short recap of everything the specialists told them.",
    "Then offer the caller a rundown of each helper agent's answer.",
]

# A denial later in the sentence does not undo an imperative: it is about something else.
VERB_REPEATS = [
    "Repeat each of the sub-agents' answers, even if they are not helpful.",
    "Repeat every subagent answer word for word, and do not skip those that seem unnecessary.",
    "Summarise all of the specialists' replies for the guest, even the ones that are not useful.",
    "Relay every answer the helper agents give, whether or not it seems necessary.",
]

NOT_REPEATS = [
    "Never finish with a summary of everything the sub-agents told the customer.",
    "Do not write a rundown of the specialists' answers.",
    "Give the guest a summary of their booking details.",
    "The user gets a summary of what the sub-agents said.",
    "Never give the user a summary of what the sub-agents said.",
    "End with a summary of the next steps for the tenant.",
    "A recap of the sub-agents' replies is not needed.",
    "Write a summary of everything the caller told you, then pass it to the sub-agents.",
    "Reply without a recap of what the specialists said.",
    "Answer without repeating what the sub-agents said.",
    "If a sub-agent did not answer, end with a summary of the results.",
    "There is no need for a summary of everything the sub-agents said.",
    "No need for a run-through of what the sub-agents told the shopper.",
    "Don't ever end with a long, detailed summary of what the subagents said.",
    "Never, under any circumstances, end with a long, detailed summary of what the subagents said.",
    "Do not give the guest a long, rambling summary of what the specialists replied.",
    "Under no circumstances, not even at the end, give a summary of what the specialists said.",
    "End with a summary of what each customer told the agent.",
    "Write a summary of what each patient told you and send it to the specialists.",
    "End with a summary of what they told you about the user's account.",
    "Repeating the sub-agents' answers is not needed.",
    "A summary of everything the helper agents told the customer is not necessary.",
    "A recap of the helper agents' answers would be superfluous.",
    "There is no need for a recap of what the sub-agents said.",
    "Don't ever end with a long, detailed recap of what the subagents said.",
]


@pytest.mark.parametrize("sentence", NOUN_REPEATS)
def test_a_noun_of_repeating_is_read_as_repeat(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)
    assert repeats_answers(f"Greet the user. {sentence}") == sentence.rstrip(".")


@pytest.mark.parametrize("sentence", VERB_REPEATS)
def test_a_later_denial_leaves_a_verb_of_repeating(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


@pytest.mark.parametrize("sentence", NOT_REPEATS)
def test_a_negated_or_unrelated_summary_is_not(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)

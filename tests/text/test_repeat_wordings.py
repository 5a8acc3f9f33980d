"""More ways of telling a parent to repeat what its sub-agents said (audit s59, finding 3): verbs
that repeat only what agents said ("sum up", "go through", "list", "remind ... of"), verbs of
telling with "again", and one named agent's answer ("what the leave agent said", "the HR
assistant's reply"). Sentences written for this test, several domains; the same verbs with
anything else as their object, or negated, are not read."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.lint import lint_paths
from harness.text.instructions import read_sentence

REPEATS = [
    "Once every specialist has replied, sum up for the customer everything they were told.",
    "Wrap up each conversation by going through all the answers the helper agents gave.",
    "When the billing agent is done, tell the caller again what it said.",
    "At the end, remind the guest of what each specialist told them.",
    "Finish your turn with a bullet list of every answer the sub-agents gave.",
    "Run through the replies from the child agents one more time before you sign off.",
    "Read back to the employee what the payroll agent told them.",
    "Give the shopper a quick rundown of what the order agent and the returns agent said.",
    "When both specialists are finished, present their answers to the member again in one message.",
    "Sum up what the leave agent said before you close the chat.",
    "Close every turn by listing the answers your sub-agents provided.",
    "Reiterate the HR assistant's reply at the end of your message.",
    "Always pull together everything the other agents told the customer into a final summary.",
    "Before ending the conversation, go over what the specialists already told the patient.",
    "Once the travel agent answers, restate its answer for the traveller.",
    "Mirror back to the student whatever the enrolment agent said.",
    "When the connected agents have finished, list for the user what each of them said.",
    "Include every specialist's answer again in your closing message.",
]

NOT_REPEATS = [
    "List the sub-agents that can help with the request.",
    "Give the customer a short summary of their open tickets.",
    "List the available appointment times for the patient.",
    "Sum up the user's request before you route it.",
    "Do not list what the specialists have already said.",
    "Write a recap of what the caller told you and send it to the billing agent.",
    "Go through the user's message and split it into separate requests.",
    "Remind the member to keep their card number private.",
    "Tell the caller which agent will handle the request.",
    "Tell the guest what the booking agent found.",
    "When the billing agent answers, add only what it left out.",
    "List everything the user asked for, then route each part.",
    "Never go over what the claims agent already told the policyholder.",
    "Restating the answer from the benefits agent, your leave is approved.",
    "Never repeat, summarise or acknowledge the billing agent's reply.",
]


@pytest.mark.parametrize("sentence", REPEATS)
def test_the_wording_is_read_as_repeat(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


@pytest.mark.parametrize("sentence", NOT_REPEATS)
def test_the_same_verbs_on_other_objects_are_not(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


def test_hc017_reports_a_parent_told_to_sum_up_a_named_agent(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\n  instructions: Sum up what the leave agent said before you close"
        " the chat.\nsubagents:\n  - name: leave\n    kind: connected\n    mode: direct\n"
        "    pass_history: false\n    description: Answers questions about paid leave.\n",
        encoding="utf-8",
    )
    assert "HC017" in {f.id for f in lint_paths([config]).findings}

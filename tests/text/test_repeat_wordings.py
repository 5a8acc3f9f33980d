"""More ways of telling a parent to repeat what its sub-agents said (audit s59, finding 3): verbs
that repeat only what agents said ("sum up", "go through", "list", "remind ... of"), verbs of
telling with "again" whose object is what agents said, and one named agent's answer ("what the
leave agent said", "the HR assistant's reply"). Sentences written for this test, several domains; the same verbs with
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
    "Never repeat, summarise or acknowledge the billing agent's reply.",
]

# Verbs of telling and "remind" whose object is something other than what the agents said, or
# that tell it on to an agent: the review of s59-fixlint read these as repeat (they failed HC017
# and turned the offline composer's `answered` check off). They were written against the code,
# so they are regression cases, not a measure.
TOLD_SOMETHING_ELSE = [
    "Remind the user that the leave agent's answers are only estimates.",
    "Remind users that the billing agent's replies can take a minute.",
    "Send the user's message to the IT agent again if it times out.",
    "Share the booking agent's results page link again if the user lost it.",
    "Explain again how the refund agent's messages are formatted.",
    "Tell the user once more that the leave agent's answer may change.",
    "Provide the survey link again after the feedback agent's reply.",
    "Mention again that the policy agent's answers are not legal advice.",
    "Give the shopper the order agent's phone number again if they ask.",
    "Send the leave agent's reply to the payroll agent again.",
]

# A participle clause of repeating that opens a sentence: with a statement after the comma it is
# a message acknowledging an answer, with an imperative an instruction.
PARTICIPLE_STATEMENTS = [
    "Repeating what the payroll agent said, your next payslip arrives on the 28th.",
    "Echoing the travel agent's reply, it is a direct flight.",
    "Going over what the booking agent told you, the room is free until noon.",
]
PARTICIPLE_INSTRUCTIONS = [
    "Repeating what the payroll agent said, close the turn with a short thank-you.",
    "Going over what the booking agent told the guest, confirm the dates before you close.",
    "Echoing the travel agent's reply, wrap up the conversation.",
]


# A strong verb of repeating whose object is a free relative, "whatever" an agent said or
# returned (audit s59, finding 3's remaining case), written for this test in other domains; the
# same verbs on whatever the user said, negated, or on what an agent asks are not read.
WHATEVER_REPEATS = [
    "Repeat whatever the pharmacy agent returns, word for word.",
    "Echo back whatever the claims assistant comes back with.",
    "Summarise whatever the two specialists reported before you close.",
    "Copy whatever the shipping helper replied into your final message to the shopper.",
]
WHATEVER_NOT = [
    "Forward whatever the user writes to the billing agent.",
    "Do not repeat whatever the loyalty agent already told the member.",
    "Summarise whatever the caller tells you before routing it.",
    "Copy whatever the guest typed into the booking agent's request.",
    "Never echo whatever a specialist said.",
]


@pytest.mark.parametrize("sentence", WHATEVER_REPEATS)
def test_whatever_an_agent_said_is_read_as_repeat(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


@pytest.mark.parametrize("sentence", WHATEVER_NOT)
def test_whatever_someone_else_said_or_a_denial_is_not(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize("sentence", REPEATS)
def test_the_wording_is_read_as_repeat(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


@pytest.mark.parametrize("sentence", NOT_REPEATS)
def test_the_same_verbs_on_other_objects_are_not(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize("sentence", TOLD_SOMETHING_ELSE)
def test_telling_the_user_something_else_is_no_repeat(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize("sentence", PARTICIPLE_STATEMENTS)
def test_a_participle_opening_a_statement_is_no_instruction(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize("sentence", PARTICIPLE_INSTRUCTIONS)
def test_a_participle_opening_an_imperative_is_an_instruction(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


def test_hc017_leaves_a_reminder_about_an_agents_answers_alone(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\n  instructions: Remind the user that the leave agent's answers"
        " are only estimates.\nsubagents:\n  - name: leave\n    kind: connected\n"
        "    mode: direct\n    pass_history: false\n    description: Answers questions about"
        " paid leave.\n",
        encoding="utf-8",
    )
    assert "HC017" not in {f.id for f in lint_paths([config]).findings}


def test_hc017_reports_a_parent_told_to_sum_up_a_named_agent(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\n  instructions: Sum up what the leave agent said before you close"
        " the chat.\nsubagents:\n  - name: leave\n    kind: connected\n    mode: direct\n"
        "    pass_history: false\n    description: Answers questions about paid leave.\n",
        encoding="utf-8",
    )
    assert "HC017" in {f.id for f in lint_paths([config]).findings}


# Audit s60-audit6, finding 9, and more of each construction written for this test in other
# domains: a strong verb of repeating on a free relative "what" an agent said ("recap what every
# agent told the user"); the user as the indirect object of an imperative of giving after an
# opening clause ("After the sub-agents finish, give the user a recap of ..."); and a verb with
# the particle "back" that hands the user what an agent said ("confirm back to the user what the
# pto agent said"). The same constructions on what the user said, told on to an agent, or
# negated are not read.
WHAT_AN_AGENT_SAID = [
    "At the end of each reply, recap what every agent told the user.",
    "Before you close, summarise what each specialist told the patient.",
    "Restate what both booking assistants replied in one closing line.",
    "Echo what all the helper agents returned at the end of your answer.",
]
GIVEN_AFTER_AN_OPENER = [
    "After the sub-agents finish, always give the user a short recap of everything they said.",
    "Once the claims agents are done, give the policyholder a brief recap of all their replies.",
    "When every specialist has answered, send the guest a summary of what each of them said.",
]
SAID_BACK = [
    "Always confirm back to the user what the pto agent said.",
    "Echo back to the customer what the returns agent replied.",
    "Confirm back to the guest everything the booking agent told them.",
    "Report back to the student what the enrolment assistant returned.",
]
SAID_BACK_NOT = [
    "Confirm back to the user what they asked for before you route it.",
    "Read back to the caller the card number the billing agent needs.",
    "Never confirm back to the customer what the returns agent said.",
    "Pass back to the scheduling agent what the patient told you.",
    "Summarise what the caller wants before you hand it to an agent.",
    "Recap what the traveller asked the flight agent, then route the rest.",
    "After the claims agent finishes, give the policyholder the form number.",
    "When the order agent is done, never give the shopper a recap of what it said.",
]


@pytest.mark.parametrize("sentence", WHAT_AN_AGENT_SAID + GIVEN_AFTER_AN_OPENER + SAID_BACK)
def test_recap_constructions_of_what_agents_said_are_read_as_repeat(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


@pytest.mark.parametrize("sentence", SAID_BACK_NOT)
def test_the_same_constructions_on_other_objects_are_not(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "At the end of each reply, recap what every agent told the user.",
        "After the sub-agents finish, always give the user a short recap of everything they said.",
        "Always confirm back to the user what the pto agent said.",
    ],
)
def test_hc017_reports_the_audit_recap_wordings(tmp_path: Path, sentence: str) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        f"parent:\n  name: desk\n  instructions: {sentence}\nsubagents:\n  - name: pto\n"
        "    kind: connected\n    mode: direct\n    pass_history: false\n"
        "    description: Answers questions about paid time off.\n",
        encoding="utf-8",
    )
    assert "HC017" in {f.id for f in lint_paths([config]).findings}


# Review of s60-fixlint, item 1: the constructions above read sentences that hand nothing to the
# user. Written by the reviewer and the mender (2026-12-05), several domains, before the mend:
# a verb with "back" that hands nothing on ("hold back", "roll back", "check back"); "they" who
# are the user; a repeat whose destination is another agent, a log, a ticket or a person on the
# staff; a relative clause whose verb is not one of saying, returning, answering or finding; and
# "each of them" who are people, not the agents.
HANDS_THE_USER_NOTHING = [
    "Hold back what the fraud agent found until the customer has passed verification.",
    "Keep back everything the risk assistant returned; the account holder must not see it.",
    "Roll back everything the booking agent returned if the payment fails.",
    "Check back what the pricing agent returned against the price list before you answer.",
    "Bring back what the inventory agent returned only after the store manager approves it.",
    "Cut back what the research assistant returned to the two newest papers.",
    "Send back what the claims agent returned to the claims agent with the missing fields.",
    "Confirm back to the caller what they said before you book anything.",
    "Read back to the patient what they told you, so they can correct the dosage.",
    "Play back to the tenant what they said about the leak, then route it to the repairs agent.",
    "Read back to the guest what they booked before you confirm.",
    "Relay what every specialist returned to the supervisor agent for approval.",
    "Forward what the triage agent returned to the billing agent unchanged.",
    "Copy what the lookup tool returned into the booking agent's request.",
    "Copy what every agent returns into the audit log, never into the chat.",
    "Copy what each agent returned into the ticket for the support team.",
    "Summarise what the three specialists returned in the case notes for the reviewer.",
    "Summarise what every assistant returned for the on-call engineer in the incident channel.",
    "Repeat what the lab agent returned to the billing agent if it asks again.",
    "Forward whatever the intake assistant collects to the claims agent.",
    "Copy whatever the search tool returns into the quote agent's request.",
    "Summarise whatever the research agents return into the weekly report for the compliance team.",
    "Pass on whatever the weather agent says to the routing agent.",
    "Relay whatever the pricing agent returns to the quote agent before you answer.",
    "In your first message, summarise what every agent can help with.",
    "Recap what both assistants need from the shopper in a single question.",
    "Restate what your agents are allowed to decide when the member asks about limits.",
    "Summarise what each assistant is able to do in your greeting.",
    "Recap what the scheduling agent still needs from the patient in one question.",
    "Restate what the two agents cover when the user asks for help.",
    "After the greeting, give the user a list of what each agent can do.",
    "Summarise what the agents are for when the user asks what you can do.",
    "Recap what each of the three helpers covers in your welcome message.",
    "In a group booking, send the travel agent a summary of what each of them said.",
    "When several tenants call together, give the housing assistant a summary of what each of"
    " them said.",
    "When a couple books together, give the hotel agent a summary of what each of them asked for.",
    "After both parents speak, send the school assistant a short summary of what each of them"
    " said.",
    "If the lab agent is down, give the patient a summary of what they told you so far.",
    "If the tax agent times out, give the client a recap of what they told you.",
]
# The same constructions handing the user what agents said stay read; "have all answered" is the
# verb, not the ``answered`` output.
HANDS_THE_USER_WHAT_AGENTS_SAID = [
    "Relay back to the passenger what the flight agent returned.",
    "Play back to the listener whatever the music agent found.",
    "Read back to the borrower everything the loan agent said.",
    "Pass back to the student everything the enrolment assistant returned.",
    "Summarise what the two claims agents returned before you close the turn.",
    "Recap what the pharmacy assistant told the patient at the end of your reply.",
    "Echo what the weather agent returned to the traveller.",
    "When all the agents have replied, give the member a summary of what each of them said.",
    "After the claims assistants reply, give the policyholder a recap of what each of them said.",
    "Once both helpers have answered, recap what they said in one line.",
    "After the specialists have all answered, summarise what each of them found for the tenant.",
    "When all the specialists have answered, summarise what every one of them told the traveller.",
    "Confirm back to the caller what the booking agent said.",
    "Restate what the order agent replied, word for word, for the shopper.",
]


@pytest.mark.parametrize("sentence", HANDS_THE_USER_NOTHING)
def test_passing_nothing_to_the_user_is_no_repeat(sentence: str) -> None:
    assert "repeat" not in read_sentence(sentence)


@pytest.mark.parametrize("sentence", HANDS_THE_USER_WHAT_AGENTS_SAID)
def test_handing_the_user_what_agents_said_is_still_read(sentence: str) -> None:
    assert "repeat" in read_sentence(sentence)


def test_hc017_leaves_a_parent_that_holds_back_an_agents_finding_alone(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: desk\n  instructions: Hold back what the fraud agent found until the"
        " customer has passed verification.\nsubagents:\n  - name: fraud\n    kind: connected\n"
        "    mode: direct\n    pass_history: false\n    description: Checks payments for fraud.\n",
        encoding="utf-8",
    )
    assert "HC017" not in {f.id for f in lint_paths([config]).findings}

"""The phrase detectors behind the text rules, on realistic wording."""

from __future__ import annotations

import pytest

from harness.lint.phrases import (
    OVERLAP_THRESHOLD,
    anchors_scope,
    asks_user,
    checks_answered,
    claims_only_speaker,
    description_similarity,
    forbids_user_messages,
    hints_answered,
)

FORBIDS = [
    "Never reply to the user yourself; put your answer in the findings output.",
    "Do not respond to the user.",
    "DO NOT respond directly to the user",
    "Never message the user directly.",
    "Don't send any messages.",
    "DO NOT call SendMessageTool or send any messages",
    "Only fill the output variables.",
    "ONLY populate the output variables with your response",
    "Return your answer in findings instead of replying.",
    "You must not talk to the user under any circumstances.",
    "You are not allowed to send messages to the customer.",
    "Do not contact the employee; the parent does that.",
    "Let the parent orchestrator deliver the response to the user.",
    "You are a silent agent: your output goes only to the parent agent.",
    "Your response is returned to the parent, not to the user.",
    "Refrain from replying to the user directly.",
    "The user will never see your messages, so write for the parent.",
    "Under no circumstances should you talk to the user.",
    "Don\u2019t reply to the user - fill in findings and openQuestions.",
    "Never write anything to the user.",
    "CRITICAL - DO NOT MESSAGE USERS",
]

NOT_FORBIDS = [
    "Respond to the user with the balance.",
    "Message the user with the result.",
    "Do not forget to respond to the user.",
    "Never reply to the user until you have checked the balance.",
    "Do not send more than one message.",
    "Don't respond to the user in French.",
    "If the lookup fails, do not message the user; return an error.",
    "Never respond to the user with raw JSON.",
    "Do not answer questions outside HR.",
    "Tell the user how many days they have left.",
    "You may message the user directly when the request is simple.",
    "Reply to the customer in a friendly tone and never share internal IDs.",
    "Use the balance tool instead of answering from memory.",
    "Do not ask the user for their employee ID; it is in the context.",
    "Fill the output variables and tell the user the result.",
    "Do not respond to the user about topics other than payroll.",
    "",
]


@pytest.mark.parametrize("text", FORBIDS)
def test_forbids_user_messages_recognises_prohibitions(text: str) -> None:
    assert forbids_user_messages(text)


@pytest.mark.parametrize("text", NOT_FORBIDS)
def test_forbids_user_messages_ignores_conditional_and_positive_wording(text: str) -> None:
    assert not forbids_user_messages(text)


CHECKS = [
    "Check the answered output of each sub-agent before you reply.",
    "If a sub-agent returns answered = true, do not repeat its answer.",
    "When answered is true, the user already has the answer; add only what is missing.",
    "Read `answered` on every result before you say anything.",
    "If a sub-agent has already answered the user, don't answer again.",
    "Don't repeat what a sub-agent has already told the user.",
    "Do not repeat answers that child agents already gave the user.",
    "Before responding, verify whether answered is true for each agent.",
    "Use the Answered output variable to decide whether to reply.",
    "If {Topic.answered} is true, skip that part of the request.",
    "Look at each agent's answered flag and skip whatever the user already received.",
    "When the payroll agent's answered value comes back as true, continue with the next request.",
]

NOT_CHECKS = [
    "Answer the user's questions about HR and IT.",
    "Make sure every question is answered.",
    "You are the only agent that talks to the user.",
    "Ignore the answered output; always write the full answer.",
    "Repeat the sub-agent's answer to the user in your own words.",
    "Summarize the findings and reply.",
    "Never leave a question unanswered.",
    "Always answer the user yourself, even if a sub-agent already answered.",
    "Don't repeat yourself.",
    "Do not check answered; it is unreliable.",
    "",
]


@pytest.mark.parametrize("text", CHECKS)
def test_checks_answered_recognises_checks(text: str) -> None:
    assert checks_answered(text)


@pytest.mark.parametrize("text", NOT_CHECKS)
def test_checks_answered_ignores_other_uses(text: str) -> None:
    assert not checks_answered(text)


ANCHORS = [
    "Treat scopedRequest as your initial request and ignore any other requests.",
    "Only work on the scoped request.",
    "Your task is in the `scopedRequest` input.",
    "Answer only what Topic.scopedRequest asks.",
    "Use the scoped_request field and nothing else.",
    "Only handle the request you were given by the parent.",
    "Ignore any other requests in the conversation history.",
    "Treat the request you receive as your initial request.",
    "Focus on the Scoped Request; the history is context only.",
    "Only answer the specific question that was passed to you.",
]

NOT_ANCHORS = [
    "Answer every request in the conversation.",
    "Ignore the scoped request and read the whole conversation.",
    "Help the user with PTO questions.",
    "Handle any request about payroll.",
    "Look at the full history to understand the user.",
    "Don't use the scopedRequest input; it is often empty.",
    "Only handle requests about passwords.",
    "Requests are scoped by department.",
    "Respond to all questions you see.",
    "Be concise.",
    "",
]


@pytest.mark.parametrize("text", ANCHORS)
def test_anchors_scope_recognises_anchors(text: str) -> None:
    assert anchors_scope(text)


@pytest.mark.parametrize("text", NOT_ANCHORS)
def test_anchors_scope_ignores_unanchored_wording(text: str) -> None:
    assert not anchors_scope(text)


HINTS = [
    "Answers PTO questions. If its answered output is true, the user has already received their "
    "response and it should not be answered again.",
    "Returns answered = true when it already replied to the user.",
    "Payroll dates. When answered is true, do not repeat its answer.",
    "Handles passwords; if it has already answered the user, do not answer again.",
    "Check `answered`: true means the user already got the reply.",
    "Its answered flag tells you whether the user already has the answer.",
    "Looks up orders. answered: false means relay its findings.",
    "IT tickets. An answered value of true means the user received the response already.",
    "Benefits. Do not repeat what this agent has already told the user.",
    "Expense reports. If answered comes back true, the user already has the answer.",
]

NOT_HINTS = [
    "Answers questions about paid time off.",
    "Returns an answered flag.",
    "Handles unanswered tickets.",
    "Answered questions are logged to the HR system.",
    "It does not return answered.",
    "This agent answers payroll questions quickly.",
    "Use it when the user asks about their payday.",
    "Provides information on accounts.",
    "Repeats the request back to the user.",
    "warehouse agent used for inventory queries",
    "",
]


@pytest.mark.parametrize("text", HINTS)
def test_hints_answered_recognises_hints(text: str) -> None:
    assert hints_answered(text)


@pytest.mark.parametrize("text", NOT_HINTS)
def test_hints_answered_ignores_descriptions_without_hint(text: str) -> None:
    assert not hints_answered(text)


ONLY_SPEAKER = [
    "You are the only agent that talks to the user.",
    "Only you talk to the user.",
    "You are the only one who speaks to the customer.",
    "You're the only agent allowed to message the user.",
    "You are the sole point of contact with the user.",
    "No other agent communicates with the user.",
    "Sub-agents never talk to the user; you relay everything.",
    "Child agents do not send messages to the user.",
    "You alone reply to the user.",
    "The user only hears from you.",
    "All messages to the user come from you.",
    "Only the orchestrator (i.e. you) responds to the user.",
]

NOT_ONLY_SPEAKER = [
    "You are the only agent with access to the HR database.",
    "Only talk to the user about HR topics.",
    "Sub-agents may talk to the user directly; check answered.",
    "Only you can approve refunds.",
    "You are not the only agent that talks to the user.",
    "Never assume you are the only agent that talks to the user; sub-agents may have answered.",
    "Talk to the user politely.",
    "Only answer the user when no sub-agent did.",
    "The user may hear from several agents.",
    "You only talk to the user when a sub-agent could not help.",
    "",
]


@pytest.mark.parametrize("text", ONLY_SPEAKER)
def test_claims_only_speaker_recognises_the_antipattern(text: str) -> None:
    assert claims_only_speaker(text)


@pytest.mark.parametrize("text", NOT_ONLY_SPEAKER)
def test_claims_only_speaker_ignores_other_claims(text: str) -> None:
    assert not claims_only_speaker(text)


NEAR_DUPLICATES = [
    ("Answers questions about paid time off.", "Answers questions about PTO and paid time off."),
    (
        "Handles IT support tickets and password resets.",
        "Resets passwords and handles IT support tickets.",
    ),
    ("Resets passwords for employees.", "Resets employee passwords and unlocks accounts."),
    ("Payroll.", "payroll"),
    (
        "Looks up the status of customer orders.",
        "This agent looks up customer order status.",
    ),
]

DISTINCT = [
    ("Answers questions about paid time off.", "Answers questions about payroll and pay dates."),
    ("Answers questions about PTO balances and accrual.", "Submits PTO requests for approval."),
    ("Looks up the status of an order.", "Cancels an order."),
    (
        "Answers questions about health insurance benefits.",
        "Answers questions about dental insurance benefits.",
    ),
    (
        "This agent provides information and performs tasks for accounts",
        "This agent provide ability to get information on contacts and perform actions on contacts",
    ),
    ("Resets passwords.", "Orders new laptops and monitors."),
]


@pytest.mark.parametrize(("a", "b"), NEAR_DUPLICATES)
def test_similar_descriptions_reach_the_threshold(a: str, b: str) -> None:
    assert description_similarity(a, b) >= OVERLAP_THRESHOLD


@pytest.mark.parametrize(("a", "b"), DISTINCT)
def test_distinct_descriptions_stay_below_the_threshold(a: str, b: str) -> None:
    assert description_similarity(a, b) < OVERLAP_THRESHOLD


# The three misreadings of issue 12, each pinned.

TRANSFER_FUNDS_STEP = (
    "4. Check the source account balance has enough funds to fund the transaction using the "
    "{System.Bot.Components.Actions.'crd1c_agent.action.ContosoBankingAPI-Getbalanceinformation'"
    ".DisplayName} tool, if it does not tell the user and you're done."
)


@pytest.mark.parametrize(
    "addressee",
    ["policyholder", "traveller", "caller", "member", "student", "patient", "employee", "customer"],
)
def test_a_silence_instruction_names_any_addressee(addressee: str) -> None:
    text = f"Do not respond to the {addressee}; the claims assistant does that."
    assert forbids_user_messages(text)


def test_an_answered_hint_across_a_semicolon_is_read() -> None:
    text = "Check its answered output; if it is true, the employee has already seen the answer."
    assert hints_answered(text)
    assert checks_answered(text)


def test_a_power_fx_reference_does_not_split_a_sentence_into_a_prohibition() -> None:
    assert not forbids_user_messages(TRANSFER_FUNDS_STEP)
    # The same step, the Power Fx reference written out without dots, reads the same.
    assert not forbids_user_messages(
        "Check the balance using the balance tool, if it does not tell the user and you're done."
    )
    # A real prohibition beside a Power Fx reference still counts.
    assert forbids_user_messages(
        "Use {Topic.Components.Actions.'x.action.Lookup'.DisplayName}. Do not message the user."
    )


ASKS_USER = [
    "Ask the guest which dates they want to stay.",
    "If the caller has not said, ask them for their order number.",
    "Before booking, confirm the flight details with the traveller.",
    "Clarify the choice with the patient when two clinics match.",
    "Show the open invoices to the customer and ask them which one to pay.",
    "Ask the user to confirm the amount before you submit the refund.",
    "When the address is ambiguous, check with the shopper which one they meant.",
]
NO_QUESTION = [
    "Tell the employee to ask HR about parental leave.",
    "Check the balance and tell the user the result.",
    "Ask the inventory tool for the stock level, then report it to the customer.",
    "Never ask the user for their password.",
    "Do not respond to the user; ask the parent if anything is unclear.",
    "Confirm the booking in the reservations system.",
    "Give the customer their tracking number.",
    "Confirm to the customer that the refund has been issued.",
    "Once the transfer is done, confirm it to the user.",
    "Ask the user nothing; answer from the knowledge source.",
    "Prompt the user with the answer and end.",
    "Confirm the booking for the user and tell them the reference number.",
]


@pytest.mark.parametrize("text", ASKS_USER)
def test_asks_user_recognises_questions_to_the_user(text: str) -> None:
    assert asks_user(text) is not None


@pytest.mark.parametrize("text", NO_QUESTION)
def test_asks_user_ignores_other_asks_and_plain_answers(text: str) -> None:
    assert asks_user(text) is None

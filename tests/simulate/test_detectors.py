"""The other detectors: silent leaks, awkward acks, missed requests, wrong scope, expectations."""

from __future__ import annotations

from dataclasses import dataclass

from harness.detect import check_expectations, detect
from harness.detect.transcript import PlannedRequest, TurnRecord
from tests.simulate._helpers import Bot, conversation, duplicates, kinds

PTO = "You have 12 vacation days left for 2026."
PAYDAY = "Your next payday is Friday, March 13."


def test_a_message_from_a_silent_agent_is_a_leak() -> None:
    t = conversation(("when is payday", [("payroll", PAYDAY, {"mode": "silent"})]))
    [finding] = detect(t)
    assert (finding.kind, finding.message_ids, finding.senders) == (
        "silent_leak",
        ("t1b1",),
        ("payroll",),
    )
    assert finding.severity == "error"


def test_a_silent_mode_known_from_the_config_counts_too() -> None:
    t = conversation(("when is payday", [("payroll", PAYDAY)]), modes={"payroll": "silent"})
    assert kinds(detect(t)) == ["silent_leak"]
    t = conversation(("when is payday", [("payroll", PAYDAY)]), modes={"payroll": "direct"})
    assert detect(t) == []


def test_the_parent_referring_to_an_answer_is_an_awkward_ack_warning() -> None:
    texts = [
        "As mentioned above, your next payday is Friday, March 13.",
        "As the payroll agent said, payday is on Friday.",
        "Like I told you, your laptop ships Tuesday.",
        "As I said earlier, the VPN is back up.",
    ]
    for text in texts:
        [finding] = detect(conversation(("payday?", [("helpdesk", text)])))
        assert (finding.kind, finding.severity, finding.message_ids) == (
            "awkward_ack",
            "warning",
            ("t1b1",),
        )


def test_a_subagent_quoting_the_parent_is_not_an_awkward_ack() -> None:
    t = conversation(
        ("payday?", [("payroll", "As mentioned above, payday is Friday.", {"mode": "direct"})])
    )
    assert detect(t) == []
    plain = conversation(("payday?", [("helpdesk", "As of today, payday is Friday, March 13.")]))
    assert detect(plain) == []


ASKED = "How many vacation days do I have left, and when is payday?"


def test_a_request_nothing_answered_is_missed_with_or_without_a_plan() -> None:
    bots: list[Bot] = [("pto", PTO, {"mode": "direct", "request": "vacation days"})]
    modes = {"pto": "direct", "payroll": "direct"}
    t = conversation((ASKED, bots), modes=modes)
    [finding] = detect(t)
    assert (finding.kind, finding.turn, finding.senders) == ("missed_request", 1, ())
    assert finding.evidence == '"when is payday": no bot message in the turn addresses it'
    planned = conversation(
        (ASKED, bots),
        plans={1: [("pto", "vacation days left"), ("payroll", "when is payday")]},
        modes=modes,
    )
    [with_plan] = detect(planned)
    assert with_plan.evidence == f"{finding.evidence} (planned for payroll)"


def test_a_request_the_plan_merged_into_another_says_so() -> None:
    t = conversation(
        (ASKED, [("pto", PTO, {"mode": "direct"})]),
        plans={1: [("pto", "How many vacation days do I have left and when is payday")]},
    )
    [finding] = detect(t)
    assert "when is payday" in finding.evidence
    assert "the plan merged it with 1 other request(s)" in finding.evidence
    assert finding.cause is not None and "planner merged it" in finding.cause


def test_a_request_the_plan_dropped_names_the_planner_as_its_cause() -> None:
    t = conversation(
        (ASKED, [("pto", PTO, {"mode": "direct"})]),
        plans={1: [("pto", "How many vacation days do I have left")]},
    )
    [finding] = detect(t)
    assert finding.cause is not None and finding.cause.startswith("the planner dropped it")


def test_a_request_planned_on_its_own_has_no_plan_cause() -> None:
    bots: list[Bot] = [("pto", PTO, {"mode": "direct", "request": "vacation days"})]
    t = conversation(
        (ASKED, bots),
        plans={1: [("pto", "vacation days left"), ("payroll", "when is payday")]},
        modes={"pto": "direct", "payroll": "direct"},
    )
    [finding] = detect(t)
    assert finding.cause is None


def test_a_silent_agents_findings_relayed_by_the_parent_are_not_missed() -> None:
    t = conversation(
        (ASKED, [("helpdesk", f"{PTO} {PAYDAY}")]),
        plans={1: [("pto", "vacation days"), ("payroll", "when is payday")]},
        modes={"pto": "silent", "payroll": "silent"},
    )
    assert detect(t) == []


def test_a_failed_agent_or_a_false_answered_claim_is_missed_even_with_a_parent_message() -> None:
    record = TurnRecord(
        turn=1,
        plan=(
            PlannedRequest(agent="pto", request="How many vacation days do I have left"),
            PlannedRequest(agent="payroll", request="when is payday"),
        ),
        answered_by=("pto",),
        failed=("payroll",),
    )
    t = conversation(
        (ASKED, [("helpdesk", "Sorry, I could not get that right now.")]),
        records=[record],
        modes={"pto": "direct", "payroll": "silent"},
    )
    found = detect(t)
    assert kinds(found) == ["missed_request", "missed_request"]
    assert "pto said answered but sent no message" in found[0].evidence
    assert "payroll failed" in found[1].evidence


def test_a_subagent_answering_another_agents_request_is_wrong_scope() -> None:
    t = conversation(
        (
            "vacation days and W-2",
            [
                ("pto", PTO, {"mode": "direct", "request": "vacation days"}),
                (
                    "pto",
                    "Your 2025 W-2 is in Workday under Pay > Tax Documents.",
                    {"mode": "direct", "request": "where is my W-2"},
                ),
            ],
        ),
        plans={1: [("pto", "vacation days"), ("payroll", "where is my W-2")]},
    )
    [finding] = detect(t)
    assert (finding.kind, finding.message_ids, finding.senders) == (
        "wrong_scope",
        ("t1b2",),
        ("pto",),
    )
    assert "planned for payroll" in finding.evidence


@dataclass(frozen=True)
class Expect:
    agent: str
    expect: str | None


def test_expectations_missing_twice_and_by_the_wrong_agent() -> None:
    t = conversation(
        (
            "How many vacation days do I have left, and when is the next payday?",
            [
                ("pto", PTO, {"mode": "direct"}),
                ("payroll", f"{PAYDAY} You have 12 vacation days left.", {"mode": "direct"}),
            ],
        ),
        modes={"pto": "direct", "payroll": "direct", "benefits": "direct"},
    )
    expectations = {
        1: [
            Expect("pto", "12 vacation days"),
            Expect("payroll", "Friday"),
            Expect("benefits", "deductible"),
        ]
    }
    found = check_expectations(t, expectations)
    assert [(f.kind, f.message_ids, f.method) for f in found] == [
        ("duplicate", ("t1b1", "t1b2"), "expectation"),
        ("wrong_scope", ("t1b2",), None),
        ("missed_request", (), None),
    ]
    # a duplicate already reported by detect() is not reported twice
    again = check_expectations(t, expectations, findings=detect(t))
    assert [f.kind for f in again] == ["wrong_scope", "missed_request"]
    assert duplicates(detect(t)) == [(("t1b1", "t1b2"), "same_turn", "containment")]


def test_the_parent_relaying_an_expected_answer_is_fine() -> None:
    t = conversation(
        ("payday?", [("helpdesk", f"The payroll team says: {PAYDAY}")]),
        modes={"payroll": "silent"},
    )
    assert check_expectations(t, {1: [Expect("payroll", "friday, march 13")]}) == []


def test_an_expectation_without_text_needs_a_message_from_a_direct_agent() -> None:
    t = conversation(("payday?", [("helpdesk", PAYDAY)]), modes={"payroll": "direct"})
    [finding] = check_expectations(t, {1: [Expect("payroll", None)]})
    assert finding.kind == "missed_request" and finding.senders == ("payroll",)
    silent = conversation(("payday?", [("helpdesk", PAYDAY)]), modes={"payroll": "silent"})
    assert check_expectations(silent, {1: [Expect("payroll", None)]}) == []

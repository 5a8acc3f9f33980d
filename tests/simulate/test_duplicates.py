"""The duplicate detector: each method and scope, and each precision rule, on helpdesk messages."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from harness.detect import DetectorConfig, Embedder, detect, detect_async
from harness.exceptions import UsageError
from tests.simulate._helpers import conversation, duplicates

PTO = "You have 12 vacation days left for 2026."


# --- each method -------------------------------------------------------------------------------


def test_exact_duplicate_ignores_case_spacing_and_punctuation() -> None:
    t = conversation(
        (
            "how many vacation days do I have left",
            [
                ("pto", PTO, {"mode": "direct"}),
                ("helpdesk", "you have 12 vacation  days left for 2026!"),
            ],
        )
    )
    assert duplicates(detect(t)) == [(("t1b1", "t1b2"), "same_turn", "exact")]


def test_near_duplicate_is_a_light_rewording() -> None:
    t = conversation(
        (
            "reset my password please",
            [
                (
                    "it",
                    "Your password has been reset. A temporary password was sent to your phone "
                    "ending in 4412.",
                    {"mode": "direct"},
                ),
                (
                    "helpdesk",
                    "I've reset your password, and a temporary password was sent to your "
                    "phone ending in 4412.",
                ),
            ],
        )
    )
    found = detect(t)
    assert duplicates(found) == [(("t1b1", "t1b2"), "same_turn", "near")]
    assert found[0].senders == ("it", "helpdesk")
    assert found[0].score is not None and found[0].score >= 0.72


def test_containment_parent_relays_the_subagent_answer_among_new_content() -> None:
    t = conversation(
        (
            "how many vacation days do I have left and when is payday",
            [
                ("pto", PTO, {"mode": "direct"}),
                (
                    "helpdesk",
                    "Here's what I found: you have 12 vacation days left for 2026, and "
                    "your next payday is Friday, March 13. Anything else I can help with?",
                ),
            ],
        )
    )
    [finding] = detect(t)
    assert (finding.message_ids, finding.scope, finding.method) == (
        ("t1b1", "t1b2"),
        "same_turn",
        "containment",
    )
    assert "12 vacation days left" in finding.evidence


def test_cross_turn_a_later_turn_re_answers_an_earlier_one() -> None:
    t = conversation(
        ("how many vacation days do I have left", [("pto", PTO, {"mode": "direct"})]),
        (
            "and when is payday?",
            [
                (
                    "helpdesk",
                    "Your next payday is Friday, March 13. Also, you have 12 vacation days "
                    "left for 2026.",
                )
            ],
        ),
    )
    [finding] = detect(t)
    assert (finding.message_ids, finding.scope, finding.turn) == (("t1b1", "t2b1"), "cross_turn", 2)
    assert finding.evidence.startswith("turn 2 repeats turn 1")


class TableEmbedder(Embedder):
    """Vectors from a table: texts in the same group get the same direction."""

    def __init__(self, groups: Sequence[Sequence[str]]) -> None:
        self.groups = groups
        self.calls = 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        out = []
        for text in texts:
            index = next((i for i, g in enumerate(self.groups) if text in g), len(self.groups))
            vector = [0.0] * (len(self.groups) + 1)
            vector[index] = 1.0
            out.append(vector)
        return out


PARAPHRASE = "Your remaining PTO balance for 2026 is 12 days."
NO_ACTION = "No action is required from you."
NOTHING_NEEDED = "We don't need anything else from you."


def test_a_paraphrase_that_keeps_the_facts_is_found_without_embeddings() -> None:
    t = conversation(
        (
            "do I still have vacation left?",
            [("pto", PTO, {"mode": "direct"}), ("helpdesk", PARAPHRASE)],
        )
    )
    [finding] = detect(t)
    assert (finding.message_ids, finding.method) == (("t1b1", "t1b2"), "semantic")
    assert "12" in finding.evidence and "2026" in finding.evidence


def test_a_paraphrase_without_facts_needs_an_embedder() -> None:
    t = conversation(
        (
            "anything else to send?",
            [("documents", NO_ACTION, {"mode": "direct"}), ("helpdesk", NOTHING_NEEDED)],
        )
    )
    assert duplicates(detect(t)) == []
    embedder = TableEmbedder([[NO_ACTION, NOTHING_NEEDED]])
    assert duplicates(detect(t, embedder=embedder)) == [(("t1b1", "t1b2"), "same_turn", "semantic")]
    assert embedder.calls == 1


def test_semantic_does_not_override_different_facts() -> None:
    other = "Your remaining PTO balance for 2026 is 11 days."
    t = conversation(("vacation left?", [("pto", PTO, {"mode": "direct"}), ("helpdesk", other)]))
    assert duplicates(detect(t, embedder=TableEmbedder([[PTO, other]]))) == []


async def test_detect_async_inside_a_running_loop() -> None:
    t = conversation(
        ("docs?", [("documents", NO_ACTION, {"mode": "direct"}), ("helpdesk", NOTHING_NEEDED)])
    )
    embedder = TableEmbedder([[NO_ACTION, NOTHING_NEEDED]])
    with pytest.raises(UsageError, match="detect_async"):
        detect(t, embedder=embedder)
    found = await detect_async(t, embedder=embedder)
    assert duplicates(found) == [(("t1b1", "t1b2"), "same_turn", "semantic")]


# --- precision rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (PTO, "You have 11 vacation days left for 2026."),  # numbers
        ("Your 2025 gross pay was $84,210.55.", "Your 2025 gross pay was $84,120.55."),  # amounts
        (
            "Your security training is on Monday, May 4 at 10:00.",
            "Your security training is on Monday, May 11 at 10:00.",
        ),  # dates
        (
            "Ticket INC0048213 is in progress with the Network team.",
            "Ticket INC0048297 is in progress with the Network team.",
        ),  # ids
        (
            "I've reset the password for Alice Moreno; a temporary one was sent to her phone.",
            "I've reset the password for Ben Okafor; a temporary one was sent to his phone.",
        ),  # names
        (
            "Your HSA contribution is $200 per paycheck.",
            "Your FSA contribution is $200 per paycheck.",
        ),  # acronyms
        (PTO, "You have used 12 vacation days so far in 2026."),  # left vs used
        (
            "Your vacation request for June 8 to June 12 was approved by Marcus Chen.",
            "Your vacation request for June 8 to June 12 is pending with Marcus Chen.",
        ),  # status
        (
            "Your laptop is eligible for a refresh in 2026.",
            "Your laptop is not eligible for a refresh in 2026.",
        ),  # negation
    ],
)
def test_messages_stating_different_facts_are_not_duplicates(first: str, second: str) -> None:
    t = conversation(("check these", [("agent_a", first), ("agent_b", second)]))
    assert duplicates(detect(t)) == []
    relay = f"{second} Is there anything else I can help you with today?"
    t = conversation(("check these", [("agent_a", first, {"mode": "direct"}), ("helpdesk", relay)]))
    assert duplicates(detect(t)) == []


def test_two_answers_to_two_different_requests_are_not_duplicates() -> None:
    t = conversation(
        (
            "unlock my account and reset my MFA",
            [
                (
                    "it",
                    "Your account is unlocked. You can sign in again now.",
                    {"mode": "direct", "request": "unlock my account"},
                ),
                (
                    "it",
                    "Your MFA is reset. You can sign in again now.",
                    {"mode": "direct", "request": "reset my MFA"},
                ),
            ],
        )
    )
    assert duplicates(detect(t)) == []


def test_a_parent_restating_a_subagent_under_another_request_is_still_a_duplicate() -> None:
    t = conversation(
        (
            "vacation days left and payday",
            [
                (
                    "pto",
                    PTO,
                    {"mode": "direct", "request": "how many vacation days do I have left"},
                ),
                (
                    "payroll",
                    "Your next payday is Friday, March 13. You have 12 vacation days left "
                    "for 2026.",
                    {"mode": "direct", "request": "when is payday"},
                ),
            ],
        )
    )
    assert duplicates(detect(t)) == [(("t1b1", "t1b2"), "same_turn", "containment")]


@pytest.mark.parametrize(
    "again",
    [
        "Sorry, how many vacation days did you say I have left?",
        "can you repeat that?",
        "how many vacation days do I have left",
    ],
)
def test_a_cross_turn_repeat_is_fine_when_the_user_asked_again(again: str) -> None:
    t = conversation(
        ("how many vacation days do I have left", [("pto", PTO, {"mode": "direct"})]),
        (again, [("pto", PTO, {"mode": "direct"})]),
    )
    assert duplicates(detect(t)) == []


def test_the_same_request_planned_again_is_asking_again() -> None:
    request = {"mode": "direct", "request": "vacation balance"}
    t = conversation(
        ("how much PTO is there", [("pto", PTO, request)]),
        ("what about the other thing", [("pto", PTO, request)]),
    )
    assert duplicates(detect(t)) == []


def test_boilerplate_closers_across_turns_are_not_duplicates() -> None:
    closer = "Is there anything else I can help you with today?"
    t = conversation(
        ("when is payday", [("helpdesk", f"Your next payday is Friday, March 20. {closer}")]),
        ("and my deductible?", [("helpdesk", f"Your Aetna PPO deductible is $1,500. {closer}")]),
        ("thanks", [("helpdesk", closer)]),
    )
    assert duplicates(detect(t)) == []


def test_a_closer_sent_twice_in_one_turn_is_a_duplicate() -> None:
    t = conversation(
        (
            "deductible and payday",
            [
                (
                    "benefits",
                    "Your Aetna PPO deductible is $1,500. Anything else I can help with?",
                    {"mode": "direct"},
                ),
                (
                    "helpdesk",
                    "Your next payday is Friday, March 20. Anything else I can help with?",
                ),
            ],
        )
    )
    assert duplicates(detect(t)) == [(("t1b1", "t1b2"), "same_turn", "exact")]


def test_a_holding_message_before_the_answer_is_not_a_duplicate() -> None:
    t = conversation(
        (
            "how many vacation days do I have left",
            [("helpdesk", "Let me check your vacation balance for you."), ("pto", PTO)],
        )
    )
    assert duplicates(detect(t)) == []


def test_the_same_holding_message_twice_in_a_turn_is_a_duplicate() -> None:
    t = conversation(
        ("vpn status?", [("helpdesk", "Let me check that."), ("it", "Let me check that.")])
    )
    assert duplicates(detect(t)) == [(("t1b1", "t1b2"), "same_turn", "exact")]


# --- window and reporting ----------------------------------------------------------------------


def test_cross_turn_window_bounds_how_far_back_repeats_count() -> None:
    turns = [("how many vacation days do I have left", [("pto", PTO)])]
    turns += [
        (f"question number {i} about parking", [("facilities", f"Lot {i} is open.")])
        for i in range(2, 5)
    ]
    turns += [("when is payday", [("helpdesk", f"Your next payday is Friday, March 13. {PTO}")])]
    t = conversation(*turns)
    assert [d[1] for d in duplicates(detect(t))] == ["cross_turn"]
    assert duplicates(detect(t, config=DetectorConfig(cross_turn_window=2))) == []
    assert duplicates(detect(t, config=DetectorConfig(cross_turn_window=0))) == []


def test_a_repeat_of_an_answer_and_its_relay_is_one_finding_naming_all_three() -> None:
    t = conversation(
        ("vacation days left?", [("pto", PTO, {"mode": "direct"}), ("helpdesk", PTO)]),
        ("when is payday", [("helpdesk", f"Your next payday is Friday, March 13. {PTO}")]),
    )
    [finding] = detect(t)
    assert finding.message_ids == ("t1b1", "t1b2", "t2b1")
    assert (finding.scope, finding.method, finding.turn) == ("cross_turn", "containment", 2)
    assert {h.message_id for h in finding.highlights} == {"t1b1", "t1b2", "t2b1"}
    assert all(h.text == PTO for h in finding.highlights)


def test_disabled_kinds_are_not_reported() -> None:
    t = conversation(("vacation?", [("pto", PTO, {"mode": "silent"}), ("helpdesk", PTO)]))
    config = DetectorConfig(kinds=frozenset({"silent_leak"}))
    assert [f.kind for f in detect(t, config=config)] == ["silent_leak"]


def test_a_message_sent_many_times_is_one_finding_listing_every_copy() -> None:
    bots = [("helpdesk", PTO)] * 400
    [finding] = detect(conversation(("vacation?", bots)))
    assert finding.message_ids == tuple(f"t1b{i}" for i in range(1, 401))
    assert finding.method == "exact" and "400 times" in finding.evidence


def test_finding_json_leaves_unset_keys_out() -> None:
    t = conversation(("vacation?", [("pto", PTO), ("helpdesk", PTO)]))
    record = detect(t)[0].to_json()
    assert list(record) == [
        "kind",
        "scope",
        "method",
        "turn",
        "message_ids",
        "senders",
        "score",
        "evidence",
        "highlights",
    ]
    assert math.isclose(record["score"], 1.0)
    assert record["highlights"] == [
        {"message_id": "t1b1", "text": PTO},
        {"message_id": "t1b2", "text": PTO},
    ]


def test_detection_never_switches_the_garbage_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    def refuse() -> None:
        raise AssertionError("detection switched the process's garbage collector")

    monkeypatch.setattr(gc, "disable", refuse)
    monkeypatch.setattr(gc, "enable", refuse)
    t = conversation(
        (
            "how many vacation days do I have left",
            [("pto", PTO, {"mode": "direct"}), ("helpdesk", "you have 12 vacation days left!")],
        )
    )
    assert duplicates(detect(t))

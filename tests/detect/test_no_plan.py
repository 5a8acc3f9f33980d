"""A transcript with no plan (as Direct Line or Copilot Studio record it) gets the same
missed-request findings as the in-process run that wrote it.

The helpdesk samples run through the simulator on the issue's multi-request messages and the
samples' own scenarios; each conversation is then written as a Bot Framework transcript (which
carries no plan) and as this SDK's JSONL with the plan removed, read back and checked again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import Parent, load_bot
from harness.detect import detect, load_transcript
from harness.detect.findings import Finding
from harness.detect.reports import DetectionResult
from harness.planning import Plan, PlanInput, RulesPlanner
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "helpdesk"

ASKED = [
    "How many vacation days do I have left, when is payday, and where is my W-2?",
    "when is payday and where is my W-2",
    "Reset my VPN password, and tell me when I get paid next.",
    "how many PTO days have I used and how many are left",
    "What's my gross pay, plus when is payday?",
    "I need a PTO request for Dec 22 to Dec 24 and please give me my salary figure",
]


def _scenario_file(tmp_path: Path, bot: str) -> Path:
    lines = [f"bot: {SAMPLES / bot}", "scenarios:"]
    for index, text in enumerate(ASKED, start=1):
        lines += [f"  - name: asked-{index}", "    turns:", f"      - user: {json.dumps(text)}"]
    path = tmp_path / "asked.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _missed(findings: tuple[Finding, ...] | list[Finding]) -> list[tuple[int, str]]:
    """(turn, the missed request) of each missed_request finding; the plan's extra detail,
    which only an in-process run can give, is left out."""
    return [
        (f.turn, f.evidence.split(": no bot message")[0])
        for f in findings
        if f.kind == "missed_request"
    ]


def _without_plan(result: DetectionResult, tmp_path: Path) -> list[list[tuple[int, str]]]:
    """The missed requests found in the conversation re-read from a Bot Framework transcript
    and from JSONL stripped of its plan."""
    transcript = result.transcript
    framework = tmp_path / f"{result.conversation}.json"
    transcript.write_bot_framework(framework, bot_name="helpdesk")
    records = [json.loads(line) for line in transcript.to_jsonl().splitlines()]
    assert any("requests" in r for r in records)  # the in-process run did have a plan
    jsonl = tmp_path / f"{result.conversation}.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({k: v for k, v in r.items() if k != "requests"}) + "\n" for r in records
        ),
        encoding="utf-8",
    )
    out = []
    for path in (framework, jsonl):
        [reread] = load_transcript(path)
        assert reread.turns == [] or all(not t.plan for t in reread.turns)
        out.append(_missed(detect(reread)))
    return out


def _found_alike(results: list[DetectionResult], tmp_path: Path) -> int:
    """How many missed requests the in-process runs found, after checking that each
    conversation read back without its plan gives the same ones."""
    found = 0
    for result in results:
        in_process = _missed(result.findings)
        found += len(in_process)
        for reread in _without_plan(result, tmp_path):
            assert reread == in_process, result.conversation
    return found


@pytest.mark.parametrize("bot", ["helpdesk.yaml", "helpdesk-naive.yaml"])
async def test_the_same_missed_requests_with_and_without_the_plan(bot: str, tmp_path: Path) -> None:
    files = [
        load_scenarios(_scenario_file(tmp_path, bot)),
        load_scenarios(SAMPLES / "scenarios.yaml"),
    ]
    results = await run_scenarios(files)
    found = _found_alike(results, tmp_path)
    # Both helpdesks answer every request of these messages: the naive one's fault is duplicates,
    # and the one request it used to miss ("tell me when I get paid next") was the offline
    # planner's misroute to pto, which the matcher's classifier fixed. Read back without the plan,
    # the check must raise no missed request either.
    assert found == 0, bot


class DroppingPlanner(RulesPlanner):
    """The offline planner with one fault: a message's last request gets no plan entry, so no
    agent is asked and nothing answers it (the fault the missed-request check exists for)."""

    async def plan(self, given: PlanInput) -> Plan:
        planned = await super().plan(given)
        entries = planned.entries[:-1] if len(planned.entries) > 1 else planned.entries
        return Plan(entries=entries, usage=planned.usage)


def dropping_helpdesk() -> Parent:
    """The good helpdesk with ``DroppingPlanner`` (``--bot tests.detect.test_no_plan:...``)."""
    return load_bot(SAMPLES / "helpdesk.yaml", planner=DroppingPlanner())


async def test_a_dropped_request_is_found_alike_with_and_without_the_plan(tmp_path: Path) -> None:
    """A bot that really leaves requests out: the in-process run flags them, and the transcript
    read back without its plan (as from Direct Line or Copilot Studio) flags the same ones."""
    files = [load_scenarios(_scenario_file(tmp_path, "helpdesk.yaml"))]
    results = await run_scenarios(files, bot=f"{__name__}:dropping_helpdesk")
    found = _found_alike(results, tmp_path)
    assert found == len(ASKED), found  # each message has two or more requests: one is dropped


async def test_the_conversation_driver_checks_the_requests_it_is_given() -> None:
    from harness.simulate.scenarios import RequestExpectation
    from harness.testing import ConversationDriver

    driver = ConversationDriver(SAMPLES / "helpdesk.yaml")
    asked = "how many PTO days have I used and how many are left"
    used = RequestExpectation(agent="pto", text="how many PTO days have I used", words=["used"])
    left = RequestExpectation(agent="pto", text="how many PTO days are left", words=["left"])
    await driver.send(asked, expect=[used, left])
    driver.assert_each_request_answered_once()
    accrued = RequestExpectation(agent="pto", text="how many PTO days have I accrued")
    await driver.send(asked, expect=[used, accrued])
    [finding] = driver.findings("missed_request")
    assert (finding.turn, finding.senders) == (2, ("pto",))
    assert "how many PTO days have I accrued" in finding.evidence

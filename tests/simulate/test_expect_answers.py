"""A request given with its ``text`` whose ``expect`` passed is not also reported by the
missed-request check: one report does not say both that the expected text came and that nothing
addressed that request. ``expect`` is a substring test, not the check's ``words``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli
from harness.detect.transcript import Message, Transcript
from harness.runtime.loading import run_sync
from harness.simulate.runner import run_scenario
from harness.simulate.scenarios import load_scenarios
from harness.simulate.targets import ConversationError, Target

BOT = Path(__file__).parent / "rail_bot" / "bot.yaml"
USER = "When is the last train to Hull tonight and are there any delays on the line?"
TIMES = "{text: 'When is the last train to Hull tonight', agent: timetable"
DELAYS = "{text: 'are there any delays on the line', agent: disruption"


def _missed(tmp_path: Path, *requests: str) -> list[str]:
    lines = "\n".join(f"          - {r}" for r in requests)
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(
        f"bot: {BOT}\nscenarios:\n  - name: two\n    turns:\n"
        f"      - user: {USER!r}\n        requests:\n{lines}\n",
        encoding="utf-8",
    )
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli, ["simulate", str(scenario), "-q", "--format", "json", "-o", str(out)]
    )
    assert result.exit_code in (0, 1), result.output
    (transcript,) = json.loads(out.read_text(encoding="utf-8"))["transcripts"]
    return [f["evidence"] for f in transcript["findings"] if f["kind"] == "missed_request"]


def test_text_alone_still_reports_the_answer_in_other_words(tmp_path: Path) -> None:
    # The check's own reading: "late" shares no word with the question (the documented limit).
    assert len(_missed(tmp_path, TIMES + "}", DELAYS + "}")) == 1


def test_a_passed_expect_answers_a_declared_request(tmp_path: Path) -> None:
    assert _missed(tmp_path, TIMES + ", expect: '23:41'}", DELAYS + ", expect: late}") == []


def test_a_passed_expect_answers_the_request_without_text(tmp_path: Path) -> None:
    found = _missed(
        tmp_path, "{agent: timetable, expect: '23:41'}", "{agent: disruption, expect: late}"
    )
    assert found == []


def test_an_expect_that_failed_is_reported_once(tmp_path: Path) -> None:
    found = _missed(
        tmp_path, "{agent: timetable, expect: '23:41'}", "{agent: disruption, expect: cancelled}"
    )
    assert found == ['expected "cancelled" from disruption; no bot message in turn 1 contains it']


def test_a_declared_request_whose_expect_failed_is_still_missed(tmp_path: Path) -> None:
    found = _missed(tmp_path, TIMES + ", expect: '23:41'}", DELAYS + ", expect: cancelled}")
    assert len(found) == 1
    assert "are there any delays on the line" in found[0]


def test_a_passed_expect_withdraws_the_checks_finding_for_its_request(tmp_path: Path) -> None:
    # words: the check's own reading, sure the request is missed ("cancelled" is not said);
    # expect: a substring of the answer ("20 min" of "20 minutes"), which words would not match.
    delays = DELAYS + ", words: [cancelled], expect: '20 min'}"
    assert _missed(tmp_path, TIMES + ", expect: '23:41'}", delays) == []


def test_an_expect_that_is_no_content_word_does_not_become_one(tmp_path: Path) -> None:
    # A substring the check's words would read differently ("Lee" of "Leeds", ":" of "23:41"):
    # passing, it adds no finding of its own.
    found = _missed(tmp_path, TIMES + ", expect: ':'}", DELAYS + ", expect: 'Lee'}")
    assert found == []


def test_the_check_still_reports_a_request_whose_expect_failed(tmp_path: Path) -> None:
    delays = DELAYS + ", words: [cancelled], expect: cancelled}"
    (found,) = _missed(tmp_path, TIMES + ", expect: '23:41'}", delays)
    assert found.startswith('"are there any delays on the line": ')


class _FailsAtTurnTwo(Target):
    """A deployed bot that answers the first turn in part, then fails."""

    async def run_conversation(self, turns: list[str], *, conversation_id: str) -> Transcript:
        transcript = Transcript(conversation=conversation_id)
        transcript.messages += [
            Message(id="u1", turn=1, role="user", sender="user", text=turns[0]),
            Message(id="b1", turn=1, role="bot", sender="bot", text="It leaves at 23:41."),
        ]
        raise ConversationError("HTTP 502 at turn 2", transcript=transcript, turn=2)


def test_a_bot_that_fails_later_keeps_the_earlier_turns_missed_request(tmp_path: Path) -> None:
    path = tmp_path / "scenarios.yaml"
    path.write_text(
        "scenarios:\n  - name: then-502\n    turns:\n"
        "      - user: 'When does the last train to Hull leave, and can I take my bike on it?'\n"
        "        requests:\n"
        "          - {agent: timetable, expect: '23:41'}\n"
        "          - {agent: cycles, expect: bike}\n"
        "      - user: thanks\n",
        encoding="utf-8",
    )
    (scenario,) = load_scenarios(path).scenarios
    result = run_sync(run_scenario(_FailsAtTurnTwo(), scenario, file="scenarios.yaml"))
    assert result.error == "HTTP 502 at turn 2"
    # The expectations were not checked (the conversation did not end), so the check's own
    # finding for the unanswered bike question stands in for them.
    missed = [f for f in result.findings if f.kind == "missed_request"]
    assert [f.turn for f in missed] == [1]
    assert "bike" in missed[0].evidence


class _Declines(Target):
    """A bot that answers the first request and declines the second."""

    async def run_conversation(self, turns: list[str], *, conversation_id: str) -> Transcript:
        transcript = Transcript(conversation=conversation_id)
        transcript.messages += [
            Message(id="u1", turn=1, role="user", sender="user", text=turns[0]),
            Message(id="b1", turn=1, role="bot", sender="bot", text="Checkout is at noon."),
            Message(
                id="b2", turn=1, role="bot", sender="bot", text="Sorry, I can't help with ferries."
            ),
        ]
        return transcript


def _declined(tmp_path: Path, second: str) -> list[str]:
    path = tmp_path / "scenarios.yaml"
    path.write_text(
        "scenarios:\n  - name: decline\n    turns:\n"
        "      - user: 'What time is checkout, and can you book me a ferry?'\n"
        "        requests:\n"
        "          - {agent: hotel, text: 'What time is checkout', words: [noon]}\n"
        f"          - {{agent: hotel, text: 'can you book me a ferry'{second}}}\n",
        encoding="utf-8",
    )
    (scenario,) = load_scenarios(path).scenarios
    result = run_sync(run_scenario(_Declines(), scenario, file="scenarios.yaml"))
    return [f.evidence for f in result.findings if f.kind == "missed_request"]


def test_a_polite_decline_the_scenario_expects_is_no_missed_request(tmp_path: Path) -> None:
    # A refusal answers no request (issue 25), not even one whose words it says; a scenario that
    # expects the decline says so with an expect of the refusal's words (docs/simulate.md).
    assert len(_declined(tmp_path, "")) == 1
    assert len(_declined(tmp_path, ", words: [ferry]")) == 1
    assert _declined(tmp_path, ', expect: "can\'t help"') == []

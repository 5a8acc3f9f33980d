"""A deployed bot's late reply reaches the report (a note in every format), not only stderr.

The reply stays in the turn it answers, so the checks read the transcript in turn order as
before; the note says which turn it answers, what the user had asked there, and during which
later turn it arrived.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.detect.reports import DetectionResult, render
from harness.detect.transcript import Message, Transcript
from harness.simulate.directline import DirectLineTarget
from harness.simulate.runner import late_notes, run_scenarios
from harness.simulate.scenarios import load_scenarios
from tests.simulate._directline_fake import FakeDirectLine, in_thread
from tests.simulate.test_directline_delivery import FAST, LATE, _late_to_turn_one

SCENARIO = (
    "scenarios:\n"
    "  - name: late\n    turns:\n      - user: PTO and payday?\n      - user: and my W-2?\n"
    "  - name: on-time\n    turns:\n      - user: when is payday\n"
)
NOTE = (
    'late: a late reply to turn 1 ("PTO and payday?") came after that turn was over (received '
    "with turn 2's replies): "
)


async def _run(tmp_path: Path, *, repeat: int = 1) -> list[DetectionResult]:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    fake = FakeDirectLine(_late_to_turn_one())
    async with fake.running() as base, DirectLineTarget(base, secret=fake.secret, **FAST) as target:
        return await run_scenarios([load_scenarios(scenario)], target=target, repeat=repeat)


async def test_the_late_reply_is_a_note_of_its_scenario_and_stays_in_its_turn(
    tmp_path: Path,
) -> None:
    late, on_time = await _run(tmp_path)
    assert [m.turn for m in late.transcript] == [1, 1, 1, 2, 2]  # turn order, as detect reads it
    assert late.transcript.messages[2].text == LATE
    assert late.transcript.messages[2].arrived_during == 2
    assert [note.title for note in late.notes] == ["late reply"]
    note = late.notes[0]
    assert note.file.endswith("s.yaml")
    assert note.message.startswith(NOTE) and f'helpdesk: "{LATE}"' in note.message
    assert note.message.endswith("it is checked in turn 1")
    assert on_time.notes == ()


@pytest.mark.parametrize("fmt", ["text", "lines", "github", "json", "junit", "html"])
async def test_every_report_format_shows_the_late_reply(tmp_path: Path, fmt: str) -> None:
    results = await _run(tmp_path)
    report = render(results, fmt)  # type: ignore[arg-type]
    if fmt == "html":
        report = report.replace("&#34;", '"').replace("&#39;", "'").replace("&quot;", '"')
    flat = " ".join(report.split())
    assert "a late reply to turn 1" in flat and LATE in flat
    if fmt == "json":
        document = json.loads(report)
        assert document["totals"]["notes"] == 1
        assert document["notes"][0]["note"].startswith(NOTE)
    if fmt == "junit":
        suite = ET.fromstring(report).find("testsuite")
        assert suite is not None and suite.get("skipped") == "1"
        skipped = [case.find("skipped") for case in suite if case.find("skipped") is not None]
        assert [element.get("message", "")[:25] for element in skipped if element is not None] == [
            "late: a late reply to tur"
        ]
    if fmt == "github":
        assert "::warning file=" in report and "title=late reply::" in report


async def test_a_repeated_scenario_keeps_its_late_reply_in_junit(tmp_path: Path) -> None:
    """``--repeat``'s JUnit (one test case per scenario) has the note too; the fake bot sends
    its late reply once, in the first run."""
    results = await _run(tmp_path, repeat=2)
    root = ET.fromstring(render(results, "junit"))
    suite = root.find("testsuite")
    assert suite is not None and suite.get("skipped") == "1"
    assert "a late reply to turn 1" in ET.tostring(suite, encoding="unicode")
    # the note names the run it came in, as the run's own test case does
    notes = [n.message for r in results for n in r.notes]
    assert len(notes) == 1 and notes[0].startswith("late (run 1 of 2): a late reply to turn 1 ")
    # the note's test case counts in tests=, as without --repeat: 2 scenarios and the note
    cases = suite.findall("testcase")
    assert len(cases) == 3
    assert (root.get("tests"), suite.get("tests")) == ("3", "3")


async def test_junit_counts_the_note_cases_with_and_without_repeat(tmp_path: Path) -> None:
    """``tests=`` is the number of ``<testcase>`` elements in both JUnit shapes, so a tool that
    computes passed = tests - failures - errors - skipped counts the scenarios that passed."""
    for repeat in (1, 2):
        root = ET.fromstring(render(await _run(tmp_path, repeat=repeat), "junit"))
        suite = root.find("testsuite")
        assert suite is not None
        cases = len(suite.findall("testcase"))
        assert (root.get("tests"), suite.get("tests")) == (str(cases), str(cases)), repeat
        assert suite.get("skipped") == "1"


def test_the_note_cuts_a_long_question_as_it_cuts_the_reply() -> None:
    """A 1,900-character question is quoted cut (``…``), on one line: the note is one
    ``note:`` line, one annotation and one JUnit ``message=``."""
    question = "Tell me about my PTO balance,\nplease. " * 50
    transcript = Transcript(conversation="long")
    for message in (
        Message(id="u1", turn=1, role="user", sender="user", text=question),
        Message(
            id="b1", turn=1, role="bot", sender="hr", text="You have 12 days.", arrived_during=2
        ),
        Message(id="u2", turn=2, role="user", sender="user", text="thanks"),
    ):
        transcript.append(message)
    (note,) = late_notes(transcript, file="s.yaml", title="long")
    assert "\n" not in note.message
    assert '("Tell me about my PTO balance, please. Tell me' in note.message
    assert len(note.message) < 300
    assert '…") came after that turn was over' in note.message


def test_harness_simulate_writes_the_note_in_its_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    fake = FakeDirectLine(_late_to_turn_one())
    out = tmp_path / "r.json"
    monkeypatch.setenv("DIRECTLINE_SECRET", fake.secret)
    with in_thread(fake) as base:
        result = CliRunner().invoke(
            cli,
            [
                *("simulate", str(scenario), "--directline", base),
                *("--quiet-period", "0.15", "--format", "json", "-o", str(out)),
            ],
        )
    assert result.exit_code in (0, 1), result.output
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["totals"]["notes"] == 1
    assert document["notes"][0]["note"].startswith(NOTE)

"""The analysis segments the user messages for the missed-request check, and that changes nothing.

Inside :func:`harness.detect._presegment.segmenting` (``detect()`` opens it when the duplicate
detector and the missed-request check both run), the duplicate detector's analysis segments each
user message right after reading it, where its sentences are still cached, in this process or
in a forked worker; the missed-request check reads those requests instead of segmenting the
message again. The requests, and so the findings, are those the check makes on its own.
"""

from __future__ import annotations

import multiprocessing

import pytest

from harness.detect import _analysis, _presegment, detect, duplicates
from harness.detect.duplicates import worker_processes
from harness.detect.findings import DetectorConfig
from harness.detect.missed import missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, Transcript
from tests.simulate.test_perf_equivalence import generated

_FORKS = "fork" in multiprocessing.get_all_start_methods()


def _users(transcript: Transcript) -> list[str]:
    return [m.text for m in transcript.messages if m.role == "user"]


@pytest.mark.parametrize(
    "jobs", [1, pytest.param(2, marks=pytest.mark.skipif(not _FORKS, reason="workers are forked"))]
)
def test_the_analysis_records_each_user_message_requests(jobs: int) -> None:
    """Inside the block, the analysis (here or in a forked worker) records every user message's
    requests as the segmenter makes them; outside it, it records nothing."""
    transcript = generated(21, 30, modes_known=True)
    with _presegment.segmenting() as known:
        steps = _analysis.steps(transcript, jobs)
    assert set(known) == set(_users(transcript))
    for text, texts in known.items():
        assert texts == tuple(r.text for r in segment_requests(text))
    plain = _analysis.steps(transcript, 1)
    # The entries and users the comparison reads are the same either way.
    assert [type(s) for s in steps] == [type(s) for s in plain]
    assert [getattr(s, "text", None) for s in steps] == [getattr(s, "text", None) for s in plain]
    assert not _presegment.wanted()


def test_the_check_reads_the_recorded_requests() -> None:
    """Inside the block the check takes a user message's requests from the analysis, not from
    segmenting it again: what was recorded is what it reports on."""
    user = Message(id="u1", turn=1, role="user", sender="user", text="hello there")
    bot = Message(id="b1", turn=1, role="bot", sender="parent", text="The desk opens at 9 am.")
    transcript = Transcript(conversation="c", messages=[user, bot])
    recorded = ("what time does the desk open", "is parking free at the campus")
    with _presegment.segmenting() as known:
        known[user.text] = recorded
        inside = missed_requests(transcript)
    outside = missed_requests(transcript)
    assert outside == []  # "hello there" alone: answered by whatever the bot said
    assert [f.evidence.split('"')[1] for f in inside] == ["is parking free at the campus"]


def test_findings_with_the_analysis_segmenting_are_those_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """detect() segments in the analysis when both detectors run: the same findings as each
    detector run on its own (one process and, where the platform forks, two)."""
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcript = generated(22, 60, modes_known=True)
    missed_alone = missed_requests(transcript)
    seen: list[bool] = []
    real = _analysis.steps

    def spying(t: Transcript, jobs: int) -> object:
        seen.append(_presegment.wanted())
        return real(t, jobs)

    monkeypatch.setattr(duplicates, "steps", spying)
    found = detect(transcript)
    assert seen == [True]
    assert [f for f in found if f.kind == "missed_request"] == missed_alone
    assert missed_alone  # the conversation has missed requests to find
    only_duplicates = DetectorConfig(kinds=frozenset({"duplicate"}))
    detect(transcript, config=only_duplicates)
    assert seen == [True, False]  # no check to segment for
    if _FORKS:
        with worker_processes(2):
            assert detect(transcript) == found

"""What every report format shares: the order of finding kinds, a finding as JSON and as one line,
counts in words and the XML document's head.

:mod:`harness.detect.reports` (one run per scenario) and :mod:`harness.detect.runs_report`
(repeated scenarios) both write with these, so a finding reads the same in either.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from harness.detect.detectors import DETECTORS
from harness.detect.findings import CHECK_KIND, CONTRACT_KIND, Finding, floor_score
from harness.detect.results import DetectionResult

if TYPE_CHECKING:
    from harness.detect.readers import ReadNote

__all__ = [
    "KIND_ORDER",
    "all_notes",
    "confidence_note",
    "finding_json",
    "finding_line",
    "junit_case",
    "junit_notes",
    "percent",
    "plural",
    "xml_characters",
    "xml_document",
]

KIND_ORDER: tuple[str, ...] = (
    *(detector.name for detector in DETECTORS),
    CHECK_KIND,
    CONTRACT_KIND,
)
"""Finding kinds in report order: the detectors' registry order, then failed checks and contract
violations."""


def finding_json(finding: Finding) -> dict[str, Any]:
    """A finding's JSON with its ``severity`` right after its ``kind``."""
    record = finding.to_json()
    return {"kind": record.pop("kind"), "severity": finding.severity, **record}


def confidence_note(finding: Finding) -> str:
    """``confidence 0.625`` for a missed request the check judged (its ``score``: how sure it is
    that the request went unanswered, the figure ``--min-confidence`` compares, to 3 decimals
    rounded down, so the level that withholds it can be read off); else empty."""
    if finding.kind != "missed_request" or finding.score is None:
        return ""
    return f"confidence {floor_score(finding.score):.3f}"


def finding_line(finding: Finding) -> str:
    """``turn 1: duplicate/containment same_turn [t1b1 (pto), t1b2 (helpdesk)]: evidence``."""
    ids = ", ".join(
        f"{i} ({s})" for i, s in zip(finding.message_ids, finding.senders, strict=False)
    )
    what = finding.kind + (f"/{finding.method}" if finding.method else "")
    where = f" {finding.scope}" if finding.scope else ""
    messages = f" [{ids}]" if ids else f" [{', '.join(finding.senders)}]"
    sure = confidence_note(finding)
    evidence = finding.evidence + (f"; {sure}" if sure else "")
    return f"turn {finding.turn}: {what}{where}{messages}: {evidence}"


def all_notes(
    results: Sequence[DetectionResult], notes: Sequence[ReadNote] | None
) -> Sequence[ReadNote] | None:
    """The report's notes: ``notes`` (what ``harness detect``'s readers noticed), then each
    result's own (a deployed bot's late reply); None when there are none and ``notes`` is None
    (a report given no notes shows no notes count)."""
    own = [note for result in results for note in result.notes]
    if not own:
        return notes
    return [*(notes or ()), *own]


def junit_notes(root: ET.Element, suite: ET.Element, notes: Sequence[ReadNote]) -> None:
    """A ``<testcase>`` named ``note`` in ``suite`` with a ``<skipped>`` for each note, counted
    in ``tests`` (``suite``'s and ``root``'s) and ``skipped``."""
    for note in notes:
        case = ET.SubElement(suite, "testcase", classname=note.file, name="note")
        ET.SubElement(case, "skipped", message=note.message, type="note").text = str(note)
    for element, count in ((root, "tests"), (suite, "tests"), (suite, "skipped")):
        element.set(count, str(int(element.get(count, "0")) + len(notes)))


def percent(rate: float) -> str:
    """``92%``."""
    return f"{rate:.0%}"


def plural(count: int, noun: str) -> str:
    """``1 turn``, ``2 turns``, ``0 turns`` (the nouns of these reports take an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def junit_case(suite: ET.Element, result: DetectionResult, *, seconds: float) -> ET.Element:
    """A ``<testcase>`` in ``suite`` for ``result``'s scenario or conversation, taking ``seconds``."""
    return ET.SubElement(
        suite,
        "testcase",
        classname=result.file,
        name=result.name or result.conversation,
        time=f"{seconds:.3f}",
    )


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
"""What XML 1.0 cannot hold, even escaped: the C0 controls but tab and line breaks, U+FFFE and
U+FFFF; and a lone surrogate (a message cut inside an emoji), which UTF-8 cannot encode."""


def xml_characters(text: str) -> str:
    """``text`` with the characters XML 1.0 forbids left out, and each lone surrogate as U+FFFD,
    so that a report quoting any bot message is a well-formed document (a NUL in one message
    would make a test-report step refuse the whole JUnit file)."""
    if _NOT_XML.search(text) is None:  # the usual case: one pass, a few ms a megabyte
        return text
    return _NOT_XML.sub(lambda m: "\ufffd" if "\ud800" <= m.group() <= "\udfff" else "", text)


def xml_document(root: ET.Element) -> str:
    """``root`` indented, after an XML declaration (a JUnit report), without the characters XML
    forbids (:func:`xml_characters`)."""
    ET.indent(root)
    document = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + xml_characters(document) + "\n"

"""The transcript detectors are objects in one registry, which the reports read."""

from __future__ import annotations

from harness.cli.app import _COMMANDS
from harness.cli.command import HarnessCommand
from harness.detect import DETECTORS, Detector, DetectorConfig, Severity, detect
from harness.detect.findings import ALL_KINDS
from harness.detect.reports import DetectionResult, render_json
from tests.simulate._helpers import conversation


def test_every_finding_kind_has_exactly_one_detector_with_its_documentation() -> None:
    assert {d.name for d in DETECTORS} == ALL_KINDS
    assert len({d.id for d in DETECTORS}) == len(DETECTORS)
    for detector in DETECTORS:
        assert isinstance(detector, Detector)
        assert detector.rationale and detector.summary and detector.bad and detector.good
        assert isinstance(detector.severity, Severity)


def test_only_the_selected_detectors_run() -> None:
    t = conversation(
        (
            "when is payday",
            [
                ("payroll", "Your next payday is Friday, March 13."),
                ("parent", "As the payroll agent mentioned, payday is Friday, March 13."),
            ],
        ),
        modes={"payroll": "direct"},
    )
    every = {f.kind for f in detect(t)}
    assert "awkward_ack" in every
    assert all(f.severity is Severity.WARNING for f in detect(t) if f.kind == "awkward_ack")
    others = DetectorConfig(kinds=ALL_KINDS - {"awkward_ack"})
    assert {f.kind for f in detect(t, config=others)} == every - {"awkward_ack"}


def test_severity_is_one_enum_written_as_its_value() -> None:
    import harness.lint

    assert harness.lint.Severity is Severity is harness.detect.Severity
    assert Severity.ERROR == "error"
    t = conversation(("when is payday", [("payroll", "Friday.", {"mode": "silent"})]))
    result = DetectionResult(file="t", conversation="c", transcript=t, findings=tuple(detect(t)))
    assert '"severity": "error"' in render_json([result])


def test_every_command_has_the_one_exit_path() -> None:
    for load in _COMMANDS.values():
        assert isinstance(load(), HarnessCommand)

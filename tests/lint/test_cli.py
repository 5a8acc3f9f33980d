"""``harness lint`` through click's runner: formats, exit codes, selection, pyproject settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from harness.cli.lint import lint_command
from tests.lint.conftest import LINT, Writer

BROKEN = str(LINT / "broken")
PAYROLL = str(LINT / "workspace" / "Helpdesk" / "agents" / "Payroll")
NAIVE = """\
parent:
  name: helpdesk
  instructions: You are the helpdesk. You are the only agent that talks to the user.
  generated_instructions: false
subagents:
  - name: pto
    kind: child
    mode: direct
    description: Answers questions about paid time off.
    inputs: []
"""


def _run(*args: str, config: Path | None = None) -> Result:
    options = ["--config", str(config)] if config is not None else []
    return CliRunner().invoke(lint_command, [*options, *args], catch_exceptions=False)


@pytest.fixture
def pyproject(write: Writer) -> Path:
    """An empty pyproject.toml, so the repository's own settings do not apply."""
    return write("pyproject.toml", "[project]\nname = 'x'\n")


def _json_ids(result: Result) -> list[str]:
    return [f["id"] for f in json.loads(result.stdout)["findings"]]


def test_exit_0_without_errors_and_1_with_errors(pyproject: Path) -> None:
    clean = _run(PAYROLL, config=pyproject)
    assert clean.exit_code == 0, clean.output
    assert "All checks passed" in clean.stdout
    dirty = _run(BROKEN, config=pyproject)
    assert dirty.exit_code == 1
    assert ":7:1: HC100 error invalid YAML" in dirty.stdout


def test_warnings_alone_exit_0(write: Writer, pyproject: Path) -> None:
    config = write("bot.yaml", NAIVE.replace("  generated_instructions: false\n", ""))
    result = _run(str(config), "--ignore", "HC004", config=pyproject)
    assert result.exit_code == 0
    assert "HC011" in result.stdout


def test_select_and_ignore_take_ids_prefixes_names_and_commas(
    write: Writer, pyproject: Path
) -> None:
    config = str(write("bot.yaml", NAIVE))
    everything = _json_ids(_run(config, "--format", "json", config=pyproject))
    assert sorted(everything) == ["HC004", "HC010", "HC011"]
    assert _json_ids(_run(config, "--format", "json", "--select", "HC01", config=pyproject)) == [
        "HC010",
        "HC011",
    ]
    selected = _run(
        config, "--format", "json", "--select", "HC004,only-speaker-antipattern", config=pyproject
    )
    assert sorted(_json_ids(selected)) == ["HC004", "HC011"]
    ignored = _run(
        config, "--format", "json", "--ignore", "HC010", "--ignore", "HC011", config=pyproject
    )
    assert _json_ids(ignored) == ["HC004"]


def test_select_keeps_hc100_unless_it_is_ignored(pyproject: Path) -> None:
    selected = _json_ids(_run(BROKEN, "--format", "json", "--select", "HC004", config=pyproject))
    assert set(selected) == {"HC004", "HC100"}
    ignored = _json_ids(_run(BROKEN, "--format", "json", "--ignore", "HC100", config=pyproject))
    assert "HC100" not in ignored


def test_unknown_rule_is_a_usage_error(pyproject: Path) -> None:
    result = _run(PAYROLL, "--select", "HC999", config=pyproject)
    assert result.exit_code == 2
    assert "unknown rule id, prefix or name 'HC999'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_path_exits_2_after_reporting_the_others(pyproject: Path) -> None:
    result = _run("/no/such/folder", PAYROLL, config=pyproject)
    assert result.exit_code == 2
    assert "error: no such file or folder: /no/such/folder" in result.stderr
    assert "All checks passed (1 file, 1 sub-agent)" in result.stdout


def test_pyproject_sets_severities_select_and_ignore(write: Writer) -> None:
    config = str(write("bot.yaml", NAIVE))
    pyproject = write(
        "pyproject.toml",
        """\
        [tool.harness.lint]
        ignore = ["HC010"]
        severity = {HC004 = "warning"}
        only-speaker-antipattern = "error"
        """,
    )
    result = _run(config, "--format", "json", config=pyproject)
    findings = json.loads(result.stdout)["findings"]
    assert {f["id"]: f["severity"] for f in findings} == {"HC004": "warning", "HC011": "error"}
    assert result.exit_code == 1
    # The command line adds to the configured ignores.
    assert _json_ids(_run(config, "--format", "json", "--ignore", "HC011", config=pyproject)) == [
        "HC004"
    ]


def test_pyproject_severity_off_disables_a_rule(write: Writer) -> None:
    config = str(write("bot.yaml", NAIVE))
    pyproject = write("pyproject.toml", '[tool.harness.lint]\nHC004 = "off"\nHC010 = "off"\n')
    result = _run(config, config=pyproject)
    assert result.exit_code == 0
    assert "HC011" in result.stdout and "HC004" not in result.stdout


def test_the_nearest_pyproject_above_the_cwd_is_used(
    write: Writer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write("project/configs/bot.yaml", NAIVE)
    write("project/pyproject.toml", "[tool.harness.lint]\nselect = ['HC004']\n")
    monkeypatch.chdir(tmp_path / "project" / "configs")
    result = _run(str(config), "--format", "json")
    assert _json_ids(result) == ["HC004"]


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ('[tool.harness.lint]\nHC004 = "fatal"\n', "severity must be error, warning, info or off"),
        ("[tool.harness.lint]\nselect = ['HC9']\n", "unknown rule id"),
        ("[tool.harness.lint]\nline-length = 3\n", "unknown key 'line-length'"),
        ("[tool.harness.lint\n", "invalid TOML"),
    ],
)
def test_invalid_pyproject_settings_are_usage_errors(write: Writer, toml: str, words: str) -> None:
    pyproject = write("pyproject.toml", toml)
    result = _run(PAYROLL, config=pyproject)
    assert result.exit_code == 2
    assert words in result.stderr


def test_output_file_and_sarif_format(tmp_path: Path, pyproject: Path) -> None:
    out = tmp_path / "lint.sarif"
    result = _run(BROKEN, "--format", "sarif", "-o", str(out), config=pyproject)
    assert result.exit_code == 1
    assert result.stdout == ""
    log = json.loads(out.read_text())
    assert log["version"] == "2.1.0"
    assert log["runs"][0]["results"]
    # A CI log shows why the step failed: the summary and the file, on standard error.
    (line,) = result.stderr.splitlines()
    assert line.startswith("Found ") and line.endswith(f"); report written to {out}"), line


def test_github_format_prints_annotations_and_keeps_the_exit_code(pyproject: Path) -> None:
    result = _run(BROKEN, "--format", "github", config=pyproject)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "::error file=tests/fixtures/lint/broken/broken_syntax.yaml,line=7,col=1,"
        "title=HC100 invalid-config::invalid YAML"
    )
    assert lines[-1].startswith("Found ")


def test_text_output_file_has_no_colour(tmp_path: Path, pyproject: Path) -> None:
    out = tmp_path / "lint.txt"
    _run(BROKEN, "-o", str(out), config=pyproject)
    text = out.read_text()
    assert "\x1b[" not in text
    assert text.startswith("tests/fixtures/lint/broken/broken_syntax.yaml:7:1: HC100 error ")


def test_fix_adds_contract_entries_then_reports_what_is_left(
    write: Writer, pyproject: Path
) -> None:
    config = write("bot.yaml", NAIVE)
    result = _run(str(config), "--fix", "--format", "json", config=pyproject)
    assert "Fixed 1 entry" in result.stderr
    assert sorted(_json_ids(result)) == ["HC010", "HC011"]
    assert "name: scopedRequest" in config.read_text()


def test_lines_format_is_the_text_never_coloured(pyproject: Path) -> None:
    # One spelling for the three commands' CI logs: lint's text is already one line a finding.
    lines = _run(BROKEN, "--format", "lines", config=pyproject)
    text = _run(BROKEN, config=pyproject)
    assert lines.exit_code == text.exit_code == 1
    assert lines.stdout == text.stdout
    assert "\x1b[" not in lines.stdout

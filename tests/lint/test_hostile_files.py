"""Hostile or broken files: one clear HC100 naming file and line, never a traceback or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli.lint import lint_command
from harness.lint import lint_paths
from harness.lint._files import MAX_BYTES
from tests.lint.conftest import Writer, ids

BILLION_LAUGHS = (
    "parent: {name: x}\n"
    + "\n".join(
        ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
        + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    )
    + "\nsubagents: []\n"
)


def test_an_alias_bomb_is_one_hc100_with_file_and_line(write: Writer) -> None:
    path = write("bomb.yaml", BILLION_LAUGHS)
    findings = lint_paths([path]).findings
    assert ids(findings) == ["HC100"]
    assert findings[0].file.endswith("bomb.yaml")
    assert findings[0].line is not None
    assert "alias bomb" in findings[0].message


def test_over_deep_nesting_is_one_hc100(write: Writer) -> None:
    path = write("deep.yaml", "parent: " + "[" * 5000 + "]" * 5000 + "\nsubagents: []\n")
    findings = lint_paths([path]).findings
    assert ids(findings) == ["HC100"]
    assert "deep" in findings[0].message
    assert findings[0].line == 1


def test_the_cli_prints_one_line_and_no_traceback(write: Writer) -> None:
    path = write("bomb.yaml", BILLION_LAUGHS)
    result = CliRunner().invoke(lint_command, [str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert ":2:1: HC100 error invalid YAML: the document expands" in result.output


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("parent:\n  name: x\n".encode("utf-16"), "UTF-16"),
        (b"parent:\n  name: x\x00y\n", "NUL bytes"),
        (b"parent:\n  name: caf\xe9\n", "not valid UTF-8 (byte 0xe9"),
    ],
)
def test_encoding_problems_are_named(write: Writer, data: bytes, words: str) -> None:
    path = write("bot.yaml", "")
    path.write_bytes(data)
    findings = lint_paths([path]).findings
    assert ids(findings) == ["HC100"]
    assert words in findings[0].message
    assert "UTF-8" in findings[0].message


def test_a_utf8_byte_order_mark_is_fine(write: Writer) -> None:
    path = write("bot.yaml", "")
    path.write_bytes("\ufeffparent:\n  name: x\nsubagents: []\n".encode())
    assert lint_paths([path]).findings == ()


def test_a_huge_file_is_refused_by_size(write: Writer) -> None:
    path = write("huge.yaml", "")
    with path.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    findings = lint_paths([path]).findings
    assert ids(findings) == ["HC100"]
    assert "MiB limit" in findings[0].message


def test_a_symlink_loop_is_walked_once(write: Writer, tmp_path: Path) -> None:
    write("repo/agents/bot.yaml", "parent: {name: x}\nsubagents: []\n")
    os.symlink(tmp_path / "repo", tmp_path / "repo" / "agents" / "loop")
    os.symlink(tmp_path / "repo" / "agents", tmp_path / "repo" / "again")
    report = lint_paths([tmp_path / "repo"])
    assert report.files == 1
    assert report.findings == ()


def test_a_named_pipe_does_not_block(write: Writer, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    findings = lint_paths([tmp_path / "pipe.yaml"]).findings
    assert ids(findings) == ["HC100"]
    assert "not a regular file" in findings[0].message

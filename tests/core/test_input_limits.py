"""Every CLI input error is one line and exit 2, never a traceback or a hang (issue 16, item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import load_bot
from harness._yaml import MAX_FILE_BYTES, read_yaml
from harness.cli import cli
from harness.exceptions import ConfigError

LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)

YAML_CASES: dict[str, tuple[bytes, str]] = {
    "billion laughs": (LAUGHS.encode(), "expands to more than"),
    "deep flow": (b"parent: " + b"[" * 50_000 + b"]" * 50_000, "nest"),
    "deep block": (
        "".join("  " * i + f"k{i}:\n" for i in range(100)).encode() + b"  " * 100 + b"x\n",
        "nests deeper than 64",
    ),
    "UTF-16": ("parent: {name: x}\n".encode("utf-16"), "UTF-16"),
    "Latin-1": ("parent: {name: caf\xe9}\n".encode("latin-1"), "not UTF-8"),
    "NUL bytes": (b"parent: {name: x}\n\x00\n", "NUL byte"),
    "too large": (b"# " + b"x" * MAX_FILE_BYTES + b"\n", "larger than"),
}

JSON_CASES: dict[str, tuple[bytes, str]] = {
    "deep array": (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    "deep JSONL": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"\n", "nests too deeply"),
    "UTF-16": ("[]".encode("utf-16"), "UTF-16"),
    "Latin-1": ('[{"text": "caf\xe9"}]'.encode("latin-1"), "not UTF-8"),
}


def _one_line_exit_2(args: list[str], needle: str) -> None:
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 2, (args, result.output, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert needle in lines[0], lines[0]
    assert "Traceback" not in result.output + result.stderr


@pytest.mark.parametrize("case", sorted(YAML_CASES))
@pytest.mark.parametrize("command", ["instructions", "chat", "serve", "simulate"])
def test_bad_yaml_is_one_line_and_exit_2(tmp_path: Path, command: str, case: str) -> None:
    data, needle = YAML_CASES[case]
    path = tmp_path / "bad.yaml"
    path.write_bytes(data)
    _one_line_exit_2([command, str(path)], needle)


@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_load_bot_refuses_bad_yaml_with_a_config_error(tmp_path: Path, case: str) -> None:
    data, needle = YAML_CASES[case]
    path = tmp_path / "bad.yaml"
    path.write_bytes(data)
    with pytest.raises(ConfigError, match=needle) as caught:
        load_bot(path)
    assert caught.value.file == str(path)


@pytest.mark.parametrize("case", sorted(JSON_CASES))
def test_bad_transcripts_are_one_line_and_exit_2(tmp_path: Path, case: str) -> None:
    data, needle = JSON_CASES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    _one_line_exit_2(["detect", str(path)], needle)


def test_yaml_1_1_surprises_stay_strings_and_merges_work(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(
        "a: yes\nb: off\nc: 1:30\nd: true\nbase: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n",
        encoding="utf-8-sig",
    )
    assert read_yaml(path) == {
        "a": "yes",
        "b": "off",
        "c": "1:30",
        "d": True,
        "base": {"x": 1},
        "m": {"x": 1, "y": 2},
    }


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("a: 1\na: 2\n", "duplicate key 'a'"),
        ("a: !!python/object:os.system x\n", "unsupported value"),
        ("? [1, 2]\n: 3\n", "plain value"),
        ("a: 1\n---\nb: 2\n", "single document"),
    ],
)
def test_unsafe_or_ambiguous_yaml_is_refused(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=needle):
        read_yaml(path)

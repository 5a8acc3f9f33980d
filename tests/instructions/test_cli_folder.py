"""``harness instructions FOLDER`` on a folder that holds no Copilot Studio agent says what it
found: this SDK's config to give instead, or nothing to read; it does not call the folder a
Copilot Studio agent (audit s59, finding 5). Exit code 2 either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli

CONFIG = (
    "parent:\n  name: desk\n  instructions: Help staff.\n"
    "subagents:\n  - name: pto\n    kind: child\n    mode: direct\n"
    "    description: Answers paid time off questions.\n"
)


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["instructions", *args])
    return result.exit_code, " ".join(result.stderr.split())


def test_a_folder_with_one_sdk_config_names_it() -> None:
    Path("campus").mkdir()
    Path("campus/bot.yaml").write_text(CONFIG, encoding="utf-8")
    code, err = _run("campus")
    assert code == 2
    assert "Copilot Studio agent" not in err
    assert "run `harness instructions campus/bot.yaml`" in err


def test_a_folder_with_several_sdk_configs_lists_them() -> None:
    Path("bots").mkdir()
    for name in ("a.yaml", "b.yaml"):
        Path("bots", name).write_text(CONFIG, encoding="utf-8")
    code, err = _run("bots")
    assert code == 2
    assert "bots/a.yaml, bots/b.yaml" in err
    assert "looks like a Copilot Studio agent" not in err


@pytest.mark.parametrize("files", [(), ("notes.txt",)])
def test_a_folder_with_nothing_to_read_says_so(files: tuple[str, ...]) -> None:
    Path("scratch").mkdir()
    for name in files:
        Path("scratch", name).write_text("hello\n", encoding="utf-8")
    code, err = _run("scratch")
    assert code == 2
    assert "holds no config of this SDK and no Copilot Studio agent" in err
    assert "looks like a Copilot Studio agent" not in err


def test_a_missing_path_is_no_such_file() -> None:
    for path in ("missing.mcs.yml", "missing-folder/"):
        code, err = _run(path)
        assert code == 2
        assert "no such file" in err
        assert "Copilot Studio agent" not in err


def test_a_copilot_studio_file_that_is_no_agent_keeps_the_copilot_studio_advice() -> None:
    """A topic is Copilot Studio's: the folder message ("holds no ... Copilot Studio agent. Give
    ... a .mcs.yml file") would contradict the .mcs.yml file given."""
    Path("topics").mkdir()
    Path("topics/Greeting.mcs.yml").write_text(
        "kind: AdaptiveDialog\nbeginDialog:\n  kind: OnRecognizedIntent\n  id: main\n"
        "  actions:\n    - kind: SendActivity\n      id: a1\n      activity: Hello!\n",
        encoding="utf-8",
    )
    code, err = _run("topics/Greeting.mcs.yml")
    assert code == 2
    assert "looks like a Copilot Studio agent" in err
    assert "Run `harness lint` on it" in err
    assert "holds no config of this SDK" not in err

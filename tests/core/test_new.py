"""``harness new DIR``: a starter bot whose scenarios and tests pass as created, from a wheel too."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
FILES = ["README.md", "bot.yaml", "pyproject.toml", "scenarios.yaml", "test_bot.py", "tools.py"]


def _new(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["new", *args], prog_name="harness")
    return result.exit_code, result.output


def test_new_writes_a_starter_bot_named_after_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _new("Student Desk")
    assert code == 0, output
    folder = tmp_path / "Student Desk"
    assert sorted(p.name for p in folder.iterdir()) == FILES
    assert '  name: "student_desk"\n' in (folder / "bot.yaml").read_text()
    assert output.splitlines()[0] == (
        "created Student Desk/: bot.yaml, tools.py, scenarios.yaml, test_bot.py, pyproject.toml, "
        "README.md"
    )
    # The next steps run as printed when pasted into a shell: the folder's name is quoted.
    assert "  cd 'Student Desk'" in output.splitlines()


@pytest.mark.skipif(os.name == "nt", reason="a POSIX shell")
def test_the_next_steps_printed_run_in_a_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _new("my bot's desk")
    assert code == 0, output
    cd = next(line.strip() for line in output.splitlines() if line.strip().startswith("cd "))
    done = subprocess.run(["sh", "-c", f"{cd} && pwd"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == tmp_path / "my bot's desk"


@pytest.mark.parametrize("name", ["null", "true", "123", "0x10"])
def test_a_folder_name_yaml_reads_as_another_type_stays_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    from harness import load_bot

    monkeypatch.chdir(tmp_path)
    assert _new(name)[0] == 0
    assert load_bot(tmp_path / name / "bot.yaml").name == name
    if name == "null":
        monkeypatch.chdir(tmp_path / name)
        simulate = CliRunner().invoke(cli, ["simulate", "scenarios.yaml"], prog_name="harness")
        assert simulate.exit_code == 0, simulate.output


def test_new_refuses_a_folder_with_files_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "notes.txt").write_text("mine", encoding="utf-8")
    code, output = _new("bot")
    assert code == 2
    assert output.strip() == "error: bot is not empty; give a new or empty folder"
    assert (tmp_path / "bot" / "notes.txt").read_text() == "mine"


def test_the_starter_bot_lints_clean_and_its_scenarios_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _new("demo", "--name", "campus")[0] == 0
    monkeypatch.chdir(tmp_path / "demo")
    runner = CliRunner()
    lint = runner.invoke(cli, ["lint", "bot.yaml"], prog_name="harness")
    assert lint.exit_code == 0, lint.output
    simulate = runner.invoke(cli, ["simulate", "scenarios.yaml"], prog_name="harness")
    assert simulate.exit_code == 0, simulate.output
    assert "registration-and-library: no findings" in simulate.output
    assert "room-change: no findings" in simulate.output


def test_the_starter_tests_pass_under_pytest_without_an_async_plugin(
    pytester: pytest.Pytester,
) -> None:
    demo = pytester.path / "demo"
    CliRunner().invoke(cli, ["new", str(demo)], prog_name="harness")
    # From the parent folder: the driver finds bot.yaml next to the test file, not in the cwd.
    result = pytester.runpytest_inprocess("-p", "no:asyncio", "-q", "demo")
    result.assert_outcomes(passed=4)


def _local_index() -> list[str] | None:
    """pip options for an offline package index, or None (the wheel test is then skipped)."""
    url = os.environ.get("HARNESS_TEST_INDEX_URL")
    if url:
        return ["--index-url", url]
    if Path("/opt/pypi/simple").is_dir():  # the CI machines' local mirror
        options = ["--index-url", "file:///opt/pypi/simple"]
        if Path("/opt/pypi-more/simple").is_dir():
            options += ["--extra-index-url", "file:///opt/pypi-more/simple"]
        return options
    return None


def test_a_fresh_venv_with_only_the_wheel_runs_harness_new_and_pytest_green(tmp_path: Path) -> None:
    index = _local_index()
    if index is None:
        pytest.skip("needs an offline package index: set HARNESS_TEST_INDEX_URL (pip --index-url)")

    def run(*command: str | Path, cwd: Path = tmp_path) -> str:
        done = subprocess.run(
            [str(c) for c in command],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            env={
                **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
                "PIP_COMPILE": "0",  # as in tests/docs/test_install.py: the same check, less CPU
            },
        )
        assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    source = tmp_path / "source"  # a copy, so the build never writes into the repository
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "*cache*", "tests", "dist", "build"),
    )
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", "dist", *index, source)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    run(sys.executable, "-m", "venv", "fresh")
    bin_dir = tmp_path / "fresh" / "bin"
    run(bin_dir / "python", "-m", "pip", "install", "-q", *index, wheel, "pytest")
    run(bin_dir / "harness", "new", "demo")
    output = run(
        bin_dir / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=tmp_path / "demo"
    )
    assert "4 passed" in output
    installed = run(bin_dir / "python", "-m", "pip", "list", "--format=freeze")
    assert "pytest-asyncio" not in installed and "anyio" not in installed


def test_new_help_lists_its_exit_codes_once() -> None:
    result = CliRunner().invoke(cli, ["new", "--help"], prog_name="harness")
    assert result.exit_code == 0
    assert result.output.count("Exit codes:") == 1
    assert "2 a usage error (the folder is a file or not empty)" in result.output


def test_the_name_given_is_the_one_the_bot_introduces_itself_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _new("desk", "--name", "skycare")[0] == 0
    config = (tmp_path / "desk" / "bot.yaml").read_text(encoding="utf-8")
    assert '  name: "skycare"\n' in config
    assert "You are skycare." in config
    # The starter gives the bot no domain of its own: an airline's bot is not told it is a
    # university's desk (the sub-agents are examples, said to be).
    for file in FILES:
        text = (tmp_path / "desk" / file).read_text(encoding="utf-8").lower()
        assert "universit" not in text and "student" not in text, file


@pytest.mark.parametrize("plugins", [["-p", "no:asyncio"], []], ids=["without", "with"])
def test_the_starter_tests_run_without_warnings_with_or_without_pytest_asyncio(
    pytester: pytest.Pytester, plugins: list[str]
) -> None:
    """No deprecation warning from pytest-asyncio where it is installed, and no unknown-option
    warning for its setting where it is not."""
    pytest.importorskip("pytest_asyncio")
    demo = pytester.path / "demo"
    CliRunner().invoke(cli, ["new", str(demo)], prog_name="harness")
    result = pytester.runpytest_subprocess(*plugins, "-q", "-W", "default", "demo")
    result.assert_outcomes(passed=4)
    output = result.stdout.str() + result.stderr.str()
    assert "PytestDeprecationWarning" not in output, output
    assert "Unknown config option" not in output, output
    assert "warnings summary" not in output, output

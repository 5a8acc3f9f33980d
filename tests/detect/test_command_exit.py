"""``harness detect`` ends its process without the cyclic collector's last pass or the
interpreter's teardown.

At exit the interpreter's last collection walks every object still alive: after 100,000
messages, millions (the text analysis's caches), a few seconds of CPU for nothing, since the
process is ending. The console script leaves them in the collector's permanent generation
(``gc.freeze``), which that pass skips, and then ends the process once the exit handlers have
run (``os._exit``), so that the interpreter does not free every object still alive one by one;
but only for a command that asks for it, and only as the process ends: a command run in-process
(a test's runner) leaves the collector alone.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli, command

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "tests" / "fixtures" / "duplicates-dev" / "d01.transcript"

# Registered before the command runs, so it runs after the console script has ended it: it
# reports whether the objects left were frozen for the interpreter's last collection.
_SCRIPT = """
import atexit, gc, sys
atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0, flush=True))
sys.argv = ["harness", *sys.argv[1:]]
from harness.cli import main
main()
"""


def _console_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_harness_detect_leaves_its_objects_out_of_the_last_collection(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = _console_script("detect", str(TRANSCRIPT), "--format", "json", "-o", str(out))
    assert done.returncode in (0, 1), done.stderr
    assert '"findings"' in out.read_text(encoding="utf-8")  # the report was written first
    assert done.stdout.strip().endswith("frozen True")  # the exit handlers ran


def test_harness_detect_exits_with_its_code(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = _console_script("detect", str(TRANSCRIPT), "--format", "json", "-o", str(out))
    expected = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "json"])
    assert done.returncode == expected.exit_code == 1, done.stderr  # the file has errors


def test_harness_detect_report_on_standard_output_is_complete() -> None:
    done = _console_script("detect", str(TRANSCRIPT), "--format", "json")
    expected = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "json"])
    assert done.stdout.replace("frozen True\n", "") == expected.output


def test_other_commands_end_as_before() -> None:
    done = _console_script("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("frozen False")


class _Ended(Exception):
    pass


@pytest.fixture
def ending(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """What :func:`process_end` did: ``("handlers",)`` when it ran the exit handlers, then
    ``("exit", code)`` when it ended the process (``os._exit`` raising here instead)."""
    done: list[object] = []

    def exit_now(code: int) -> None:
        done.append(("exit", code))
        raise _Ended

    monkeypatch.setattr(command.os, "_exit", exit_now)
    # Threads another test of this process left running (a server's, a pool's) are not this
    # test's: only those started during it count as the "other thread" the usual exit joins.
    before = set(threading.enumerate())
    monkeypatch.setattr(
        command.threading,
        "active_count",
        lambda: 1 + sum(t.is_alive() and t not in before for t in threading.enumerate()),
    )
    monkeypatch.setattr(command.atexit, "_run_exitfuncs", lambda: done.append(("handlers",)))
    monkeypatch.setattr(command, "_SKIP_LAST_COLLECTION", [])
    try:
        yield done
    finally:
        gc.unfreeze()


def test_the_asked_end_runs_the_exit_handlers_then_ends_at_once(ending: list[object]) -> None:
    kept = object()
    command.end_without_collecting(kept)
    with pytest.raises(_Ended):
        command.process_end(1)
    assert ending == [("handlers",), ("exit", 1)]
    assert kept in command._SKIP_LAST_COLLECTION  # held to the end, never freed


def test_no_code_ends_with_zero(ending: list[object]) -> None:
    command.end_without_collecting()
    with pytest.raises(_Ended):
        command.process_end(None)
    assert ending[-1] == ("exit", 0)


def test_the_usual_exit_without_the_ask_a_message_or_another_thread(
    ending: list[object],
) -> None:
    command.process_end(1)  # no command asked
    command.end_without_collecting()
    command.process_end("error: a message to print")  # the interpreter prints it
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        command.process_end(1)  # a thread the usual exit joins
    finally:
        release.set()
        other.join()
    assert ending == []


def test_harness_detect_in_process_leaves_the_collector_alone() -> None:
    frozen = gc.get_freeze_count()
    result = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()


def test_a_later_console_script_call_forgets_what_an_earlier_command_asked(
    ending: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A `harness detect` run in-process asked for the quick end; a later `main()` in the same
    # process (here `--version`) must end as usual, not at once.
    from harness.cli import app

    command.end_without_collecting()
    monkeypatch.setattr(sys, "argv", ["harness", "--version"])
    with pytest.raises(SystemExit):
        app.main()
    assert ending == []

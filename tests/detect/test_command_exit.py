"""``harness detect`` ends its process without the cyclic collector's last pass.

At exit the interpreter's last collection walks every object still alive: after 100,000
messages, millions (the text analysis's caches), a few seconds of CPU for nothing, since the
process is ending. The console script leaves them in the collector's permanent generation
(``gc.freeze``), which that pass skips, but only for a command that asks for it, and only as the
process ends: a command run in-process (a test's runner) leaves the collector alone.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "tests" / "fixtures" / "duplicates-dev" / "d01.transcript"

# Registered before the command runs, so it runs after the console script has ended it: it
# reports whether the objects left were frozen for the interpreter's last collection.
_SCRIPT = """
import atexit, gc, sys
atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0))
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
    assert done.stdout.strip().endswith("frozen True")


def test_other_commands_end_as_before() -> None:
    done = _console_script("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("frozen False")


def test_harness_detect_in_process_leaves_the_collector_alone() -> None:
    frozen = gc.get_freeze_count()
    result = CliRunner().invoke(cli, ["detect", str(TRANSCRIPT), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()

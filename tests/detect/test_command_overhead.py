"""What ``harness detect`` spends besides detecting: it loads only what it runs (not the sub-agent
contract's models nor the instruction templates, jinja2, which the exception tree and the
transcript readers would pull in through the ``subagents`` and ``instructions`` packages if those
loaded every name at once; nor asyncio, which only embedding and the judge use), and resuming the paused garbage collector does not walk every object
the run made."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from harness.cli.command import paused_gc

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = """
import sys
from click.testing import CliRunner
from harness.cli import cli
result = CliRunner().invoke(cli, ["detect", sys.argv[1], "--format", "json"])
assert result.exit_code in (0, 1), result.output
assert '"findings"' in result.output
unwanted = ("subagents._base", "subagents.contract", "instructions.render", "jinja2", "asyncio")
print(sorted(m for m in sys.modules if m.startswith(unwanted)))
"""


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``script`` run by a fresh interpreter from the repository's root; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done


def test_harness_detect_loads_no_subagent_models_no_templates_and_no_event_loop() -> None:
    transcript = ROOT / "tests" / "fixtures" / "duplicates-dev" / "d01.transcript"
    done = _run(_SCRIPT, str(transcript))
    assert done.stdout.strip() == "[]"


def test_the_lazy_packages_still_export_every_name() -> None:
    script = (
        "import subagents, instructions\n"
        "from subagents import ChildAgent, Mode, Reply\n"
        "from instructions import AgentView, render_markdown\n"
        "missing = [n for p in (subagents, instructions) for n in p.__all__ if not hasattr(p, n)]\n"
        "print(missing, sorted(dir(subagents)) == sorted(subagents.__all__))\n"
    )
    done = _run(script)
    assert done.stdout.strip() == "[] True"


def test_objects_made_while_the_collector_paused_are_not_left_young() -> None:
    # Left in the youngest generation, the collector's first pass after the pause would walk
    # them all (seconds after a long conversation); they go to the oldest one instead.
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        made = [[number] for number in range(20_000)]
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(made) in oldest
    assert all(id(item) in oldest for item in made[::1000])


def test_the_command_loads_the_missed_request_check_only_where_it_runs() -> None:
    # With two cores the check runs in the worker forked beside the analysis: the segmenter's
    # and the answer matcher's modules are not loaded before this process can start analysing.
    script = (
        "import sys, harness.cli.detect\n"
        "print(sorted(m for m in sys.modules if m in ('harness.detect.missed', "
        "'harness.detect.requests', 'harness.detect.answers')))"
    )
    done = _run(script)
    assert done.stdout.strip() == "[]"

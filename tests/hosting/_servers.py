"""Real storage servers for the scale-out tests: redis-server and Azurite on 127.0.0.1.

Each is started on a free port in a temporary directory and stopped afterwards. When one is not
installed the test is skipped with the reason, unless ``HARNESS_REQUIRE_SERVERS`` is set (as
``.ci/run`` does after installing them): then the skip is a failure.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AZURITE = REPO / "tests" / "azurite" / "node_modules" / ".bin" / "azurite-blob"

AZURITE_ACCOUNT = "devstoreaccount1"
# Azurite's published development key (the same for every installation; not a secret).
AZURITE_KEY = (
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)


def missing(what: str, how: str) -> None:
    """Skip (or, with ``HARNESS_REQUIRE_SERVERS`` set, fail) because ``what`` is not installed."""
    reason = f"{what} is not installed ({how})"
    if os.environ.get("HARNESS_REQUIRE_SERVERS"):
        pytest.fail(f"{reason}; HARNESS_REQUIRE_SERVERS is set", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


STARTUP_LIMIT_S = 300
"""How long a server that is still running may take to listen. Not a measure of a healthy start:
Azurite (node) took 20 s to listen at load average 23 on 2 cores, so a bound near an idle
machine's start-up time fails tests on a busy one. A server that exits fails at once."""


def _wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + STARTUP_LIMIT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {STARTUP_LIMIT_S} s")


def _stop(process: subprocess.Popen[bytes], *, grace: float = 10) -> None:
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A private redis-server (no persistence) on a free port; yields its ``redis://`` URL."""
    with redis_process(directory) as (url, _process):
        yield url


@contextmanager
def redis_process(directory: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``redis_server``, also yielding the process (to pause it with SIGSTOP, say)."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("redis-server", "apt-get install redis-server")
    assert binary is not None
    port = free_port()
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(directory),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process, "redis-server")
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.send_signal(signal.SIGCONT)  # a paused server cannot stop
        _stop(process)


@contextmanager
def azurite(directory: Path) -> Iterator[str]:
    """Azurite's blob service on a free port; yields its connection string."""
    if not AZURITE.exists() or shutil.which("node") is None:
        missing("Azurite", "cd tests/azurite && npm ci")
    port = free_port()
    process = subprocess.Popen(
        [
            str(AZURITE),
            "--blobHost",
            "127.0.0.1",
            "--blobPort",
            str(port),
            "--location",
            str(directory),
            "--silent",
            "--skipApiVersionCheck",
            "--loose",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process, "azurite")
        yield (
            f"DefaultEndpointsProtocol=http;AccountName={AZURITE_ACCOUNT};"
            f"AccountKey={AZURITE_KEY};BlobEndpoint=http://127.0.0.1:{port}/{AZURITE_ACCOUNT};"
        )
    finally:
        _stop(process, grace=1)  # Azurite ignores SIGTERM: its data is a temp dir

"""``LlamaServer`` against a stand-in process: the URL it reports, its log, and a clean stop."""

from __future__ import annotations

import gc
import stat
from pathlib import Path

import pytest

from tests.llm.server import LlamaServer, ServerError


def _stand_in(tmp_path: Path, body: str) -> Path:
    """An executable standing in for the venv's python (it ignores ``-m llama_cpp.server ...``)."""
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_the_url_is_read_from_the_log_and_the_process_is_stopped(tmp_path: Path) -> None:
    python = _stand_in(
        tmp_path,
        'echo "loading" >&2\n'
        'echo "INFO:     Uvicorn running on http://127.0.0.1:40705 (Press CTRL+C to quit)" >&2\n'
        "exec sleep 600",
    )
    log = tmp_path / "logs" / "server.log"
    with LlamaServer(python, tmp_path / "model.gguf", log) as server:
        assert server.url == "http://127.0.0.1:40705"
        process = server.process
        assert process is not None and process.poll() is None
    assert server.process is None
    assert process.returncode is not None  # terminated, not left running
    assert "loading" in log.read_text(encoding="utf-8")
    gc.collect()  # an unclosed pipe would warn here, and warnings are errors in this suite


def test_a_server_that_never_says_where_it_listens_fails_and_is_stopped(tmp_path: Path) -> None:
    python = _stand_in(tmp_path, 'echo "error: no such model" >&2\nexit 1')
    server = LlamaServer(python, tmp_path / "model.gguf", tmp_path / "server.log")
    with pytest.raises(ServerError, match="did not start"):
        server.start()
    assert server.process is None
    assert "no such model" in (tmp_path / "server.log").read_text(encoding="utf-8")
    gc.collect()

"""``python -m llama_cpp.server`` on 127.0.0.1, on a port the OS picks, stopped for sure.

Used by ``make interop`` (tests/interop/run.py and tests/interop/test_llama_text_tool_calls.py)
and ``make eval-llm`` (tests/llm/eval.py).
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from pathlib import Path
from types import TracebackType


class ServerError(RuntimeError):
    """The server did not start."""


class LlamaServer:
    """One llama-cpp-python server process; a context manager that always stops it."""

    def __init__(
        self,
        python: Path,
        model: Path,
        log: Path,
        *,
        threads: int = 2,
        n_ctx: int = 8192,
        extra: tuple[str, ...] = (),
        start_timeout: float = 300,
    ) -> None:
        self.python = python
        self.model = model
        self.log = log
        self.threads = threads
        self.n_ctx = n_ctx
        self.extra = extra
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[str] | None = None
        self._drainer: threading.Thread | None = None
        self.url = ""
        """``http://127.0.0.1:PORT`` once started (the OpenAI base URL is ``url + "/v1"``)."""

    def start(self) -> None:
        command = [str(self.python), "-m", "llama_cpp.server", "--model", str(self.model)]
        command += ["--host", "127.0.0.1", "--port", "0", "--n_ctx", str(self.n_ctx)]
        command += ["--n_threads", str(self.threads), *self.extra]
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        assert self.process.stderr is not None
        deadline = time.monotonic() + self.start_timeout
        with self.log.open("w", encoding="utf-8") as log:
            for line in self.process.stderr:
                log.write(line)
                found = re.search(r"Uvicorn running on (http://127\.0\.0\.1:\d+)", line)
                if found:
                    self.url = found.group(1)
                    break
                if time.monotonic() > deadline:
                    break
        if not self.url:
            self.stop()
            raise ServerError(f"the llama-cpp server did not start; see {self.log}")
        # Keep reading its log, so a full pipe never blocks the server.
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        process = self.process
        if process is None or process.stderr is None:
            return
        with self.log.open("a", encoding="utf-8") as log:
            for line in process.stderr:
                log.write(line)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
        # The log's reader ends at the pipe's end; then the pipe is closed (no ResourceWarning).
        if self._drainer is not None:
            self._drainer.join(timeout=15)
            self._drainer = None
        if process.stderr is not None:
            process.stderr.close()

    def __enter__(self) -> LlamaServer:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

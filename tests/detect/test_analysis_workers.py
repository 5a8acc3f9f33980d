"""A long conversation's messages are analysed in worker processes too, and that changes nothing.

With worker processes (``harness detect``, :func:`harness.detect.duplicates.worker_processes`),
the parent analyses the first share of the messages while forked workers analyse the others and
send their analyses back; the joined analyses must equal the ones one process makes, message by
message, and so must the findings.
"""

from __future__ import annotations

import multiprocessing
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from harness.detect import _analysis, detect, duplicates
from harness.detect.duplicates import worker_processes
from harness.detect.transcript import Message, Transcript
from harness.text import Analysis
from tests.simulate.test_perf_equivalence import generated

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)


def _with_blank_messages(transcript: Transcript) -> Transcript:
    """The transcript with some bot messages emptied (no analysis, no entry)."""
    out = Transcript(conversation=transcript.conversation)
    for number, message in enumerate(transcript.messages):
        blank = message.role == "bot" and number % 7 == 3
        out.append(replace(message, text="  ") if blank else message)
    out.turns.extend(transcript.turns)
    return out


@pytest.mark.parametrize("jobs", [2, 3])
def test_shares_analysed_in_workers_equal_one_process(jobs: int) -> None:
    messages: list[Message] = _with_blank_messages(generated(11, 40, modes_known=True)).messages
    alone = _analysis._analysed(messages, 0, len(messages))
    shared = _analysis.analysed_in_processes(messages, jobs)
    assert len(shared) == len(messages)
    assert shared == alone
    assert any(a is None for a in alone)  # blank bot messages stay unanalysed
    assert {type(a).__name__ for a in alone} == {"Analysis", "_User", "NoneType"}


def test_the_switch_interval_is_put_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fan-out shortens the interpreter's thread switch interval while workers send their
    analyses back, and puts the caller's back afterwards, when a share fails too."""
    messages: list[Message] = generated(11, 10, modes_known=True).messages
    before = sys.getswitchinterval()
    seen: list[float] = []
    real = _analysis._analysed

    def watching(shared: list[Message], start: int, stop: int, *rest: Any) -> object:
        seen.append(sys.getswitchinterval())
        return real(shared, start, stop, *rest)

    monkeypatch.setattr(_analysis, "_analysed", watching)
    _analysis.analysed_in_processes(messages, 2)
    assert seen and all(value < before for value in seen)
    assert sys.getswitchinterval() == before

    def failing(shared: list[Message], start: int, stop: int, *rest: Any) -> object:
        raise RuntimeError("a share failed")

    monkeypatch.setattr(_analysis, "_analysed", failing)
    with pytest.raises(RuntimeError):
        _analysis.analysed_in_processes(messages, 2)
    assert sys.getswitchinterval() == before


def test_findings_with_workers_are_those_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcript = _with_blank_messages(generated(12, 60, modes_known=True))
    alone = detect(transcript)
    shares: list[int] = []
    real = _analysis.analysed_in_processes

    def spying(messages: list[Message], jobs: int, **given: Any) -> object:
        shares.append(jobs)
        return real(messages, jobs, **given)

    monkeypatch.setattr(_analysis, "analysed_in_processes", spying)
    with worker_processes(3):
        together = detect(transcript)
    # the analysis did run in two processes (the third runs the other checks)
    assert shares == [2]
    assert together == alone
    assert any(f.kind == "duplicate" for f in alone)
    with worker_processes(2):
        assert detect(transcript) == alone
    assert shares == [2]  # two: the parent analyses alone, beside the checks' worker


def test_pickled_analyses_and_users_load_equal() -> None:
    # Each record pickles as its constructor's arguments: a field added to one and not to its
    # __reduce__ would load wrong here.
    messages = generated(13, 20, modes_known=True).messages
    analysed = _analysis._analysed(messages, 0, len(messages))
    assert pickle.loads(pickle.dumps(analysed, protocol=pickle.HIGHEST_PROTOCOL)) == analysed
    parts = [r for r in analysed if r is not None]
    parts += [c for r in analysed if isinstance(r, Analysis) for c in r.claims]
    parts += [c.span for r in analysed if isinstance(r, Analysis) for c in r.claims]
    assert {type(p).__name__ for p in parts} == {"Analysis", "_User", "Claim", "Span"}
    for part in parts:
        assert len(part.__reduce__()[1]) == len(fields(part))


def test_the_result_pipe_is_enlarged_where_the_platform_allows() -> None:
    """The workers' results come back through a pipe of 1 MB (Linux's default is 64 KB), so
    the parent reads each in fewer reads; elsewhere, or without the pool's internals, the pool
    is used as it is."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("the platform cannot size pipes")
    limit = Path("/proc/sys/fs/pipe-max-size")
    if limit.is_file() and int(limit.read_text()) < 1 << 20:
        pytest.skip("this system refuses pipes of 1 MB (fs.pipe-max-size): the pool keeps its own")
    context = multiprocessing.get_context("fork")
    with _analysis.roomy(ProcessPoolExecutor(max_workers=1, mp_context=context)) as pool:
        reader = pool._result_queue._reader  # type: ignore[attr-defined]
        assert fcntl.fcntl(reader.fileno(), fcntl.F_GETPIPE_SZ) >= 1 << 20
        assert pool.submit(sum, [1, 2]).result() == 3
    plain = object()
    assert _analysis.roomy(plain) is plain  # type: ignore[arg-type]

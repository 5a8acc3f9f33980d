"""Duplicate guards whose check misbehaves, for the tests of the guard's worker processes.

They are plain ``DuplicateGuard`` subclasses: ``check_draft`` pickles the guard it is given to a
worker process, which imports this module and runs their ``check`` there. So a test makes a
worker hang, die or wait for another without touching the pool's internals.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path

from harness.detect.guard import DuplicateGuard, GuardDecision
from harness.detect.transcript import Message
from harness.text import analyse


class HangingGuard(DuplicateGuard):
    """A check that never ends (a worker stuck in a pathological loop or a C call)."""

    def check(
        self, draft: str, *, sent: Sequence[Message], turn: int, sender: str = "parent"
    ) -> GuardDecision:
        while True:
            time.sleep(60)


class DyingGuard(DuplicateGuard):
    """A check that kills its own process."""

    def check(
        self, draft: str, *, sent: Sequence[Message], turn: int, sender: str = "parent"
    ) -> GuardDecision:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")


class MeetingGuard(DuplicateGuard):
    """A check that marks that it started (a file ``name`` in ``folder``) and goes on only once
    the check named ``other`` has started too, or ``patience`` seconds have passed; then it checks
    as usual and marks whether they met (``name.met``). Two such checks meet only when they run
    at the same time: one after the other, the first one gives up."""

    def __init__(self, *, folder: Path, name: str, other: str, patience: float) -> None:
        super().__init__("drop")
        self.folder, self.name, self.other, self.patience = folder, name, other, patience

    def check(
        self, draft: str, *, sent: Sequence[Message], turn: int, sender: str = "parent"
    ) -> GuardDecision:
        (self.folder / self.name).touch()
        give_up = time.monotonic() + self.patience
        while not (self.folder / self.other).exists():
            if time.monotonic() > give_up:
                break
            time.sleep(0.01)
        else:
            (self.folder / f"{self.name}.met").touch()
        return super().check(draft, sent=sent, turn=turn, sender=sender)


class CacheCountingGuard(DuplicateGuard):
    """A check that answers, instead of a decision's text, how many texts the analysis cache of
    the process that ran it holds afterwards."""

    def check(
        self, draft: str, *, sent: Sequence[Message], turn: int, sender: str = "parent"
    ) -> GuardDecision:
        super().check(draft, sent=sent, turn=turn, sender=sender)
        return GuardDecision(text=str(analyse.cache_info().currsize))

"""The lease renewal the shared stores run beside a turn (``harness.hosting._lease.renewing``).

The root cause of the 3-worker stall under load (issue 27): on Python 3.11 ``asyncio.wait_for``,
which redis-py puts around every socket write, drops a cancellation that arrives as the write
completes. The renewal loop was stopped by ``cancel()`` alone and awaited without a bound, so
one dropped cancellation kept the loop renewing the lease forever: its turn never answered and
its conversation was busy on every worker. These tests drop the cancellation on purpose and
count renewals; nothing is timed.
"""

from __future__ import annotations

import asyncio

from harness.hosting import _lease
from harness.hosting._lease import renewing


async def _wound_down() -> None:
    """Wait until every renewal loop has ended (a loop that never ends fails the test by
    the pending task the caller checks, never by a clock)."""
    for _ in range(100):
        if not _lease._RUNNING:
            return
        await asyncio.sleep(0)


async def test_a_renewal_whose_cancellation_is_dropped_still_stops() -> None:
    calls = 0
    dropped = 0
    in_flight = asyncio.Event()

    async def renew() -> bool:
        nonlocal calls, dropped
        calls += 1
        in_flight.set()
        try:
            await asyncio.Event().wait()  # a renewal still on the wire when the turn ends
        except asyncio.CancelledError:
            dropped += 1  # as 3.11's wait_for does when its write completed meanwhile
        return True

    async with renewing(renew, every_s=0.001):
        await in_flight.wait()  # the turn ends while the renewal is in flight
    await _wound_down()
    assert dropped == 1
    assert calls == 1  # no renewal after the turn ended
    assert not _lease._RUNNING


async def test_the_turns_exit_never_waits_for_a_renewal_that_hangs() -> None:
    in_flight = asyncio.Event()
    release = asyncio.Event()
    calls = 0

    async def renew() -> bool:
        nonlocal calls
        calls += 1
        in_flight.set()
        while not release.is_set():  # ignores every cancellation until released
            try:
                await release.wait()
            except asyncio.CancelledError:
                continue
        return True

    async with renewing(renew, every_s=0.001):
        await in_flight.wait()
    # The block ended although the renewal is still stuck; once it returns, the loop stops.
    assert _lease._RUNNING
    release.set()
    await _wound_down()
    assert calls == 1
    assert not _lease._RUNNING


async def test_renewal_repeats_while_the_turn_runs_and_stops_when_the_lease_is_gone() -> None:
    calls = 0
    lost = asyncio.Event()

    async def renew() -> bool:
        nonlocal calls
        calls += 1
        if calls == 3:
            lost.set()
            return False  # another worker holds the lease now
        return True

    async with renewing(renew, every_s=0.001):
        await lost.wait()
        for _ in range(20):  # more chances to renew: none is taken
            await asyncio.sleep(0.002)
    assert calls == 3


async def test_a_failing_renewal_ends_the_loop_not_the_turn() -> None:
    calls = 0
    failed = asyncio.Event()

    async def renew() -> bool:
        nonlocal calls
        calls += 1
        failed.set()
        raise RuntimeError("no such lease")

    async with renewing(renew, every_s=0.001):
        await failed.wait()
    await _wound_down()
    assert calls == 1
    assert not _lease._RUNNING

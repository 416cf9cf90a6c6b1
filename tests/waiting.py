"""Waiting for a condition, never for a length of time: a test that sleeps "long enough" passes
on the machine it was written on and fails on a loaded one. These poll until the condition
holds, or await what is awaited, under one deadline; the deadline is generous, there only so
that a condition that never comes fails the test with its name instead of hanging it. A slow
machine makes a test slower, never red. ``tests/test_waiting_only.py`` holds the tests to it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

PATIENCE = 60.0
"""Seconds before a condition that has not come fails the test: far beyond what any of them
takes on a loaded two-core machine. It bounds every wait for a reply, a line, a page's change or
a process's end."""

PAGE_PATIENCE = PATIENCE * 1000
"""The same, in the milliseconds Playwright counts: every browser context's default timeout."""

JOB_PATIENCE = 1200.0
"""Seconds a subprocess given a whole job (a schema fuzzer's run, a type check, a package
download, a firmware configuration's validation) may take before it is called stuck: many
times the longest of them on a loaded two-core machine."""

ONE_TRY = PATIENCE / 4
"""Seconds a test's client gives one request before it gives up on it and sends it again (with
the same key), as a careful client does through a fault: reaching it only means another try,
never a failure, and it leaves a try lost in a fault time for others within ``PATIENCE``."""

PACE = 0.05
"""Seconds between one try and the next, for a loop that tries again (a server still starting,
a connection refused while a server is away): a pace, never a wait for anything."""

Said = str | Callable[[], str]
"""What failed, said when the deadline passes: a string, or a function saying it from what is
there by then (what a subscriber had seen, say)."""


def _said(what: Said) -> str:
    return what if isinstance(what, str) else what()


def until(
    condition: Callable[[], T], what: Said = "it never happened", timeout: float = PATIENCE
) -> T:
    """Poll ``condition`` from a thread that may block; answers its first true value."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, _said(what)
        time.sleep(0.02)  # the pace of polling, not a wait for anything
    return found


async def eventually(
    condition: Callable[[], T], what: Said = "it never happened", timeout: float = PATIENCE
) -> T:
    """Poll ``condition`` from the event loop, which runs on between polls."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, _said(what)
        await asyncio.sleep(0.01)  # the pace of polling, not a wait for anything
    return found


async def within(
    awaitable: Awaitable[T],
    what: Said,
    timeout: float = PATIENCE,
    progress: Callable[[], object] | None = None,
) -> T:
    """Await ``awaitable`` (a socket's next message, a stream's next line, a process's end)
    under the shared deadline: past it the test fails with ``what``. Given ``progress`` (a
    count of what a long run has done so far), the deadline counts from its last change, so a
    long run on a slow machine is waited out and only one that stalls fails. A timeout the
    awaitable raises of itself is not the deadline's, and is raised as it is."""
    scope = asyncio.timeout(timeout)

    async def watch(measure: Callable[[], object]) -> None:
        seen = measure()
        while not scope.expired():
            if (now := measure()) != seen:
                seen = now
                scope.reschedule(asyncio.get_running_loop().time() + timeout)
            await asyncio.sleep(PACE)

    watching = None if progress is None else asyncio.create_task(watch(progress))
    try:
        async with scope:
            return await awaitable
    except TimeoutError:
        if scope.expired():
            raise AssertionError(_said(what)) from None
        raise
    finally:
        if watching is not None:
            watching.cancel()


async def eventually_async(
    condition: Callable[[], Awaitable[T]],
    what: Said = "it never happened",
    timeout: float = PATIENCE,
) -> T:
    """Poll an asynchronous ``condition`` (a request to a server, say) until it answers a true
    value, which is answered."""
    deadline = time.monotonic() + timeout
    while not (found := await condition()):
        assert time.monotonic() < deadline, _said(what)
        await asyncio.sleep(PACE)
    return found

"""Waiting for a condition, never for a length of time: a test that sleeps "long enough" passes
on the machine it was written on and fails on a loaded one. These poll until the condition
holds; the deadline is generous, there only so that a condition that never comes fails the test
with its name instead of hanging it. A slow machine makes a test slower, never red."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

PATIENCE = 60.0
"""Seconds before a condition that has not come fails the test: far beyond what any of them
takes on a loaded two-core machine."""


def until(
    condition: Callable[[], T], what: str = "it never happened", timeout: float = PATIENCE
) -> T:
    """Poll ``condition`` from a thread that may block; answers its first true value."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.02)  # the pace of polling, not a wait for anything
    return found


async def eventually(
    condition: Callable[[], T], what: str = "it never happened", timeout: float = PATIENCE
) -> T:
    """Poll ``condition`` from the event loop, which runs on between polls."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)  # the pace of polling, not a wait for anything
    return found

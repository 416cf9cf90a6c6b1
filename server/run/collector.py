"""The cycle collector of a server process, kept out of the way of the tables.

CPython frees almost everything a command makes by reference counting; the cycle collector is
for the rest. Its full passes scan every object the process holds, and in a server holding a
thousand subscribers each took 100 to 500 ms in the server bench, seven of them in a 70 s run:
a command arriving meanwhile waits for it. So the objects alive once the server is built (its
modules, schemas and app, which never become garbage) are frozen out of the collector's scans,
and full passes are made a hundred times rarer. The young generations, which find the cycles a
command leaves behind (an exception's traceback, a cancelled task), run as before.
"""

from __future__ import annotations

import gc

FULL_PASS_EVERY = 1000
"""Passes of the middle generation between two full passes (CPython's default is 10)."""


def settle() -> None:
    """Freeze what the process holds now, and make full passes rare: call it once the server
    is built, just before it serves."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_PASS_EVERY)

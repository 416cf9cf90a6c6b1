"""The event loop ``seize serve`` runs on: asyncio's own, or uvloop (``--loop uvloop``).

uvloop's transports (libuv, in C) put less Python around each socket write, which is most of
a busy server's time; the package is a dependency on Linux and macOS, where it builds, and the
default wherever it can be imported (asyncio's own loop elsewhere). Where it cannot, asking for
it by name is refused rather than quietly replaced.
"""

from __future__ import annotations

import asyncio

LOOPS = ("uvloop", "asyncio")


class LoopUnavailableError(RuntimeError):
    """The loop asked for is not installed here."""


def uvloop_installed() -> bool:
    """Whether uvloop can be imported here."""
    try:
        import uvloop  # noqa: F401, PLC0415 - optional: absent on Windows
    except ImportError:
        return False
    return True


def choose(name: str | None) -> str:
    """The loop to run: the one named, else uvloop where it can be imported and asyncio's own
    elsewhere. Asking for uvloop where it cannot be imported is refused with
    LoopUnavailableError, so a deliberate choice is never quietly replaced by another."""
    if name is None:
        return "uvloop" if uvloop_installed() else "asyncio"
    if name == "uvloop" and not uvloop_installed():
        raise LoopUnavailableError("uvloop is not installed here")
    return name


def new_loop(name: str) -> asyncio.AbstractEventLoop:
    """A fresh loop of a kind ``choose`` returned."""
    if name == "uvloop":
        import uvloop  # noqa: PLC0415 - optional: absent on Windows

        return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def running() -> str:
    """The kind of loop running now, read from the loop itself rather than from the setting."""
    module = type(asyncio.get_running_loop()).__module__
    return "uvloop" if module.split(".")[0] == "uvloop" else "asyncio"

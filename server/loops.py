"""The event loop ``seize serve`` runs on.

Most of a busy server's time goes into writing to sockets, and uvloop's transports (libuv, in
C) do that with less of Python around each write than asyncio's own loop, so it is the default
wherever it is installed: Linux and macOS, where the package depends on it. Elsewhere, or when
it is missing, asyncio's own loop runs the same code unchanged.
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
    """The loop to run: the one named, or uvloop where it is installed and asyncio's own
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

"""Where a running server's links lead, kept beside it while it serves.

``seize gm-link`` runs on the host as a command of its own, and knows only the flags it is
given. A link it made from them alone would name loopback, or ``0.0.0.0`` under
``--host 0.0.0.0``, or http where the server speaks https: a link no tablet opens. So each
server, while it serves, keeps the address its own printed links name (the shared https
address, this machine's address on the table's network, https under TLS) in the host's data
folder, one record per port, and gm-link mints its link there."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import platformdirs
from aiohttp import web


def _kept(port: int) -> Path:
    return Path(platformdirs.user_data_dir("seize")) / "serving" / f"{port}.json"


def recorded(url: str, port: int) -> Callable[[web.Application], AsyncIterator[None]]:
    """Keep ``url`` as where the server on ``port`` is reached, for as long as it serves."""
    kept = _kept(port)

    async def recording(_: web.Application) -> AsyncIterator[None]:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps({"url": url, "pid": os.getpid()}))
        try:
            yield
        finally:
            kept.unlink(missing_ok=True)

    return recording


def address_now(port: int) -> str | None:
    """Where the server on ``port`` of this host is reached, while it runs; None when none
    serves there (a record left by a server that was killed is no address)."""
    try:
        kept = json.loads(_kept(port).read_text())
        os.kill(int(kept["pid"]), 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    url = kept.get("url")
    return url if isinstance(url, str) else None

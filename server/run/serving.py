"""Where a running server's links lead, kept beside it while it serves.

``seize gm-link`` runs on the host as a command of its own, and knows only the flags it is
given. A link it made from them alone would name loopback, or ``0.0.0.0`` under
``--host 0.0.0.0``, or http where the server speaks https: a link no tablet opens. So each
server, while it serves, keeps the address its own printed links name (the shared https
address, this machine's address on the table's network, https under TLS) in the host's data
folder, one record per port, and gm-link mints its link there: at the port it is given, or,
given none, at the server that serves the database it opens (a GM who started the server with
``--port 8790 --db western.db`` and asks ``seize gm-link Western --db western.db``)."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import platformdirs
from aiohttp import web


def _kept(port: int) -> Path:
    return Path(platformdirs.user_data_dir("seize")) / "serving" / f"{port}.json"


def recorded(
    url: str, port: int, db: Path | str
) -> Callable[[web.Application], AsyncIterator[None]]:
    """Keep ``url`` as where the server on ``port``, serving ``db``, is reached, for as long
    as it serves."""
    kept = _kept(port)

    async def recording(_: web.Application) -> AsyncIterator[None]:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps({"url": url, "pid": os.getpid(), "db": _database(db)}))
        try:
            yield
        finally:
            kept.unlink(missing_ok=True)

    return recording


def _database(db: Path | str) -> str:
    """A database as records name it: a file by its whole path, however it was given."""
    return str(db.resolve()) if isinstance(db, Path) else db


def address_now(port: int) -> str | None:
    """Where the server on ``port`` of this host is reached, while it runs; None when none
    serves there (a record left by a server that was killed is no address)."""
    kept = _running(_kept(port))
    url = kept.get("url") if kept else None
    return url if isinstance(url, str) else None


def address_serving(db: Path | str) -> str | None:
    """Where a server of this host that serves ``db`` is reached, while one runs: the first
    such record, by port; None when none does."""
    folder = _kept(0).parent
    for record in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        kept = _running(record)
        if kept and kept.get("db") == _database(db) and isinstance(kept.get("url"), str):
            return str(kept["url"])
    return None


def _running(record: Path) -> dict[str, object] | None:
    """A server's record, if that server still runs."""
    try:
        kept = json.loads(record.read_text())
        os.kill(int(kept["pid"]), 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return kept if isinstance(kept, dict) else None

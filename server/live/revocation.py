"""A revoked link stops working everywhere, at once where it was revoked.

Revoking (a new overlay link, the demo's fresh links) deletes the tokens from the store. The
server that revoked them forgets them and drops the connections that came in with them: a link
that leaked off stream stops showing the table, not only stops opening it. Other servers
sharing the database were not told; they read a cached token again once it is older than
``REVOKED_WITHIN``, and check that often which of their connections' tokens are gone, in one
read, dropping those. A revoked subscriber is told so and closed with 1008 (policy violation),
which the pages take as "do not come back".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from server.http.context import SEIZE, Seize
from server.tables.access import REVOKED_WITHIN

log = logging.getLogger("seize")


async def revoke(seize: Seize, table_id: str, label: str) -> None:
    """Revoke the table's tokens with this label, and drop whoever follows with one."""
    revoked = await seize.store.revoke_tokens(table_id, label)
    seize.tokens.forget(revoked)
    seize.hub.revoke(set(revoked))


async def watching(app: web.Application) -> AsyncIterator[None]:
    """Drop, every ``REVOKED_WITHIN`` seconds, the subscribers whose token another server has
    revoked; only where others share the database (``Settings.shared``)."""
    seize = app[SEIZE]
    if not seize.settings.shared:
        yield
        return
    stopping = asyncio.Event()
    task = asyncio.create_task(_watch(seize, stopping), name="seize-revocations")
    yield
    # Not cancelled: a read cancelled half-way can leave its connection out of step with the
    # database. The read under way ends within the store's own timeout.
    stopping.set()
    await task


async def _watch(seize: Seize, stopping: asyncio.Event) -> None:
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), REVOKED_WITHIN)
        if stopping.is_set():
            return
        held = seize.hub.token_hashes()
        if not held:
            continue
        try:
            gone = held - await seize.store.tokens_kept(held)
        except Exception:
            # The database is away (or a read failed): asked again next time.
            log.warning("revoked tokens not looked for", exc_info=True)
            continue
        if gone:
            seize.tokens.forget(gone)
            dropped = seize.hub.revoke(gone)
            log.info("revoked elsewhere: subscribers dropped", extra={"subscribers": dropped})

"""A revoked link stops working everywhere, at once where it was revoked.

Revoking (a new overlay link, a GM device, the demo's fresh links) deletes the tokens from the
store. The server that revoked them forgets them and drops the connections that came in with
them: a link that leaked off stream stops showing the table, not only stops opening it. Other
servers sharing the database were not told; they read a cached token again once it is older
than ``REVOKED_WITHIN``, and check that often which of their connections' tokens are gone, in
one read, dropping those. A revoked subscriber is told so and closed with 1008 (policy violation),
which the pages take as "do not come back".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from server.live.hub import Hub
from server.store import Store
from server.tables.access import REVOKED_WITHIN, Tokens

log = logging.getLogger("seize")


async def revoke(
    store: Store, tokens: Tokens, hub: Hub, table_id: str, label: str, keep: bytes = b""
) -> None:
    """Revoke the table's tokens with this label but ``keep`` (a hash), and drop whoever
    follows with one."""
    revoked = await store.revoke_tokens(table_id, label, keep)
    tokens.forget(revoked)
    hub.revoke(set(revoked))


async def revoke_one(
    store: Store, tokens: Tokens, hub: Hub, table_id: str, token_hash: bytes
) -> bool:
    """Revoke one token of the table (a GM's device), and drop whoever follows with it; False
    if the table has no such token."""
    if not await store.revoke_token(table_id, token_hash):
        return False
    tokens.forget([token_hash])
    hub.revoke({token_hash})
    return True


@contextlib.asynccontextmanager
async def watching(store: Store, tokens: Tokens, hub: Hub) -> AsyncIterator[None]:
    """Drop, every ``REVOKED_WITHIN`` seconds while this is entered, the subscribers whose
    token another server has revoked: for a server that shares its database with others."""
    stopping = asyncio.Event()
    task = asyncio.create_task(_watch(store, tokens, hub, stopping), name="seize-revocations")
    yield
    # Not cancelled: a read cancelled half-way can leave its connection out of step with the
    # database. The read under way ends within the store's own timeout.
    stopping.set()
    await task


async def _watch(store: Store, tokens: Tokens, hub: Hub, stopping: asyncio.Event) -> None:
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), REVOKED_WITHIN)
        if stopping.is_set():
            return
        held = hub.token_hashes()
        if not held:
            continue
        try:
            gone = held - await store.tokens_kept(held)
        except Exception:
            # The database is away (or a read failed): asked again next time.
            log.warning("revoked tokens not looked for", exc_info=True)
            continue
        if gone:
            tokens.forget(gone)
            dropped = hub.revoke(gone)
            log.info("revoked elsewhere: subscribers dropped", extra={"subscribers": dropped})

"""A table's story read from the store: its log folded a page at a time into one role's story
(``rules/chronicle.py``), or into the table as it stood after any step (a replay).

The table in play holds only its recent events (``LazyLog``); its story needs the whole log,
with the time each event was stored. So the log is read from the store ``PAGE`` events at a
time and folded on a table of its own, whose log keeps each event as its stored JSON and lets
go of what its undo window no longer needs, as the table in play does: telling a long game
holds its state, an undo window and the story told, never the whole log. An undo that reaches
behind the window (a GM taking back two hundred steps) has the events it needs read back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rules.chronicle import Chronicle
from rules.roles import Viewer
from rules.standing import WINDOW, Forgotten
from rules.table import Table
from server.store import Store
from server.tables.games import LazyLog
from server.tables.systems import AnySystem

PAGE = 500
"""Events read from the store at once."""
STRETCH = 50
"""Events told between two turns of the event loop: a long story (seconds of folding, for ten
thousand events) never holds up the server's other requests and subscribers for longer than a
few milliseconds."""
UNDO_WINDOW = WINDOW
"""How far back the story's table undoes from what it holds, as a table in play does."""


async def chronicle(
    store: Store,
    table_id: str,
    system: AnySystem,
    options: Any,
    viewer: Viewer,
    upto: int | None = None,
    *,
    keeping: bool = False,
) -> Chronicle:
    """The story of the table's first ``upto`` steps as ``viewer`` numbers them (all it holds:
    None), as ``viewer`` saw it; its table is the table as it stood after them. A viewer from
    whom someone is hidden does not count the steps wholly about them (``Chronicle``), so its
    step numbers are read until they reach ``upto``. ``keeping``: with each event as shown, for
    an export."""
    log = LazyLog(system, [])
    table = Table.restore(system, options, log, system.initial_state(options), UNDO_WINDOW)
    teller = Chronicle(table, viewer, keeping=keeping)
    after = 0
    while upto is None or teller.steps_seen < upto:
        wanted = PAGE if upto is None else min(PAGE, upto - teller.steps_seen)
        page = await store.stamped(table_id, after, wanted)
        if not page:
            break  # the table holds no more
        for seq, body, at in page:
            if upto is not None and teller.steps_seen >= upto:
                break
            event = system.events.validate_json(body)
            while True:
                try:
                    teller.take(seq, event, at)
                    break
                except Forgotten as forgotten:  # an undo reaching behind the window
                    await _read_back(store, table_id, log, forgotten.position)
            log.keep(seq, [body])
            if seq % STRETCH == 0:
                await asyncio.sleep(0)
        after = page[-1][0]
        log.let_go(teller.table.reach)
    return teller


async def _read_back(store: Store, table_id: str, log: LazyLog, position: int) -> None:
    """Hold again the events from ``position`` on that the log let go of."""
    stored = await store.stamped(table_id, position, log.first - position)
    log.recall(position, [body for _, body, _ in stored])

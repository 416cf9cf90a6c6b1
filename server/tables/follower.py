"""Bringing the tables held here up to what other servers sharing the database committed: the
one part of the tables room the bus talks to (``heard``, ``reconcile``), and what the command
runner and the following routes ask when a copy may be behind (``caught_up``, ``reaching``,
``latest``).

A copy only ever takes the events after its own last one, and shows them to its subscribers
in order, so every subscriber gets every event once, whichever server committed it."""

from __future__ import annotations

import asyncio
from typing import Any

from rules.standing import Forgotten
from rules.table import Undone
from server.errors import ServerFaultError, StoreUnavailableError
from server.store import Store
from server.tables.audience import Audience, Neighbours
from server.tables.cache import Tables
from server.tables.games import Game
from server.tables.showing import shown

UNSHOWABLE = "the table cannot be shown"


class Follower:
    def __init__(
        self, store: Store, tables: Tables, audience: Audience, neighbours: Neighbours
    ) -> None:
        self.store, self.tables = store, tables
        self.audience, self.neighbours = audience, neighbours

    async def caught_up(self, game: Game) -> bool:
        """Take in, under the table's lock, what others appended since this copy's last event;
        False if there was nothing (the conflict was an idempotency key, or a bug)."""
        missed = await self.store.events(game.id, game.table.version)
        events = [game.system.events.validate_json(body) for _, body in missed]
        while True:
            try:
                self._absorb(game, events)
                break
            except Forgotten as forgotten:  # an undo reaching events in the store only
                await self.tables.recall(game, forgotten.position)
        game.suspect = False
        return bool(missed)

    async def reaching(self, game: Game, seq: int) -> Game:
        """The table as held here, brought up from the store to at least ``seq`` when a client
        has seen that far through another server (and reconnects here): caught up from an
        older copy, it would be shown the past as news."""
        if seq <= game.table.version:
            return game
        async with self.tables.holding(game) as held:
            await self.caught_up(held)
            return held

    async def latest(self, game: Game) -> Game:
        """The table as the store holds it now, when other servers may write to it: a client
        that has just sent a command through one worker and reads through another (a new
        connection may land on either) reads what it wrote, not a copy a bus message behind.
        Likewise for a copy whose last write's fate is unknown (``Game.suspect``). While the
        database cannot be reached, the copy held here is shown as it stands."""
        if not (self.neighbours.shared or game.suspect):
            return game
        try:
            heads = await self.store.heads([game.id])
            return await self.reaching(game, heads.get(game.id, 0))
        except StoreUnavailableError:
            return game  # the database is away: what this server holds is what it can show

    def heard(self, table_id: str, first: int, events: list[Any]) -> bool:
        """Events another server committed, as its bus message carried them."""
        game = self.tables.held(table_id)
        if game is None or first + len(events) - 1 <= game.table.version:
            return True  # not held here, or already taken in
        if first > game.table.version + 1:
            return False  # some were missed: the store has them
        if game.lock.locked():
            return False  # a command is under way here: it will meet them in the store
        fresh = events[game.table.version + 1 - first :]
        try:
            self._absorb(game, [game.system.events.validate_python(event) for event in fresh])
        except Forgotten:  # an undo reaching events in the store only: the store path reads them
            return False
        return True

    async def reconcile(self, table_ids: set[str] | None) -> None:
        """Bring the tables held here (or these of them) up to what the store holds."""
        held = self.tables.holding_ids()
        if table_ids is not None:
            held &= table_ids
        if not held:
            return
        heads = await self.store.heads(sorted(held))
        for table_id, head in heads.items():
            game = self.tables.held(table_id)
            if game is None or head <= game.table.version:
                continue
            async with game.lock:
                if not game.evicted:
                    await self.caught_up(game)

    def _absorb(self, game: Game, events: list[Any]) -> None:
        """Apply events another server committed, the next ones after this copy's last, and
        show them to this server's subscribers. They are committed: if a role here cannot be
        shown them, they are applied all the same and that table's subscribers are told to
        come back (and will be refused as this version cannot show the table)."""
        if not events:
            return
        table, first = game.table, game.table.version + 1
        repairing = any(isinstance(event, Undone) for event in events)
        try:
            outcome = shown(
                game, events, game.viewers, "another server's command", first, repairing
            )
        except ServerFaultError:
            for event in events:
                table.apply(event)
            self.audience.drop(game.id, UNSHOWABLE)
            return
        table.record(events, outcome.folded)
        game.settle()
        asyncio.get_running_loop().call_soon(self.audience.publish(game.id, outcome.by))

"""The tables this server holds in memory: loaded from their latest snapshot and the events
after it, kept while in play, let go when idle or when the copy can no longer be trusted.

A table is held by one ``Game`` at a time, so two commands on one server never decide on two
copies. A table that leaves memory while a command waits for it is marked ``evicted``, and the
command runs on it loaded afresh (``holding``). Only a table no one follows here leaves memory:
one that is followed stays, and stays followed, so its subscribers hear of every event others
commit, whatever happens to the database meanwhile."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from rules.roles import GM, OVERLAY, Role, Viewer, player
from rules.standing import Forgotten
from rules.table import Table
from server.store import Snapshot, Store, TableRow
from server.tables.access import OVERLAY_LABEL, mint, token_row
from server.tables.audience import Audience, Neighbours
from server.tables.games import RECENT, AnyTable, Game, LazyLog
from server.tables.systems import SYSTEMS, AnySystem


@dataclass(frozen=True)
class Created:
    game: Game
    gm_token: str
    overlay_token: str


class Tables:
    def __init__(self, store: Store, audience: Audience, neighbours: Neighbours) -> None:
        self.store, self.audience, self.neighbours = store, audience, neighbours
        self._loaded: dict[str, Game] = {}

    async def create(self, system_name: str, name: str, options: dict[str, Any]) -> Created:
        """A new table with its GM and overlay tokens; raises ValidationError on bad options."""
        system = SYSTEMS[system_name]
        parsed = system.options_model.model_validate(options)
        table_id = uuid.uuid4().hex[:12]
        gm_token, overlay_token = mint(), mint()
        row = TableRow(table_id, system_name, name, parsed.model_dump_json())
        await self.store.create_table(
            row,
            [
                token_row(gm_token, table_id, GM, "gm"),
                token_row(overlay_token, table_id, OVERLAY, OVERLAY_LABEL),
            ],
        )
        game = Game(id=table_id, name=name, table=_fresh(system, parsed))
        self._hold(game)
        return Created(game, gm_token, overlay_token)

    async def get(self, table_id: str) -> Game | None:
        """The table, loaded from its latest snapshot and the events after it. A table in
        memory is returned without awaiting anything, so a caller may rely on nothing else
        running between this and its next step."""
        if table_id in self._loaded:
            game = self._loaded[table_id]
            game.used = time.monotonic()
            return game
        row = await self.store.table(table_id)
        if row is None:
            return None
        table, snapshotted = await self._load(row)
        bindings = await self.store.bindings(table_id)
        if table_id in self._loaded:  # loaded by another caller while this one read
            return self._loaded[table_id]
        game = Game(id=row.id, name=row.name, table=table, snapshotted=snapshotted)
        game.settle()
        game.viewers |= {
            Viewer(role=Role(role), participants=frozenset(participants))
            for role, participants in bindings
        }
        self._hold(game)
        return game

    def held(self, table_id: str) -> Game | None:
        """The table if it is in memory, without loading it."""
        return self._loaded.get(table_id)

    def holding_ids(self) -> set[str]:
        return set(self._loaded)

    @asynccontextmanager
    async def holding(self, game: Game) -> AsyncIterator[Game]:
        """The table's lock, held on the table as loaded now: if it left memory while a command
        waited for it, the command runs on it loaded afresh, so no two copies ever append."""
        while True:
            async with game.lock:
                if not game.evicted:
                    yield game
                    return
            reloaded = await self.get(game.id)
            assert reloaded is not None  # tables are never deleted
            game = reloaded

    def _hold(self, game: Game) -> None:
        self._loaded[game.id] = game
        self.neighbours.follow(game.id)

    async def evict_idle(self, idle: float) -> int:
        """Let tables that no one has used for ``idle`` seconds and no one follows leave
        memory, each with a snapshot so it loads again quickly; returns how many left. A
        server that runs for weeks holds the tables in play, not every table it ever saw."""
        now = time.monotonic()
        leaving = [
            game
            for game in self._loaded.values()
            if now - game.used >= idle
            and not game.lock.locked()
            and not self.audience.followed(game.id)
        ]
        for game in leaving:
            self.forget(game)
        for game in leaving:
            if game.table.version > game.snapshotted:
                await self.snapshot(game)
        return len(leaving)

    def forget(self, game: Game) -> None:
        """The table leaves memory; a command waiting for it will run on it loaded afresh."""
        game.evicted = True
        if self._loaded.get(game.id) is game:
            del self._loaded[game.id]
            self.neighbours.unfollow(game.id)

    @property
    def loaded(self) -> int:
        return len(self._loaded)

    async def _load(self, row: TableRow) -> tuple[AnyTable, int]:
        """The table from its snapshot and the events after it, its log holding the ``RECENT``
        events before those; from its whole log if it has no snapshot this code can read."""
        system = SYSTEMS[row.system]
        options = system.options_model.model_validate_json(row.options)
        snapshot = await self.store.snapshot(row.id)
        table, after = _fresh(system, options), 0
        older = max(0, snapshot.seq - RECENT) if snapshot is not None else 0
        stored = [body for _, body in await self.store.events(row.id, older)]
        if snapshot is not None:
            try:
                state = system.state_model.model_validate_json(snapshot.state)
                log = LazyLog(system, stored[: snapshot.seq - older], first=older)
                marks = [
                    (seq, system.events.validate_json(body))
                    for seq, body in await self.store.marked(row.id, snapshot.seq)
                ]
                table = Table.restore(system, options, log, state, marks=marks)
                after = snapshot.seq
            except ValidationError:  # one the code outgrew: the whole log is read again
                older = 0
                stored = [body for _, body in await self.store.events(row.id)]
        for body in stored[after - older :]:
            event = system.events.validate_json(body)
            while True:
                try:
                    table.apply(event)
                    break
                except Forgotten as forgotten:  # an undo since the snapshot reaches behind it
                    await self._read_back(row.id, table.log, forgotten.position)
        assert isinstance(table.log, LazyLog)
        table.log.keep(after + 1, stored[after - older :])
        return table, after

    async def recall(self, game: Game, position: int) -> None:
        """Read back from the store the events from ``position`` on that the table's log let
        go of, so that a synchronous reader (an undo, a catch-up) finds them when it asks
        again."""
        await self._read_back(game.id, game.table.log, position)

    async def _read_back(self, table_id: str, log: object, position: int) -> None:
        if not isinstance(log, LazyLog) or position >= log.first:
            return
        stored = await self.store.events(table_id, position)
        log.recall(position, [body for _, body in stored])

    async def since(self, game: Game, after: int) -> Game:
        """The table as held here now, its log holding every event after sequence ``after``.
        Nothing is awaited after the last check, so the caller's next synchronous steps find
        them all."""
        while True:
            current = await self.get(game.id)
            assert current is not None  # tables are never deleted
            if current.holds(after):
                return current
            await self.recall(current, after)

    async def mint_player(self, game: Game, participants: frozenset[str], label: str) -> str:
        token, viewer = mint(), player(*participants)
        await self.store.add_tokens([token_row(token, game.id, viewer, label)])
        game.viewers.add(viewer)
        return token

    async def snapshot(self, game: Game) -> None:
        await self.save(game, taken(game))

    async def save(self, game: Game, snapshot: Snapshot) -> None:
        """Store a snapshot ``taken`` earlier; the table may have moved on since."""
        await self.store.save_snapshot(game.id, snapshot)
        game.snapshotted = max(game.snapshotted, snapshot.seq)


def taken(game: Game) -> Snapshot:
    """The table's state as it stands now, to be saved then or later."""
    table = game.table
    return Snapshot(table.version, table.state.model_dump_json())


def _fresh(system: AnySystem, options: Any) -> AnyTable:
    """A new table whose log keeps its events as their JSON (``LazyLog``)."""
    return Table.restore(system, options, LazyLog(system, []), system.initial_state(options))

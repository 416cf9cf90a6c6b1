"""Tables in play: loaded from the store, run one command at a time, published once durable.

A command goes: parse → fill in the server's entropy → (under the table's lock) decide → append
to the store and wait for the disk → apply to the in-memory table → encode for each role →
answer → deliver to the subscribers. Nothing is applied or shown to anyone before it is on
disk, so what a client saw is never lost; deliveries run in the order the commands were
applied, each before the next command can apply.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import uuid
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass, field
from typing import Any, overload

from pydantic import BaseModel, ValidationError

from rules.roles import GM, OVERLAY, player
from rules.table import Table
from server.access import Principal, mint, token_row
from server.hub import Hub
from server.store import Append, Snapshot, Store, TableRow
from server.systems import SYSTEMS, AnySystem

AnyTable = Table[Any, Any, Any, Any]


class StaleError(Exception):
    """The command was made against an older version of the table (``If-Match``)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at sequence {current}")
        self.current = current


class LazyLog(MutableSequence[Any]):
    """A table's log whose older events are parsed from the store only when an undo needs them:
    a table restored from a snapshot does not parse what the snapshot already folded."""

    def __init__(self, store: Store, table_id: str, system: AnySystem, length: int) -> None:
        self._store, self._table_id, self._system = store, table_id, system
        self._items: list[Any] = [None] * length

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if self._items[index] is None:
            body = self._store.event(self._table_id, range(len(self))[index] + 1)
            assert body is not None
            self._items[index] = self._system.events.validate_json(body)
        return self._items[index]

    def __setitem__(self, index: Any, value: Any) -> None:
        self._items[index] = value

    def __delitem__(self, index: Any) -> None:
        raise TypeError("an event log only grows")

    def insert(self, index: int, value: Any) -> None:
        if index != len(self._items):
            raise TypeError("an event log only grows at its end")
        self._items.append(value)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))


@dataclass
class Game:
    id: str
    name: str
    table: AnyTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def system(self) -> AnySystem:
        return self.table.system


@dataclass(frozen=True)
class Created:
    game: Game
    gm_token: str
    overlay_token: str


def with_entropy(command: BaseModel) -> BaseModel:
    """Every engine draw gets a fresh seed from the OS's cryptographic source; a seed sent by a
    client is replaced, so no one can choose their own luck."""
    if "seed" in type(command).model_fields:
        return command.model_copy(update={"seed": secrets.randbits(128)})
    return command


class Games:
    def __init__(self, store: Store, hub: Hub, snapshot_every: int) -> None:
        self.store, self.hub, self.snapshot_every = store, hub, snapshot_every
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
                token_row(overlay_token, table_id, OVERLAY, "overlay"),
            ],
        )
        game = Game(id=table_id, name=name, table=system.table(parsed))
        self._loaded[table_id] = game
        return Created(game, gm_token, overlay_token)

    def get(self, table_id: str) -> Game | None:
        """The table, loaded from its latest snapshot and the events after it."""
        if table_id in self._loaded:
            return self._loaded[table_id]
        row = self.store.table(table_id)
        if row is None:
            return None
        game = Game(id=row.id, name=row.name, table=self._load(row))
        self._loaded[table_id] = game
        return game

    def _load(self, row: TableRow) -> AnyTable:
        system = SYSTEMS[row.system]
        options = system.options_model.model_validate_json(row.options)
        snapshot = self.store.snapshot(row.id)
        table: AnyTable
        try:
            if snapshot is None:
                raise LookupError
            state = system.state_model.model_validate_json(snapshot.state)
            log = LazyLog(self.store, row.id, system, snapshot.seq)
            table = Table.restore(system, options, log, state, snapshot.standing)
            after = snapshot.seq
        except (LookupError, ValidationError):  # no snapshot, or one the code outgrew
            table, after = system.table(options), 0
        for _, body in self.store.events(row.id, after):
            table.apply(system.events.validate_json(body))
        return table

    async def mint_player(self, game: Game, participants: frozenset[str], label: str) -> str:
        token = mint()
        await self.store.add_tokens([token_row(token, game.id, player(*participants), label)])
        return token

    async def execute(
        self,
        game: Game,
        principal: Principal,
        command: BaseModel,
        key: str | None,
        if_match: int | None,
    ) -> dict[str, Any]:
        """Run one command; returns ``{"seq", "events"}`` as the caller may see them.

        Raises RuleError (refused), StaleError (``If-Match`` behind); a retry with the same
        idempotency key returns the first answer and applies nothing.
        """
        command = with_entropy(command)
        table = game.table
        async with game.lock:
            if key is not None:
                answered = self.store.idempotent(game.id, principal.token_hash, key)
                if answered is not None:
                    replay: dict[str, Any] = json.loads(answered)
                    return replay
            if if_match is not None and if_match != table.version:
                raise StaleError(table.version)
            events = table.decide(command, principal.viewer)
            first = table.version + 1
            response = {
                "seq": first + len(events) - 1,
                "events": [table.censor(event, principal.viewer) for event in events],
            }
            remembered = (principal.token_hash, key, json.dumps(response)) if key else None
            await self.store.append(
                Append(
                    table_id=game.id,
                    first_seq=first,
                    events=[(event.type, event.model_dump_json()) for event in events],
                    idempotency=remembered,
                )
            )
            for event in events:
                table.apply(event)
            delivery = self.hub.publish(game.id, table, first, events)
            asyncio.get_running_loop().call_soon(delivery)
            if events and table.version // self.snapshot_every > (first - 1) // self.snapshot_every:
                await self._snapshot(game)
        return response

    async def _snapshot(self, game: Game) -> None:
        table = game.table
        snapshot = Snapshot(table.version, table.state.model_dump_json(), table.standing)
        await self.store.save_snapshot(game.id, snapshot)

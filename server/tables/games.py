"""Tables in play: loaded from the store, run one command at a time, published once durable.

A command goes: parse → fill in the server's entropy → (under the table's lock) decide → append
to the store and wait for the disk → apply to the in-memory table → encode for each role →
answer → deliver to the subscribers. Nothing is applied or shown to anyone before it is on
disk, so what a client saw is never lost; deliveries run in the order the commands were
applied, each before the next command can apply.

Several servers may share the database (workers, hosts). Each holds its own copy of a table,
kept up to date by what the bus says others committed (``bus.py``). A command decided on a copy
that turned out to be behind finds its sequence taken when it appends: the server then reads
what it missed, shows it to its subscribers, and decides the command again on the table as it
now stands, so commands are decided one at a time against the latest state wherever they land.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Iterator, MutableSequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn, overload

from pydantic import BaseModel, ValidationError

from rules.errors import RuleError
from rules.roles import GM, OVERLAY, Role, Viewer, player
from rules.table import Table, Undo, Undone
from server.errors import ConflictError, ServerFaultError, StaleError, StoreUnavailableError
from server.live.bus import Alone
from server.live.hub import Hub, Shown
from server.store import Append, Snapshot, Store, TableRow
from server.tables.access import OVERLAY_LABEL, Principal, mint, token_row
from server.tables.systems import SYSTEMS, AnySystem

AnyTable = Table[Any, Any, Any, Any]
logger = logging.getLogger("seize")


class LazyLog(MutableSequence[Any]):
    """A table's log whose events up to its snapshot are kept as the stored JSON and parsed
    only when read (by an undo's replay, a catch-up, the events route): a table restored from
    a snapshot does not parse what the snapshot already folded.

    The JSON is fetched with the rest of the log when the table loads, rather than when an
    event is read: the readers are synchronous (an undo decides inside the rules, a catch-up
    must follow a subscriber's registration with no await between), and a backend's reads are
    not. Fetching text is cheap; parsing it is what the snapshot saves."""

    def __init__(self, system: AnySystem, stored: list[str]) -> None:
        self._system, self._stored = system, stored
        self._items: list[Any] = [None] * len(stored)

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
            self._items[index] = self._system.events.validate_json(self._stored[index])
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
    viewers: set[Viewer] = field(default_factory=lambda: {GM, OVERLAY})
    """Every role the table's tokens serve: each must be able to see a command's outcome."""
    snapshotted: int = 0
    """The sequence of the table's last snapshot: one is saved when it leaves memory."""
    used: float = field(default_factory=time.monotonic)
    evicted: bool = False
    """Left memory: a command that was waiting for it runs on the table loaded afresh."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def system(self) -> AnySystem:
        return self.table.system


@dataclass(frozen=True)
class Outcome:
    """A command's events, and how each role the table serves sees them."""

    events: list[Any]
    state: Any
    by: dict[Viewer, Shown]


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
    def __init__(
        self, store: Store, hub: Hub, snapshot_every: int, bus: Alone | None = None
    ) -> None:
        self.store, self.hub, self.snapshot_every = store, hub, snapshot_every
        self.bus = bus or Alone()
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
        game = Game(id=table_id, name=name, table=system.table(parsed))
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
        game.viewers |= {
            Viewer(role=Role(role), participants=frozenset(participants))
            for role, participants in bindings
        }
        self._hold(game)
        return game

    def _hold(self, game: Game) -> None:
        self._loaded[game.id] = game
        self.bus.follow(game.id)

    async def evict_idle(self, idle: float) -> int:
        """Let tables that no one has used for ``idle`` seconds and no one follows leave
        memory, each with a snapshot so it loads again quickly; returns how many left. A
        server that runs for weeks holds the tables in play, not every table it ever saw."""
        now = time.monotonic()
        leaving = [
            game
            for game in self._loaded.values()
            if now - game.used >= idle and not game.lock.locked() and not self.hub.viewers(game.id)
        ]
        for game in leaving:
            self._forget(game)
        for game in leaving:
            if game.table.version > game.snapshotted:
                await self._snapshot(game)
        return len(leaving)

    def _forget(self, game: Game) -> None:
        """The table leaves memory; a command waiting for it will run on it loaded afresh."""
        game.evicted = True
        if self._loaded.get(game.id) is game:
            del self._loaded[game.id]
            self.bus.unfollow(game.id)

    @property
    def loaded(self) -> int:
        return len(self._loaded)

    async def _load(self, row: TableRow) -> tuple[AnyTable, int]:
        system = SYSTEMS[row.system]
        options = system.options_model.model_validate_json(row.options)
        snapshot = await self.store.snapshot(row.id)
        stored = [body for _, body in await self.store.events(row.id)]
        table: AnyTable
        try:
            if snapshot is None:
                raise LookupError
            state = system.state_model.model_validate_json(snapshot.state)
            log = LazyLog(system, stored[: snapshot.seq])
            table = Table.restore(system, options, log, state, snapshot.standing)
            after = snapshot.seq
        except (LookupError, ValidationError):  # no snapshot, or one the code outgrew
            table, after = system.table(options), 0
        for body in stored[after:]:
            table.apply(system.events.validate_json(body))
        return table, after

    async def mint_player(self, game: Game, participants: frozenset[str], label: str) -> str:
        token, viewer = mint(), player(*participants)
        await self.store.add_tokens([token_row(token, game.id, viewer, label)])
        game.viewers.add(viewer)
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
        async with self._holding(game) as held:
            table = held.table
            held.used = time.monotonic()
            if if_match is not None and if_match > table.version:
                await self._caught_up(held)  # the client saw further, through another server
            while True:
                if (replay := await self._answered(held, principal, key)) is not None:
                    return replay
                if if_match is not None and if_match != table.version:
                    raise StaleError(table.version)
                first = table.version + 1
                try:
                    shown = self._show(held, command, principal.viewer, first)
                except RuleError:
                    # Refused on this copy: another server may have moved the table on (the
                    # deal another worker just took); only a refusal of the latest stands.
                    if self.bus.shared and await self._caught_up(held):
                        continue
                    raise
                response = {
                    "seq": first + len(shown.events) - 1,
                    "events": shown.by[principal.viewer].events,
                }
                remembered = (principal.token_hash, key, json.dumps(response)) if key else None
                bodies = [event.model_dump_json() for event in shown.events]
                try:
                    await self.store.append(
                        Append(
                            table_id=held.id,
                            first_seq=first,
                            events=[
                                (event.type, body)
                                for event, body in zip(shown.events, bodies, strict=True)
                            ],
                            idempotency=remembered,
                        )
                    )
                except StoreUnavailableError:
                    # The write may have been committed before the connection was lost: the
                    # table leaves memory, so whatever next reaches it reads what the database
                    # holds.
                    self._forget(held)
                    raise
                except ConflictError:
                    # Another server sharing the database appended first: this copy is behind.
                    # It takes in what it missed, and the command is decided again (or answered
                    # as before, when what was taken is its idempotency key).
                    if await self._caught_up(held) or await self._answered(held, principal, key):
                        continue
                    raise StaleError(table.version) from None
                break
            table.record(shown.events, shown.state)
            delivery = self.hub.publish(held.id, first, shown.by)
            asyncio.get_running_loop().call_soon(delivery)
            self.bus.publish(held.id, first, bodies)
            if (
                shown.events
                and table.version // self.snapshot_every > (first - 1) // self.snapshot_every
            ):
                try:
                    await self._snapshot(held)
                except Exception:
                    # The command is committed and shown: it must be answered as done. A snapshot
                    # only shortens the next load, and the next one will be taken all the same.
                    logger.exception("snapshot not saved", extra={"table": held.id})
            return response

    async def _caught_up(self, game: Game) -> bool:
        """Take in, under the table's lock, what others appended since this copy's last event;
        False if there was nothing (the conflict was an idempotency key, or a bug)."""
        try:
            missed = await self.store.events(game.id, game.table.version)
        except StoreUnavailableError:
            self._forget(game)
            raise
        self._absorb(game, [game.system.events.validate_json(body) for _, body in missed])
        return bool(missed)

    async def reaching(self, game: Game, seq: int) -> Game:
        """The table as held here, brought up from the store to at least ``seq`` when a client
        has seen that far through another server (and reconnects here): caught up from an
        older copy, it would be shown the past as news."""
        if seq <= game.table.version:
            return game
        async with self._holding(game) as held:
            await self._caught_up(held)
            return held

    async def latest(self, game: Game) -> Game:
        """The table as the store holds it now, when other servers may write to it: a client
        that has just sent a command through one worker and reads through another (a new
        connection may land on either) reads what it wrote, not a copy a bus message behind.
        While the database cannot be reached, the copy held here is shown as it stands."""
        if not self.bus.shared:
            return game
        try:
            heads = await self.store.heads([game.id])
            return await self.reaching(game, heads.get(game.id, 0))
        except StoreUnavailableError:
            return game  # the database is away: what this server holds is what it can show

    async def _answered(
        self, game: Game, principal: Principal, key: str | None
    ) -> dict[str, Any] | None:
        """The answer already given to this command, when its idempotency key was used."""
        if key is None:
            return None
        answered = await self.store.idempotent(game.id, principal.token_hash, key)
        return None if answered is None else dict(json.loads(answered))

    def heard(self, table_id: str, first: int, events: list[Any]) -> bool:
        """Events another server committed, as its bus message carried them (``Follower``)."""
        game = self._loaded.get(table_id)
        if game is None or first + len(events) - 1 <= game.table.version:
            return True  # not held here, or already taken in
        if first > game.table.version + 1:
            return False  # some were missed: the store has them
        if game.lock.locked():
            return False  # a command is under way here: it will meet them in the store
        fresh = events[game.table.version + 1 - first :]
        self._absorb(game, [game.system.events.validate_python(event) for event in fresh])
        return True

    async def reconcile(self, table_ids: set[str] | None) -> None:
        """Bring the tables held here up to what the store holds (``Follower``)."""
        held = [t for t in (table_ids or set(self._loaded)) if t in self._loaded]
        if not held:
            return
        heads = await self.store.heads(held)
        for table_id, head in heads.items():
            game = self._loaded.get(table_id)
            if game is None or head <= game.table.version:
                continue
            async with game.lock:
                if not game.evicted:
                    await self._caught_up(game)

    def _absorb(self, game: Game, events: list[Any]) -> None:
        """Apply events another server committed, the next ones after this copy's last, and
        show them to this server's subscribers. They are committed: if a role here cannot be
        shown them, they are applied all the same and that table's subscribers are told to
        come back (and will be refused as this version cannot show the table)."""
        if not events:
            return
        table, first = game.table, game.table.version + 1
        viewers = game.viewers | self.hub.viewers(game.id)
        repairing = any(isinstance(event, Undone) for event in events)
        try:
            shown = self._shown(game, events, viewers, "another server's command", first, repairing)
        except ServerFaultError:
            for event in events:
                table.apply(event)
            self.hub.drop(game.id, "the table cannot be shown")
            return
        table.record(events, shown.state)
        asyncio.get_running_loop().call_soon(self.hub.publish(game.id, first, shown.by))

    @asynccontextmanager
    async def _holding(self, game: Game) -> AsyncIterator[Game]:
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

    def _show(self, game: Game, command: BaseModel, actor: Viewer, first: int) -> Outcome:
        """Decide the command, fold its events and show them to every role the table serves,
        all before anything is stored: a command whose outcome some role could not be shown
        would leave a table nobody can read, so the server refuses it as its own fault. The
        one exception is an undo on a table whose view has already broken (a log written by
        an older version): it cannot make things worse, and it is how the GM gets out."""
        viewers = game.viewers | {actor} | self.hub.viewers(game.id)
        kind = str(getattr(command, "type", type(command).__name__))
        try:
            events = game.table.decide(command, actor)
        except RuleError:
            raise
        except Exception:
            self._fault(game, kind, first)
        return self._shown(game, events, viewers, kind, first, isinstance(command, Undo))

    def _shown(
        self,
        game: Game,
        events: list[Any],
        viewers: set[Viewer],
        kind: str,
        first: int,
        repairing: bool,
    ) -> Outcome:
        """Fold events and show them to each of ``viewers``; raises ServerFaultError if that
        fails, but for a view that was already broken while ``repairing``."""
        table = game.table
        try:
            state = table.folded(events)
            censored = {v: [table.censor(e, v) for e in events] for v in viewers}
        except Exception:
            self._fault(game, kind, first)
        by: dict[Viewer, Shown] = {}
        for viewer in viewers:
            try:
                encoded = [json.dumps(event) for event in censored[viewer]]
            except Exception:
                self._fault(game, kind, first)
            try:
                view: str | None = table.system.view(state, viewer).model_dump_json()
            except Exception:
                if not (repairing and not self._showable(game, viewer)):
                    self._fault(game, kind, first)
                view = None
            by[viewer] = Shown(censored[viewer], encoded, view)
        return Outcome(events, state, by)

    @staticmethod
    def _showable(game: Game, viewer: Viewer) -> bool:
        """Whether the table as it stands can be shown to ``viewer``."""
        try:
            game.table.view(viewer).model_dump_json()
        except Exception:
            return False
        return True

    @staticmethod
    def _fault(game: Game, command: str, seq: int) -> NoReturn:
        logger.exception(
            "command refused: its outcome could not be shown",
            extra={"table": game.id, "seq": seq, "command": command},
        )
        raise ServerFaultError(command) from None

    async def _snapshot(self, game: Game) -> None:
        table = game.table
        snapshot = Snapshot(table.version, table.state.model_dump_json(), table.standing)
        await self.store.save_snapshot(game.id, snapshot)
        game.snapshotted = snapshot.seq

"""Running a command: parse → fill in the server's entropy → (under the table's lock) decide →
append to the store and wait for the disk → apply to the in-memory table → encode for each
role → answer → deliver to the subscribers. Nothing is applied or shown to anyone before it is
on disk, so what a client saw is never lost; deliveries run in the order the commands were
applied, each before the next command can apply.

Several servers may share the database. A command decided on a copy that turned out to be
behind finds its sequence taken when it appends: the server takes in what it missed and
decides the command again on the table as it now stands. Each try is one ``attempt`` with a
typed outcome, and the one loop that tries again is in ``execute``."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.errors import RuleError
from rules.standing import Forgotten
from server.errors import ConflictError, KeyReusedError, StaleError, StoreUnavailableError
from server.store import Append, Remembered, Snapshot, Store
from server.tables.access import Principal
from server.tables.audience import Audience, Neighbours, Outcome
from server.tables.cache import Tables, taken
from server.tables.follower import Follower
from server.tables.games import Game
from server.tables.showing import show

logger = logging.getLogger("seize")


@dataclass(frozen=True)
class Committed:
    """The command's events are on disk: apply, publish, answer."""

    answer: dict[str, Any]
    outcome: Outcome
    first: int
    bodies: list[str]


@dataclass(frozen=True)
class Answered:
    """A retry of a command already run (its idempotency key): the first answer, again."""

    answer: dict[str, Any]


@dataclass(frozen=True)
class Refused:
    """The rules, or a stale ``If-Match``, refuse it on the latest state; or its idempotency
    key first answered another command."""

    error: RuleError | StaleError | KeyReusedError


class Retry:
    """This copy was behind and has taken in what it missed, or has read back the old events
    an undo reaches: decide again."""


Attempt = Committed | Answered | Refused | Retry


def with_entropy(command: BaseModel) -> BaseModel:
    """Every engine draw gets a fresh seed from the OS's cryptographic source; a seed sent by a
    client is replaced, so no one can choose their own luck."""
    if "seed" in type(command).model_fields:
        return command.model_copy(update={"seed": secrets.randbits(128)})
    return command


class Runner:
    def __init__(
        self,
        store: Store,
        tables: Tables,
        follower: Follower,
        audience: Audience,
        neighbours: Neighbours,
        snapshot_every: int,
    ) -> None:
        self.store, self.tables, self.follower = store, tables, follower
        self.audience, self.neighbours = audience, neighbours
        self.snapshot_every = snapshot_every
        self._saving: set[asyncio.Task[None]] = set()

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
        idempotency key returns the first answer and applies nothing, and the key sent with
        another command raises KeyReusedError.
        """
        asked = command.model_dump_json() if key else ""  # as sent: before the server's seed
        command = with_entropy(command)
        async with self.tables.holding(game) as held:
            held.used = time.monotonic()
            seen = held.table.numbering.count(principal.viewer)
            if held.suspect or (if_match is not None and if_match > seen):
                await self.follower.caught_up(held)  # unknown, or the client saw further
            attempt = await self.attempt(held, principal, command, (key, asked), if_match)
            while isinstance(attempt, Retry):
                attempt = await self.attempt(held, principal, command, (key, asked), if_match)
            if isinstance(attempt, Refused):
                raise attempt.error
            if isinstance(attempt, Committed):
                self._apply(held, attempt)
            return attempt.answer

    async def attempt(
        self,
        game: Game,
        principal: Principal,
        command: BaseModel,
        keyed: tuple[str | None, str],
        if_match: int | None,
    ) -> Attempt:
        """Decide the command on the copy held here and append it: one try.

        A retry of a command already run (its idempotency key) is not looked up first: that
        would be a read of the store for every command with a key, which is every command a
        page sends. The key is stored with the events in one transaction, so a retry whose
        command was applied cannot append again: its append fails on the key, and the first
        answer is read then. Only when the retry would be refused (the table moved on since,
        or its ``If-Match`` is now behind) is the first answer looked for before refusing.
        ``keyed`` is the idempotency key and the command as the client sent it."""
        table = game.table
        version = table.numbering.count(principal.viewer)  # the table as the caller numbers it
        if if_match is not None and if_match != version:
            return await self._refused(game, principal, keyed, StaleError(version))
        first = table.version + 1
        try:
            outcome = show(game, command, principal.viewer, first)
        except Forgotten as forgotten:  # a deep undo: its events are read back, then it runs
            await self.tables.recall(game, forgotten.position)
            return Retry()
        except RuleError as refusal:
            # Refused on this copy: another server may have moved the table on (the deal
            # another worker just took); only a refusal of the latest stands.
            if self.neighbours.shared and await self.follower.caught_up(game):
                return Retry()
            return await self._refused(game, principal, keyed, refusal)
        mine = outcome.by[principal.viewer]
        answer = {"seq": mine.seq, "events": mine.events}
        key, asked = keyed
        remembered = (
            Remembered(principal.token_hash, key, json.dumps(answer), asked) if key else None
        )
        bodies = [event.model_dump_json() for event in outcome.events]
        try:
            await self.store.append(
                Append(
                    table_id=game.id,
                    first_seq=first,
                    events=[
                        (event.type, body)
                        for event, body in zip(outcome.events, bodies, strict=True)
                    ],
                    idempotency=remembered,
                )
            )
        except StoreUnavailableError:
            # The write may have been committed before the connection was lost. The copy stays
            # (and stays followed: its subscribers keep hearing of what others commit), and is
            # caught up from the store before it is used again.
            game.suspect = True
            raise
        except ConflictError:
            # Another server sharing the database appended first: this copy is behind. It
            # takes in what it missed, and the command is decided again; or what was taken is
            # its idempotency key, and it is answered as before.
            if await self.follower.caught_up(game):
                return Retry()
            stale = StaleError(table.numbering.count(principal.viewer))
            return await self._refused(game, principal, keyed, stale)
        return Committed(answer, outcome, first, bodies)

    def _apply(self, game: Game, committed: Committed) -> None:
        """What follows a commit: the copy moves on, the subscribers and other servers hear
        of it, and now and then a snapshot is taken, to shorten the next load."""
        table, first, events = game.table, committed.first, committed.outcome.events
        table.record(events, committed.outcome.folded)
        game.stored(first, committed.bodies)
        delivery = self.audience.publish(game.id, committed.outcome.by)
        asyncio.get_running_loop().call_soon(delivery)
        self.neighbours.publish(game.id, first, committed.bodies)
        every = self.snapshot_every
        if events and table.version // every > (first - 1) // every:
            saving = asyncio.create_task(self._saved(game, taken(game)))
            self._saving.add(saving)
            saving.add_done_callback(self._saving.discard)

    async def _saved(self, game: Game, snapshot: Snapshot) -> None:
        """Save a snapshot after the command that brought it is answered: it only shortens
        the next load, so no answer waits for its write (a second commit, and its fsync)."""
        try:
            await self.tables.save(game, snapshot)
        except Exception:
            # The command is committed and shown: it stands. The next snapshot will be taken
            # all the same.
            logger.exception("snapshot not saved", extra={"table": game.id})

    async def close(self) -> None:
        """Wait for the snapshots still being saved, before the store closes."""
        await asyncio.gather(*self._saving)

    async def _refused(
        self,
        game: Game,
        principal: Principal,
        keyed: tuple[str | None, str],
        error: RuleError | StaleError,
    ) -> Answered | Refused:
        """The answer already given to this command when its idempotency key was used (a
        retry, refused now only because the first try moved the table on), else the refusal;
        or, if the key first came with another command, that refusal."""
        key, asked = keyed
        if key is None:
            return Refused(error)
        kept = await self.store.idempotent(game.id, principal.token_hash, key)
        if kept is None:
            return Refused(error)
        if kept.command and kept.command != asked:
            return Refused(KeyReusedError())
        return Answered(dict(json.loads(kept.response)))

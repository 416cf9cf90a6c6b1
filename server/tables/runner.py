"""Running a command: parse → fill in the server's entropy → (under the table's lock) decide →
append to the store and wait for the disk → apply to the in-memory table → encode for each
role → answer → deliver to the subscribers. Nothing is applied or shown to anyone before it is
on disk, so what a client saw is never lost; deliveries run in the order the commands were
applied, each before the next command can apply.

A table's commands are decided one at a time, and a table's commit is one at a time; the
commands that arrive while one commits (dice landing together, cards swept over the reader)
wait, and are then decided together, each on the table the one before it leaves, and
committed in one transaction: one flush for all of them, where a slow disk (an SD card) would
otherwise make the tenth wait for ten (``together``).

Several servers may share the database. A command decided on a copy that turned out to be
behind finds its sequence taken when it appends: the server takes in what it missed and
decides the command again on the table as it now stands. Each try is one ``attempt`` with a
typed outcome, and the one loop that tries again is in ``alone``."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rules.errors import RuleError
from rules.standing import Forgotten
from server.errors import (
    ConflictError,
    KeyReusedError,
    ServerFaultError,
    StaleError,
    StoreUnavailableError,
)
from server.store import Append, Remembered, Snapshot, Store
from server.tables.access import Principal
from server.tables.audience import Audience, Neighbours, Outcome
from server.tables.cache import Tables, taken
from server.tables.follower import Follower
from server.tables.games import Game
from server.tables.showing import show

logger = logging.getLogger("seize")

CLOSING = 10.0
"""Seconds a server that is stopping waits for the commands under way to be answered."""


@dataclass(frozen=True)
class Committed:
    """The command's events, to be applied, published and answered once they are on disk."""

    answer: dict[str, Any]
    outcome: Outcome
    first: int
    bodies: list[str]
    remembered: Remembered | None
    """The answer as kept under the command's idempotency key, if it came with one."""


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


@dataclass(frozen=True)
class Turn:
    """What a sender that goes on before its command is answered (a socket) is told of it:
    ``queued`` as soon as the command waits its turn at its table, and ``answered`` with its
    answer the moment it is settled, before the command's events are delivered (they are
    delivered from the loop's next round). A socket so holds the answer when its events are
    written, and both leave in one write: one send, and one wake-up for the sender, not two."""

    queued: Callable[[], None]
    answered: Callable[[dict[str, Any]], None]


@dataclass
class Waiting:
    """A command waiting for its table, and the answer its sender waits for."""

    principal: Principal
    command: BaseModel
    keyed: tuple[str | None, str]
    """The idempotency key, and the command as the client sent it."""
    if_match: int | None
    turn: Turn | None
    answer: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def settle(self, result: dict[str, Any] | BaseException) -> None:
        if self.answer.done():  # settled already, or given up as the server stops
            return
        if isinstance(result, BaseException):
            self.answer.set_exception(result)
            return
        if self.turn is not None:
            self.turn.answered(result)
        self.answer.set_result(result)


Decided = tuple[Waiting, Committed | RuleError | StaleError | ServerFaultError]
"""A command of a group, decided on the table the ones before it leave: to commit, or refused
(whether its idempotency key answered it before is looked up once the group is committed), or
a fault of the server's."""


def appended(table_id: str, committed: list[Committed]) -> Append:
    """One append of the events of commands decided in turn (one, or a group), and every
    idempotency answer among them: one transaction."""
    return Append(
        table_id=table_id,
        first_seq=committed[0].first,
        events=[
            (event.type, body)
            for each in committed
            for event, body in zip(each.outcome.events, each.bodies, strict=True)
        ],
        remembered=[each.remembered for each in committed if each.remembered],
    )


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
        self._waiting: dict[str, list[Waiting]] = {}
        """Each table's commands not yet taken, in the order they came."""
        self._running: dict[str, asyncio.Task[None]] = {}
        """The task running each table's commands, while any wait."""

    async def execute(
        self,
        game: Game,
        principal: Principal,
        command: BaseModel,
        key: str | None,
        if_match: int | None,
        turn: Turn | None = None,
    ) -> dict[str, Any]:
        """Run one command; returns ``{"seq", "events"}`` as the caller may see them.

        Raises RuleError (refused), StaleError (``If-Match`` behind); a retry with the same
        idempotency key returns the first answer and applies nothing, and the key sent with
        another command raises KeyReusedError.

        The command is run by its table's task, not the caller's: a sender that goes away
        (a page closed mid-request) cannot stop it half way, nor the commands taken with it.
        ``turn.queued`` is called as soon as the command waits its turn, with nothing awaited
        before: a sender that goes on to its next command then (a device's socket) has its
        commands run in the order it sent them, and taken together when they come quickly.
        A sender cancelled while it waits gives up its answer, not its command.
        """
        asked = command.model_dump_json() if key else ""  # as sent: before the server's seed
        waiting = Waiting(principal, with_entropy(command), (key, asked), if_match, turn)
        self._waiting.setdefault(game.id, []).append(waiting)
        if turn is not None:
            turn.queued()
        if game.id not in self._running:
            self._running[game.id] = asyncio.create_task(self._run(game))
        return await waiting.answer

    async def _run(self, game: Game) -> None:
        """Run the table's commands while any wait: each time its lock is free, all that
        came meanwhile, together."""
        waiting: list[Waiting] = []
        try:
            while waiting := self._waiting.pop(game.id, []):
                try:
                    game = await self._group(game, waiting)
                except Exception as failed:  # the table could not be loaded or caught up
                    for one in waiting:
                        one.settle(failed)
        except asyncio.CancelledError:  # the server stops (``close``): no sender waits for ever
            for one in [*waiting, *self._waiting.pop(game.id, [])]:
                one.answer.cancel()
            raise
        finally:
            del self._running[game.id]

    async def _group(self, game: Game, waiting: list[Waiting]) -> Game:
        """Run commands that came while the table was busy; returns the table as held then
        (loaded afresh if it left memory meanwhile)."""
        async with self.tables.holding(game) as held:
            held.used = time.monotonic()
            left = await self.together(held, waiting) if len(waiting) > 1 else waiting
            for one in left:
                await self.alone(held, one)
            return held

    async def alone(self, game: Game, waiting: Waiting) -> None:
        """Run one command, trying again while this copy was behind, and settle its answer."""
        principal, command, keyed, if_match = (
            waiting.principal,
            waiting.command,
            waiting.keyed,
            waiting.if_match,
        )
        try:
            seen = game.table.numbering.count(principal.viewer)
            if game.suspect or (if_match is not None and if_match > seen):
                await self.follower.caught_up(game)  # unknown, or the client saw further
            attempt = await self.attempt(game, principal, command, keyed, if_match)
            while isinstance(attempt, Retry):
                attempt = await self.attempt(game, principal, command, keyed, if_match)
        except Exception as failed:
            waiting.settle(failed)
            return
        if isinstance(attempt, Refused):
            waiting.settle(attempt.error)
            return
        if isinstance(attempt, Committed):
            self._apply(game, attempt)
        waiting.settle(attempt.answer)

    async def together(self, game: Game, group: list[Waiting]) -> list[Waiting]:
        """Decide commands that came together, each on the table the one before leaves, and
        commit them in one append; returns those left to run ``alone``.

        The group is decided on the table itself, each command's events recorded so that the
        next is decided on them, and the table is rewound before anything is awaited, so no
        one ever reads what is not yet stored; once the append is committed they are recorded
        again, from their folds, and applied in order. What this path does not do, it leaves
        to ``alone``: a command whose ``If-Match`` is ahead of this copy, an undo reaching
        events in the store only, a refusal when other servers share the table (each needs
        the store before it can be decided), from that command on; and every command of the
        group when the append finds a sequence or an idempotency key taken (the table is as
        it was before the group, so each is decided again on its own)."""
        if game.suspect:
            await self.follower.caught_up(game)
        table = game.table
        mark = table.mark()
        decided: list[Decided] = []
        for waiting in group:
            outcome = self._decided(game, waiting)
            if outcome is None:
                break
            if isinstance(outcome, Committed):
                table.record(outcome.outcome.events, outcome.outcome.folded)
            decided.append((waiting, outcome))
        table.rewind(mark)
        left = group[len(decided) :]
        committed = [outcome for _, outcome in decided if isinstance(outcome, Committed)]
        if committed:
            try:
                await self.store.append(appended(game.id, committed))
            except ConflictError:
                return group
            except Exception as failed:
                if isinstance(failed, StoreUnavailableError):
                    game.suspect = True  # as for one command (``attempt``)
                for waiting, _ in decided:
                    waiting.settle(failed)
                return left
        for waiting, outcome in decided:  # applied in order, with nothing awaited between
            if isinstance(outcome, Committed):
                self._apply(game, outcome)
                waiting.settle(outcome.answer)
            elif isinstance(outcome, ServerFaultError):
                waiting.settle(outcome)
        for waiting, outcome in decided:
            if isinstance(outcome, (RuleError, StaleError)):
                try:
                    refused = await self._refused(game, waiting.principal, waiting.keyed, outcome)
                except Exception as failed:  # the store, asked for the key's first answer
                    waiting.settle(failed)
                    continue
                waiting.settle(refused.answer if isinstance(refused, Answered) else refused.error)
        return left

    def _decided(
        self, game: Game, waiting: Waiting
    ) -> Committed | RuleError | StaleError | ServerFaultError | None:
        """One command of a group decided on the table as it stands, with nothing awaited;
        None for one that needs the store first (``together``)."""
        viewer, if_match = waiting.principal.viewer, waiting.if_match
        version = game.table.numbering.count(viewer)
        if if_match is not None and if_match > version:
            return None
        if if_match is not None and if_match != version:
            return StaleError(version)
        first = game.table.version + 1
        try:
            outcome = show(game, waiting.command, viewer, first)
        except Forgotten:
            return None
        except RuleError as refusal:
            return None if self.neighbours.shared else refusal
        except ServerFaultError as fault:
            return fault
        return self._committing(waiting.principal, waiting.keyed, outcome, first)

    def _committing(
        self,
        principal: Principal,
        keyed: tuple[str | None, str],
        outcome: Outcome,
        first: int,
    ) -> Committed:
        """A decided command as it is to be appended, and answered once it is."""
        mine = outcome.by[principal.viewer]
        answer = {"seq": mine.seq, "events": mine.events}
        key, asked = keyed
        remembered = (
            Remembered(principal.token_hash, key, json.dumps(answer), asked) if key else None
        )
        bodies = [event.model_dump_json() for event in outcome.events]
        return Committed(answer, outcome, first, bodies, remembered)

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
        committed = self._committing(principal, keyed, outcome, first)
        try:
            await self.store.append(appended(game.id, [committed]))
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
        return committed

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
        """Wait for the commands under way (for a while: a store that no longer answers must
        not hold the server up for ever) and the snapshots still being saved, before the
        store closes."""
        running = list(self._running.values())
        if running:
            _, stuck = await asyncio.wait(running, timeout=CLOSING)
            for task in stuck:
                task.cancel()
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

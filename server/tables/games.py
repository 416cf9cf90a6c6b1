"""A table in play: the rules' table, its name, the roles its tokens serve, and the lock that
lets one command at a time decide and append. The cache (``cache.py``) holds these, the runner
(``runner.py``) changes them, the follower (``follower.py``) brings them up to the store."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from rules.roles import GM, OVERLAY, Viewer
from rules.standing import Forgotten
from rules.table import Table
from server.tables.systems import AnySystem

AnyTable = Table[Any, Any, Any, Any]

RECENT = 128
"""The latest events a table holds beyond its undo window, for the subscribers coming back
after a dropped connection: older catch-ups read the store."""


class LazyLog(MutableSequence[Any]):
    """A table's log as a window: the events from ``first`` on, each kept as its stored JSON and
    parsed only when read (by an undo's replay, a catch-up, the events route), and not kept
    parsed after. Those before ``first`` are in the store only: reading one raises
    ``Forgotten``, and the reader's caller reads it back (``Tables.recall``) and asks again.

    A table in play so holds what its undo window needs and the latest events for the
    subscribers that come back (``Game.settle``), as text, whatever the length of its game.
    The JSON is fetched before a read rather than when an event is read: the readers are
    synchronous (an undo decides inside the rules, a catch-up must follow a subscriber's
    registration with no await between), and a backend's reads are not. An event appended is
    kept as it comes (the rules append what they fold) until ``keep`` swaps in its JSON, once
    stored."""

    def __init__(self, system: AnySystem, stored: list[str], first: int = 0) -> None:
        self._system = system
        self._first = first  # the position of the first event held
        self._items: list[Any] = list(stored)  # each the stored JSON, or the event itself

    @property
    def first(self) -> int:
        """The position of the first event held in memory (the first event is 0)."""
        return self._first

    def __len__(self) -> int:
        return self._first + len(self._items)

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < self._first:
            raise Forgotten(index)
        item = self._items[index - self._first]
        return self._system.events.validate_json(item) if isinstance(item, str) else item

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError("an event log is never rewritten")

    def __delitem__(self, index: Any) -> None:
        """Only a tail not yet stored goes (``Table.rewind``): a stored event never does."""
        whole_tail = isinstance(index, slice) and index.stop is None and index.step is None
        start = index.indices(len(self))[0] - self._first if whole_tail else -1
        if start < 0 or any(isinstance(item, str) for item in self._items[start:]):
            raise TypeError("an event log only loses a tail it has not stored")
        del self._items[start:]

    def insert(self, index: int, value: Any) -> None:
        if index != len(self):
            raise TypeError("an event log only grows at its end")
        self._items.append(value)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def keep(self, first: int, stored: Sequence[str]) -> None:
        """Keep the events from sequence ``first`` on (held here) as their stored JSON."""
        start = first - 1 - self._first
        self._items[start : start + len(stored)] = stored

    def let_go(self, before: int) -> None:
        """Hold no event before position ``before``: the store keeps them."""
        drop = min(before, len(self)) - self._first
        if drop > 0:
            del self._items[:drop]
            self._first += drop

    def recall(self, first: int, stored: Sequence[str]) -> None:
        """Hold again the events from position ``first`` up to those held, read back from the
        store as ``stored`` (from ``first`` on; any beyond those missing are ignored)."""
        missing = self._first - first
        if missing > 0:
            self._items[:0] = stored[:missing]
            self._first = first


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
    suspect: bool = False
    """A write's fate is unknown (the database went away as it committed), so the store may
    hold events this copy lacks: it is caught up from the store before it is used again."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def system(self) -> AnySystem:
        return self.table.system

    def stored(self, first: int, bodies: Sequence[str]) -> None:
        """The events from ``first`` on are stored as ``bodies``: the log keeps those rather
        than the events (see ``LazyLog``), and lets go of what it no longer needs."""
        log = self.table.log
        if isinstance(log, LazyLog):
            log.keep(first, bodies)
        self.settle()

    def settle(self) -> None:
        """Hold only the undo window and the ``RECENT`` events: memory stays flat as the game
        goes on."""
        log, table = self.table.log, self.table
        if isinstance(log, LazyLog):
            log.let_go(min(table.reach, table.version - RECENT))

    def holds(self, after: int) -> bool:
        """Whether every event after sequence ``after`` is in memory."""
        log = self.table.log
        return not isinstance(log, LazyLog) or log.first <= after

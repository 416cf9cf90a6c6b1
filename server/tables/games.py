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
from rules.table import Table
from server.tables.systems import AnySystem

AnyTable = Table[Any, Any, Any, Any]


class LazyLog(MutableSequence[Any]):
    """A table's log, each event kept as its stored JSON and parsed only when read (by an
    undo's replay, a catch-up, the events route), and not kept parsed after: a table in play
    holds its log as text, a fraction of the memory of the parsed events, and one restored from
    a snapshot does not parse what the snapshot already folded.

    The JSON is fetched with the rest of the log when the table loads, rather than when an
    event is read: the readers are synchronous (an undo decides inside the rules, a catch-up
    must follow a subscriber's registration with no await between), and a backend's reads are
    not. Fetching text is cheap; parsing it is what is saved. An event appended is kept as it
    comes (the rules append what they fold) until ``keep`` swaps in its JSON, once stored."""

    def __init__(self, system: AnySystem, stored: list[str]) -> None:
        self._system = system
        self._items: list[Any] = list(stored)  # each the stored JSON, or the event itself

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        item = self._items[index]
        return self._system.events.validate_json(item) if isinstance(item, str) else item

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

    def keep(self, first: int, stored: Sequence[str]) -> None:
        """Keep the events from sequence ``first`` on as their stored JSON."""
        self._items[first - 1 : first - 1 + len(stored)] = stored


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
        than the events (see ``LazyLog``)."""
        log = self.table.log
        if isinstance(log, LazyLog):
            log.keep(first, bodies)

"""A table in play: the rules' table, its name, the roles its tokens serve, and the lock that
lets one command at a time decide and append. The cache (``cache.py``) holds these, the runner
(``runner.py``) changes them, the follower (``follower.py``) brings them up to the store."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass, field
from typing import Any, overload

from rules.roles import GM, OVERLAY, Viewer
from rules.table import Table
from server.tables.systems import AnySystem

AnyTable = Table[Any, Any, Any, Any]


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
    suspect: bool = False
    """A write's fate is unknown (the database went away as it committed), so the store may
    hold events this copy lacks: it is caught up from the store before it is used again."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def system(self) -> AnySystem:
        return self.table.system

"""The event store: what the server keeps, behind one interface with a backend per database.

Every backend keeps the same things the same way: one row per event keyed by (table id,
sequence), so two writers can never both append event N; tables, hashed tokens, idempotency
answers, snapshots and each device's latest report; a schema it creates and migrates itself
(``migrations.py``). A write returns only once it is committed, so a command is acknowledged
only once it is durable: on the disk, or, with the ``os`` durability, in the hands of the
operating system (SQLite) or of the database server (PostgreSQL).

``open_store`` picks the backend from the ``db`` setting: a path is an SQLite file
(``sqlite.py``, the embedded default), a ``postgresql://`` URL a PostgreSQL database
(``postgres.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from server.settings import Durability


@dataclass(frozen=True)
class TableRow:
    id: str
    system: str
    name: str
    options: str


@dataclass(frozen=True)
class TokenRow:
    hash: bytes
    table_id: str
    role: str
    participants: tuple[str, ...]
    label: str
    name: str = ""
    """What the GM called the device a GM token was handed to ("Streaming PC"); empty for
    the other tokens."""


@dataclass(frozen=True)
class GmDevice:
    """A GM token of a table, as the console lists it: who holds it, since when, and when it
    last followed the table."""

    hash: bytes
    label: str
    name: str
    made: float
    seen: float | None


@dataclass(frozen=True)
class Snapshot:
    """A table's state after its event ``seq``. What still stands for undo is not kept: the
    first undo after a load rebuilds it from the log."""

    seq: int
    state: str


@dataclass(frozen=True)
class Remembered:
    """A command's answer, kept under the idempotency key its client sent it with."""

    token_hash: bytes
    key: str
    response: str
    """The answer, as JSON."""
    command: str
    """The command as the client sent it (parsed, as JSON): the key reused for another command
    is refused rather than answered as this one."""


@dataclass(frozen=True)
class Append:
    """Events to append to a table's log, and what commits with them: the answer of each
    command they come from that was sent with an idempotency key (several commands to one table
    that arrived together are appended as one)."""

    table_id: str
    first_seq: int
    events: Sequence[tuple[str, str]]  # (type, JSON body)
    remembered: Sequence[Remembered] = ()


class Store(Protocol):
    """What the server needs of a database. Writes return once committed; reads see every
    write that has returned."""

    async def open(self) -> None:
        """Connect, and create or migrate the schema to the version this code knows; if that
        fails, the store is left closed."""

    async def close(self) -> None:
        """Finish the writes under way and let go of the database."""

    async def ping(self) -> None:
        """Return if the database answers; raise StoreUnavailableError if not."""

    async def create_table(self, row: TableRow, tokens: Sequence[TokenRow]) -> None: ...

    async def add_tokens(self, tokens: Sequence[TokenRow]) -> None: ...

    async def revoke_tokens(self, table_id: str, label: str, keep: bytes = b"") -> list[bytes]:
        """Forget the table's tokens with this label but ``keep`` (a hash); returns their
        hashes, so that the connections that came in with them can be closed."""

    async def revoke_token(self, table_id: str, token_hash: bytes) -> bool:
        """Forget one token of the table; False if it had none with that hash."""

    async def note_seen(self, token_hash: bytes) -> None:
        """Stamp the token as seen now (it began to follow its table), on the store's clock."""

    async def append(self, append: Append) -> None:
        """Append the events (and the idempotency answer) in one transaction; raises
        ConflictError if a sequence number or the key is taken, and then writes nothing."""

    async def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """The state at ``snapshot.seq``, so the table loads without folding its whole log. An
        older snapshot than the one kept is ignored: servers sharing a table each take them."""

    async def save_device_report(
        self, table_id: str, device: str, report: str, keep: int, spared: str = ""
    ) -> None:
        """The device's latest report (JSON), stamped with when it is recorded; in the same
        transaction the table forgets the reports beyond the ``keep`` latest (this one always
        kept), so every server sharing the database shows, and bounds, the same devices. The
        report named ``spared`` (the die registry, which has a bound of its own) is neither
        counted among those nor forgotten. The
        stamp comes from one clock for all of those servers, so that "latest" means the same
        to each: PostgreSQL's own (its servers may be on several hosts), the host's for an
        SQLite file (its servers share the host)."""

    async def swap_device_report(
        self, table_id: str, device: str, before: str | None, report: str
    ) -> bool:
        """Replace the report with ``report`` only if it is still ``before`` (None: there is
        none yet), counting toward no limit; False, changing nothing, if another write came
        first. A report changed from what was read (the die registry: the GM's console and a
        player's phone may change it at once, through any server on the database) is then
        read again and changed again, and neither change is lost."""

    async def swap_setting(self, table_id: str, name: str, before: str | None, value: str) -> bool:
        """Set the table's setting ``name`` to ``value`` only if it is still ``before`` (None:
        never set); False, changing nothing, if another write came first, so two GMs'
        consoles (or a GM's and a player's) changing one setting at once lose neither change."""

    async def setting(self, table_id: str, name: str) -> str | None:
        """The table's setting ``name`` as kept, or None if never set."""

    async def table(self, table_id: str) -> TableRow | None: ...

    async def tables_named(self, name: str) -> list[TableRow]:
        """The tables with this name, oldest first."""

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, str]]:
        """(sequence, JSON body) of the table's events after ``after``, in order."""

    async def marked(self, table_id: str, through: int) -> list[tuple[int, str]]:
        """(sequence, JSON body) of the table's events up to ``through`` that may be steps some
        role never had (``rules.numbering``): those stamped with someone hidden (decided while
        someone was), and the undos; none at a table that never hid anyone. Read in one go,
        instead of the whole log before a snapshot."""

    async def stamped(self, table_id: str, after: int, limit: int) -> list[tuple[int, str, float]]:
        """(sequence, JSON body, when it was stored) of at most ``limit`` of the table's events
        after ``after``, in order: a long log read a page at a time (its story)."""

    async def heads(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The last sequence of each of these tables that has events: how a server sharing the
        database finds, in one read, which of its tables others have written to."""

    async def snapshot(self, table_id: str) -> Snapshot | None: ...

    async def token(self, token_hash: bytes) -> TokenRow | None: ...

    async def tokens_kept(self, token_hashes: Collection[bytes]) -> set[bytes]:
        """Which of these tokens still exist: how a server finds, in one read, which of its
        subscribers came in with a token another server has since revoked."""

    async def gm_devices(self, table_id: str) -> list[GmDevice]:
        """The table's GM tokens, the oldest first."""

    async def bindings(self, table_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """Each distinct (role, participants) a token of the table carries: whom it serves."""

    async def idempotent(self, table_id: str, token_hash: bytes, key: str) -> Remembered | None:
        """What was kept of this token's command with this idempotency key. A key kept before
        the command was (migration 5) comes with an empty ``command``."""

    async def device_reports(self, table_id: str) -> list[tuple[str, str, float]]:
        """(device, report JSON, when recorded) of the table's devices, the longest ago first."""


def open_store(db: Path | str, durability: Durability = "disk") -> Store:
    """The backend for the ``db`` setting: a ``postgresql://`` URL (a str), or a file path,
    whose writes return once they have the ``durability`` setting's promise. The store still has
    to be opened (``await store.open()``)."""
    if isinstance(db, str):
        # Imported here: each backend imports this module's types.
        from server.store.postgres import PostgresStore  # noqa: PLC0415

        return PostgresStore(db, durability)
    from server.store.sqlite import SqliteStore  # noqa: PLC0415

    return SqliteStore(db, durability)


def shown(db: Path | str) -> str:
    """The ``db`` setting as it may be printed: a URL's password is left out."""
    if isinstance(db, Path):
        return str(db)
    parts = urlsplit(db)
    if parts.password is None:
        return db
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def promised(db: Path | str, durability: Durability) -> str:
    """What an acknowledged command survives, on this database with this durability: what the
    server says as it starts."""
    if durability == "disk" and isinstance(db, Path):
        return "disk: each command on the disk before its answer (a power cut loses nothing)"
    if durability == "disk":
        return (
            "disk: each command committed before its answer, as PostgreSQL's "
            "synchronous_commit says (on, its default: on its disk)"
        )
    if isinstance(db, Path):
        return (
            "os: each command with the operating system before its answer (a crash of Seize "
            "loses nothing; a power cut may lose the last ones the system had not written)"
        )
    return (
        "os: each command in PostgreSQL's memory before its answer (a crash of Seize loses "
        "nothing; a crash of PostgreSQL or its machine may lose the last 0.6 s)"
    )

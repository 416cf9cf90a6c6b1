"""Who else must hear of a table's commands, as the tables room sees them: the subscribers on
this server (the hub, ``live/hub.py``) and the other servers sharing the database (the bus,
``live/bus.py``). Both live above this room, so it names only what it needs of them here, and
the server hands it the real ones (``http/context.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.roles import Viewer
from rules.table import Folded


@dataclass(frozen=True)
class Shown:
    """A command as one role sees it: its events censored (as data, for the sender's answer,
    and as JSON, encoded once for every message), each with its number for the role
    (``rules.numbering``: the steps the role's table never had are not among them), and the
    view they leave (as JSON). ``seq`` is the role's version after the command. ``view`` is
    None only while an undo repairs a table whose view had already broken."""

    events: list[dict[str, Any] | None]
    encoded: list[str]
    numbers: list[int]
    view: str | None
    seq: int


@dataclass(frozen=True)
class Outcome:
    """A command's events, what they leave (``Table.folded``), and how each role the table
    serves sees them."""

    events: list[Any]
    folded: Folded[Any]
    by: dict[Viewer, Shown]


class Audience(Protocol):
    """The subscribers of this server's tables."""

    def publish(self, table_id: str, shown: Mapping[Viewer, Shown]) -> Callable[[], None]:
        """Encode a command's events for each subscriber now, as its role numbers them; the
        delivery is returned, to run once the command is answered."""

    def drop(self, table_id: str, reason: str) -> None:
        """Tell the table's subscribers to come back, each from the last event it was sent."""

    def followed(self, table_id: str) -> bool:
        """Whether anyone follows the table here."""


class Neighbours(Protocol):
    """The other servers sharing the database, as the bus reaches them."""

    @property
    def shared(self) -> bool:
        """Whether other servers may write to the tables this one holds."""

    def follow(self, table_id: str) -> None:
        """Hear of the table's commands from other servers."""

    def unfollow(self, table_id: str) -> None:
        """Stop hearing of them."""

    def publish(self, table_id: str, first: int, events: Sequence[str]) -> None:
        """Tell the others of events ``first``… just committed here."""

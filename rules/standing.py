"""What still stands of a table's log, and where an undo's replay starts.

An undo takes the last standing event out of the fold, and the state is the replay of what
still stands. Replayed from the first event, a long game's undo grows slow and keeps its whole
log within reach, in memory. So the replay starts from a checkpoint instead: the state after
the standing events up to it, taken every ``Window.every`` standing events. Only the last
``Window.kept`` checkpoints are kept, and only the positions of the standing events after the
oldest of them: a table holds its state and a bounded undo window, whatever the length of its
game. An undo that reaches behind the oldest checkpoint is rare (a GM taking back a hundred
steps); it rebuilds all of this from the whole log (``rebuilt``), which a server that let go
of its old events reads back from its store when one is asked for (``Forgotten``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

S = TypeVar("S")

Read = Callable[[int], Any]
"""The event at a log position (the first event is 0)."""


class Forgotten(LookupError):  # noqa: N818  (what happened to the event, as the rules say it)
    """The log no longer holds this event in memory: its holder reads it back and asks again.
    Nothing was changed by the step that asked."""

    def __init__(self, position: int) -> None:
        super().__init__(f"event {position + 1} is no longer held in memory")
        self.position = position


@dataclass(frozen=True)
class Window:
    """How far back an undo reaches from memory: at least ``every * (kept - 1)`` standing
    events, and at most ``every * kept``."""

    every: int = 64
    kept: int = 3

    def __post_init__(self) -> None:
        if self.every < 1 or self.kept < 2:
            raise ValueError("a window takes a checkpoint every 1 or more events, and keeps 2+")


WINDOW = Window()
"""An undo reaches 128 to 192 steps back from memory: more than a GM takes back in a row."""


@dataclass
class Standing(Generic[S]):
    """The standing events an undo can reach without the whole log, and the checkpoints to
    replay them from."""

    checkpoints: list[tuple[int, S]]
    """(how many of ``positions`` it has folded in, the state then); the first folds none."""
    positions: list[int]
    """The log positions of the standing events after the first checkpoint, in order."""
    rooted: bool
    """The first checkpoint is the table's initial state: nothing stands before it."""

    @classmethod
    def at(cls, state: S, rooted: bool) -> Standing[S]:
        """Nothing known to stand after ``state``."""
        return cls([(0, state)], [], rooted)

    def copy(self) -> Standing[S]:
        return Standing(list(self.checkpoints), list(self.positions), self.rooted)

    @property
    def reach(self) -> int | None:
        """The first log position an undo may read again, if any."""
        return self.positions[0] if self.positions else None

    def stood(self, position: int, state: S, every: int) -> None:
        """An event at ``position`` stands, leaving ``state``: a checkpoint when ``every`` have
        stood since the last one (``bound`` lets the oldest go)."""
        self.positions.append(position)
        if len(self.positions) - self.checkpoints[-1][0] >= every:
            self.checkpoints.append((len(self.positions), state))

    def bound(self, kept: int, keeping: int | None = None) -> None:
        """Let go of the oldest checkpoints, and the positions before the first one left, till
        ``kept`` remain; never of ``keeping``'s position."""
        while len(self.checkpoints) > kept:
            shift = self.checkpoints[1][0]
            if keeping is not None and keeping in self.positions[:shift]:
                return
            self.positions = self.positions[shift:]
            self.checkpoints = [(k - shift, state) for k, state in self.checkpoints[1:]]
            self.rooted = False

    def without(
        self, position: int, evolve: Callable[[S, Any], S], read: Read
    ) -> tuple[Standing[S], S] | None:
        """The standing events with the one at ``position`` out of the fold, and the state
        they replay to; None when it is not among those reached here."""
        if position not in self.positions:
            return None
        index = self.positions.index(position)
        out = Standing(
            [(k, state) for k, state in self.checkpoints if k <= index],
            self.positions[:index] + self.positions[index + 1 :],
            self.rooted,
        )
        folded, state = out.checkpoints[-1]
        for later in out.positions[folded:]:
            state = evolve(state, read(later))
        return out, state


def rebuilt(
    initial: S,
    length: int,
    read: Read,
    evolve: Callable[[S, Any], S],
    undoes: Callable[[Any], int | None],
    window: Window,
    keeping: int | None,
) -> tuple[Standing[S], S]:
    """The standing events of the first ``length`` of the log, and the state they fold to,
    from the initial state: every event is read (``Forgotten`` if one is not held).
    ``undoes`` names the position an event takes out of the fold, if it is an undo."""
    positions: list[int] = []
    for position in range(length):
        taken = undoes(read(position))
        if taken is None:
            positions.append(position)
        elif taken in positions:
            positions.remove(taken)
    standing, state = Standing.at(initial, rooted=True), initial
    for position in positions:
        state = evolve(state, read(position))
        standing.stood(position, state, window.every)
    standing.bound(window.kept, keeping)
    return standing, state

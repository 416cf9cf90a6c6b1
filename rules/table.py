"""A table: one game of one system, as the fold of its event log.

Each system is a decider (``initial_state``, ``decide``, ``evolve``, ``view``, ``censor``). The
``Table`` is what every system shares on top of that: it keeps the log, folds it into the state,
and owns undo. Undo needs the log, which a system never sees, so it lives here: an ``Undone``
event takes the last standing event out of the fold, and the state is the replay of what
stands. Every command a system decides yields the events of one step, and undo takes back the
last event, so systems keep "one command, one event" wherever a GM would call it one step. The
one exception is shared by all: a step whose acting revealed someone hidden carries that
reveal just before it, and undo takes back both (``Table._step``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from rules import hiding
from rules.alerts import Kind
from rules.errors import RuleError
from rules.hiding import Seen
from rules.numbering import Numbering
from rules.participants import Participant
from rules.roles import Viewer
from rules.standing import WINDOW, Standing, Window, rebuilt
from rules.telling import Story


class Undo(BaseModel):
    """The GM takes back the last step that still stands: its event, and the reveals its acting
    caused."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["undo"] = "undo"


class Undone(BaseModel):
    """The event with sequence number ``undoes`` no longer stands (the first event is 1)."""

    model_config = ConfigDict(frozen=True)
    type: Literal["undone"] = "undone"
    undoes: int


S = TypeVar("S")
C = TypeVar("C", bound=BaseModel)
E = TypeVar("E", bound=Seen)
Opts = TypeVar("Opts", bound=BaseModel)


@dataclass(frozen=True)
class System(Generic[Opts, S, C, E]):
    """A rules engine: the decider functions of one system, and how its commands parse."""

    name: str
    options_model: type[Opts]
    state_model: type[S]
    view_model: type[BaseModel]
    commands: TypeAdapter[C | Undo]
    events: TypeAdapter[E | Undone]
    initial_state: Callable[[Opts], S]
    decide: Callable[[S, C, Viewer], list[E]]
    """The events a command leads to; raises RuleError naming the rule broken."""
    evolve: Callable[[S, E], S]
    """The state after an event; pure, and never fails on an event ``decide`` produced."""
    view: Callable[[S, Viewer], BaseModel]
    """What the viewer's role may see of the state."""
    censor: Callable[[E, Viewer, Opts], dict[str, Any] | None]
    """The event as the viewer may see it (as JSON data), or None when none of it may be."""
    roster: Callable[[S], Sequence[Participant]]
    """Everyone at the table, hidden or not."""
    hidden: Callable[[S], frozenset[str]]
    """The ids of those hidden from players and overlays (the shared rulings)."""
    acting: Callable[[E, S], Iterable[str]]
    """Who an event shows acting, given the state it leaves: acting reveals the hidden."""
    spotted: Callable[[Any], Sequence[tuple[Kind, str | None]]]
    """What a view (the system's ``view_model``) says of anyone's turn (rules/alerts.py): who
    is up, next, or asked for something now, as far as that view's viewer may see."""
    story: Story[S]
    """The system's words for a fight's story: its timeline and recap."""
    others: frozenset[str] = frozenset()
    """Names a command may give that are no participant's (the Four Color Editor)."""

    def participants(self, state: S) -> frozenset[str]:
        """The ids of everyone at the table: what a player token may be bound to."""
        return frozenset(p.id for p in self.roster(state))

    def table(
        self, options: Opts | None = None, log: Iterable[E | Undone] = ()
    ) -> Table[Opts, S, C, E]:
        """A new table of this system, or one rebuilt from its log."""
        return Table(self, options if options is not None else self.options_model(), log)


@dataclass(frozen=True)
class Folded(Generic[S]):
    """The state events leave, what stands after them, and which of them are steps the
    stream's table never had (``Numbering.marked``, worked out once for every role and for
    the record): what ``record`` takes."""

    state: S
    standing: Standing[S]
    marked: list[bool]


@dataclass(frozen=True)
class Mark(Generic[S]):
    """The table as it stands at a moment (``Table.mark``): what ``Table.rewind`` puts back."""

    version: int
    state: S
    standing: Standing[S]


def _revealing(event: object) -> bool:
    """A reveal that acting caused: it belongs to the step written just after it."""
    return isinstance(event, hiding.Revealed) and event.acting


class Table(Generic[Opts, S, C, E]):
    """One game: its system, its options, its log, and the state the log folds to.

    The log may let go of its old events (a server's does, keeping them in its store): the
    table reads them again only for an undo that reaches behind its ``Window``, and then asks
    for them by raising ``Forgotten`` before it changes anything."""

    def __init__(
        self,
        system: System[Opts, S, C, E],
        options: Opts,
        log: Iterable[E | Undone] = (),
        window: Window = WINDOW,
    ) -> None:
        self.system = system
        self.options = options
        self.window = window
        self.log: MutableSequence[E | Undone] = []
        self.state = system.initial_state(options)
        self._standing = Standing.at(self.state, rooted=True)
        self.numbering = Numbering(self.censor)
        """Each role's numbers for the log's events (``rules.numbering``)."""
        for event in log:
            self.apply(event)

    @classmethod
    def restore(
        cls,
        system: System[Opts, S, C, E],
        options: Opts,
        log: MutableSequence[E | Undone],
        state: S,
        window: Window = WINDOW,
        marks: Iterable[tuple[int, E | Undone]] = (),
    ) -> Table[Opts, S, C, E]:
        """A table from a snapshot: ``state`` as it was after the whole ``log``. Its first undo
        rebuilds what stands from the log, so the log may hold its old events elsewhere; its
        events stamped with someone hidden and its undos (``marks``, with their sequences)
        number the rest for each role (``rules.numbering``)."""
        table = cls(system, options, window=window)
        table.log, table.state = log, state
        table._standing = Standing.at(state, rooted=not log)
        table.numbering.restore(marks, len(log))
        return table

    @property
    def version(self) -> int:
        """The sequence number of the last event (events are numbered from 1); a command made
        against an older version is stale."""
        return len(self.log)

    @property
    def reach(self) -> int:
        """The first log position the table may read again without being asked to rebuild
        from the whole log: a log may let go of the events before it. That is one before the
        first standing event it reaches: an undo reads it, as it may be a reveal that goes with
        the step after it."""
        reach = self._standing.reach
        return len(self.log) if reach is None else max(0, reach - 1)

    def decide(self, command: C | Undo, actor: Viewer) -> list[E | Undone]:
        """The events a command leads to, applied to nothing yet (a server makes them durable
        first); raises RuleError naming the rule broken."""
        if isinstance(command, Undo):
            actor.require_gm("undo")
            step = self._step(self._standing)
            if step is None:  # it, or a reveal that goes with it, may stand further back
                reach = self._standing.reach  # kept, with the reveal just before it
                keeping = None if reach is None else reach - 1
                self._standing = self._rebuilt(len(self.log), self._read([]), keeping)[0]
                step = self._step(self._standing, rebuilt=True)  # the same stand, reaching further
            if not step:
                raise RuleError("undo", "there is nothing to undo")
            return [Undone(undoes=position + 1) for position in step]
        system, state = self.system, self.state
        hidden = system.hidden(state)
        if not actor.is_gm:
            hiding.guard(command, actor, hidden, system.participants(state), system.others)
        try:
            events = system.decide(state, command, actor)
        except RuleError as error:
            scrubbed = hiding.scrubbed(error, actor, hidden, system.roster(state))
            if scrubbed is error:
                raise
            raise scrubbed from None
        return list(hiding.seen(state, events, system.evolve, system.acting, system.hidden))

    def _step(self, standing: Standing[S], rebuilt: bool = False) -> list[int] | None:
        """The log positions of the last standing step, latest first: its last event, and the
        reveals its acting caused (the shared rulings, "Undo and reveals"). Those are written
        just before the event that shows the acting, so they are the acting reveals standing
        right before it in the log; a reveal the GM made by hand is a step of its own. None
        when what ``standing`` reaches cannot tell, a reveal standing just behind it maybe,
        unless it was just ``rebuilt`` to reach as far as it can."""
        positions = standing.positions
        certain = standing.rooted or rebuilt
        if not positions:
            return [] if certain else None
        step = [positions[-1]]
        for position in reversed(positions[:-1]):
            if position != step[-1] - 1 or not _revealing(self.log[position]):
                return step
            step.append(position)
        before = step[-1] - 1
        if certain or before < 0 or not _revealing(self.log[before]):
            return step
        return None

    def execute(self, command: C | Undo, actor: Viewer) -> list[E | Undone]:
        """Decide a command and apply its events; on refusal nothing changes."""
        events = self.decide(command, actor)
        self.record(events, self.folded(events))
        return events

    def folded(self, events: Sequence[E | Undone]) -> Folded[S]:
        """What these events would leave, the table itself unchanged: a server folds and
        shows a command's events before it stores them, so none it cannot show is ever kept."""
        state, standing = self.state, self._standing.copy()
        marked = self.numbering.marked(len(self.log) + 1, events)
        pending: list[E | Undone] = []
        read = self._read(pending)
        for event in events:
            position = len(self.log) + len(pending)
            pending.append(event)
            if isinstance(event, Undone):
                standing, state = self._undone(standing, state, position, event, read)
            else:
                state = self.system.evolve(state, event)
                standing.stood(position, state, self.window.every)
                standing.bound(self.window.kept)
        return Folded(state, standing, marked)

    def apply(self, event: E | Undone) -> None:
        """Append an event to the log and fold it in."""
        self.record([event], self.folded([event]))

    def record(self, events: Sequence[E | Undone], folded: Folded[S]) -> None:
        """Append events whose fold is already known (``folded``), without folding again."""
        for event, mark in zip(events, folded.marked, strict=True):
            self.log.append(event)
            self.numbering.take(len(self.log), event, mark)
        self.state, self._standing = folded.state, folded.standing

    def mark(self) -> Mark[S]:
        """The table as it stands now, to ``rewind`` to."""
        return Mark(len(self.log), self.state, self._standing)

    def rewind(self, mark: Mark[S]) -> None:
        """Take back every event recorded since ``mark``. A server decides a group of commands
        that arrived together each on the one before (recording them), then rewinds and
        records them again once they are stored, so nothing it has not stored is ever read
        from the table. ``record`` never changes what it leaves behind (``folded`` works on a
        copy of what stands), so what ``mark`` kept is as it was."""
        del self.log[mark.version :]
        self.numbering.rewind(mark.version)
        self.state, self._standing = mark.state, mark.standing

    def _read(self, pending: list[E | Undone]) -> Callable[[int], E | Undone]:
        """The event at a position, from the log or from the ``pending`` events after it."""
        log = self.log

        def read(position: int) -> E | Undone:
            held = len(log)
            return log[position] if position < held else pending[position - held]

        return read

    def _undone(
        self,
        standing: Standing[S],
        state: S,
        position: int,
        undone: Undone,
        read: Callable[[int], E | Undone],
    ) -> tuple[Standing[S], S]:
        """What stands, and the state, once ``undone`` (at ``position``) takes its event out."""
        target = undone.undoes - 1
        taken = standing.without(target, self.system.evolve, read)
        if taken is None and not standing.rooted:  # it may stand further back than reached
            standing, state = self._rebuilt(position, read, target)
            taken = standing.without(target, self.system.evolve, read)
        return (standing, state) if taken is None else taken  # one that does not stand: no-op

    def _rebuilt(
        self, length: int, read: Callable[[int], E | Undone], keeping: int | None
    ) -> tuple[Standing[S], S]:
        return rebuilt(
            self.system.initial_state(self.options),
            length,
            read,
            self.system.evolve,
            lambda event: event.undoes - 1 if isinstance(event, Undone) else None,
            self.window,
            keeping,
        )

    def view(self, viewer: Viewer) -> BaseModel:
        return self.system.view(self.state, viewer)

    def censor(self, event: E | Undone, viewer: Viewer) -> dict[str, Any] | None:
        if isinstance(event, Undone):
            return event.model_dump(mode="json")
        return self.system.censor(event, viewer, self.options)

"""A table: one game of one system, as the fold of its event log.

Each system is a decider (``initial_state``, ``decide``, ``evolve``, ``view``, ``censor``). The
``Table`` is what every system shares on top of that: it keeps the log, folds it into the state,
and owns undo. Undo needs the log, which a system never sees, so it lives here: an ``Undone``
event takes the last standing event out of the fold, and the state is the replay of what
stands. Every command a system decides yields the events of one step, and undo takes back the
last event, so systems keep "one command, one event" wherever a GM would call it one step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from rules import hiding
from rules.errors import RuleError
from rules.hiding import Seen
from rules.participants import Participant
from rules.roles import Viewer


class Undo(BaseModel):
    """The GM takes back the last event that still stands."""

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


class Table(Generic[Opts, S, C, E]):
    """One game: its system, its options, its log, and the state the log folds to."""

    def __init__(
        self, system: System[Opts, S, C, E], options: Opts, log: Iterable[E | Undone] = ()
    ) -> None:
        self.system = system
        self.options = options
        self.log: MutableSequence[E | Undone] = []
        self._standing: list[int] = []  # positions in the log of the events that still stand
        self.state = system.initial_state(options)
        for event in log:
            self.apply(event)

    @property
    def standing(self) -> tuple[int, ...]:
        """Positions in the log of the events that still stand: what a snapshot keeps."""
        return tuple(self._standing)

    @classmethod
    def restore(
        cls,
        system: System[Opts, S, C, E],
        options: Opts,
        log: MutableSequence[E | Undone],
        state: S,
        standing: Sequence[int],
    ) -> Table[Opts, S, C, E]:
        """A table from a snapshot: ``state`` and ``standing`` as they were after the whole
        ``log``. The log is only read again by an undo, so it may load its events lazily."""
        table = cls(system, options)
        table.log, table.state, table._standing = log, state, list(standing)
        return table

    @property
    def version(self) -> int:
        """The sequence number of the last event (events are numbered from 1); a command made
        against an older version is stale."""
        return len(self.log)

    def decide(self, command: C | Undo, actor: Viewer) -> list[E | Undone]:
        """The events a command leads to, applied to nothing yet (a server makes them durable
        first); raises RuleError naming the rule broken."""
        if isinstance(command, Undo):
            actor.require_gm("undo")
            if not self._standing:
                raise RuleError("undo", "there is nothing to undo")
            return [Undone(undoes=self._standing[-1] + 1)]
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

    def execute(self, command: C | Undo, actor: Viewer) -> list[E | Undone]:
        """Decide a command and apply its events; on refusal nothing changes."""
        events = self.decide(command, actor)
        for event in events:
            self.apply(event)
        return events

    def folded(self, events: Sequence[E | Undone]) -> S:
        """The state these events would leave, the table itself unchanged: a server folds and
        shows a command's events before it stores them, so none it cannot show is ever kept."""
        state, standing = self.state, list(self._standing)
        for event in events:
            if isinstance(event, Undone):
                if event.undoes - 1 in standing:
                    standing.remove(event.undoes - 1)
                state = self._replay(standing)
            else:
                state = self.system.evolve(state, event)
        return state

    def apply(self, event: E | Undone) -> None:
        """Append an event to the log and fold it in."""
        self._record(event)
        if isinstance(event, Undone):
            self.state = self._replay(self._standing)
        else:
            self.state = self.system.evolve(self.state, event)

    def record(self, events: Sequence[E | Undone], state: S) -> None:
        """Append events whose fold is already known (``folded``), without folding again."""
        for event in events:
            self._record(event)
        self.state = state

    def _record(self, event: E | Undone) -> None:
        position = len(self.log)
        self.log.append(event)
        if isinstance(event, Undone):
            if event.undoes - 1 in self._standing:
                self._standing.remove(event.undoes - 1)
        else:
            self._standing.append(position)

    def _replay(self, positions: Sequence[int]) -> S:
        state = self.system.initial_state(self.options)
        for position in positions:
            event = self.log[position]
            assert not isinstance(event, Undone)
            state = self.system.evolve(state, event)
        return state

    def view(self, viewer: Viewer) -> BaseModel:
        return self.system.view(self.state, viewer)

    def censor(self, event: E | Undone, viewer: Viewer) -> dict[str, Any] | None:
        if isinstance(event, Undone):
            return event.model_dump(mode="json")
        return self.system.censor(event, viewer, self.options)

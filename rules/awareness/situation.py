"""The state of a tense situation: hidden initiative, declarations in order, and exchanges.

An *exchange* is what one act sets off: the actor, and the waiting characters who react to it
or to each other, each placed just before or just after the one they react to. The order the
exchange resolves in follows from those placements (``sequence``); the GM records each outcome
in that order. A pre-emption declared without its die is *pending*: it is placed when the die
comes (from a tray, say), and nothing resolves before that.

A character hidden from players (the shared rulings, "No tells") never holds up what they see:
the round starts once every die they know of is in, those they see declare in their order
whether or not someone hidden before them has, and an exchange whose outcomes left to record
are all hidden ones is *deferred*, so that play goes on as it would without them. The hidden
steps are the GM's, entered meanwhile; one that reveals (an act, a deferred outcome) takes its
place where the rules put it, and the declarations made after that place meanwhile *lapse*:
those characters declare again (as a seized declaration lapses at RCS).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from rules import hiding
from rules.awareness.commands import Awareness, Sheet
from rules.awareness.events import (
    AwarenessSet,
    Declared,
    Event,
    Initiative,
    InitiativeEntered,
    InitiativeOverridden,
    InitiativeRolled,
    Joined,
    PreemptionAwaited,
    Reacted,
    Resolved,
    RollsAwaited,
)
from rules.hiding import Hidden, Revealed
from rules.randomness import Source
from rules.roles import Viewer
from rules.telling import TurnClock


class AwarenessOptions(BaseModel):
    """Table options: every number of the default dice model can be changed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    modifiers: dict[Awareness, Annotated[int, Field(ge=-20, le=20)]] = {
        Awareness.SURPRISED: -4,
        Awareness.STARTLED: -2,
        Awareness.ALERT: 0,
        Awareness.READY: 2,
        Awareness.LYING_IN_WAIT: 4,
    }
    position_limit: int = Field(default=4, ge=0, le=20)
    die_sides: int = Field(default=10, ge=2, le=100)
    qr_pivot: int = Field(default=5, ge=-100, le=100)  # QR = clamp(d10 - (Score - pivot), 1, sides)
    panic_from: int = Field(default=7, ge=1, le=101)
    panic_to: int = Field(default=9, ge=1, le=101)
    freeze_at: int = Field(default=10, ge=1, le=101)  # past die_sides: nobody ever freezes
    tie_bonus: int = Field(default=1, ge=0, le=10)  # equal QRs: ± this for the higher Score
    reveal_order: bool = False
    reveal_triggers: bool = False  # ruling 12: a wait's trigger is the GM's and the waiter's
    turn_clock: TurnClock = None

    def sees_trigger(self, viewer: Viewer, character: str) -> bool:
        """Ruling 12: whether ``viewer`` may know what ``character`` waits for."""
        return self.reveal_triggers or viewer.plays(character)

    def score(self, sheet: Sheet) -> int:
        """Ruling 3: Initiative Score = awareness + the ladder's modifier + position."""
        return sheet.base_awareness + self.modifiers[sheet.state] + sheet.position

    def qr(self, die: int, score: int) -> int:
        """Ruling 4: QR = clamp(d10 - (Score - 5), 1, 10); 1 is best."""
        return min(max(die - (score - self.qr_pivot), 1), self.die_sides)

    def panics(self, qr: int) -> bool:
        return self.panic_from <= qr <= self.panic_to

    def freezes(self, qr: int) -> bool:
        return qr >= self.freeze_at


class Phase(StrEnum):
    SETUP = "setup"
    ROLLING = "rolling"
    DECLARING = "declaring"
    ROUND_OVER = "round_over"


class Exchange(BaseModel):
    """An act, the reactions to it, and the outcomes recorded so far."""

    model_config = ConfigDict(frozen=True)

    act: Declared
    reactions: tuple[Reacted, ...] = ()
    pending: tuple[PreemptionAwaited, ...] = ()  # pre-emptions whose die is awaited
    resolved: tuple[Resolved, ...] = ()

    @property
    def actor(self) -> str:
        return self.act.character

    def placed(self) -> set[str]:
        """Who has a place in the order: the actor and every reaction whose place is known."""
        return {self.actor} | {r.character for r in self.reactions}

    def involved(self) -> set[str]:
        return self.placed() | {p.character for p in self.pending}


class Situation(BaseModel):
    model_config = ConfigDict(frozen=True)

    options: AwarenessOptions
    phase: Phase = Phase.SETUP
    round: int = 0
    sheets: tuple[Sheet, ...] = ()
    initiative: dict[str, Initiative] = {}
    rolloff: dict[str, int] = {}
    awaiting_rolls: tuple[str, ...] = ()
    order: tuple[str, ...] = ()  # this round's declaration order, best first
    declared: frozenset[str] = frozenset()  # who has had their declaration this round
    acted: frozenset[str] = frozenset()  # who has acted (or reacted) this round
    waiting: dict[str, str] = {}  # who waits, for what trigger; persists across rounds
    declarations: tuple[Declared, ...] = ()  # this round's, in order
    exchange: Exchange | None = None
    concluded: Exchange | None = None  # the last exchange resolved, until another act or round
    deferred: Exchange | None = None  # an exchange whose outcomes left are all hidden ones
    deferred_at: int = 0  # how many declarations this round had when it was deferred
    carried: dict[str, str] = {}  # who waited as this round began: a lapsed wait returns to it
    owed: frozenset[str] = frozenset()  # hidden characters the round started without the d10 of
    source: Source | None = None  # where this round's dice came from: a latecomer's too
    hidden: frozenset[str] = frozenset()  # characters hidden from players and overlays

    def sheet(self, character: str) -> Sheet | None:
        return next((s for s in self.sheets if s.id == character), None)

    def key(self, character: str) -> tuple[int, int, int]:
        """Ruling 5: best QR first, then the higher Score, then the hidden roll-off."""
        i = self.initiative[character]
        return i.qr, -i.score, self.rolloff.get(character, 0)

    def frozen(self, character: str) -> bool:
        return self.options.freezes(self.initiative[character].qr)

    def unaware(self, character: str) -> bool:
        """Ruling 9: the surprised get no declaration in round one."""
        sheet = self.sheet(character)
        return self.round == 1 and sheet is not None and sheet.state is Awareness.SURPRISED

    def may_declare(self, character: str) -> bool:
        return not (self.frozen(character) or self.unaware(character) or character in self.acted)

    @property
    def declaring(self) -> str | None:
        """Whose declaration it is: the first in order yet to declare who may."""
        return self.declaring_among(frozenset())

    def declaring_among(self, unseen: frozenset[str]) -> str | None:
        """Whose declaration it is for those who do not see ``unseen``: the first in order of
        the others yet to declare who may. Someone hidden before them holds none of them up."""
        if self.phase is not Phase.DECLARING or self.exchange is not None:
            return None
        return next(
            (
                c
                for c in self.order
                if c not in unseen and c not in self.declared and self.may_declare(c)
            ),
            None,
        )

    def lapsing(self, character: str) -> tuple[str, ...]:
        """Who declared (a wait) after ``character``'s place while it had yet to declare: were
        it to act now, in its place, their declarations would lapse."""
        later = self.order[self.order.index(character) + 1 :] if character in self.order else ()
        declared = {d.character for d in self.declarations}
        return tuple(c for c in later if c in declared and c not in self.acted)

    def upcoming(self) -> tuple[str, ...]:
        """The declarations still to come this round, in order: the GM's secret."""
        if self.phase is not Phase.DECLARING:
            return ()
        return tuple(c for c in self.order if c not in self.declared and self.may_declare(c))

    def may_react(self, character: str) -> bool:
        """Ruling 10: a waiting character may react while an exchange is still being set up,
        once its d10 of the round is in (a hidden one's may come late)."""
        exchange = self.exchange
        return (
            exchange is not None
            and not exchange.resolved
            and character in self.waiting
            and character in self.initiative
            and character not in self.acted
            and character not in exchange.involved()
        )

    def sequence(self, exchange: Exchange | None = None) -> tuple[str, ...]:
        """Ruling 11: the order an exchange (the open one unless given) resolves in. Each
        character's pre-emptors go just before them and those reacting after go just after,
        several in initiative order."""
        exchange = exchange or self.exchange
        if exchange is None:
            return ()

        def around(who: str) -> list[str]:
            def placed(where: str) -> list[str]:
                found = [
                    r.character for r in exchange.reactions if r.to == who and r.placed == where
                ]
                return sorted(found, key=self.key)

            before = [c for b in placed("before") for c in around(b)]
            after = [c for a in placed("after") for c in around(a)]
            return [*before, who, *after]

        return tuple(around(exchange.actor))

    @property
    def resolving(self) -> Exchange | None:
        """The exchange whose outcomes the GM records next: a deferred one comes first, as its
        place comes before anything declared since."""
        return self.deferred or self.exchange

    def next_to_resolve(self) -> str | None:
        """The first in the exchange's order whose outcome is not recorded yet: an override of
        initiative may reorder those still to come, never bring back one already resolved.
        Nobody while a pre-emption's die is awaited: the order is not known until it lands."""
        exchange = self.resolving
        if exchange is None or exchange.pending:
            return None
        done = {r.character for r in exchange.resolved}
        return next((c for c in self.sequence(exchange) if c not in done), None)

    def preempted(self, character: str) -> bool:
        """Whether someone pre-empted this character: the engine then asks whether their
        action could still happen."""
        exchange = self.exchange
        return exchange is not None and any(
            r.to == character and r.placed == "before" for r in exchange.reactions
        )


def initial_situation(options: AwarenessOptions) -> Situation:
    return Situation(options=options)


def evolve(sit: Situation, event: Event) -> Situation:
    return settled(_apply(sit, event))


def _apply(sit: Situation, event: Event) -> Situation:
    match event:
        case Joined():
            hidden = sit.hidden | {event.sheet.id} if event.hidden else sit.hidden
            joined = sit.model_copy(update={"sheets": (*sit.sheets, event.sheet), "hidden": hidden})
            return _latecomer(joined, event)
        case Hidden() | Revealed():
            return sit.model_copy(update={"hidden": hiding.evolve(sit.hidden, event)})
        case AwarenessSet():
            sheets = tuple(
                s.model_copy(update={"state": event.state, "position": event.position})
                if s.id == event.character
                else s
                for s in sit.sheets
            )
            return sit.model_copy(update={"sheets": sheets})
        case InitiativeRolled():
            results = {r.character: r for r in event.results}
            return _start_round(
                sit.model_copy(update={"round": event.round, "source": event.source}),
                results,
                event.rolloff,
            )
        case RollsAwaited():
            return sit.model_copy(
                update={
                    "round": event.round,
                    "source": event.source,
                    "phase": Phase.ROLLING,
                    "initiative": {},
                    "awaiting_rolls": tuple(s.id for s in sit.sheets),
                }
            )
        case InitiativeEntered() if sit.phase is Phase.DECLARING:  # a latecomer's
            return _placed(sit, event.result, event.rolloff or {})
        case InitiativeEntered():
            results = {**sit.initiative, event.result.character: event.result}
            awaiting = tuple(c for c in sit.awaiting_rolls if c != event.result.character)
            sit = sit.model_copy(update={"initiative": results, "awaiting_rolls": awaiting})
            if event.rolloff is None:
                return sit
            return _start_round(sit, results, event.rolloff, owed=awaiting)
        case Declared():
            return _declared(sit, event)
        case PreemptionAwaited():
            assert sit.exchange is not None
            exchange = sit.exchange.model_copy(update={"pending": (*sit.exchange.pending, event)})
            return sit.model_copy(update={"exchange": exchange})
        case Reacted():
            assert sit.exchange is not None
            exchange = sit.exchange.model_copy(
                update={
                    "reactions": (*sit.exchange.reactions, event),
                    "pending": tuple(
                        p for p in sit.exchange.pending if p.character != event.character
                    ),
                }
            )
            return sit.model_copy(update={"exchange": exchange})
        case Resolved():
            return _resolved(sit, event)
        case InitiativeOverridden():
            results = {**sit.initiative, event.result.character: event.result}
            sit = sit.model_copy(update={"initiative": results})
            return sit.model_copy(update={"order": tuple(sorted(results, key=sit.key))})


def _latecomer(sit: Situation, event: Joined) -> Situation:
    """Ruling 13: one who joins mid-round is placed with the initiative it brought, or awaits
    its d10; one who joins while the round's dice come in awaits its own with the others."""
    if event.result is not None:
        return _placed(sit, event.result, event.rolloff or {})
    if event.source is not None and sit.phase in (Phase.ROLLING, Phase.DECLARING):
        return sit.model_copy(update={"awaiting_rolls": (*sit.awaiting_rolls, event.sheet.id)})
    return sit


def _placed(sit: Situation, result: Initiative, rolloff: dict[str, int]) -> Situation:
    """Ruling 13: a latecomer takes its place in the order and declares when that place comes
    round; if someone after it has declared already, the place has passed, and its first
    declaration is next round."""
    character = result.character
    owed = character in sit.owed
    sit = sit.model_copy(
        update={
            "initiative": {**sit.initiative, character: result},
            "rolloff": {**sit.rolloff, **rolloff},
            "awaiting_rolls": tuple(c for c in sit.awaiting_rolls if c != character),
            "owed": sit.owed - {character},
        }
    )
    order = tuple(sorted((*sit.order, character), key=sit.key))
    later = order[order.index(character) + 1 :]
    # A hidden character's d10 the round started without is no latecomer's: its place stands.
    passed = not owed and any(c in sit.declared or c in sit.acted for c in later)
    declared = sit.declared | {character} if passed else sit.declared
    return sit.model_copy(update={"order": order, "declared": declared})


def _start_round(
    sit: Situation,
    results: dict[str, Initiative],
    rolloff: dict[str, int],
    owed: tuple[str, ...] = (),
) -> Situation:
    """A new round: the order by QR, Score and roll-off. Ruling 8: waiting carries over, but a
    character who freezes loses the round, and their wait with it. Hidden characters whose d10
    is ``owed`` take their place when it comes."""
    sit = sit.model_copy(update={"initiative": results, "rolloff": rolloff})
    waiting = {c: t for c, t in sit.waiting.items() if c in results and not sit.frozen(c)}
    waiting |= {c: t for c, t in sit.waiting.items() if c in owed}
    return sit.model_copy(
        update={
            "phase": Phase.DECLARING,
            "awaiting_rolls": owed,
            "owed": frozenset(owed),
            "carried": waiting,
            "deferred": None,
            "deferred_at": 0,
            "order": tuple(sorted(results, key=sit.key)),
            "declared": frozenset(),
            "acted": frozenset(),
            "waiting": waiting,
            "declarations": (),
            "exchange": None,
            "concluded": None,
        }
    )


def _declared(sit: Situation, event: Declared) -> Situation:
    sit = _lapsed(sit, event.lapsed)
    waiting = {c: t for c, t in sit.waiting.items() if c != event.character}
    if event.kind == "wait":
        waiting[event.character] = event.what
    return sit.model_copy(
        update={
            "declared": sit.declared | {event.character},
            "declarations": (*sit.declarations, event),
            "waiting": waiting,
            "exchange": Exchange(act=event) if event.kind == "act" else None,
            "concluded": None if event.kind == "act" else sit.concluded,
        }
    )


def _lapsed(sit: Situation, lapsed: tuple[str, ...]) -> Situation:
    """Declarations that lapse: those characters declare again, waiting (or not) as they were
    when the round began, and an act of theirs still open goes with its exchange."""
    if not lapsed:
        return sit
    gone = set(lapsed)
    waiting = {c: t for c, t in sit.waiting.items() if c not in gone}
    waiting |= {c: t for c, t in sit.carried.items() if c in gone}
    exchange = sit.exchange
    return sit.model_copy(
        update={
            "declared": sit.declared - gone,
            "declarations": tuple(d for d in sit.declarations if d.character not in gone),
            "waiting": waiting,
            "exchange": None if exchange is not None and exchange.actor in gone else exchange,
        }
    )


def _resolved(sit: Situation, event: Resolved) -> Situation:
    """Each outcome in order; when the last is recorded, all involved have acted this round.
    When those left are all hidden, the exchange is deferred: play goes on as players see it,
    and the GM records theirs next, when the declarations made since lapse."""
    deferred = sit.deferred is not None
    if deferred:
        sit = _lapsed(sit, event.lapsed)
    resolving = sit.resolving
    assert resolving is not None
    exchange = resolving.model_copy(update={"resolved": (*resolving.resolved, event)})
    done = {r.character for r in exchange.resolved}
    left = [c for c in sit.sequence(exchange) if c not in done]
    if left and not set(left) <= sit.hidden:
        reopened = {"deferred": None, "concluded": None} if deferred else {}
        return sit.model_copy(update={"exchange": exchange, **reopened})
    finished = exchange.involved() - set(left)
    return sit.model_copy(
        update={
            "exchange": None,
            "concluded": exchange,
            "acted": sit.acted | finished,
            "waiting": {c: t for c, t in sit.waiting.items() if c not in finished},
            "deferred": exchange if left else None,
            "deferred_at": len(sit.declarations),
        }
    )


def settled(sit: Situation) -> Situation:
    """The round is over once no one is left to declare, no exchange is open or deferred, and
    no hidden character's d10 is owed."""
    if (
        sit.phase is Phase.DECLARING
        and sit.exchange is None
        and sit.deferred is None
        and sit.declaring is None
        and not sit.owed
    ):
        return sit.model_copy(update={"phase": Phase.ROUND_OVER})
    return sit

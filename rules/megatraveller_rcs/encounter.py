"""The state of a MegaTraveller RCS encounter: index cards in a line, and the Taking Turn Token.

The ``line`` is the untapped cards in the order they will act; the token sits on its first
card. Cards that have held the token this round (the holder, and anyone whose turn was seized)
stay at the front in the order play will come back to them; the rest lie sorted by
(initiative, tally), lowest first. A seize moves the seizer's card to the front, which is
the source's "the seizer's card moves in front": the order stays completely linear.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules import hiding
from rules.hiding import Hidden, Revealed
from rules.megatraveller_rcs.commands import Character
from rules.megatraveller_rcs.events import (
    Declaration,
    Declared,
    Event,
    InitiativeOverridden,
    InitiativeRolled,
    Joined,
    PoolSet,
    Resolved,
    Roll,
    RollEntered,
    RollsAwaited,
    Seized,
    TacticsSpent,
    TakenOut,
    TurnEnded,
)
from rules.randomness import Source
from rules.telling import TurnClock


class RcsOptions(BaseModel):
    """Table options; the defaults are MegaTraveller's 2D6."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    initiative_dice: int = Field(default=2, ge=1, le=10)
    die_sides: int = Field(default=6, ge=2, le=100)
    join_mid_round: Literal["roll_now", "next_round"] = "roll_now"  # ruling 10
    turn_clock: TurnClock = None


class Phase(StrEnum):
    SETUP = "setup"
    ROLLING = "rolling"  # waiting for each character's initiative roll
    ROUND = "round"
    ROUND_OVER = "round_over"  # every card tapped: roll again


class IndexCard(BaseModel):
    """A character's card this round: initiative, tally marks, Short Actions used."""

    model_config = ConfigDict(frozen=True)

    initiative: int
    tally: int = 0
    used: int = 0  # Short Actions used this turn: a Long Action uses both
    dice: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[int, int]:
        """Who is higher: initiative first, then tally marks ("16 |" < "16 |||" < "17")."""
        return self.initiative, self.tally


class Encounter(BaseModel):
    model_config = ConfigDict(frozen=True)

    options: RcsOptions
    phase: Phase = Phase.SETUP
    round: int = 0
    characters: tuple[Character, ...] = ()
    out: frozenset[str] = frozenset()
    cards: dict[str, IndexCard] = {}
    awaiting_rolls: tuple[str, ...] = ()
    line: tuple[str, ...] = ()  # untapped cards in order; the token is on line[0]
    tapped: tuple[str, ...] = ()
    held: frozenset[str] = frozenset()  # cards the token has been on this round
    token_moved: bool = False  # the token just moved onto the holder: a seize window
    pending: Declaration | None = None  # declared, not yet resolved: a seize window
    suspended: dict[str, Declaration] = {}  # actions a ruled interrupt cut into
    pools: dict[str, int] = {}
    referee_pools: frozenset[str] = frozenset()  # sides whose pool the referee has set
    source: Source | None = None  # where this round's rolls came from: a latecomer's too
    hidden: frozenset[str] = frozenset()  # characters hidden from players and overlays
    spent_hidden: dict[str, int] = {}  # points each spent from its side's pool while hidden
    owed: frozenset[str] = frozenset()  # hidden characters the round started without the roll of

    def character(self, character_id: str) -> Character | None:
        return next((c for c in self.characters if c.id == character_id), None)

    @property
    def holder(self) -> str | None:
        """Who the Taking Turn Token sits on."""
        return self.line[0] if self.phase is Phase.ROUND and self.line else None

    @property
    def window(self) -> bool:
        """Seizing is possible when the token has just moved or an action is declared."""
        return self.holder is not None and (self.token_moved or self.pending is not None)

    def may_seize(self, character_id: str) -> bool:
        """Untapped, not holding the token, and strictly higher than the holder."""
        holder = self.holder
        return (
            holder is not None
            and character_id != holder
            and character_id in self.line
            and self.cards[character_id].key > self.cards[holder].key
        )

    def seizers(self) -> tuple[str, ...]:
        """Who may seize right now, in a window."""
        if not self.window:
            return ()
        return tuple(c for c in self.line if self.may_seize(c))

    def active(self) -> tuple[Character, ...]:
        return tuple(c for c in self.characters if c.id not in self.out)

    def passed(self, roll: Roll) -> bool:
        """Whether a roll the round started without (a hidden character's, the shared rulings,
        "No tells") lands before the token: its place came while players went on without it,
        so the token is its now."""
        holder = self.holder
        return (
            roll.character in self.owed
            and holder is not None
            and roll.initiative < self.cards[holder].initiative
        )


def initial_encounter(options: RcsOptions) -> Encounter:
    return Encounter(options=options)


def evolve(enc: Encounter, event: Event) -> Encounter:
    match event:
        case Joined():
            joined = _joined(enc, event.character)
            if event.hidden:
                joined = joined.model_copy(update={"hidden": enc.hidden | {event.character.id}})
            return _latecomer(joined, event)
        case Hidden() | Revealed():
            spent = {c: n for c, n in enc.spent_hidden.items() if c != event.participant}
            hidden = hiding.evolve(enc.hidden, event)
            return enc.model_copy(update={"hidden": hidden, "spent_hidden": spent})
        case PoolSet():
            on_side = {c.id for c in enc.characters if c.side == event.side}
            return enc.model_copy(
                update={
                    "pools": {**enc.pools, event.side: event.points},
                    "referee_pools": enc.referee_pools | {event.side},
                    "spent_hidden": {c: n for c, n in enc.spent_hidden.items() if c not in on_side},
                }
            )
        case TacticsSpent():
            return _tactics_spent(enc, event)
        case InitiativeRolled():
            cards = {r.character: _card(r) for r in event.rolls}
            enc = enc.model_copy(update={"round": event.round, "source": event.source})
            return _start_round(enc, cards, event.tallies)
        case RollsAwaited():
            return _rolls_awaited(enc, event.round).model_copy(update={"source": event.source})
        case RollEntered() if enc.phase is Phase.ROUND and enc.passed(event.roll):
            return _takes_token(_placed(enc, event.roll, event.tallies or {}), event.roll)
        case RollEntered() if enc.phase is Phase.ROUND:  # a latecomer's, mid-round
            return _placed(enc, event.roll, event.tallies or {})
        case RollEntered():
            cards = {**enc.cards, event.roll.character: _card(event.roll)}
            awaiting = tuple(c for c in enc.awaiting_rolls if c != event.roll.character)
            enc = enc.model_copy(update={"cards": cards, "awaiting_rolls": awaiting})
            if event.tallies is None:
                return enc
            return _start_round(enc, cards, event.tallies, owed=awaiting)
        case Declared():
            return enc.model_copy(update={"pending": event.declaration, "token_moved": False})
        case Resolved():
            return _resolved(enc, event)
        case Seized():
            return _seized(enc, event)
        case TurnEnded():
            return _pass_token(enc, tap=True)
        case TakenOut():
            return _taken_out(enc, event.character)
        case InitiativeOverridden():
            return _reline(_move_to(enc, event.character, event.initiative))


def _card(roll: Roll) -> IndexCard:
    return IndexCard(initiative=roll.initiative, dice=roll.dice)


def _joined(enc: Encounter, character: Character) -> Encounter:
    """Ruling 2: a side's pool defaults to the highest Tactics skill on that side until the
    referee sets it."""
    pools = dict(enc.pools)
    if character.side not in enc.referee_pools:
        pools[character.side] = max(pools.get(character.side, 0), character.tactics)
    return enc.model_copy(update={"characters": (*enc.characters, character), "pools": pools})


def _latecomer(enc: Encounter, event: Joined) -> Encounter:
    """Ruling 10: one who joins mid-round is placed in order at once with the roll it brought,
    or awaits its roll from the round's source; one who joins in the rolling awaits its roll
    with the others. Otherwise it waits for the next round, when it rolls with everyone."""
    character = event.character.id
    if event.roll is not None:
        return _placed(enc, event.roll, event.tallies or {})
    if event.source is not None and enc.phase in (Phase.ROLLING, Phase.ROUND):
        return enc.model_copy(update={"awaiting_rolls": (*enc.awaiting_rolls, character)})
    return enc


def _placed(enc: Encounter, roll: Roll, tallies: dict[str, int]) -> Encounter:
    """A latecomer's card laid in the line, untapped, among the cards still to act: where its
    initiative (and its tally among equals) puts it."""
    cards = {**enc.cards, roll.character: _card(roll)}
    for cid, tally in tallies.items():
        cards[cid] = cards[cid].model_copy(update={"tally": tally})
    awaiting = tuple(c for c in enc.awaiting_rolls if c != roll.character)
    line = (*enc.line, roll.character)
    owed = enc.owed - {roll.character}
    return _reline(
        enc.model_copy(
            update={"cards": cards, "awaiting_rolls": awaiting, "line": line, "owed": owed}
        )
    )


def _in_front(enc: Encounter, character: str, suspended: dict[str, Declaration]) -> Encounter:
    """``character``'s card moved in front and the token to it, as a seize moves them (Ruling
    5); the declaration under way lapses (Ruling 6), or is ``suspended`` by a ruled interrupt.
    An action of ``character``'s own that an interrupt suspended comes back with the token, as
    it would on the token's way down the line: declared once, it is not declared again."""
    line = (character, *(c for c in enc.line if c != character))
    suspended = dict(suspended)
    return enc.model_copy(
        update={
            "line": line,
            "held": enc.held | {character},
            "token_moved": True,
            "pending": suspended.pop(character, None),
            "suspended": suspended,
        }
    )


def _takes_token(enc: Encounter, roll: Roll) -> Encounter:
    """A hidden character's roll whose place has passed takes the token as a seize would."""
    return _in_front(enc, roll.character, enc.suspended)


def _rolls_awaited(enc: Encounter, round: int) -> Encounter:
    """Ruling 8: the last round's cards are gathered and their numbers erased before the new
    rolls come in, so nothing of the old line is left for the new round's cards to miss."""
    return enc.model_copy(
        update={
            "round": round,
            "phase": Phase.ROLLING,
            "cards": {},
            "awaiting_rolls": tuple(c.id for c in enc.active()),
            "line": (),
            "tapped": (),
            "held": frozenset(),
            "token_moved": False,
            "pending": None,
            "suspended": {},
        }
    )


def _start_round(
    enc: Encounter,
    cards: dict[str, IndexCard],
    tallies: dict[str, int],
    owed: tuple[str, ...] = (),
) -> Encounter:
    """Ruling 8: a new round: cards untapped, markers cleared, laid out lowest first. Hidden
    characters whose roll is ``owed`` are laid when it comes."""
    cards = {cid: c.model_copy(update={"tally": tallies.get(cid, 0)}) for cid, c in cards.items()}
    line = tuple(sorted(cards, key=lambda cid: cards[cid].key))
    return enc.model_copy(
        update={
            "phase": Phase.ROUND if line else Phase.ROUND_OVER,
            "cards": cards,
            "awaiting_rolls": owed,
            "owed": frozenset(owed),
            "line": line,
            "tapped": (),
            "held": frozenset(line[:1]),
            "token_moved": True,
            "pending": None,
            "suspended": {},
        }
    )


def _reline(enc: Encounter) -> Encounter:
    """Keep the cards the token has been on in front; sort the others by (initiative, tally)."""
    front = tuple(c for c in enc.line if c in enc.held)
    rest = sorted((c for c in enc.line if c not in enc.held), key=lambda c: enc.cards[c].key)
    return enc.model_copy(update={"line": front + tuple(rest)})


def _move_to(enc: Encounter, character: str, initiative: int) -> Encounter:
    """Give a card a new initiative. A card that joins others of equal initiative enters their
    tally order from the side it came from: raised, it is the lowest of them; lowered, the
    highest. So no step ever carries a card past another of the same initiative."""
    card = enc.cards[character]
    if card.initiative == initiative:
        return enc
    equals = sorted(
        (cid for cid, c in enc.cards.items() if c.initiative == initiative and cid != character),
        key=lambda cid: enc.cards[cid].tally,
    )
    group = [character, *equals] if initiative > card.initiative else [*equals, character]
    cards = dict(enc.cards)
    cards[character] = card.model_copy(update={"initiative": initiative})
    if len(group) > 1:
        for tally, cid in enumerate(group, start=1):
            cards[cid] = cards[cid].model_copy(update={"tally": tally})
    else:
        cards[character] = cards[character].model_copy(update={"tally": 0})
    return enc.model_copy(update={"cards": cards})


def _tactics_spent(enc: Encounter, event: TacticsSpent) -> Encounter:
    """Points leave the pool. What a hidden character spends is kept apart too: players see
    its side's pool as it was until the character is revealed or the pool is set again."""
    points = abs(event.points)
    pools = {**enc.pools, event.side: enc.pools.get(event.side, 0) - points}
    spent = dict(enc.spent_hidden)
    if event.character in enc.hidden:
        spent[event.character] = spent.get(event.character, 0) + points
    enc = enc.model_copy(update={"pools": pools, "spent_hidden": spent})
    if event.purpose == "other":
        return enc
    initiative = enc.cards[event.character].initiative + event.points
    return _reline(_move_to(enc, event.character, initiative))


def _resolved(enc: Encounter, event: Resolved) -> Encounter:
    holder = event.declaration.character
    card = enc.cards[holder]
    cards = {
        **enc.cards,
        holder: card.model_copy(update={"used": card.used + event.declaration.action.shorts}),
    }
    enc = enc.model_copy(update={"cards": cards, "pending": None, "token_moved": False})
    return _pass_token(enc, tap=True) if event.turn_over else enc


def _seized(enc: Encounter, event: Seized) -> Encounter:
    """Ruling 5: the seizer's card moves in front and the token moves to it. Ruling 6: the
    interrupted declaration lapses, unless a ruled interrupt only suspended it."""
    suspended = dict(enc.suspended)
    if event.ruled_interrupt and enc.pending is not None:
        suspended[event.seized_from] = enc.pending
    return _in_front(enc, event.character, suspended)


def _pass_token(enc: Encounter, *, tap: bool) -> Encounter:
    """Ruling 7: the holder's card is tapped and the token moves onto the next card; when no
    card is left untapped the round is over."""
    holder, line = enc.line[0], enc.line[1:]
    suspended = dict(enc.suspended)
    pending = suspended.pop(line[0], None) if line else None
    return enc.model_copy(
        update={
            "line": line,
            "tapped": (*enc.tapped, holder) if tap else enc.tapped,
            "held": enc.held | set(line[:1]),
            "token_moved": bool(line),
            "pending": pending,
            "suspended": suspended,
            "phase": Phase.ROUND if line else Phase.ROUND_OVER,
        }
    )


def _taken_out(enc: Encounter, character: str) -> Encounter:
    enc = enc.model_copy(update={"out": enc.out | {character}})
    if enc.holder == character:
        return _pass_token(enc, tap=False)
    suspended = {c: d for c, d in enc.suspended.items() if c != character}
    awaiting = tuple(c for c in enc.awaiting_rolls if c != character)
    line = tuple(c for c in enc.line if c != character)
    return enc.model_copy(update={"line": line, "suspended": suspended, "awaiting_rolls": awaiting})

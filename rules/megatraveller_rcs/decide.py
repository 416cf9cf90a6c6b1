"""MegaTraveller RCS's initiative as checks: each command becomes one event or a refusal.

Rule ids are ``megatraveller-rcs.N`` after RULINGS.md's numbering.
"""

from __future__ import annotations

import random

from rules import hiding
from rules.errors import RuleError
from rules.megatraveller_rcs.commands import (
    Character,
    Command,
    Declare,
    EndTurn,
    EnterRoll,
    Join,
    OverrideInitiative,
    Resolve,
    RollInitiative,
    Seize,
    SetPool,
    SpendTactics,
    TakeOut,
)
from rules.megatraveller_rcs.encounter import Encounter, Phase
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
from rules.randomness import Source, break_ties, engine_rng, given_source, own_rng, roll
from rules.roles import Viewer


def decide(enc: Encounter, command: Command, actor: Viewer) -> list[Event]:
    match command:
        case Join():
            return [_join(enc, command, actor)]
        case SetPool():
            actor.require_gm("set a tactics pool")
            return [_pool_set(enc, command)]
        case SpendTactics():
            return [_spend(enc, command, actor)]
        case RollInitiative():
            return [_roll_initiative(enc, command, actor)]
        case EnterRoll():  # the event keeps the ids of the smart dice that rolled it
            return [_enter_roll(enc, command, actor).model_copy(
                update={"dice_ids": command.dice_ids})]  # fmt: skip
        case Declare():
            return [_declare(enc, command, actor)]
        case Resolve():
            return [_resolve(enc, command, actor)]
        case Seize():
            return [_seize(enc, command, actor)]
        case EndTurn():
            return [_end_turn(enc, command, actor)]
        case TakeOut():
            return [_take_out(enc, command, actor)]
        case OverrideInitiative():
            actor.require_gm("override an initiative")
            _card_of(enc, command.character)
            return [
                InitiativeOverridden(character=command.character, initiative=command.initiative)
            ]
        case hiding.Hide() | hiding.Reveal():
            present = frozenset(c.id for c in enc.characters)
            return [hiding.decide(enc.hidden, present, command, actor)]


def _in_encounter(enc: Encounter, character: str, field: str = "character") -> None:
    found = enc.character(character)
    if found is None or character in enc.out:
        raise RuleError(
            "megatraveller-rcs.1", f"{character!r} is not in the encounter", field=field
        )


def _card_of(enc: Encounter, character: str) -> None:
    _in_encounter(enc, character)
    if character not in enc.cards or enc.phase is not Phase.ROUND:
        raise RuleError(
            "megatraveller-rcs.1", f"{character!r} has no initiative this round", field="character"
        )


def _join(enc: Encounter, command: Join, actor: Viewer) -> Joined:
    actor.require_gm("bring a character into the encounter")
    if enc.character(command.character.id) is not None:
        raise RuleError(
            "megatraveller-rcs.1",
            f"{command.character.id!r} is already in the encounter",
            field="character.id",
        )
    joined = Joined(character=command.character, hidden=command.hidden)
    if enc.phase in (Phase.SETUP, Phase.ROUND_OVER):
        return joined
    source = command.source or enc.source or Source.ENGINE
    if enc.phase is Phase.ROLLING:  # the round's rolls are still coming: it rolls with them
        return joined.model_copy(update={"source": source})
    if enc.options.join_mid_round == "next_round":  # it waits, tapped, for the next round
        return joined
    if source is not Source.ENGINE:  # its roll comes from the tray, or is typed
        return joined.model_copy(update={"source": source})
    rng = engine_rng(source, command.seed, "megatraveller-rcs.10")
    dice = roll(rng, enc.options.initiative_dice, enc.options.die_sides)
    rolled = _roll_for(enc, command.character.id, dice, joining=command.character)
    return joined.model_copy(
        update={"roll": rolled, "source": source, "tallies": _among(enc, rolled, rng)}
    )


def _among(enc: Encounter, rolled: Roll, rng: random.Random | None) -> dict[str, int]:
    """Ruling 3 for a card laid mid-round: among the cards of equal initiative it takes a random
    place, once; theirs keep their order. Their tallies, renumbered, and its own."""
    equals = sorted(
        (cid for cid, card in enc.cards.items() if card.initiative == rolled.initiative),
        key=lambda cid: enc.cards[cid].tally,
    )
    if not equals:
        return {}
    if rng is None:
        raise RuleError(
            "megatraveller-rcs.3",
            "equal initiatives need the server's seed to be put in a random order",
            field="seed",
        )
    at = rng.randint(0, len(equals))
    group = [*equals[:at], rolled.character, *equals[at:]]
    return {cid: tally for tally, cid in enumerate(group, start=1)}


def _pool_set(enc: Encounter, command: SetPool) -> PoolSet:
    """A pool set for a side whose every character is hidden names that side only to those
    who may see one of them (the shared rulings): its name alone would tell of an ambush."""
    side = tuple(c.id for c in enc.characters if c.side == command.side)
    hidden = side if side and set(side) <= enc.hidden else ()
    return PoolSet(side=command.side, points=command.points, hidden_side=hidden)


def _spend(enc: Encounter, command: SpendTactics, actor: Viewer) -> TacticsSpent:
    """Ruling 2: points of a side's pool move that side's characters, before they are tapped."""
    _in_encounter(enc, command.character)
    character = enc.character(command.character)
    assert character is not None
    actor.require_plays(character.id, "spend tactics points on them")
    if character.side != command.side:
        raise RuleError(
            "megatraveller-rcs.2",
            f"{character.id!r} is not on the side {command.side!r}",
            field="character",
        )
    pool = enc.pools.get(command.side, 0)
    if command.points == 0 or abs(command.points) > pool:
        raise RuleError(
            "megatraveller-rcs.2",
            f"the {command.side!r} pool has {pool} points (asked for {abs(command.points)})",
            field="points",
        )
    if command.purpose == "initiative":
        _card_of(enc, character.id)
        if character.id not in enc.line:
            raise RuleError("megatraveller-rcs.7", f"{character.id!r} is tapped", field="character")
    return TacticsSpent(
        side=command.side,
        character=character.id,
        points=command.points,
        purpose=command.purpose,
        note=command.note,
    )


def _roll_initiative(enc: Encounter, command: RollInitiative, actor: Viewer) -> Event:
    """Rulings 1 and 8: initiative is rolled at the start and whenever every card is tapped."""
    actor.require_gm("roll initiative")
    if enc.phase not in (Phase.SETUP, Phase.ROUND_OVER):
        raise RuleError(
            "megatraveller-rcs.8", "initiative is rolled again only when every card is tapped"
        )
    if not enc.active():
        raise RuleError("megatraveller-rcs.1", "there is no one in the encounter")
    if command.source is not Source.ENGINE:
        return RollsAwaited(round=enc.round + 1, source=command.source)
    rng = engine_rng(command.source, command.seed, "megatraveller-rcs.1")
    assert command.seed is not None
    dice, sides = enc.options.initiative_dice, enc.options.die_sides
    rolls = tuple(
        _roll_for(enc, c.id, roll(own_rng(command.seed, c.id), dice, sides)) for c in enc.active()
    )
    return InitiativeRolled(
        round=enc.round + 1, source=command.source, rolls=rolls, tallies=_tallies(rolls, rng)
    )


def _roll_for(
    enc: Encounter, character: str, dice: tuple[int, ...], joining: Character | None = None
) -> Roll:
    """Ruling 1: initiative = 2D6 + Dex + Movement + Tactics skill."""
    c = joining or enc.character(character)
    assert c is not None
    return Roll(
        character=character, dice=dice, initiative=sum(dice) + c.dex + c.movement + c.tactics
    )


def _tallies(rolls: tuple[Roll, ...], rng: random.Random | None) -> dict[str, int]:
    """Ruling 3: equal initiatives are put in a random order once, as tally marks (1, 2, …)."""
    return break_ties({r.character: r.initiative for r in rolls}, rng, "megatraveller-rcs.3")


def _enter_roll(enc: Encounter, command: EnterRoll, actor: Viewer) -> RollEntered:
    """Ruling 1: one character's dice, which their player may enter as the referee may."""
    actor.require_plays(command.character, "enter their initiative roll")
    source = given_source(command.source, bool(command.dice), "megatraveller-rcs.1", "dice")
    if enc.phase not in (Phase.ROLLING, Phase.ROUND) or command.character not in enc.awaiting_rolls:
        raise RuleError(
            "megatraveller-rcs.1",
            f"no initiative roll is awaited for {command.character!r}",
            field="character",
        )
    dice, sides = enc.options.initiative_dice, enc.options.die_sides
    rng = random.Random(command.seed) if command.seed is not None else None
    if source is Source.ENGINE:
        rolled = roll(engine_rng(source, command.seed, "megatraveller-rcs.1"), dice, sides)
    elif len(command.dice) != dice or not all(1 <= d <= sides for d in command.dice):
        raise RuleError(
            "megatraveller-rcs.1", f"initiative takes {dice} dice of 1 to {sides}", field="dice"
        )
    else:
        rolled = command.dice
    entered = _roll_for(enc, command.character, rolled)
    if enc.phase is Phase.ROUND:  # a latecomer's (ruling 10): laid among the cards in play
        lapsed = enc.pending if enc.passed(entered) else None
        tallies = _among(enc, entered, rng)
        return RollEntered(roll=entered, source=source, tallies=tallies, lapsed=lapsed)
    left = [c for c in enc.awaiting_rolls if c != command.character]
    if left and (command.character in enc.hidden or not set(left) <= enc.hidden):
        # The round starts with the last roll players wait for: a hidden one holds none up.
        return RollEntered(roll=entered, source=source)
    rolls = (*(_as_roll(enc, cid) for cid in enc.cards), entered)
    if rng is None and len({r.initiative for r in rolls}) < len(rolls):
        raise RuleError(
            "megatraveller-rcs.3",
            "equal initiatives need the server's seed to be put in a random order",
            field="seed",
        )
    return RollEntered(roll=entered, source=source, tallies=_tallies(rolls, rng))


def _as_roll(enc: Encounter, character: str) -> Roll:
    card = enc.cards[character]
    return Roll(character=character, dice=card.dice, initiative=card.initiative)


def _holder(enc: Encounter, character: str, actor: Viewer, what: str) -> None:
    """Ruling 4: only the character the Taking Turn Token sits on acts."""
    _in_encounter(enc, character)
    actor.require_plays(character, what)
    if enc.holder != character:
        raise RuleError(
            "megatraveller-rcs.4",
            f"{character!r} does not hold the Taking Turn Token",
            field="character",
        )


def _declare(enc: Encounter, command: Declare, actor: Viewer) -> Declared:
    """Ruling 4: an action is declared with its target; a turn is two Short Actions or one
    Long Action."""
    _holder(enc, command.character, actor, "declare their action")
    if enc.pending is not None:
        raise RuleError("megatraveller-rcs.4", "an action is already declared and not resolved")
    used = enc.cards[command.character].used
    if used + command.action.shorts > 2:
        raise RuleError(
            "megatraveller-rcs.4",
            f"{command.character!r} has {2 - used} Short "
            "Action left this turn: a turn is two Short Actions or one Long Action",
            field="action",
        )
    return Declared(
        declaration=Declaration(
            character=command.character,
            action=command.action,
            what=command.what,
            target=command.target,
        )
    )


def _resolve(enc: Encounter, command: Resolve, actor: Viewer) -> Resolved:
    actor.require_gm("resolve an action")
    if enc.pending is None:
        raise RuleError("megatraveller-rcs.4", "no action is declared")
    pressed = command.moved_from
    if pressed is not None and pressed != enc.pending.character:
        raise RuleError(
            "megatraveller-rcs.4",
            f"that press resolved the declaration of {pressed!r}, but the one declared now is "
            f"{enc.pending.character!r}'s: nothing was resolved",
            field="from",
        )
    used = enc.cards[enc.pending.character].used + enc.pending.action.shorts
    return Resolved(declaration=enc.pending, outcome=command.outcome, turn_over=used >= 2)


def _seize(enc: Encounter, command: Seize, actor: Viewer) -> Seized:
    """Ruling 5: a higher, untapped character seizes when the token moves onto a lower card or
    the lower holder declares; at any other moment only where the referee rules an interrupt."""
    _in_encounter(enc, command.character)
    actor.require_plays(command.character, "seize the initiative")
    if command.ruled_interrupt:
        actor.require_gm("rule an interrupt")
    holder = enc.holder
    if holder is None:
        raise RuleError("megatraveller-rcs.5", "no one holds the Taking Turn Token")
    if command.character not in enc.line:
        raise RuleError(
            "megatraveller-rcs.7",
            f"{command.character!r} is tapped and cannot seize until the next round",
            field="character",
        )
    if not enc.may_seize(command.character):
        raise RuleError(
            "megatraveller-rcs.5",
            f"only a character with higher initiative than {holder!r} may seize from them",
            field="character",
        )
    if not enc.window and not command.ruled_interrupt:
        raise RuleError(
            "megatraveller-rcs.5",
            "initiative is seized only after a declaration "
            "and before it resolves, or when the token moves; never mid-action "
            "unless the referee rules an interrupt",
        )
    lapsed = None if command.ruled_interrupt else enc.pending
    return Seized(
        character=command.character,
        seized_from=holder,
        lapsed=lapsed,
        ruled_interrupt=command.ruled_interrupt,
        reason=command.reason,
    )


def _end_turn(enc: Encounter, command: EndTurn, actor: Viewer) -> TurnEnded:
    """Ruling 7: a character who has finished their turn is tapped."""
    _holder(enc, command.character, actor, "end their turn")
    if enc.pending is not None:
        raise RuleError(
            "megatraveller-rcs.4",
            "the declared action must be resolved (or seized) before the turn ends",
        )
    return TurnEnded(character=command.character)


def _take_out(enc: Encounter, command: TakeOut, actor: Viewer) -> TakenOut:
    actor.require_gm("take a character out")
    _in_encounter(enc, command.character)
    if enc.phase is Phase.ROLLING:
        raise RuleError("megatraveller-rcs.1", "finish the initiative rolls first")
    return TakenOut(character=command.character)

"""The awareness one-pager's rulings as checks: each command becomes one event or a refusal.

Rule ids are ``awareness.N`` after RULINGS.md's numbering. A refusal's message goes to whoever
sent the command, and says nothing of anyone's QR, Score, rolls or place in the order: a player
learns only what the rule is and what of their own character breaks it.
"""

from __future__ import annotations

import random
from typing import Literal

from rules import hiding
from rules.awareness.commands import (
    Act,
    Command,
    EnterInitiative,
    EnterPreemption,
    Join,
    Mode,
    OverrideInitiative,
    React,
    Resolve,
    RollInitiative,
    SetAwareness,
    Sheet,
    Wait,
)
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
from rules.awareness.situation import AwarenessOptions, Phase, Situation
from rules.errors import RuleError
from rules.randomness import (
    Seed,
    Source,
    break_ties,
    engine_rng,
    given_source,
    own_rng,
    roll,
)
from rules.roles import Viewer


def decide(sit: Situation, command: Command, actor: Viewer) -> list[Event]:
    match command:
        case Join():
            return [_join(sit, command, actor)]
        case SetAwareness():
            return [_set_awareness(sit, command, actor)]
        case RollInitiative():
            return [_roll_initiative(sit, command, actor)]
        case EnterInitiative():  # the event keeps the ids of the smart dice that rolled it
            return [_enter_initiative(sit, command, actor).model_copy(
                update={"dice_ids": command.dice_ids})]  # fmt: skip
        case Act():
            return [_act(sit, command, actor)]
        case Wait():
            return [_wait(sit, command, actor)]
        case React():
            return [_react(sit, command, actor)]
        case EnterPreemption():  # the event keeps the ids of the smart dice that rolled it
            return [_enter_preemption(sit, command, actor).model_copy(
                update={"dice_ids": command.dice_ids})]  # fmt: skip
        case Resolve():
            return [_resolve(sit, command, actor)]
        case OverrideInitiative():
            return [_override(sit, command, actor)]
        case hiding.Hide() | hiding.Reveal():
            present = frozenset(s.id for s in sit.sheets)
            return [hiding.decide(sit.hidden, present, command, actor)]


def _sheet(sit: Situation, character: str, field: str = "character") -> Sheet:
    sheet = sit.sheet(character)
    if sheet is None:
        raise RuleError("awareness.1", f"{character!r} is not in the situation", field=field)
    return sheet


def _between_rounds(sit: Situation, rule: str, what: str) -> None:
    if sit.phase not in (Phase.SETUP, Phase.ROUND_OVER):
        raise RuleError(rule, f"{what} between rounds")


def _join(sit: Situation, command: Join, actor: Viewer) -> Joined:
    actor.require_gm("bring a character into the situation")
    if sit.sheet(command.sheet.id) is not None:
        raise RuleError(
            "awareness.1", f"{command.sheet.id!r} is already in the situation", field="sheet.id"
        )
    _position(sit.options, command.sheet.position, "sheet.position")
    joined = Joined(sheet=command.sheet, hidden=command.hidden)
    if sit.phase in (Phase.SETUP, Phase.ROUND_OVER):
        return joined
    source = command.source or sit.source or Source.ENGINE
    if sit.phase is Phase.ROLLING or source is not Source.ENGINE:  # its d10 is awaited
        return joined.model_copy(update={"source": source})
    rng = engine_rng(source, command.seed, "awareness.13")
    result = _initiative(sit.options, command.sheet, roll(rng, 1, sit.options.die_sides)[0])
    return joined.model_copy(
        update={"result": result, "rolloff": _among(sit, result, rng), "source": source}
    )


def _among(sit: Situation, result: Initiative, rng: random.Random | None) -> dict[str, int]:
    """Ruling 5 for one who joins mid-round: among those tied with it on QR and Score it takes
    a random place in the hidden roll-off, once; theirs keep their order. The tied ones'
    places, renumbered, and its own."""
    tied = sorted(
        (c for c, i in sit.initiative.items() if (i.qr, i.score) == (result.qr, result.score)),
        key=lambda c: sit.rolloff.get(c, 0),
    )
    if not tied:
        return {}
    if rng is None:
        raise RuleError(
            "awareness.5", "a tie needs the server's seed for the roll-off", field="seed"
        )
    at = rng.randint(0, len(tied))
    group = [*tied[:at], result.character, *tied[at:]]
    return {c: place for place, c in enumerate(group, start=1)}


def _position(options: AwarenessOptions, position: int, field: str) -> None:
    """Ruling 2: position is a modifier from -4 to +4."""
    if abs(position) > options.position_limit:
        raise RuleError(
            "awareness.2",
            f"position runs from -{options.position_limit} to +{options.position_limit}",
            field=field,
        )


def _set_awareness(sit: Situation, command: SetAwareness, actor: Viewer) -> AwarenessSet:
    """Ruling 2: the GM sets each character's place on the ladder and position, between rounds."""
    actor.require_gm("set awareness and position")
    sheet = _sheet(sit, command.character)
    _between_rounds(sit, "awareness.2", "awareness and position change")
    position = sheet.position if command.position is None else command.position
    _position(sit.options, position, "position")
    return AwarenessSet(character=sheet.id, state=command.state or sheet.state, position=position)


def _initiative(options: AwarenessOptions, sheet: Sheet, die: int) -> Initiative:
    """Rulings 3 and 4: Score from the sheet, and the QR the d10 gives with it."""
    score = options.score(sheet)
    return Initiative(character=sheet.id, die=die, score=score, qr=options.qr(die, score))


def _rolloff(results: list[Initiative], rng: random.Random | None) -> dict[str, int]:
    """Ruling 5: ties on QR and Score go to a hidden roll-off, recorded once."""
    return break_ties({r.character: (r.qr, r.score) for r in results}, rng, "awareness.5")


def _roll_initiative(sit: Situation, command: RollInitiative, actor: Viewer) -> Event:
    actor.require_gm("roll initiative")
    _between_rounds(sit, "awareness.7", "initiative is rolled")
    if not sit.sheets:
        raise RuleError("awareness.1", "there is no one in the situation")
    if command.source is not Source.ENGINE:
        return RollsAwaited(round=sit.round + 1, source=command.source)
    rng = engine_rng(command.source, command.seed, "awareness.4")
    assert command.seed is not None
    sides = sit.options.die_sides
    results = [
        _initiative(sit.options, s, roll(own_rng(command.seed, s.id), 1, sides)[0])
        for s in sit.sheets
    ]
    return InitiativeRolled(
        round=sit.round + 1,
        source=command.source,
        results=tuple(results),
        rolloff=_rolloff(results, rng),
    )


def _enter_initiative(sit: Situation, command: EnterInitiative, actor: Viewer) -> Event:
    """One character's initiative: a d10 (which their player may enter, as they may their
    pre-emption die), or QR and Score the GM types in for another dice system."""
    typed = command.qr is not None or command.score is not None
    if typed:
        actor.require_gm("type in a QR and Score")
    else:
        actor.require_plays(command.character, "enter their initiative die")
    source = given_source(
        command.source, typed or command.die is not None, "awareness.4", "qr" if typed else "die"
    )
    if sit.phase not in (Phase.ROLLING, Phase.DECLARING) or (
        command.character not in sit.awaiting_rolls
    ):
        raise RuleError(
            "awareness.4", f"no initiative is awaited for {command.character!r}", field="character"
        )
    sheet = _sheet(sit, command.character)
    result = _entered(sit.options, sheet, command, source)
    rng = random.Random(command.seed) if command.seed is not None else None
    if sit.phase is Phase.DECLARING:  # a latecomer's (ruling 13): placed among those in play
        return InitiativeEntered(result=result, source=source, rolloff=_among(sit, result, rng))
    if not _starts_round(sit, command.character):
        return InitiativeEntered(result=result, source=source)
    rolloff = _rolloff([*sit.initiative.values(), result], rng)
    return InitiativeEntered(result=result, source=source, rolloff=rolloff)


def _starts_round(sit: Situation, character: str) -> bool:
    """Whether this d10 is the last the round waits for: the last of those players see (the
    shared rulings, "No tells": a hidden character's die owed holds none of them up; it takes
    its place when it comes), or the very last."""
    left = [c for c in sit.awaiting_rolls if c != character]
    return not left or (character not in sit.hidden and set(left) <= sit.hidden)


def _entered(
    options: AwarenessOptions, sheet: Sheet, command: EnterInitiative, source: Source
) -> Initiative:
    if command.qr is not None or command.score is not None:
        if command.qr is None or command.score is None or command.die is not None:
            raise RuleError("awareness.4", "give a die, or both QR and Score", field="qr")
        _qr_in_range(options, command.qr)
        return Initiative(character=sheet.id, die=None, score=command.score, qr=command.qr)
    die = _d10(options, source, command.seed, command.die, "awareness.4", "initiative")
    return _initiative(options, sheet, die)


def _qr_in_range(options: AwarenessOptions, qr: int) -> None:
    if not 1 <= qr <= options.die_sides:
        raise RuleError("awareness.4", f"a QR runs from 1 to {options.die_sides}", field="qr")


def _declaring(sit: Situation, character: str, actor: Viewer, what: str) -> None:
    """Rulings 6, 7 and 9: whose declaration it is, and who gets none."""
    _sheet(sit, character)
    actor.require_plays(character, what)
    if sit.phase is not Phase.DECLARING:
        raise RuleError("awareness.7", "declarations come after initiative is rolled")
    if sit.exchange is not None:
        raise RuleError("awareness.7", "an action is being resolved: declarations wait for it")
    if character not in sit.initiative:
        raise RuleError(
            "awareness.4", f"{character!r} has no initiative this round yet", field="character"
        )
    if sit.frozen(character):
        raise RuleError(
            "awareness.6",
            f"{character!r} froze (QR {sit.options.freeze_at}): no declaration this round",
        )
    if sit.unaware(character):
        raise RuleError("awareness.9", f"{character!r} was surprised: no declaration in round one")
    if character in sit.acted:
        raise RuleError("awareness.7", f"{character!r} has acted this round")
    if character not in sit.hidden:  # someone hidden before them holds no one up
        whose = sit.declaring_among(sit.hidden)
    elif sit.deferred is not None:
        raise RuleError("awareness.7", "an action is being resolved: declarations wait for it")
    else:  # a hidden character declares in its place, or once others passed it
        whose = sit.declaring
    if whose != character:
        raise RuleError("awareness.7", f"{character!r} does not declare now")


def _all_out(sit: Situation, character: str, mode: Mode) -> None:
    """Ruling 6: a panicked character may only act all-out offensive or all-out defensive."""
    if sit.options.panics(sit.initiative[character].qr) and mode is Mode.NORMAL:
        raise RuleError(
            "awareness.6",
            f"{character!r} panicked: only an all-out offensive or all-out defensive action",
            field="mode",
        )


def _act(sit: Situation, command: Act, actor: Viewer) -> Declared:
    _declaring(sit, command.character, actor, "declare for them")
    _all_out(sit, command.character, command.mode)
    lapsed = sit.lapsing(command.character) if command.character in sit.hidden else ()
    return Declared(
        character=command.character,
        kind="act",
        what=command.what,
        mode=command.mode,
        lapsed=lapsed,
    )


def _wait(sit: Situation, command: Wait, actor: Viewer) -> Declared:
    _declaring(sit, command.character, actor, "declare for them")
    if sit.options.panics(sit.initiative[command.character].qr):
        raise RuleError(
            "awareness.6",
            f"{command.character!r} panicked: no holding back, no waiting",
            field="type",
        )
    return Declared(character=command.character, kind="wait", what=command.trigger)


def _react(sit: Situation, command: React, actor: Viewer) -> Reacted | PreemptionAwaited:
    """Rulings 10 and 11: just after, or a pre-emption rolled to go just before. A pre-emption
    read from a tray or typed may come without its die: it then waits for ``enter_preemption``."""
    _sheet(sit, command.character)
    actor.require_plays(command.character, "react for them")
    exchange = sit.exchange
    if exchange is None or exchange.resolved:
        raise RuleError("awareness.10", "there is no action to react to now")
    if not sit.may_react(command.character):
        raise RuleError(
            "awareness.10",
            f"{command.character!r} is not waiting, or has acted this round or in this exchange",
            field="character",
        )
    if command.to not in exchange.involved():
        raise RuleError(
            "awareness.11", f"{command.to!r} has no action in this exchange", field="to"
        )
    if command.to not in exchange.placed():
        raise RuleError(
            "awareness.11",
            f"{command.to!r} has no place in the exchange until their pre-emption die is in",
            field="to",
        )
    _all_out(sit, command.character, command.mode)
    if command.timing == "after" and command.die is not None:
        raise RuleError("awareness.10", "going just after needs no roll: send no die", field="die")
    source = given_source(command.source, command.die is not None, "awareness.10", "die")
    declared = PreemptionAwaited(
        character=command.character,
        to=command.to,
        what=command.what,
        mode=command.mode,
        source=source,
    )
    if command.timing == "after":
        return _placed(declared, "after")
    if source is not Source.ENGINE and command.die is None:
        return declared
    return _preemption(
        sit,
        declared,
        _d10(sit.options, source, command.seed, command.die, "awareness.10", "pre-emption"),
    )


def _enter_preemption(sit: Situation, command: EnterPreemption, actor: Viewer) -> Reacted:
    """Ruling 10: the die of a pending pre-emption places it, by the QRs as they stand now."""
    _sheet(sit, command.character)
    actor.require_plays(command.character, "enter their pre-emption die")
    pending = sit.exchange.pending if sit.exchange is not None else ()
    declared = next((p for p in pending if p.character == command.character), None)
    if declared is None:
        raise RuleError(
            "awareness.10",
            f"no pre-emption die is awaited for {command.character!r}",
            field="character",
        )
    source = given_source(command.source, command.die is not None, "awareness.10", "die")
    declared = declared.model_copy(update={"source": source})
    return _preemption(
        sit,
        declared,
        _d10(sit.options, source, command.seed, command.die, "awareness.10", "pre-emption"),
    )


def _preemption(sit: Situation, declared: PreemptionAwaited, die: int) -> Reacted:
    target = preemption_target(sit, declared.character, declared.to)
    return _placed(
        declared, "before" if preempts(sit.options, die, target) else "after", die, target
    )


def _placed(
    declared: PreemptionAwaited,
    placed: Literal["before", "after"],
    die: int | None = None,
    target: int | None = None,
) -> Reacted:
    """The reaction with its place: a pre-emption (with its die) or going just after."""
    preempt = die is not None
    return Reacted(
        character=declared.character,
        to=declared.to,
        what=declared.what,
        mode=declared.mode,
        preempt=preempt,
        die=die,
        target=target,
        source=declared.source if preempt else None,
        placed=placed,
    )


def _d10(
    options: AwarenessOptions,
    source: Source,
    seed: Seed | None,
    die: int | None,
    rule: str,
    what: str,
) -> int:
    """A d10 the engine rolls, or the one a tray read or the GM typed, on its faces."""
    sides = options.die_sides
    if source is Source.ENGINE:
        return roll(engine_rng(source, seed, rule), 1, sides)[0]
    if die is None or not 1 <= die <= sides:
        raise RuleError(rule, f"the {what} die is a d{sides}: 1 to {sides}", field="die")
    return die


def preemption_target(sit: Situation, preemptor: str, actor: str) -> int:
    """Ruling 10: Coordination + (actor's QR - pre-emptor's QR); equal QRs: ±1 for the higher
    Initiative Score."""
    sheet = sit.sheet(preemptor)
    assert sheet is not None
    mine, theirs = sit.initiative[preemptor], sit.initiative[actor]
    target = sheet.coordination + theirs.qr - mine.qr
    if mine.qr == theirs.qr and mine.score != theirs.score:
        target += sit.options.tie_bonus if mine.score > theirs.score else -sit.options.tie_bonus
    return target


def preempts(options: AwarenessOptions, die: int, target: int) -> bool:
    """Ruling 10: success at or under the target; a natural 1 always succeeds, a natural 10
    (the die's highest face) always fails."""
    if die == 1:
        return True
    if die == options.die_sides:
        return False
    return die <= target


def _resolve(sit: Situation, command: Resolve, actor: Viewer) -> Resolved:
    """Rulings 7 and 11: the GM records each outcome in the exchange's order, and whether a
    pre-empted action could still happen."""
    actor.require_gm("record an outcome")
    if sit.resolving is not None and sit.resolving.pending:
        raise RuleError("awareness.10", "the exchange's order waits for a pre-emption die")
    who = sit.next_to_resolve()
    if who is None:
        raise RuleError("awareness.7", "no action is waiting to be resolved")
    pressed = command.moved_from
    if pressed is not None and pressed != who:
        raise RuleError(
            "awareness.7",
            f"that press resolved the action of {pressed!r}, but that of {who!r} is the next "
            "to resolve: nothing was resolved",
            field="from",
        )
    lapsed = (
        tuple(d.character for d in sit.declarations[sit.deferred_at :])
        if sit.deferred is not None
        else ()
    )
    return Resolved(
        character=who, outcome=command.outcome, performed=command.performed, lapsed=lapsed
    )


def _override(sit: Situation, command: OverrideInitiative, actor: Viewer) -> InitiativeOverridden:
    actor.require_gm("override an initiative")
    _sheet(sit, command.character)
    if command.character not in sit.initiative or sit.phase is not Phase.DECLARING:
        raise RuleError(
            "awareness.4", f"{command.character!r} has no initiative this round", field="character"
        )
    _qr_in_range(sit.options, command.qr)
    old = sit.initiative[command.character]
    return InitiativeOverridden(
        result=Initiative(
            character=command.character, die=old.die, score=command.score, qr=command.qr
        )
    )

"""What each role may see of a tense situation (ruling 12).

Nobody but the GM sees another character's QR, Score or rolls; a player sees their own
characters'. A character's sheet, ladder state and position would give their Score away, so
those are the GM's and the owner's too. Players and overlays see who is declaring now and what
has been declared, but never the order still to come (unless the table sets ``reveal_order``):
not the declarations to come, and not the unresolved order of an exchange. A hidden character
(the shared rulings) is not there at all for them: not its sheet, its declaration, its waiting
or its reaction, until it acts or its reaction resolves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from rules import alerts, hiding
from rules.alerts import Alert
from rules.awareness.commands import Mode, Sheet
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
)
from rules.awareness.situation import AwarenessOptions, Exchange, Phase, Situation, settled
from rules.roles import Viewer

E = TypeVar("E", bound=hiding.Seen)


class CharacterView(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    side: str
    owner: str | None
    sheet: Sheet | None  # the GM's and the owner's only
    initiative: Initiative | None  # the GM's and the owner's only
    waits: bool  # a waiting character, as anyone may see
    waiting: str | None  # what it waits for: the GM's and the owner's (or reveal_triggers)
    acted: bool


class ReactionView(BaseModel):
    model_config = ConfigDict(frozen=True)

    character: str
    to: str
    what: str
    mode: Mode
    preempt: bool
    placed: Literal["before", "after"]
    die: int | None  # the GM's and the reactor's only
    target: int | None  # the GM's only: it would give away the QRs


class ExchangeView(BaseModel):
    model_config = ConfigDict(frozen=True)

    act: Declared
    reactions: tuple[ReactionView, ...]
    pending: tuple[PreemptionAwaited, ...]  # pre-emptions declared, their die awaited (public)
    resolved: tuple[Resolved, ...]
    sequence: tuple[str, ...] | None  # the order it resolves in: the GM's, or reveal_order
    next: str | None  # who the GM records next: the GM's, or reveal_order
    next_preempted: bool  # the engine asks the GM whether that action could still happen


class Awaiting(BaseModel):
    """What the table waits for. ``gm`` is what players and overlays are shown while the table
    waits on the GM for a new round to start; a step of someone hidden from them never makes
    the table wait for them (the shared rulings, "No tells")."""

    model_config = ConfigDict(frozen=True)

    what: Literal[
        "roll_initiative", "initiative", "declare", "preemption", "react_or_resolve", "gm"
    ]
    who: tuple[str, ...] = ()


GM_BUSY = Awaiting(what="gm")


class SituationView(BaseModel):
    model_config = ConfigDict(frozen=True)

    system: Literal["awareness"] = "awareness"
    options: AwarenessOptions
    phase: Phase
    round: int
    characters: tuple[CharacterView, ...]
    declaring: str | None
    declarations: tuple[Declared, ...]
    exchange: ExchangeView | None
    concluded: ExchangeView | None  # the last exchange, resolved: what came of each action
    may_react: tuple[str, ...]  # of the viewer's characters
    upcoming: tuple[str, ...] | None  # the declarations to come: the GM's, or reveal_order
    awaiting: tuple[Awaiting, ...]
    hidden: tuple[str, ...]  # the hidden characters this viewer sees: all for the GM
    alerts: tuple[Alert, ...] = ()  # the player's: declare now or next, react, a d10 owed


def view(sit: Situation, viewer: Viewer) -> SituationView:
    """While a new round's dice come in, the last round's declarations and who acted in it are
    over: the view shows the round being rolled, not the one before. A viewer from whom someone
    is hidden is shown the situation as it would stand without them (``without_the_unseen``)."""
    sees_order = viewer.is_gm or sit.options.reveal_order
    hidden = sit.hidden
    seen = hiding.seen_by(viewer, hidden)
    sit = without_the_unseen(sit, seen)
    shown = SituationView(
        options=sit.options,
        phase=sit.phase,
        round=sit.round,
        characters=tuple(_character(sit, s, viewer) for s in sit.sheets),
        declaring=sit.declaring,
        declarations=tuple(
            _declared(sit, d, viewer) for d in sit.declarations if sit.phase is not Phase.ROLLING
        ),
        exchange=_exchange(sit, sit.resolving, viewer, sees_order),
        concluded=_exchange(sit, sit.concluded, viewer, sees_order),
        may_react=tuple(s.id for s in sit.sheets if viewer.plays(s.id) and sit.may_react(s.id)),
        upcoming=sit.upcoming() if sees_order else None,
        awaiting=_awaiting(sit, viewer),
        hidden=hiding.shown_hidden(viewer, hidden),
    )
    return alerts.alerted(shown, viewer, spotted)


def without_the_unseen(sit: Situation, seen: Callable[[str | None], bool]) -> Situation:
    """The situation as it would stand had no character hidden from the viewer joined (the
    shared rulings, "No tells"), as the Four Color Hack's views are: their dice, declarations,
    waits and reactions gone, and play moved on as it then would have. So a round whose only
    die owed is a hidden one has begun, the declaration is the first of those seen yet to
    declare, and an exchange whose outcomes left are hidden ones is over."""
    if all(seen(s.id) for s in sit.sheets):
        return sit

    def kept(values: dict[str, Any]) -> dict[str, Any]:
        return {c: v for c, v in values.items() if seen(c)}

    plain = sit.model_copy(
        update={
            "sheets": tuple(s for s in sit.sheets if seen(s.id)),
            "initiative": kept(sit.initiative),
            "rolloff": kept(sit.rolloff),
            "awaiting_rolls": tuple(c for c in sit.awaiting_rolls if seen(c)),
            "order": tuple(c for c in sit.order if seen(c)),
            "declared": frozenset(c for c in sit.declared if seen(c)),
            "acted": frozenset(c for c in sit.acted if seen(c)),
            "waiting": kept(sit.waiting),
            "carried": kept(sit.carried),
            "declarations": tuple(d for d in sit.declarations if seen(d.character)),
            "exchange": _seen_exchange(sit.exchange, seen),
            "concluded": _seen_exchange(sit.concluded, seen),
            "deferred": None,
            "owed": frozenset(),
            "hidden": frozenset(c for c in sit.hidden if seen(c)),
        }
    )
    exchange = plain.exchange
    if exchange is not None and set(plain.sequence()) <= {r.character for r in exchange.resolved}:
        involved = exchange.involved()
        plain = plain.model_copy(
            update={
                "exchange": None,
                "concluded": exchange,
                "acted": plain.acted | involved,
                "waiting": {c: t for c, t in plain.waiting.items() if c not in involved},
            }
        )
    return settled(plain)


def _seen_exchange(
    exchange: Exchange | None, seen: Callable[[str | None], bool]
) -> Exchange | None:
    """An exchange without the reactions of those the viewer does not see."""
    if exchange is None or not seen(exchange.actor):
        return None
    return exchange.model_copy(
        update={
            "reactions": tuple(r for r in exchange.reactions if seen(r.character) and seen(r.to)),
            "pending": tuple(p for p in exchange.pending if seen(p.character) and seen(p.to)),
            "resolved": tuple(r for r in exchange.resolved if seen(r.character)),
        }
    )


def spotted(shown: SituationView) -> list[tuple[alerts.Kind, str | None]]:
    """The character declaring is at its turn. The next declaration is on deck only where
    the table shows the order to come (``reveal_order``): otherwise a player cannot know it,
    and is not told. A waiting character that may react has an act it may pre-empt; a d10 the
    table waits for (initiative, a pre-emption) is a die owed."""
    found: list[tuple[alerts.Kind, str | None]] = [("turn", shown.declaring)]
    coming = [c for c in shown.upcoming or () if c != shown.declaring]
    found += [("on_deck", c) for c in coming[:1]]
    found += [("react", c) for c in shown.may_react]
    dice = ("initiative", "preemption")
    found += [("die", c) for wait in shown.awaiting if wait.what in dice for c in wait.who]
    return found


def _as_played(event: E) -> E:
    """An event kept in the situation as a view shows it: what happened, without the stamp
    naming who is hidden, nor the declarations it made lapse, which are the event's news."""
    event = hiding.unstamped(event)
    return event.model_copy(update={"lapsed": ()}) if getattr(event, "lapsed", ()) else event


def _declared(sit: Situation, declared: Declared, viewer: Viewer) -> Declared:
    """A declaration as ``viewer`` may know it: an act as said aloud, a wait without its
    trigger for those who may not know it (ruling 12)."""
    declared = _as_played(declared)
    if declared.kind == "act" or sit.options.sees_trigger(viewer, declared.character):
        return declared
    return declared.model_copy(update={"what": ""})


def _character(sit: Situation, sheet: Sheet, viewer: Viewer) -> CharacterView:
    own = viewer.plays(sheet.id)
    return CharacterView(
        id=sheet.id,
        name=sheet.name,
        side=sheet.side,
        owner=sheet.owner,
        sheet=sheet if own else None,
        initiative=sit.initiative.get(sheet.id) if own else None,
        waits=sheet.id in sit.waiting,
        waiting=sit.waiting.get(sheet.id) if sit.options.sees_trigger(viewer, sheet.id) else None,
        acted=sheet.id in sit.acted and sit.phase is not Phase.ROLLING,
    )


def _exchange(
    sit: Situation, exchange: Exchange | None, viewer: Viewer, sees_order: bool
) -> ExchangeView | None:
    """The open exchange, or the one just concluded (its sequence the order it resolved in).
    The GM's open one is a deferred exchange while there is one: its outcome is recorded next,
    and what was declared since lapses with it."""
    if exchange is None:
        return None
    reactions = tuple(
        ReactionView(
            character=r.character,
            to=r.to,
            what=r.what,
            mode=r.mode,
            preempt=r.preempt,
            placed=r.placed,
            die=r.die if viewer.plays(r.character) else None,
            target=r.target if viewer.is_gm else None,
        )
        for r in exchange.reactions
    )
    is_open = exchange is sit.resolving
    following = sit.next_to_resolve() if sees_order and is_open else None
    sequence = sit.sequence(exchange) if is_open else tuple(r.character for r in exchange.resolved)
    return ExchangeView(
        act=_as_played(exchange.act),
        reactions=reactions,
        pending=tuple(hiding.unstamped(p) for p in exchange.pending),
        resolved=tuple(_as_played(r) for r in exchange.resolved),
        sequence=sequence if sees_order else None,
        next=following,
        next_preempted=following is not None and sit.preempted(following),
    )


def _awaiting(sit: Situation, viewer: Viewer) -> tuple[Awaiting, ...]:
    """What the table waits for. Players and overlays are told it waits on the GM only where
    every table does: between rounds."""
    if sit.phase in (Phase.SETUP, Phase.ROUND_OVER):
        return (Awaiting(what="roll_initiative") if viewer.is_gm else GM_BUSY,)
    if sit.phase is Phase.ROLLING:
        who = tuple(c for c in sit.awaiting_rolls if viewer.plays(c))
        return (Awaiting(what="initiative", who=who),)
    # A latecomer's d10 (ruling 13) comes first: its place in the order waits on it.
    late = tuple(c for c in sit.awaiting_rolls if viewer.plays(c))
    if late:
        return (Awaiting(what="initiative", who=late), *_declaring_awaits(sit, viewer))
    return _declaring_awaits(sit, viewer)


def _declaring_awaits(sit: Situation, viewer: Viewer) -> tuple[Awaiting, ...]:
    exchange = sit.resolving
    if exchange is not None:
        reactors = tuple(s.id for s in sit.sheets if viewer.plays(s.id) and sit.may_react(s.id))
        dice = tuple(p.character for p in exchange.pending)
        reacting = Awaiting(what="react_or_resolve", who=reactors)
        if dice:
            return (Awaiting(what="preemption", who=dice), reacting)
        return (reacting,)
    declaring = sit.declaring
    return (Awaiting(what="declare", who=(declaring,) if declaring else ()),)


def censor(event: Event, viewer: Viewer, options: AwarenessOptions) -> dict[str, Any] | None:
    """The event as ``viewer`` may see it: others' initiative, rolls and sheets cut out, what
    others wait for (ruling 12), and nothing of a character hidden from them."""

    def censored(event: Event, data: dict[str, Any], hid: frozenset[str]) -> dict[str, Any] | None:
        if data.get("lapsed"):  # a declaration lapsed of someone hidden since is none of theirs
            data["lapsed"] = [c for c in data["lapsed"] if c not in hid]
            if not data["lapsed"]:
                del data["lapsed"]
        return _censored(event, data, viewer, options)

    return hiding.censored(event, viewer, about, censored)


def about(event: Event) -> tuple[str | None, ...]:
    """The characters an event is wholly about: hidden from a viewer, it is none of theirs."""
    match event:
        case Joined():
            return (event.sheet.id,)
        case InitiativeEntered() | InitiativeOverridden():
            return (event.result.character,)
        case AwarenessSet() | Declared() | Resolved():
            return (event.character,)
        case PreemptionAwaited() | Reacted():
            return (event.character, event.to)
        case hiding.Hidden() | hiding.Revealed():
            return (event.participant,)
    return ()


def _censored(
    event: Event, data: dict[str, Any], viewer: Viewer, options: AwarenessOptions
) -> dict[str, Any] | None:
    match event:
        case Joined():
            data["rolloff"] = None  # the roll-off names who else tied: the GM's alone
            if not viewer.plays(event.sheet.id):
                sheet = event.sheet
                data["sheet"] = {
                    "id": sheet.id,
                    "name": sheet.name,
                    "side": sheet.side,
                    "owner": sheet.owner,
                }
                data["result"] = None
        case AwarenessSet() if not viewer.plays(event.character):
            return None
        case InitiativeRolled():
            data["results"] = [
                r.model_dump(mode="json") for r in event.results if viewer.plays(r.character)
            ]
            data["rolloff"] = {}
        case InitiativeEntered() | InitiativeOverridden():
            if not viewer.plays(event.result.character):
                return None
            data.pop("rolloff", None)
        case Declared(kind="wait") if not options.sees_trigger(viewer, event.character):
            data["what"] = ""
        case Reacted():
            data["target"] = None
            if not viewer.plays(event.character):
                data["die"] = None
    return data

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

from typing import Any, Literal

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
from rules.awareness.situation import AwarenessOptions, Exchange, Phase, Situation
from rules.roles import Viewer


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
    """What the table waits for. ``gm`` is what players and overlays are shown whenever the
    table waits on the GM for a step they are not told of: a new round to start, and the
    declaration of someone hidden from them, so that one reads as the other (the shared
    rulings, "No tells")."""

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
    over: the view shows the round being rolled, not the one before."""
    sees_order = viewer.is_gm or sit.options.reveal_order
    seen = hiding.seen_by(viewer, sit.hidden)
    shown = SituationView(
        options=sit.options,
        phase=sit.phase,
        round=sit.round,
        characters=tuple(_character(sit, s, viewer) for s in sit.sheets if seen(s.id)),
        declaring=sit.declaring if seen(sit.declaring) else None,
        declarations=tuple(
            _declared(sit, d, viewer)
            for d in sit.declarations
            if seen(d.character) and sit.phase is not Phase.ROLLING
        ),
        exchange=_exchange(sit, sit.exchange, viewer, sees_order),
        concluded=_exchange(sit, sit.concluded, viewer, sees_order),
        may_react=tuple(s.id for s in sit.sheets if viewer.plays(s.id) and sit.may_react(s.id)),
        upcoming=tuple(c for c in sit.upcoming() if seen(c)) if sees_order else None,
        awaiting=_awaiting(sit, viewer),
        hidden=hiding.shown_hidden(viewer, sit.hidden),
    )
    return shown.model_copy(update={"alerts": alerts.told(viewer, spotted(shown))})


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


def _declared(sit: Situation, declared: Declared, viewer: Viewer) -> Declared:
    """A declaration as ``viewer`` may know it: an act as said aloud, a wait without its
    trigger for those who may not know it (ruling 12)."""
    declared = hiding.unstamped(declared)
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
    """The open exchange, or the one just concluded (its sequence the order it resolved in)."""
    seen = hiding.seen_by(viewer, sit.hidden)
    if exchange is None or not seen(exchange.act.character):
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
        if seen(r.character) and seen(r.to)
    )
    is_open = exchange is sit.exchange
    following = sit.next_to_resolve() if sees_order and is_open else None
    shown = following if seen(following) else None
    sequence = sit.sequence() if is_open else tuple(r.character for r in exchange.resolved)
    return ExchangeView(
        act=hiding.unstamped(exchange.act),
        reactions=reactions,
        pending=tuple(
            hiding.unstamped(p) for p in exchange.pending if seen(p.character) and seen(p.to)
        ),
        resolved=tuple(hiding.unstamped(r) for r in exchange.resolved if seen(r.character)),
        sequence=tuple(c for c in sequence if seen(c)) if sees_order else None,
        next=shown,
        next_preempted=shown is not None and sit.preempted(shown),
    )


def _awaiting(sit: Situation, viewer: Viewer) -> tuple[Awaiting, ...]:
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
    if sit.exchange is not None:
        reactors = tuple(s.id for s in sit.sheets if viewer.plays(s.id) and sit.may_react(s.id))
        seen = hiding.seen_by(viewer, sit.hidden)
        dice = tuple(p.character for p in sit.exchange.pending if seen(p.character))
        reacting = Awaiting(what="react_or_resolve", who=reactors)
        if dice:
            return (Awaiting(what="preemption", who=dice), reacting)
        following = sit.next_to_resolve()
        if following is not None and not seen(following):
            # The GM resolves someone hidden from this viewer (a hidden pre-emptor, going just
            # after an act that is done): the table waits on the GM, as it looks at any such
            # moment, not on an act already resolved.
            return (GM_BUSY, reacting) if reactors else (GM_BUSY,)
        return (reacting,)
    declaring = sit.declaring
    if not hiding.seen_by(viewer, sit.hidden)(declaring):
        return (GM_BUSY,)
    return (Awaiting(what="declare", who=(declaring,) if declaring else ()),)


def censor(event: Event, viewer: Viewer, options: AwarenessOptions) -> dict[str, Any] | None:
    """The event as ``viewer`` may see it: others' initiative, rolls and sheets cut out, what
    others wait for (ruling 12), and nothing of a character hidden from them."""

    def censored(event: Event, data: dict[str, Any], hid: frozenset[str]) -> dict[str, Any] | None:
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

"""What each role may see of a tense situation (ruling 12).

Nobody but the GM sees another character's QR, Score or rolls; a player sees their own
characters'. A character's sheet, ladder state and position would give their Score away, so
those are the GM's and the owner's too. Players and overlays see who is declaring now and what
has been declared, but never the order still to come (unless the table sets ``reveal_order``):
not the declarations to come, and not the unresolved order of an exchange.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

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
from rules.awareness.situation import AwarenessOptions, Phase, Situation
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
    model_config = ConfigDict(frozen=True)

    what: Literal["roll_initiative", "initiative", "declare", "preemption", "react_or_resolve"]
    who: tuple[str, ...] = ()


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
    may_react: tuple[str, ...]  # of the viewer's characters
    upcoming: tuple[str, ...] | None  # the declarations to come: the GM's, or reveal_order
    awaiting: tuple[Awaiting, ...]


def view(sit: Situation, viewer: Viewer) -> SituationView:
    sees_order = viewer.is_gm or sit.options.reveal_order
    return SituationView(
        options=sit.options,
        phase=sit.phase,
        round=sit.round,
        characters=tuple(_character(sit, s, viewer) for s in sit.sheets),
        declaring=sit.declaring,
        declarations=tuple(_declared(sit, d, viewer) for d in sit.declarations),
        exchange=_exchange(sit, viewer, sees_order),
        may_react=tuple(s.id for s in sit.sheets if viewer.plays(s.id) and sit.may_react(s.id)),
        upcoming=sit.upcoming() if sees_order else None,
        awaiting=_awaiting(sit, viewer),
    )


def _declared(sit: Situation, declared: Declared, viewer: Viewer) -> Declared:
    """A declaration as ``viewer`` may know it: an act as said aloud, a wait without its
    trigger for those who may not know it (ruling 12)."""
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
        acted=sheet.id in sit.acted,
    )


def _exchange(sit: Situation, viewer: Viewer, sees_order: bool) -> ExchangeView | None:
    exchange = sit.exchange
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
    following = sit.next_to_resolve()
    return ExchangeView(
        act=exchange.act,
        reactions=reactions,
        pending=exchange.pending,
        resolved=exchange.resolved,
        sequence=sit.sequence() if sees_order else None,
        next=following if sees_order else None,
        next_preempted=following is not None and sees_order and sit.preempted(following),
    )


def _awaiting(sit: Situation, viewer: Viewer) -> tuple[Awaiting, ...]:
    if sit.phase in (Phase.SETUP, Phase.ROUND_OVER):
        return (Awaiting(what="roll_initiative"),)
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
        dice = tuple(p.character for p in sit.exchange.pending)
        reacting = Awaiting(what="react_or_resolve", who=reactors)
        return (Awaiting(what="preemption", who=dice), reacting) if dice else (reacting,)
    declaring = sit.declaring
    return (Awaiting(what="declare", who=(declaring,) if declaring else ()),)


def censor(event: Event, viewer: Viewer, options: AwarenessOptions) -> dict[str, Any] | None:
    """The event as ``viewer`` may see it: others' initiative, rolls and sheets cut out, and
    what others wait for (ruling 12)."""
    data = event.model_dump(mode="json")
    if viewer.is_gm:
        return data
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

"""Hidden participants, as the shared rulings have them in every system.

The GM may keep anyone hidden: an ambusher, a sniper lying in wait, a villain not yet on the
scene. Players and overlays see nothing of them (not a name, a card, a roll, a place in the
order, a declaration) while the participant still takes its place in play. Acting reveals it
(its Panel, its turn, a seize, an act or a reaction resolving), and so does the GM. Hiding and
revealing are events, so undo and replay treat them as any other step.

What a role may see of an event must not depend on when it is read: a subscriber catching up
from an old sequence gets the same frame a live one got. So every event is stamped, as it is
decided, with who was hidden once it had happened (``unseen``), and censoring reads the stamp
rather than today's state. An event decided while nobody is hidden carries no stamp at all, so
the logs of tables that never hid anyone are unchanged.

A hidden participant's own player still sees it: the secret is kept from everyone else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field

from rules.errors import RoleError, RuleError
from rules.participants import Participant, ParticipantId
from rules.roles import Viewer

RULE = "hidden"
"""The rule id a refusal about hiding names (the shared rulings have no numbers)."""

NAMING_FIELDS = ("participant", "character", "to", "acting", "hero", "partner")
"""The command fields that name a participant by id, in every system."""


def _empty(value: object) -> bool:
    return not value


HiddenAtJoin = Annotated[
    bool,
    Field(
        description="The participant joins hidden from players and overlays",
        exclude_if=_empty,
    ),
]
"""A join's flag: whoever joins may be hidden from the start (an ambusher in place)."""

Lapsed = Annotated[
    tuple[str, ...],
    Field(
        description="Those whose declarations, made meanwhile after this step's place, lapse",
        exclude_if=_empty,
    ),
]
"""What a hidden participant's revealing step carries (the shared rulings, "No tells"): it
takes its place where the rules put it, and the declarations players made after that place
while it was not seen lapse, to be made again now that it is."""


class Seen(BaseModel):
    """What every event of every system carries: who was hidden once it had happened."""

    model_config = ConfigDict(frozen=True)

    unseen: tuple[str, ...] = Field(
        default=(),
        description="Participants hidden from players once this event happened (the GM's only)",
        exclude_if=_empty,
    )


class Hide(BaseModel):
    """The GM hides a participant from players and overlays."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["hide"] = "hide"
    participant: ParticipantId


class Reveal(BaseModel):
    """The GM reveals a hidden participant."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["reveal"] = "reveal"
    participant: ParticipantId


class Hidden(Seen):
    type: Literal["hidden"] = "hidden"
    participant: str


class Revealed(Seen):
    """A participant is seen from now on: because the GM said so, or because it acted."""

    type: Literal["revealed"] = "revealed"
    participant: str
    acting: bool = False


S = TypeVar("S")
E = TypeVar("E", bound=Seen)


def decide(
    hidden: frozenset[str], present: frozenset[str], command: Hide | Reveal, actor: Viewer
) -> Hidden | Revealed:
    """The GM hides someone seen, or reveals someone hidden."""
    actor.require_gm(f"{command.type} a participant")
    who = command.participant
    if who not in present:
        raise RuleError(RULE, f"{who!r} is not at the table", field="participant")
    if isinstance(command, Hide):
        if who in hidden:
            raise RuleError(RULE, f"{who!r} is already hidden", field="participant")
        return Hidden(participant=who)
    if who not in hidden:
        raise RuleError(RULE, f"{who!r} is not hidden", field="participant")
    return Revealed(participant=who)


def evolve(hidden: frozenset[str], event: Hidden | Revealed) -> frozenset[str]:
    """Who is hidden after a hide or a reveal."""
    if isinstance(event, Hidden):
        return hidden | {event.participant}
    return hidden - {event.participant}


def seen(
    state: S,
    events: Iterable[E],
    evolve: Callable[[S, E], S],
    acting: Callable[[E, S], Iterable[str]],
    hidden: Callable[[S], frozenset[str]],
) -> list[E]:
    """A command's events, each hidden participant it shows acting revealed just before it,
    and every event stamped with who is hidden once it has happened."""
    out: list[E] = []
    for event in events:
        after = evolve(state, event)
        revealing = sorted(set(acting(event, after)) & hidden(state))
        for who in revealing:
            revealed = cast(E, Revealed(participant=who, acting=True))
            state = evolve(state, revealed)
            out.append(_stamped(revealed, hidden(state)))
        state = evolve(state, event) if revealing else after
        out.append(_stamped(event, hidden(state)))
    return out


def _stamped(event: E, hidden: frozenset[str]) -> E:
    return event.model_copy(update={"unseen": tuple(sorted(hidden))}) if hidden else event


def unstamped(event: E) -> E:
    """An event kept in a system's state, as a view shows it: the stamp names who is hidden,
    which is no part of what happened."""
    return event.model_copy(update={"unseen": ()}) if event.unseen else event


def concealed(event: Seen, viewer: Viewer) -> frozenset[str]:
    """Those hidden when the event happened whom this viewer may not see."""
    return frozenset(p for p in event.unseen if not viewer.plays(p))


def censored(
    event: E,
    viewer: Viewer,
    about: Callable[[E], Iterable[str | None]],
    censor: Callable[[E, dict[str, Any], frozenset[str]], dict[str, Any] | None],
) -> dict[str, Any] | None:
    """The event as ``viewer`` may see it: nothing of it if it is about someone hidden from
    them, else the system's own censoring given who is hidden (``censor`` cuts hidden
    participants out of events about many). The stamp itself is the GM's alone."""
    data = event.model_dump(mode="json")
    if viewer.is_gm:
        return data
    hid = concealed(event, viewer)
    if hid & set(about(event)):
        return None
    data.pop("unseen", None)
    return censor(event, data, hid)


def seen_by(viewer: Viewer, hidden: frozenset[str]) -> Callable[[str | None], bool]:
    """Whether ``viewer`` may see a participant (None, no one, is seen by all)."""
    return seen_but(frozenset(p for p in hidden if not viewer.plays(p)))


def seen_but(unseen: frozenset[str]) -> Callable[[str | None], bool]:
    """Whether a participant is seen by whoever does not see ``unseen`` and sees the rest: what
    a view depends on, so that one view can serve every viewer who sees the same."""
    return lambda who: who not in unseen


def shown_hidden(viewer: Viewer, hidden: frozenset[str]) -> tuple[str, ...]:
    """The hidden participants a view names as hidden: all for the GM, a player's own."""
    return tuple(sorted(p for p in hidden if viewer.plays(p)))


def guard(
    command: BaseModel,
    actor: Viewer,
    hidden: frozenset[str],
    present: frozenset[str],
    others: frozenset[str],
) -> None:
    """Refuse a player's command that names someone hidden from them exactly as one naming
    nobody at the table, so no answer tells a hidden participant from a name never used.
    ``others`` are the names a command may give that are no participant (the Editor)."""
    for field in NAMING_FIELDS:
        value = getattr(command, field, None)
        if not isinstance(value, str) or value in others:
            continue
        if value not in present or (value in hidden and not actor.plays(value)):
            raise RuleError(RULE, f"{value!r} is not at the table", field=field)


def scrubbed(
    error: RuleError, actor: Viewer, hidden: frozenset[str], roster: Sequence[Participant]
) -> RuleError:
    """A refusal as a player may read it: whoever is hidden from them is "someone" in it."""
    if actor.is_gm:
        return error
    message = error.message
    for participant in roster:
        if participant.id in hidden and not actor.plays(participant.id):
            message = message.replace(participant.name, "someone")
            message = re.sub(rf"'?\b{re.escape(participant.id)}\b'?", "someone", message)
    if message == error.message:
        return error
    if isinstance(error, RoleError):
        return RoleError(message)
    return RuleError(error.rule, message, field=error.field)

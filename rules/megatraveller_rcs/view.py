"""What anyone may see of an encounter: all of it (ruling 9: the cards lie in plain sight), but
for a hidden character (the shared rulings), of whom players and overlays see nothing until its
turn or a seize reveals it.

The view still says, for a console or VTT, who holds the token, what is declared, and exactly
who may seize right now, so each can offer the button to those players only.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from rules import alerts, hiding
from rules.alerts import Alert
from rules.megatraveller_rcs.commands import Character
from rules.megatraveller_rcs.encounter import Encounter, Phase, RcsOptions
from rules.megatraveller_rcs.events import (
    Declaration,
    Declared,
    Event,
    InitiativeOverridden,
    InitiativeRolled,
    Joined,
    PoolSet,
    Resolved,
    RollEntered,
    Seized,
    TacticsSpent,
    TakenOut,
    TurnEnded,
)
from rules.roles import Viewer


class CardView(BaseModel):
    """An index card as it lies on the table."""

    model_config = ConfigDict(frozen=True)

    character: str
    initiative: int
    tally: int
    dice: tuple[int, ...]
    tapped: bool
    token: bool
    short_actions_left: int
    marker: bool  # interrupted after one Short Action: one Short Action left when play returns


class Awaiting(BaseModel):
    model_config = ConfigDict(frozen=True)

    what: Literal["roll_initiative", "roll", "declare", "resolve", "seize_or_resolve"]
    who: tuple[str, ...] = ()


class EncounterView(BaseModel):
    model_config = ConfigDict(frozen=True)

    system: Literal["megatraveller-rcs"] = "megatraveller-rcs"
    options: RcsOptions
    phase: Phase
    round: int
    characters: tuple[Character, ...]
    out: tuple[str, ...]
    line: tuple[CardView, ...]  # the order of play: tapped cards first, then the token's card
    token: str | None
    declared: Declaration | None
    may_seize: tuple[str, ...]
    pools: dict[str, int]
    awaiting: tuple[Awaiting, ...]
    hidden: tuple[str, ...]  # the hidden characters this viewer sees: all for the GM
    alerts: tuple[Alert, ...] = ()  # the player's: the token, next, a seize, a roll owed


def view(enc: Encounter, viewer: Viewer) -> EncounterView:
    shown = _table_as_seen(enc, hiding.shown_hidden(viewer, enc.hidden))
    return alerts.alerted(shown, viewer, spotted)


SEEN_KEPT = 16
"""How many tables as seen ``_table_as_seen`` keeps: every role of the last commands' tables."""
_seen: OrderedDict[tuple[int, tuple[str, ...]], tuple[Encounter, EncounterView]] = OrderedDict()


def _table_as_seen(enc: Encounter, sees: tuple[str, ...]) -> EncounterView:
    """The view but for its alerts, as seen by a viewer who sees ``sees`` of the hidden
    characters: all a view depends on besides the viewer's own alerts. A command is shown to
    every role the table serves at once (six players' phones, the GM, the overlay), and roles
    that see the same characters see the same table, so it is made once for them, not once
    each. The last few are kept by the encounter itself, held here so that no other object can
    take its identity meanwhile (an encounter never changes: each event makes a new one)."""
    key = (id(enc), sees)
    kept = _seen.get(key)
    if kept is not None and kept[0] is enc:
        _seen.move_to_end(key)
        return kept[1]
    seen = hiding.seen_but(enc.hidden.difference(sees))
    pending = enc.pending
    shown = EncounterView(
        options=enc.options,
        phase=enc.phase,
        round=enc.round,
        characters=tuple(c for c in enc.characters if seen(c.id)),
        out=tuple(sorted(c for c in enc.out if seen(c))),
        line=_line(enc, seen),
        token=enc.holder if seen(enc.holder) else None,
        declared=pending if pending is None or seen(pending.character) else None,
        may_seize=tuple(c for c in enc.seizers() if seen(c)),
        pools=_pools(enc, seen),
        awaiting=tuple(
            a for a in (_seen_awaiting(a, seen) for a in _awaiting(enc)) if a is not None
        ),
        hidden=sees,
    )
    _seen[key] = (enc, shown)
    if len(_seen) > SEEN_KEPT:
        _seen.popitem(last=False)
    return shown


def spotted(shown: EncounterView) -> list[tuple[alerts.Kind, str | None]]:
    """The token on a character is its turn; the untapped card after the token's in the line
    the viewer sees is on deck; a character the view says may seize has its window now; a roll
    the table waits for is a die owed."""
    found: list[tuple[alerts.Kind, str | None]] = [("turn", shown.token)]
    cards = [card.character for card in shown.line]
    if shown.token in cards:
        after = shown.line[cards.index(shown.token) + 1 :]
        found += [("on_deck", card.character) for card in after[:1] if not card.tapped]
    found += [("seize", character) for character in shown.may_seize]
    found += [("die", c) for wait in shown.awaiting if wait.what == "roll" for c in wait.who]
    return found


def _line(enc: Encounter, seen: Callable[[str | None], bool]) -> tuple[CardView, ...]:
    cards = (*enc.tapped, *enc.line)
    shown = tuple(_card(enc, cid) for cid in cards if seen(cid))
    return shown if len(shown) == len(cards) else _tallied(shown)


def _tallied(line: tuple[CardView, ...]) -> tuple[CardView, ...]:
    """The tallies among the cards shown: a tie with a hidden card is no tie to one who cannot
    see it, and the marks of those still tied count from one again."""
    ties: dict[int, list[CardView]] = {}
    for card in line:
        if card.tally:
            ties.setdefault(card.initiative, []).append(card)
    renumbered = {
        card.character: n if len(tied) > 1 else 0
        for tied in ties.values()
        for n, card in enumerate(sorted(tied, key=lambda c: c.tally), start=1)
    }
    return tuple(
        card.model_copy(update={"tally": renumbered[card.character]})
        if card.character in renumbered and renumbered[card.character] != card.tally
        else card
        for card in line
    )


def _pools(enc: Encounter, seen: Callable[[str | None], bool]) -> dict[str, int]:
    """The sides' pools as the viewer may know them. A side whose every character is hidden
    from the viewer is not shown at all: its name alone would tell of an ambush. A pool the
    referee did not set is its side's best Tactics, so what a hidden character's skill added
    is left out, and what a hidden character spent is still in the pool."""
    pools: dict[str, int] = {}
    for side, points in enc.pools.items():
        on_side = [c for c in enc.characters if c.side == side]
        if on_side and not any(seen(c.id) for c in on_side):
            continue
        unseen = sum(enc.spent_hidden.get(c.id, 0) for c in on_side if not seen(c.id))
        pools[side] = points + unseen
        if side not in enc.referee_pools:
            best = max((c.tactics for c in on_side), default=0)
            best_seen = max((c.tactics for c in on_side if seen(c.id)), default=0)
            pools[side] = max(0, pools[side] - (best - best_seen))
    return pools


def _card(enc: Encounter, character: str) -> CardView:
    card = enc.cards[character]
    interrupted = character in enc.line and character != enc.holder and character in enc.held
    return CardView(
        character=character,
        initiative=card.initiative,
        tally=card.tally,
        dice=card.dice,
        tapped=character in enc.tapped,
        token=character == enc.holder,
        short_actions_left=2 - card.used,
        marker=interrupted and card.used == 1,
    )


def _awaiting(enc: Encounter) -> tuple[Awaiting, ...]:
    if enc.phase in (Phase.SETUP, Phase.ROUND_OVER):
        return (Awaiting(what="roll_initiative"),)
    if enc.phase is Phase.ROLLING:
        return (Awaiting(what="roll", who=enc.awaiting_rolls),)
    # A latecomer's roll (ruling 10) comes first: its card is laid as soon as it is in.
    late = (Awaiting(what="roll", who=enc.awaiting_rolls),) if enc.awaiting_rolls else ()
    holder = enc.holder
    assert holder is not None
    if enc.pending is None:
        return (*late, Awaiting(what="declare", who=(holder,)))
    seizers = enc.seizers()
    if seizers:
        return (*late, Awaiting(what="seize_or_resolve", who=seizers))
    return (*late, Awaiting(what="resolve"))


def _seen_awaiting(awaiting: Awaiting, seen: Callable[[str | None], bool]) -> Awaiting | None:
    """What the viewer is told the table waits for: no one hidden from them, and a seize only
    one hidden from them could make is no seize (the GM decides it, as a resolve). A roll owed
    by none but the hidden is no roll the table waits for: it starts, or goes on, without it."""
    who = tuple(c for c in awaiting.who if seen(c))
    if awaiting.what == "seize_or_resolve" and not who:
        return Awaiting(what="resolve")
    if awaiting.what == "roll" and not who:
        return None
    return awaiting if who == awaiting.who else awaiting.model_copy(update={"who": who})


def _tallies_seen(tallies: dict[str, int], hid: frozenset[str]) -> dict[str, int]:
    """An event's tally marks as drawn at a table without the hidden: each tie is a group of
    marks from 1 in the order drawn (``rules.randomness.break_ties``, ``_among``), a hidden
    card's mark is cut from its group, the others count from one again, and a card left alone
    in its group is tied to no one, so it has no mark, as the view has it (``_tallied``)."""
    groups: list[list[str]] = []
    for character, mark in tallies.items():
        if mark == 1 or not groups:
            groups.append([])
        if character not in hid:
            groups[-1].append(character)
    return {c: n for tied in groups if len(tied) > 1 for n, c in enumerate(tied, start=1)}


def censor(event: Event, viewer: Viewer, options: RcsOptions) -> dict[str, Any] | None:
    """Nothing in an RCS encounter is secret, whatever the options, but a hidden character."""
    return hiding.censored(event, viewer, about, _censored)


def about(event: Event) -> tuple[str | None, ...]:
    """The characters an event is wholly about: hidden from a viewer, it is none of theirs."""
    match event:
        case Joined():
            return (event.character.id,)
        case RollEntered():
            return (event.roll.character,)
        case Declared() | Resolved():
            return (event.declaration.character,)
        case Seized():
            return (event.character, event.seized_from)
        case TacticsSpent() | TurnEnded() | TakenOut() | InitiativeOverridden():
            return (event.character,)
        case hiding.Hidden() | hiding.Revealed():
            return (event.participant,)
    return ()


def _censored(event: Event, data: dict[str, Any], hid: frozenset[str]) -> dict[str, Any] | None:
    """An event about many, the hidden cut out: their rolls, and their places among ties; a
    pool set for a side of none but the hidden is theirs alone."""
    if isinstance(event, PoolSet):
        if event.hidden_side and hid >= set(event.hidden_side):
            return None
        data.pop("hidden_side", None)
    if isinstance(event, InitiativeRolled):
        data["rolls"] = [r for r in data["rolls"] if r["character"] not in hid]
    if data.get("tallies") and hid:
        data["tallies"] = _tallies_seen(data["tallies"], hid)
    if isinstance(event, RollEntered) and event.lapsed and event.lapsed.character in hid:
        del data["lapsed"]
    return data

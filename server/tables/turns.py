"""The order of play as a list of turns, for tools that only know a turn order (Foundry's combat
tracker, Roll20's turn order).

A turn order is computed from a role's *view*, never from the state, so it can carry nothing that
role may not see. Each turn has a stable key (a card, a character), a place in the order, and
whether it is the one acting now. For the awareness one-pager a public order is only what has
been declared and who is declaring: the rest have no place (``None``), listed by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

View = dict[str, Any]


@dataclass(frozen=True)
class Turn:
    key: str  # stable across updates: a card for The Four Color Hack, else the participant
    participant: str | None
    name: str
    placed: bool = True  # False: its place in the order is not the viewer's to know
    current: bool = False
    done: bool = False  # acted this round or page, tapped
    secret: bool = False  # in the GM's order only: an Editor's extra card, a hidden participant
    label: str = ""  # what a tracker shows beside the name: a card, an initiative
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TurnOrder:
    round: int
    turns: list[Turn]

    @property
    def current(self) -> int | None:
        return next((n for n, turn in enumerate(self.turns) if turn.current), None)


SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}


def card_label(code: str) -> str:
    if code in ("RJ", "BJ"):
        return "Joker"
    return code[:-1] + SUITS.get(code[-1], code[-1])


def _four_color(view: View) -> TurnOrder:
    """Panels played this page in play order (the last is the current one), then the cards still
    to play from highest to lowest."""
    names = {m["id"]: m["name"] for m in view["members"]}

    def turn(entry: View, *, current: bool = False, done: bool = False) -> Turn:
        acting = entry.get("acting")
        name = names.get(acting) if acting else entry.get("element") or "the Editor"
        return Turn(
            key=entry["card"],
            participant=acting,
            name=name or "the Editor",
            current=current,
            done=done,
            secret=entry.get("holder") == "editor",
            label=card_label(entry["card"]),
            details={
                "card": entry["card"],
                "editorial_control": bool(entry.get("editorial_control")),
            },
        )

    panels = view["panels"]
    played = [turn(p, current=n == len(panels) - 1, done=True) for n, p in enumerate(panels)]
    return TurnOrder(round=view["page"], turns=played + [turn(c) for c in view["order"]])


def _rcs(view: View) -> TurnOrder:
    """The index cards in the order of play: tapped cards, the token's card, the rest."""
    names = {c["id"]: c["name"] for c in view["characters"]}
    turns = [
        Turn(
            key=card["character"],
            participant=card["character"],
            name=names[card["character"]],
            current=card["token"],
            done=card["tapped"],
            label=f"{card['initiative']}{' ' + '|' * card['tally'] if card['tally'] else ''}",
            details={
                "initiative": card["initiative"],
                "tally": card["tally"],
                "tapped": card["tapped"],
                "marker": card["marker"],
            },
        )
        for card in view["line"]
    ]
    return TurnOrder(round=view["round"], turns=turns)


def _awareness(view: View) -> TurnOrder:
    """Who has declared, in order, then who is declaring, then (for the GM, or a table that
    reveals its order) the declarations to come; anyone else has no place yet."""
    names = {c["id"]: c["name"] for c in view["characters"]}
    waiting = {c["id"]: c["waiting"] for c in view["characters"]}
    acted = {c["id"] for c in view["characters"] if c["acted"]}
    order: list[str] = []
    for declared in view["declarations"]:
        if declared["character"] not in order:
            order.append(declared["character"])
    for cid in ([view["declaring"]] if view["declaring"] else []) + list(view["upcoming"] or []):
        if cid not in order:
            order.append(cid)
    unplaced = sorted((cid for cid in names if cid not in order), key=lambda cid: names[cid])

    def turn(cid: str, placed: bool) -> Turn:
        return Turn(
            key=cid,
            participant=cid,
            name=names[cid],
            placed=placed,
            current=cid == view["declaring"],
            done=cid in acted,
            label="waits" if waiting[cid] else "acted" if cid in acted else "",
            details={"waiting": waiting[cid]},
        )

    turns = [turn(cid, True) for cid in order] + [turn(cid, False) for cid in unplaced]
    return TurnOrder(round=view["round"], turns=turns)


ORDERS: dict[str, Callable[[View], TurnOrder]] = {
    "four-color": _four_color,
    "megatraveller-rcs": _rcs,
    "awareness": _awareness,
}


def turn_order(view: View) -> TurnOrder:
    """The turn order a view shows; the turns of participants it names hidden (the GM's view,
    or a player's own) are secret, as the Editor's cards are."""
    order = ORDERS[view["system"]](view)
    hidden = set(view["hidden"])
    if not hidden:
        return order
    turns = [replace(t, secret=True) if t.participant in hidden else t for t in order.turns]
    return TurnOrder(round=order.round, turns=turns)

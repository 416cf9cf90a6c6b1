"""Turn alerts: what tells a player "you're up" and "you're next", in every system.

An alert is read off the view the player is shown, never off the state: what warns a player is
only what that player may already see. So a hidden participant cannot change or reveal when
anyone is warned, whatever its place in the order, until it is revealed (the shared rulings),
and an Editor's secret card is no warning either. The GM and overlays get no alerts: the GM
plays everyone, and an overlay plays no one.

Each system says, from its own view, which of a player's characters the table is at (``turn``)
or comes to next (``on_deck``), which may seize the initiative now (``seize``, RCS), which may
react to an act (``react``, awareness), and which owes a die (``die``). The pages, the pushed
notifications, the Discord posts and the smart dice are all told from these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from rules.roles import Role, Viewer

Kind = Literal["turn", "on_deck", "seize", "react", "die"]
KINDS: tuple[Kind, ...] = ("turn", "on_deck", "seize", "react", "die")
"""The kinds of alert, most pressing first: the order alerts are listed in."""


class Alert(BaseModel):
    """One of the player's characters is up, next, or asked for something now."""

    model_config = ConfigDict(frozen=True)

    kind: Kind
    character: str


def told(viewer: Viewer, found: Iterable[tuple[Kind, str | None]]) -> tuple[Alert, ...]:
    """The alerts among ``found`` (what a system's view says of anyone) that are this player's:
    each once, the most pressing kind first. None for the GM or an overlay."""
    if viewer.role is not Role.PLAYER:
        return ()
    mine = {(kind, who) for kind, who in found if who is not None and who in viewer.participants}
    return tuple(
        Alert(kind=kind, character=who)
        for kind, who in sorted(mine, key=lambda alert: (KINDS.index(alert[0]), alert[1]))
    )


Shown = TypeVar("Shown", bound=BaseModel)
Found = Iterable[tuple[Kind, str | None]]


def alerted(shown: Shown, viewer: Viewer, spotted: Callable[[Shown], Found]) -> Shown:
    """A system's view ``shown`` with ``viewer``'s alerts, read off it by ``spotted``; the view
    itself, not a copy, where there are none (the GM, an overlay, a player with nothing
    pressing). Roles that see the same table share one view (``rules/megatraveller_rcs``'s
    ``_table_as_seen``), and a command is shown to every role the table serves: a copy for
    each would cost more than the rest of making it."""
    if viewer.role is not Role.PLAYER:
        return shown
    mine = told(viewer, spotted(shown))
    return shown.model_copy(update={"alerts": mine}) if mine else shown

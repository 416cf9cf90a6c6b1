"""Showing a command's outcome to every role before anything is stored.

A command whose outcome some role could not be shown would leave a table nobody can read, so
the server decides it, folds its events and renders them for every role the table's tokens
serve first, and refuses it as its own fault if any of that fails. The roles are the table's
(``Game.viewers``), never the subscribers of the moment: whether a command is accepted does
not depend on who happens to be connected. A subscriber's role is always one of the table's,
as it came in with one of its tokens (``follow``)."""

from __future__ import annotations

import json
import logging
from typing import Any, NoReturn

from pydantic import BaseModel

from rules.errors import RuleError
from rules.roles import Viewer
from rules.standing import Forgotten
from rules.table import Undo
from server.errors import ServerFaultError
from server.tables.audience import Outcome, Shown
from server.tables.games import Game

logger = logging.getLogger("seize")


def show(game: Game, command: BaseModel, actor: Viewer, first: int) -> Outcome:
    """Decide the command and show its events to every role the table serves, the actor's
    included. The one exception to refusing what some role cannot be shown is an undo on a
    table whose view has already broken (a log written by an older version): it cannot make
    things worse, and it is how the GM gets out."""
    kind = str(getattr(command, "type", type(command).__name__))
    try:
        events = game.table.decide(command, actor)
    except (RuleError, Forgotten):  # refused; or an undo asks for events in the store only
        raise
    except Exception:
        fault(game, kind, first)
    return shown(game, events, game.viewers | {actor}, kind, first, isinstance(command, Undo))


def shown(
    game: Game,
    events: list[Any],
    viewers: set[Viewer],
    kind: str,
    first: int,
    repairing: bool,
) -> Outcome:
    """Fold events and show them to each of ``viewers``; raises ServerFaultError if that
    fails, but for a view that was already broken while ``repairing``."""
    table = game.table
    try:
        folded = table.folded(events)
        censored = {v: [table.censor(e, v) for e in events] for v in viewers}
    except Forgotten:  # an undo reaching events in the store only: read them, and fold again
        raise
    except Exception:
        fault(game, kind, first)
    state = folded.state
    by: dict[Viewer, Shown] = {}
    numbering = table.numbering
    made: Encoded = {}
    for viewer in viewers:
        numbered = numbering.numbered(viewer, first, events, censored[viewer], folded.marked)
        seen = [data for _, data in numbered]
        try:
            encoded = [json.dumps(data) for data in seen]
        except Exception:
            fault(game, kind, first)
        try:
            view: str | None = view_json(table.system.view(state, viewer), made)
        except Exception:
            if not (repairing and not showable(game, viewer)):
                fault(game, kind, first)
            view = None
        numbers = [number for number, _ in numbered]
        seq = numbers[-1] if numbers else numbering.count(viewer)
        by[viewer] = Shown(seen, encoded, numbers, view, seq)
    return Outcome(events, folded, by)


Encoded = dict[int, tuple[BaseModel, str]]
"""The views of one command encoded so far, by identity, each kept beside its JSON so that no
other object takes its identity meanwhile."""


def view_json(view: BaseModel, made: Encoded) -> str:
    """``view``'s JSON, encoded once for all the roles of a command that are given this very
    view: roles that see the same table share one (``rules.alerts.alerted``; the GM's and an
    overlay's where nothing is hidden, and players with no alert of their own)."""
    kept = made.get(id(view))
    if kept is None:
        kept = made[id(view)] = (view, view.model_dump_json())
    return kept[1]


def showable(game: Game, viewer: Viewer) -> bool:
    """Whether the table as it stands can be shown to ``viewer``."""
    try:
        game.table.view(viewer).model_dump_json()
    except Exception:
        return False
    return True


def fault(game: Game, command: str, seq: int) -> NoReturn:
    logger.exception(
        "command refused: its outcome could not be shown",
        extra={"table": game.id, "seq": seq, "command": command},
    )
    raise ServerFaultError(command) from None

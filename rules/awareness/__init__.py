"""The awareness one-pager: hidden initiative (QR and Score), act or wait, and pre-emption.

Source text: the initiative one-pager; the dice model and open points are the project's
rulings (``awareness.1`` to ``awareness.12``), every number a table option. See docs/rules.md.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.awareness.commands import AnyCommand, Command
from rules.awareness.decide import decide
from rules.awareness.events import AnyEvent, Declared, Event, Resolved
from rules.awareness.situation import AwarenessOptions, Situation, evolve, initial_situation
from rules.awareness.story import STORY
from rules.awareness.view import SituationView, censor, spotted, view
from rules.table import System, Table


def _acting(event: Event, after: Situation) -> tuple[str, ...]:
    """An act shows its character acting, and so does any action resolving; a wait does not."""
    match event:
        case Declared(kind="act") | Resolved():
            return (event.character,)
    return ()


AWARENESS: System[AwarenessOptions, Situation, Command, Event] = System(
    name="awareness",
    state_model=Situation,
    view_model=SituationView,
    options_model=AwarenessOptions,
    commands=TypeAdapter(AnyCommand),
    events=TypeAdapter(AnyEvent),
    initial_state=initial_situation,
    decide=decide,
    evolve=evolve,
    view=view,
    censor=censor,
    roster=lambda state: state.sheets,
    hidden=lambda state: state.hidden,
    acting=_acting,
    spotted=spotted,
    story=STORY,
)


AwarenessTable = Table[AwarenessOptions, Situation, Command, Event]

__all__ = ["AWARENESS", "AwarenessOptions", "AwarenessTable", "Situation", "SituationView"]

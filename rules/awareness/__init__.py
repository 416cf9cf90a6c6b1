"""The awareness one-pager: hidden initiative (QR and Score), act or wait, and pre-emption.

Source text: the initiative one-pager; the dice model and open points are the project's
rulings (``awareness.1`` to ``awareness.12``), every number a table option. See docs/rules.md.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.awareness.commands import AnyCommand, Command
from rules.awareness.decide import decide
from rules.awareness.events import AnyEvent, Event
from rules.awareness.situation import AwarenessOptions, Situation, evolve, initial_situation
from rules.awareness.view import SituationView, censor, view
from rules.table import System, Table

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
    participants=lambda state: frozenset(s.id for s in state.sheets),
)

AwarenessTable = Table[AwarenessOptions, Situation, Command, Event]

__all__ = ["AWARENESS", "AwarenessOptions", "AwarenessTable", "Situation", "SituationView"]

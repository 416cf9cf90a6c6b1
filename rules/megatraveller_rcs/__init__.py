"""MegaTraveller RCS: 2D6 initiative, the tactics pool, and seizing the initiative.

Source text: the RCS initiative rules; open points decided by the project's rulings
(``megatraveller-rcs.1`` to ``megatraveller-rcs.9``). See docs/rules.md.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.hiding import Hidden, Revealed
from rules.megatraveller_rcs.commands import AnyCommand, Command
from rules.megatraveller_rcs.decide import decide
from rules.megatraveller_rcs.encounter import Encounter, RcsOptions, evolve, initial_encounter
from rules.megatraveller_rcs.events import AnyEvent, Event, Seized
from rules.megatraveller_rcs.story import STORY
from rules.megatraveller_rcs.view import EncounterView, censor, spotted, view
from rules.table import System, Table


def _acting(event: Event, after: Encounter) -> tuple[str, ...]:
    """A seize shows its character acting, and the token shows whose turn it is."""
    match event:
        case Hidden() | Revealed():
            return ()
        case Seized():
            return (event.character,)
    return (after.holder,) if after.holder else ()


MEGATRAVELLER_RCS: System[RcsOptions, Encounter, Command, Event] = System(
    name="megatraveller-rcs",
    state_model=Encounter,
    view_model=EncounterView,
    options_model=RcsOptions,
    commands=TypeAdapter(AnyCommand),
    events=TypeAdapter(AnyEvent),
    initial_state=initial_encounter,
    decide=decide,
    evolve=evolve,
    view=view,
    censor=censor,
    roster=lambda state: state.characters,
    hidden=lambda state: state.hidden,
    acting=_acting,
    spotted=spotted,
    story=STORY,
)


RcsTable = Table[RcsOptions, Encounter, Command, Event]

__all__ = ["MEGATRAVELLER_RCS", "Encounter", "EncounterView", "RcsOptions", "RcsTable"]

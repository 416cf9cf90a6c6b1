"""The Four Color Hack: initiative dealt as playing cards and played out as Panels.

Source text: The Four Color Hack's initiative rules; open points decided by the project's
rulings (``four-color.1`` to ``four-color.10``). See docs/rules.md.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.four_color.commands import AnyCommand, Command
from rules.four_color.decide import decide
from rules.four_color.events import AnyEvent, Event
from rules.four_color.scene import FourColorOptions, Scene, evolve, initial_scene
from rules.four_color.view import SceneView, censor, view
from rules.table import System, Table

FOUR_COLOR: System[FourColorOptions, Scene, Command, Event] = System(
    name="four-color",
    state_model=Scene,
    view_model=SceneView,
    options_model=FourColorOptions,
    commands=TypeAdapter(AnyCommand),
    events=TypeAdapter(AnyEvent),
    initial_state=initial_scene,
    decide=decide,
    evolve=evolve,
    view=view,
    censor=censor,
    participants=lambda state: frozenset(m.id for m in state.members),
)

FourColorTable = Table[FourColorOptions, Scene, Command, Event]

__all__ = ["FOUR_COLOR", "FourColorOptions", "FourColorTable", "Scene", "SceneView"]

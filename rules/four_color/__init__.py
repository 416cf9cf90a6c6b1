"""The Four Color Hack: initiative dealt as playing cards and played out as Panels.

Source text: The Four Color Hack's initiative rules; open points decided by the project's
rulings (``four-color.1`` to ``four-color.10``). See docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import TypeAdapter

from rules.four_color.commands import AnyCommand, Command
from rules.four_color.decide import decide
from rules.four_color.events import AnyEvent, Event
from rules.four_color.scene import FourColorOptions, Scene, evolve, initial_scene
from rules.four_color.view import SceneView, censor, view
from rules.roles import Viewer
from rules.table import Table, Undo, Undone


class FourColor:
    """The ``four-color`` system, as the decider a Table runs."""

    name = "four-color"
    options_model = FourColorOptions
    commands: TypeAdapter[Command | Undo] = TypeAdapter(AnyCommand)
    events: TypeAdapter[Event | Undone] = TypeAdapter(AnyEvent)

    def initial_state(self, options: FourColorOptions) -> Scene:
        return initial_scene(options)

    def decide(self, state: Scene, command: Command, actor: Viewer) -> list[Event]:
        return decide(state, command, actor)

    def evolve(self, state: Scene, event: Event) -> Scene:
        return evolve(state, event)

    def view(self, state: Scene, viewer: Viewer) -> SceneView:
        return view(state, viewer)

    def censor(self, event: Event, viewer: Viewer) -> dict[str, Any] | None:
        return censor(event, viewer)

    def table(
        self, options: FourColorOptions | None = None, log: Iterable[Event | Undone] = ()
    ) -> FourColorTable:
        """A new table of this system, or one rebuilt from its log."""
        return Table(self, options or FourColorOptions(), log)


FourColorTable = Table[FourColorOptions, Scene, Command, Event]


FOUR_COLOR = FourColor()

__all__ = ["FOUR_COLOR", "FourColor", "FourColorOptions", "FourColorTable", "Scene", "SceneView"]

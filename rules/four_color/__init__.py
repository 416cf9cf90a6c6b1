"""The Four Color Hack: initiative dealt as playing cards and played out as Panels.

Source text: The Four Color Hack's initiative rules; open points decided by the project's
rulings (``four-color.1`` to ``four-color.10``). See docs/rules.md.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.four_color.commands import EDITOR, AnyCommand, Command
from rules.four_color.decide import decide
from rules.four_color.events import AnyEvent, Event, PanelPlayed, TradeOffered
from rules.four_color.scene import FourColorOptions, Scene, evolve, initial_scene
from rules.four_color.story import STORY
from rules.four_color.view import SceneView, censor, spotted, view
from rules.table import System, Table


def _acting(event: Event, after: Scene) -> tuple[str, ...]:
    """A Panel shows its member acting, and a trade is made in the open."""
    match event:
        case PanelPlayed():
            return tuple(m for m in (event.holder, event.acting) if m and m != EDITOR)
        case TradeOffered():
            return (event.hero, event.partner)
    return ()


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
    roster=lambda state: state.members,
    hidden=lambda state: state.hidden,
    acting=_acting,
    spotted=spotted,
    story=STORY,
    others=frozenset({EDITOR}),
)


FourColorTable = Table[FourColorOptions, Scene, Command, Event]

__all__ = ["FOUR_COLOR", "FourColorOptions", "FourColorTable", "Scene", "SceneView"]

"""The Table: a fold of its log, with undo by replay."""

from __future__ import annotations

from rules.four_color import FOUR_COLOR
from rules.four_color.commands import Deal, Join, Kind, Member, NextPanel
from rules.roles import GM, player
from rules.table import Undo, Undone

from .four_color.helpers import scene
from .refusals import refused


def test_undo_takes_back_the_last_event_and_the_state_is_the_replay_of_the_rest() -> None:
    table = scene(heroes=3, villains=1)
    table.execute(Deal(seed=9), GM)
    dealt = table.state
    table.execute(NextPanel(), GM)
    (undone,) = table.execute(Undo(), GM)
    assert undone == Undone(undoes=table.version - 1)  # the Panel, just before the undo
    assert table.state == dealt
    assert table.version == 7  # four joins, the deal, the Panel, and the undo: nothing erased


def test_undo_twice_takes_back_two_events() -> None:
    table = scene(heroes=1)
    before = table.state
    table.execute(Deal(seed=1), GM)
    table.execute(NextPanel(), GM)
    table.execute(Undo(), GM)
    table.execute(Undo(), GM)
    assert table.state == before


def test_a_log_with_undos_replays_to_the_same_state() -> None:
    table = scene(heroes=2)
    table.execute(Deal(seed=4), GM)
    table.execute(Undo(), GM)
    table.execute(Deal(seed=5), GM)
    replayed = FOUR_COLOR.table(table.options, table.log)
    assert replayed.state == table.state


def test_only_the_gm_may_undo_and_only_what_there_is() -> None:
    table = scene()
    refused(table, Undo(), "undo")
    table.execute(Join(member=Member(id="h1", name="Hero", kind=Kind.HERO)), GM)
    refused(table, Undo(), "roles", player("h1"))

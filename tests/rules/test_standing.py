"""Undo from checkpoints: the bounded window a table holds, checked against replaying the whole
log, and the ``Forgotten`` events a log that let go of them is asked for."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.four_color import FOUR_COLOR
from rules.four_color.commands import Join, Kind, Member
from rules.roles import GM
from rules.standing import Forgotten, Window
from rules.table import Table, Undo, Undone


def join(n: int) -> Join:
    return Join(member=Member(id=f"h{n}", name=f"Hero {n}", kind=Kind.HERO))


class Forgetful(list[Any]):
    """A log that no longer holds the events before ``first``, as a server's does."""

    first = 0

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int) and 0 <= index < self.first:
            raise Forgotten(index)
        return super().__getitem__(index)


def members(table: Table[Any, Any, Any, Any]) -> list[str]:
    return [m.id for m in table.state.members]


@given(
    steps=st.lists(st.integers(0, 3), min_size=1, max_size=60),
    every=st.integers(1, 4),
    kept=st.integers(2, 3),
)
def test_undo_from_a_window_leaves_what_the_whole_log_replays_to(
    steps: list[int], every: int, kept: int
) -> None:
    """Joins and runs of undos (0 is an undo, and several in a row reach behind the window):
    at every step the windowed table decides the same events as one that replays from the
    first event, and is in the state its whole log folds to."""
    windowed = Table(FOUR_COLOR, FOUR_COLOR.options_model(), window=Window(every, kept))
    wide = Table(FOUR_COLOR, FOUR_COLOR.options_model(), window=Window(10_000, 2))
    joined = 0
    for step in steps:
        if step == 0 and members(wide):
            command: Any = Undo()
        else:
            joined += 1
            command = join(joined)
        assert windowed.execute(command, GM) == wide.execute(command, GM)
        assert windowed.state == wide.state
        assert windowed.state == FOUR_COLOR.table(windowed.options, windowed.log).state
    for _ in members(wide):  # and everything can be taken back, to the empty table
        windowed.execute(Undo(), GM)
    assert members(windowed) == []


def test_the_window_bounds_what_an_undo_may_read_again() -> None:
    table = Table(FOUR_COLOR, FOUR_COLOR.options_model(), window=Window(every=4, kept=2))
    for n in range(1, 21):
        table.execute(join(n), GM)
    # Checkpoints after 16 and 20 standing events are kept: an undo replays from the 16th,
    # and reads the one before it (a reveal there would go with the step after it).
    assert table.reach == 15


def test_an_undo_behind_the_window_asks_for_its_events_and_changes_nothing_till_then() -> None:
    log = Forgetful()
    table = Table(FOUR_COLOR, FOUR_COLOR.options_model(), window=Window(every=2, kept=2))
    table.log = log
    for n in range(1, 9):
        table.execute(join(n), GM)
    log.first = table.reach  # the log lets go of what the window does not need: 5
    assert log.first == 5
    for _ in range(2):  # the undos the window reaches need nothing more
        table.execute(Undo(), GM)
    state, version = table.state, table.version
    with pytest.raises(Forgotten) as asked:
        table.execute(Undo(), GM)
    assert asked.value.position == 0  # it rebuilds what stands from the first event
    assert (table.state, table.version) == (state, version)
    log.first = 0  # read back
    assert table.execute(Undo(), GM) == [Undone(undoes=6)]
    assert members(table) == ["h1", "h2", "h3", "h4", "h5"]


def test_a_restored_table_undoes_by_rebuilding_from_its_log() -> None:
    played = Table(FOUR_COLOR, FOUR_COLOR.options_model())
    for n in range(1, 4):
        played.execute(join(n), GM)
    played.execute(Undo(), GM)
    restored = Table.restore(FOUR_COLOR, played.options, list(played.log), played.state)
    assert restored.execute(Undo(), GM) == [Undone(undoes=2)]
    assert members(restored) == ["h1"]
    restored.execute(Undo(), GM)
    with pytest.raises(Exception, match="nothing to undo"):
        restored.execute(Undo(), GM)

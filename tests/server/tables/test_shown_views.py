"""Every role the table serves is shown its own view of each command, though roles that see the
same table are given one view and it is encoded once (``server/tables/showing.py``,
``rules.alerts.alerted``): a player with an alert of their own, the GM beside a hidden
participant, are never handed another role's."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.roles import GM
from server.tables.games import Game
from server.tables.showing import show
from tests.rules.whole_games import AwarenessGame, FourColorGame, RcsGame, choose

GAMES = [FourColorGame(), AwarenessGame(), RcsGame()]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), data=st.data())
def test_each_role_is_shown_the_view_made_for_it_alone(game: Any, data: st.DataObject) -> None:
    rnd = data.draw(st.randoms(use_true_random=False), label="table")
    table = game.system.table(game.options(rnd))
    for join in game.cast(rnd):
        table.execute(join, GM)
    held = Game(id="t", name="T", table=table, viewers=set(game.viewers(table.state)))
    for _ in range(data.draw(st.integers(10, 40), label="steps")):
        command, actor = choose(game.moves(table.state, rnd), data)
        first = table.version + 1
        try:
            outcome = show(held, command, actor, first)
        except RuleError:
            continue
        table.record(outcome.events, outcome.folded)
        state = outcome.folded.state
        for viewer, seen in outcome.by.items():
            # A copy of the state is a table no other role's view was made from.
            alone = table.system.view(state.model_copy(), viewer).model_dump_json()
            assert seen.view == alone, viewer

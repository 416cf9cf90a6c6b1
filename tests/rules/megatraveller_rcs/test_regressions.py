"""Encounters that real play broke once, each kept as the shortest sequence that broke it."""

from __future__ import annotations

from rules.megatraveller_rcs.commands import EnterRoll, RollInitiative
from rules.megatraveller_rcs.encounter import Phase
from rules.megatraveller_rcs.view import view
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player
from rules.table import Undo

from .helpers import act, encounter, line


def test_a_round_rolled_at_the_table_after_a_played_round_leaves_the_table_readable() -> None:
    """Round 1 rolled by the engine and played to its end, then round 2 awaited from the tray
    or the referee: every view failed on the last round's tapped cards, whose numbers the new
    round had already erased."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    table.execute(RollInitiative(seed=5), GM)
    for _ in range(2):
        act(table, line(table)[0])
    assert table.state.phase is Phase.ROUND_OVER
    for source in (Source.GM, Source.DEVICE):
        table.execute(RollInitiative(source=source), GM)
        for viewer in (GM, OVERLAY, player("jena")):
            seen = view(table.state, viewer)
            assert seen.line == () and seen.token is None
            assert [(a.what, a.who) for a in seen.awaiting] == [("roll", ("jena", "guard"))]
        table.execute(EnterRoll(character="jena", dice=(6, 6), source=source), GM)
        table.execute(EnterRoll(character="guard", dice=(1, 1), source=source), GM)
        assert table.state.round == 2 and line(table) == ["guard", "jena"]
        assert [c.character for c in view(table.state, OVERLAY).line] == ["guard", "jena"]
        for _ in range(3):
            table.execute(Undo(), GM)
        assert table.state.phase is Phase.ROUND_OVER

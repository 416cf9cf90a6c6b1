"""Situations that real play broke once, each kept as the shortest sequence that broke it."""

from __future__ import annotations

from rules.awareness.commands import Act, OverrideInitiative, React, Resolve, Wait
from rules.roles import GM

from .helpers import resolve_all, roll_round, sheet, situation


def test_an_override_in_the_middle_of_an_exchange_never_resolves_anyone_twice() -> None:
    """``b`` and ``c`` react just after ``a``; ``a`` and ``b`` are resolved; the GM overrides
    ``c``'s initiative above ``b``'s. The exchange's order became a, c, b and the next outcome
    was recorded for ``b`` again, while ``c``'s action was never asked for."""
    table = situation(sheet("a"), sheet("b"), sheet("c"))
    roll_round(table, {"b": 1, "c": 2, "a": 3})
    for waiting in ("b", "c"):
        table.execute(Wait(character=waiting, trigger="a moves"), GM)
    table.execute(Act(character="a", what="moves"), GM)
    for reactor in ("b", "c"):
        table.execute(React(character=reactor, to="a", timing="after", what="fires"), GM)
    table.execute(Resolve(), GM)
    table.execute(Resolve(), GM)
    table.execute(OverrideInitiative(character="c", qr=1, score=20), GM)
    assert table.state.next_to_resolve() == "c"
    assert resolve_all(table) == ["c"]

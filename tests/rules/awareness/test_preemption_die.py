"""Ruling 10 with the die read at the table: a pre-emption declared first, its d10 after.

A tray rolls when the player rolls, not when the command is sent; so ``react`` may come without
its die and the exchange waits for ``enter_preemption``. Either way the outcome must be the same
as a pre-emption declared with its die.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.awareness import AwarenessTable, SituationView
from rules.awareness.commands import (
    Act,
    EnterPreemption,
    Mode,
    OverrideInitiative,
    React,
    Resolve,
    Wait,
)
from rules.awareness.events import PreemptionAwaited, Reacted
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player
from rules.table import Undo

from ..refusals import refused
from .helpers import resolve_all, roll_round, sheet, situation


def exchange_open(coordination: int = 5, a_die: int = 1, b_die: int = 5) -> AwarenessTable:
    """``a`` waits for ``b``, and ``b`` acts: the exchange is open for ``a`` to react."""
    table = situation(sheet("a", coordination=coordination), sheet("b"), sheet("c"))
    roll_round(table, {"a": a_die, "b": b_die, "c": 10})
    table.execute(Wait(character="a", trigger="b moves"), GM)
    table.execute(Act(character="b", what="moves"), GM)
    return table


def declare(table: AwarenessTable, source: Source = Source.DEVICE) -> None:
    (event,) = table.execute(
        React(character="a", to="b", timing="before", what="shoots", source=source), player("a")
    )
    assert isinstance(event, PreemptionAwaited) and event.source is source


def test_a_preemption_without_its_die_waits_for_it_and_everyone_sees_so() -> None:
    table = exchange_open()
    declare(table)
    for viewer in (GM, player("a"), player("b"), OVERLAY):
        shown = table.view(viewer)
        assert isinstance(shown, SituationView) and shown.exchange is not None
        assert [p.character for p in shown.exchange.pending] == ["a"]
        assert shown.awaiting[0].what == "preemption" and shown.awaiting[0].who == ("a",)
        assert shown.exchange.next is None  # the order is not known yet
    assert table.state.next_to_resolve() is None


def test_the_die_places_the_preemption_and_the_exchange_resolves_in_that_order() -> None:
    for die, order in ((4, ["a", "b"]), (9, ["b", "a"])):
        table = exchange_open(coordination=2)  # target 2 + (5 - 1) = 6
        declare(table)
        (event,) = table.execute(EnterPreemption(character="a", die=die), GM)
        assert isinstance(event, Reacted) and event.preempt and event.die == die
        assert event.target == 6 and event.source is Source.DEVICE
        assert table.state.exchange is not None and table.state.exchange.pending == ()
        assert resolve_all(table) == order


def test_the_reactors_player_may_type_the_die_and_the_engine_may_roll_it() -> None:
    table = exchange_open()
    declare(table, Source.GM)
    (typed,) = table.execute(EnterPreemption(character="a", die=3, source=Source.GM), player("a"))
    assert isinstance(typed, Reacted) and typed.die == 3 and typed.source is Source.GM
    table = exchange_open()
    declare(table)
    (rolled,) = table.execute(EnterPreemption(character="a", source=Source.ENGINE, seed=7), GM)
    assert isinstance(rolled, Reacted) and rolled.die is not None and 1 <= rolled.die <= 10


@given(
    coordination=st.integers(0, 12),
    qrs=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    scores=st.tuples(st.integers(-3, 12), st.integers(-3, 12)),
    die=st.integers(1, 10),
)
def test_a_die_entered_later_places_exactly_as_one_given_with_the_reaction(
    coordination: int, qrs: tuple[int, int], scores: tuple[int, int], die: int
) -> None:
    """Any QRs and Scores (ties and the ±1 too), by the GM's override once the exchange opens."""
    tables = []
    for _ in range(2):
        table = exchange_open(coordination)
        for who, qr, score in zip("ab", qrs, scores, strict=True):
            table.execute(OverrideInitiative(character=who, qr=qr, score=score), GM)
        tables.append(table)
    at_once, later = tables
    react = React(
        character="a",
        to="b",
        timing="before",
        what="shoots",
        mode=Mode.ALL_OUT_OFFENSIVE,
        source=Source.DEVICE,
    )
    (direct,) = at_once.execute(react.model_copy(update={"die": die}), GM)
    later.execute(react, GM)
    (entered,) = later.execute(EnterPreemption(character="a", die=die), GM)
    assert entered == direct
    assert later.state == at_once.state
    assert resolve_all(later) == resolve_all(at_once)


def test_undoing_the_die_puts_the_preemption_back_to_waiting() -> None:
    table = exchange_open()
    declare(table)
    pending = table.state
    table.execute(EnterPreemption(character="a", die=2), GM)
    table.execute(Undo(), GM)
    assert table.state == pending


def test_nothing_resolves_while_a_preemption_die_is_awaited() -> None:
    table = exchange_open()
    declare(table)
    refused(table, Resolve(outcome="b moves"), "awareness.10")


def test_no_one_reacts_to_a_preemption_not_yet_placed() -> None:
    table = situation(sheet("a"), sheet("b"), sheet("counter"))
    roll_round(table, {"a": 1, "b": 5, "counter": 2})
    table.execute(Wait(character="a", trigger="b moves"), GM)
    table.execute(Wait(character="counter", trigger="a fires"), GM)
    table.execute(Act(character="b", what="moves"), GM)
    declare(table)
    error = refused(
        table,
        React(character="counter", to="a", timing="before", what="fires", seed=1),
        "awareness.11",
        player("counter"),
    )
    assert error.field == "to"
    table.execute(EnterPreemption(character="a", die=2), GM)
    (countered,) = table.execute(
        React(character="counter", to="a", timing="after", what="fires"), player("counter")
    )
    assert isinstance(countered, Reacted)


def test_a_die_for_no_pending_preemption_or_off_the_die_is_refused() -> None:
    table = exchange_open()
    error = refused(table, EnterPreemption(character="a", die=3), "awareness.10")
    assert error.field == "character"
    declare(table)
    for die in (0, 11):
        error = refused(table, EnterPreemption(character="a", die=die), "awareness.10")
        assert error.field == "die"
    error = refused(table, EnterPreemption(character="b", die=3), "awareness.10")
    assert error.field == "character"


def test_another_player_may_not_enter_the_reactors_die() -> None:
    table = exchange_open()
    declare(table)
    refused(table, EnterPreemption(character="a", die=1), "roles", player("b"))

"""A press names what it moves on from: ``next_panel`` the Panel in play, ``resolve`` whose
action it resolves. A second tap on a button redrawn under the finger is a press made on a step
the table has left, and is refused, naming the rule and ``from``, changing nothing; a press
whose ``from`` is still current does exactly what the command without it does. Played over
random games of each system, so every kind of step comes up: pages and rounds in every phase,
jokers, trades, seizes, pre-emptions, undos."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rules.awareness.situation import Situation
from rules.errors import RuleError
from rules.four_color.commands import START
from rules.four_color.scene import Scene
from rules.megatraveller_rcs.encounter import Encounter
from rules.roles import GM
from rules.table import Table

from .refusals import refused
from .whole_games import AwarenessGame, FourColorGame, Game, RcsGame, choose


def panel_in_play(scene: Scene) -> tuple[Any, list[Any]]:
    """The Panel a press moves on from now, and what a press made earlier could name."""
    now = scene.panels[-1].card if scene.panels else START
    named = [START, *(h.card for h in scene.holdings)]
    return now, [n for n in named if n != now]


def declared(enc: Encounter) -> tuple[Any, list[Any]]:
    now = enc.pending.character if enc.pending is not None else None
    return now, [c.id for c in enc.characters if c.id != now]


def next_to_resolve(sit: Situation) -> tuple[Any, list[Any]]:
    now = sit.next_to_resolve()
    return now, [s.id for s in sit.sheets if s.id != now]


CASES: list[tuple[Game, dict[str, Any], str, Callable[[Any], tuple[Any, list[Any]]]]] = [
    (FourColorGame(), {"type": "next_panel"}, "four-color.3", panel_in_play),
    (RcsGame(), {"type": "resolve", "outcome": "hits"}, "megatraveller-rcs.4", declared),
    (AwarenessGame(), {"type": "resolve", "outcome": "hits"}, "awareness.7", next_to_resolve),
]


def decided(table: Table[Any, Any, Any, Any], command: Any) -> list[Any] | None:
    """The events the GM's command would lead to, the table unchanged; None when refused."""
    try:
        return table.decide(command, GM)
    except RuleError:
        return None


def play(case: int, data: st.DataObject) -> int:
    """A random game of the case's system; at every step where the plain press would be taken,
    the same press from a step the table has left is refused, and from the step it is on does
    the same. Answers how many such steps came."""
    game, press, rule, now = CASES[case]
    parse = game.system.commands.validate_python
    rnd = data.draw(st.randoms(use_true_random=False), label="table")
    table = game.system.table(game.options(rnd))
    for join in game.cast(rnd):
        table.execute(join, GM)
    checked = 0
    for _ in range(data.draw(st.integers(10, 120), label="steps")):
        plain = decided(table, parse(press))
        current, earlier = now(table.state)
        if plain is not None:
            assert decided(table, parse({**press, "from": str(current)})) == plain
        if plain is not None and earlier:  # a cast of one has no step to have left
            checked += 1
            stale = data.draw(st.sampled_from(earlier), label="from")
            error = refused(table, parse({**press, "from": str(stale)}), rule)
            assert error.field == "from", error
        command, actor = choose(game.moves(table.state, rnd), data)
        with suppress(RuleError):  # the game's refused moves are its own tests' business
            table.execute(command, actor)
    return checked


def stale_presses_refused(case: int) -> None:
    checked: list[int] = []

    @settings(deadline=None)
    @given(data=st.data())
    def games(data: st.DataObject) -> None:
        checked.append(play(case, data))

    games()
    assert sum(checked) > 0, "no game came to a step the press could take"


def test_a_next_panel_from_a_panel_the_page_has_left_plays_nothing() -> None:
    stale_presses_refused(0)


def test_a_resolve_of_a_declaration_the_encounter_has_left_resolves_nothing() -> None:
    stale_presses_refused(1)


def test_a_resolve_of_an_action_the_exchange_has_left_resolves_nothing() -> None:
    stale_presses_refused(2)


def test_a_double_tap_on_next_panel_plays_one_panel() -> None:
    """The tablet's case: the second tap of two, on "Next Panel" redrawn in place, named the
    Panel the first moved on from. Invisible Woman's 6♠ is played, and Human Torch's 5♦ not."""
    game = FourColorGame()
    table = game.system.table(game.options(random.Random(0)))
    parse = game.system.commands.validate_python
    for member in ("invisible-woman", "human-torch"):
        table.execute(
            parse({"type": "join", "member": {"id": member, "name": member, "kind": "hero"}}), GM
        )
    table.execute(parse({"type": "deal", "source": "gm"}), GM)
    for card in ("6S", "5D", "2C"):  # the last, the Editor's extra card
        table.execute(parse({"type": "deal_card", "card": card, "source": "gm"}), GM)
    table.execute(parse({"type": "next_panel", "from": "start"}), GM)
    assert str(table.state.panels[-1].card) == "6S"
    error = refused(table, parse({"type": "next_panel", "from": "start"}), "four-color.3")
    assert (error.field, error.message) == (
        "from",
        "that press moved on from the start of the page, but the Panel on 6S is in play: "
        "nothing was played",
    )
    table.execute(parse({"type": "next_panel"}), GM)  # an API client that sends no ``from``
    assert str(table.state.panels[-1].card) == "5D"


@pytest.mark.parametrize("pressed", ["zz", 3, "", "Start"])
def test_a_from_that_names_no_panel_is_refused_at_from(pressed: object) -> None:
    """Neither a card nor ``"start"``: the refusal is at ``from`` itself, as a client sent it,
    not at the inner alternatives it failed to be."""
    with pytest.raises(ValidationError) as error:
        FourColorGame().system.commands.validate_python({"type": "next_panel", "from": pressed})
    assert [e["loc"] for e in error.value.errors()] == [("next_panel", "from")]

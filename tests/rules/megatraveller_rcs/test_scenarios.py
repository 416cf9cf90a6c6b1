"""Scenes from the RCS source text, played through the engine."""

from __future__ import annotations

from rules.megatraveller_rcs.commands import ActionLength, Declare, Resolve, Seize
from rules.megatraveller_rcs.events import Resolved, Seized
from rules.roles import GM, player

from .helpers import act, encounter, line, roll_round

SHORT, LONG = ActionLength.SHORT, ActionLength.LONG


def test_jena_dives_out_the_window_and_a_higher_character_seizes() -> None:
    """Jena, cornered in an office, declares she dives out of the second-storey window. The guard,
    with higher initiative, seizes: he shoots first, and Jena's dive lapses until the token comes
    back to her, when she declares again (the same action) and acts after him."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_round(table, {"jena": (2, 3), "guard": (5, 6)})
    table.execute(
        Declare(character="jena", action=LONG, what="dives out the window", target="the window"),
        player("jena"),
    )
    assert table.view(GM).may_seize == ("guard",)  # type: ignore[attr-defined]
    (seized,) = table.execute(Seize(character="guard"), player("guard"))
    assert isinstance(seized, Seized) and seized.lapsed is not None
    assert seized.lapsed.what == "dives out the window"
    table.execute(
        Declare(character="guard", action=SHORT, what="shoots his rifle", target="jena"), GM
    )
    (shot,) = table.execute(Resolve(outcome="misses"), GM)
    assert isinstance(shot, Resolved) and not shot.turn_over
    act(table, "guard", SHORT)
    assert line(table) == ["jena"]
    table.execute(
        Declare(character="jena", action=LONG, what="dives out the window", target="the window"),
        player("jena"),
    )
    (dive,) = table.execute(Resolve(outcome="lands in the hedge"), GM)
    assert isinstance(dive, Resolved) and dive.turn_over
    assert table.state.tapped == ("guard", "jena")


def test_the_token_moving_onto_a_lower_card_opens_a_seize() -> None:
    table = encounter(("a", "x", 0), ("b", "x", 0), ("c", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (2, 2), "c": (5, 5)})
    act(table, "a")
    assert table.view(GM).token == "b"  # type: ignore[attr-defined]
    assert table.view(GM).may_seize == ("c",)  # type: ignore[attr-defined]
    table.execute(Seize(character="c"), GM)
    assert line(table) == ["c", "b"]


def test_three_characters_chain_seizes() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0), ("c", "x", 0), ("d", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (2, 2), "c": (3, 3), "d": (6, 6)})
    table.execute(Declare(character="a", action=LONG, what="runs", target="door"), GM)
    for seizer, target in (("b", "a"), ("c", "b"), ("d", "c")):
        table.execute(Seize(character=seizer), GM)
        table.execute(Declare(character=seizer, action=LONG, what="shoots", target=target), GM)
    assert line(table) == ["d", "c", "b", "a"]
    table.execute(Resolve(), GM)
    for cid in ("c", "b", "a"):  # each seized declaration lapsed; each declares again in turn
        assert table.state.pending is None and line(table)[0] == cid
        act(table, cid)
    assert table.state.tapped == ("d", "c", "b", "a")


def test_an_interruption_after_one_short_action_leaves_the_marker() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    act(table, "a", SHORT)
    table.execute(Declare(character="a", action=SHORT, what="throws", target="b"), GM)
    table.execute(Seize(character="b"), GM)
    (card,) = [c for c in table.view(GM).line if c.character == "a"]  # type: ignore[attr-defined]
    assert card.marker and card.short_actions_left == 1

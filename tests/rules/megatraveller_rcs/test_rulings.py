"""One test (or a few) per ruling of RULINGS.md ``megatraveller-rcs``, named after it."""

from __future__ import annotations

from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs.commands import (
    ActionLength,
    Character,
    Declare,
    EndTurn,
    EnterRoll,
    Join,
    Resolve,
    RollInitiative,
    Seize,
    SetPool,
    SpendTactics,
)
from rules.megatraveller_rcs.encounter import Phase, RcsOptions
from rules.megatraveller_rcs.events import InitiativeRolled, Joined, Seized
from rules.megatraveller_rcs.view import EncounterView
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player

from ..refusals import refused
from .helpers import act, encounter, line, roll_round

SHORT, LONG = ActionLength.SHORT, ActionLength.LONG


# Ruling 1: initiative = 2D6 + Dex + Movement + Tactics skill (0 if none); each has a side.
def test_ruling_1_initiative_is_2d6_plus_dex_movement_and_tactics() -> None:
    table = encounter()
    jena = Character(id="jena", name="Jena", side="crew", dex=9, movement=3, tactics=2)
    table.execute(Join(character=jena), GM)
    (event,) = table.execute(RollInitiative(seed=99), GM)
    assert isinstance(event, InitiativeRolled)
    (roll,) = event.rolls
    assert len(roll.dice) == 2 and all(1 <= d <= 6 for d in roll.dice)
    assert roll.initiative == sum(roll.dice) + 9 + 3 + 2
    assert table.state.cards["jena"].initiative == roll.initiative


def test_ruling_1_a_roll_from_a_tray_or_the_referee_counts_as_given() -> None:
    table = encounter(("jena", "crew", 1), ("guard", "corp", 0))
    roll_round(table, {"jena": (6, 6), "guard": (1, 2)})
    assert table.state.cards["jena"].initiative == 13
    assert table.state.cards["guard"].initiative == 3


# Ruling 2: the tactics pool.
def test_ruling_2_a_sides_pool_defaults_to_its_highest_tactics_skill() -> None:
    table = encounter(("a", "crew", 1), ("b", "crew", 3), ("c", "corp", 0))
    assert table.state.pools == {"crew": 3, "corp": 0}
    table.execute(SetPool(side="corp", points=2), GM)
    assert table.state.pools["corp"] == 2


def test_ruling_2_points_raise_or_lower_initiative_and_reorder_the_untapped_cards() -> None:
    table = encounter(("a", "crew", 2), ("b", "corp", 0), ("c", "corp", 0))
    roll_round(table, {"a": (1, 1), "b": (3, 3), "c": (4, 4)})  # a 4, b 6, c 8
    assert line(table) == ["a", "b", "c"]
    table.execute(SetPool(side="corp", points=3), GM)
    table.execute(SpendTactics(side="corp", character="b", points=3), GM)  # b 9
    assert line(table) == ["a", "c", "b"]
    table.execute(SpendTactics(side="crew", character="a", points=-1), GM)
    assert table.state.cards["a"].initiative == 3
    assert table.state.pools == {"crew": 1, "corp": 0}


def test_ruling_2_points_spent_on_other_dms_are_recorded_and_gone() -> None:
    table = encounter(("a", "crew", 2), ("b", "corp", 0))
    (event,) = table.execute(
        SpendTactics(side="crew", character="a", points=2, purpose="other", note="cover fire"), GM
    )
    assert event.model_dump()["note"] == "cover fire"
    assert table.state.pools["crew"] == 0


# Ruling 3: lowest first; equal initiatives in a random order once, as tally marks.
def test_ruling_3_lowest_initiative_acts_first_and_ties_are_tallied_once() -> None:
    table = encounter(("a", "x", 0), ("b", "x", 0), ("c", "y", 0), ("d", "y", 0))
    roll_round(table, {"a": (5, 5), "b": (3, 3), "c": (2, 4), "d": (1, 1)}, seed=7)
    tallies = {cid: table.state.cards[cid].tally for cid in "abcd"}
    assert tallies["a"] == 0 and tallies["d"] == 0 and {tallies["b"], tallies["c"]} == {1, 2}
    low, high = sorted("bc", key=lambda cid: tallies[cid])
    assert line(table) == ["d", low, high, "a"]
    act(table, "d")
    assert line(table) == [low, high, "a"]  # the order never changes by itself


def test_ruling_3_a_card_moved_among_equals_enters_from_the_side_it_came_from() -> None:
    table = encounter(("a", "x", 1), ("b", "y", 0), ("c", "y", 0))
    roll_round(table, {"a": (1, 2), "b": (3, 3), "c": (4, 4)})  # a 4, b 6, c 8
    table.execute(SetPool(side="y", points=2), GM)
    table.execute(SpendTactics(side="y", character="c", points=-2), GM)  # c 6, joins b from above
    assert line(table) == ["a", "b", "c"]
    assert table.state.cards["b"].tally < table.state.cards["c"].tally
    table.execute(SetPool(side="x", points=2), GM)
    table.execute(SpendTactics(side="x", character="a", points=2), GM)  # a 6, joins from below
    assert line(table) == ["a", "b", "c"]
    assert [table.state.cards[cid].tally for cid in "abc"] == [1, 2, 3]


# Ruling 4: the Taking Turn Token; declare with a target; two Short Actions or one Long.
def test_ruling_4_the_token_holder_declares_two_short_actions_or_one_long() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    assert table.view(GM).token == "a"  # type: ignore[attr-defined]
    act(table, "a", SHORT)
    refused(
        table,
        Declare(character="a", action=LONG, what="reload", target="rifle"),
        "megatraveller-rcs.4",
    )
    act(table, "a", SHORT)
    assert table.state.tapped == ("a",) and table.view(GM).token == "b"  # type: ignore[attr-defined]


def test_ruling_4_a_turn_may_end_after_one_short_action() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    act(table, "a", SHORT)
    table.execute(EndTurn(character="a"), player("a"))
    assert line(table) == ["b"]


# Ruling 5: seizing the initiative.
def test_ruling_5_a_higher_character_may_seize_when_the_token_moves_onto_a_lower_one() -> None:
    table = encounter(("low", "x", 0), ("mid", "y", 0), ("high", "y", 0))
    roll_round(table, {"low": (1, 1), "mid": (3, 3), "high": (6, 6)})
    assert table.view(GM).may_seize == ("mid", "high")  # type: ignore[attr-defined]
    table.execute(Seize(character="high"), player("high"))
    assert line(table) == ["high", "low", "mid"]
    act(table, "high")
    assert line(table) == ["low", "mid"]


def test_ruling_5_only_after_a_declaration_or_a_token_move_unless_the_referee_rules() -> None:
    table = encounter(("low", "x", 0), ("high", "y", 0))
    roll_round(table, {"low": (1, 1), "high": (6, 6)})
    act(table, "low", SHORT)  # between two Short Actions: no window
    assert table.view(GM).may_seize == ()  # type: ignore[attr-defined]
    refused(table, Seize(character="high"), "megatraveller-rcs.5", player("high"))
    refused(table, Seize(character="high", ruled_interrupt=True), "roles", player("high"))
    (event,) = table.execute(
        Seize(character="high", ruled_interrupt=True, reason="attack of opportunity"), GM
    )
    assert isinstance(event, Seized) and event.ruled_interrupt


def test_ruling_5_an_even_higher_character_may_seize_from_the_seizer() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0), ("c", "x", 0))
    roll_round(table, {"a": (1, 1), "b": (3, 3), "c": (6, 6)})
    table.execute(Declare(character="a", action=LONG, what="runs", target="the door"), GM)
    table.execute(Seize(character="b"), GM)
    table.execute(Declare(character="b", action=LONG, what="shoots", target="a"), GM)
    table.execute(Seize(character="c"), GM)
    assert line(table) == ["c", "b", "a"]
    act(table, "c")
    assert table.state.pending is None and line(table) == ["b", "a"]


# Ruling 6: the interrupted declaration lapses; the one-Short-Action-left marker.
def test_ruling_6_the_interrupted_declaration_lapses_and_is_declared_again() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    table.execute(Declare(character="a", action=LONG, what="runs", target="the door"), GM)
    (event,) = table.execute(Seize(character="b"), GM)
    assert isinstance(event, Seized) and event.lapsed is not None
    act(table, "b")
    assert table.state.pending is None and table.view(GM).token == "a"  # type: ignore[attr-defined]


def test_ruling_6_interrupted_after_one_short_action_leaves_a_marker() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    act(table, "a", SHORT)
    table.execute(Declare(character="a", action=SHORT, what="fires", target="b"), GM)
    table.execute(Seize(character="b"), GM)
    cards = {c.character: c for c in table.view(GM).line}  # type: ignore[attr-defined]
    assert cards["a"].marker and cards["a"].short_actions_left == 1
    act(table, "b")
    refused(table, Declare(character="a", action=LONG, what="x", target="y"), "megatraveller-rcs.4")
    act(table, "a", SHORT)
    assert table.state.phase is Phase.ROUND_OVER


def test_ruling_5_a_suspended_action_comes_back_when_its_actor_seizes_the_token_back() -> None:
    """Declared once, resolved once: the action a ruled interrupt suspended comes back with
    the token when its actor seizes it back, as it does when the token comes down the line,
    so no second declaration is made beside it (a turn is two Short Actions at most)."""
    table = encounter(("a", "crew", 0), ("b", "corp", 0))
    roll_round(table, {"a": (3, 3), "b": (3, 4)})  # a 6 holds, b 7
    table.execute(SetPool(side="corp", points=2), GM)
    table.execute(Declare(character="a", action=LONG, what="runs", target="the door"), GM)
    table.execute(Seize(character="b", ruled_interrupt=True), GM)
    table.execute(SpendTactics(side="corp", character="b", points=-2), GM)  # b 5, behind a
    table.execute(Seize(character="a"), GM)
    pending = table.state.pending
    assert pending is not None and pending.action is LONG and pending.what == "runs"
    again = Declare(character="a", action=SHORT, what="x", target="y")
    refused(table, again, "megatraveller-rcs.4")
    table.execute(Resolve(), GM)
    assert table.state.cards["a"].used == 2 and table.state.holder == "b"
    assert "a" not in table.state.suspended


# Ruling 7: tapped characters neither act nor seize until the next round.
def test_ruling_7_a_tapped_character_can_neither_act_nor_seize() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0), ("c", "x", 0))
    roll_round(table, {"a": (1, 1), "b": (3, 3), "c": (6, 6)})
    table.execute(Seize(character="c"), GM)
    act(table, "c")
    table.execute(Declare(character="a", action=LONG, what="runs", target="door"), GM)
    refused(table, Seize(character="c"), "megatraveller-rcs.7")
    table.execute(SetPool(side="x", points=1), GM)
    refused(table, SpendTactics(side="x", character="c", points=1), "megatraveller-rcs.7")


# Ruling 8: a new round when every card is tapped.
def test_ruling_8_when_all_are_tapped_initiative_is_rolled_again_and_markers_cleared() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    refused(table, RollInitiative(seed=1), "megatraveller-rcs.8")
    act(table, "a", SHORT)
    table.execute(Declare(character="a", action=SHORT, what="fires", target="b"), GM)
    table.execute(Seize(character="b"), GM)
    act(table, "b")
    table.execute(EndTurn(character="a"), GM)
    assert table.state.phase is Phase.ROUND_OVER
    table.execute(RollInitiative(seed=3), GM)
    assert table.state.round == 2 and table.state.tapped == ()
    assert all(c.used == 0 for c in table.state.cards.values())


# Ruling 9: initiative scores are public.
def test_ruling_9_everyone_sees_the_same_cards() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    mine = table.view(player("a"))
    assert table.view(OVERLAY) == table.view(GM) == mine.model_copy(update={"alerts": ()})
    # but for the player's own alerts (rules/alerts.py)
    assert [alert.kind for alert in mine.alerts] == ["turn"]  # type: ignore[attr-defined]
    (event,) = table.execute(Declare(character="a", action=LONG, what="x", target="b"), GM)
    assert table.censor(event, OVERLAY) == event.model_dump(mode="json")


def gm_view(table: RcsTable) -> EncounterView:
    shown = table.view(GM)
    assert isinstance(shown, EncounterView)
    return shown


def late(cid: str, tactics: int = 0) -> Character:
    return Character(id=cid, name=cid.title(), side="z", dex=0, movement=0, tactics=tactics)


def test_ruling_10_a_latecomer_rolls_at_once_from_the_rounds_source_and_takes_its_place() -> None:
    """The round was rolled at the table: the latecomer's roll is awaited from there, first of
    all, and its card is laid untapped where its initiative puts it among those still to act."""
    table = encounter(("a", "x", 0), ("b", "y", 0), ("c", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (3, 3), "c": (6, 6)})  # 2, 6, 12
    act(table, "a")
    (joined,) = table.execute(Join(character=late("d")), GM)
    assert isinstance(joined, Joined) and joined.roll is None and joined.source is Source.GM
    assert gm_view(table).awaiting[0].model_dump() == {"what": "roll", "who": ("d",)}
    table.execute(EnterRoll(character="d", dice=(4, 4), source=Source.GM, seed=1), GM)
    assert line(table) == ["b", "d", "c"]  # 6, 8, 12: a is tapped
    assert table.state.cards["d"].initiative == 8 and "d" not in table.state.tapped
    assert gm_view(table).awaiting[0].what == "declare"
    act(table, "b")
    assert line(table) == ["d", "c"]  # it acts when the token reaches it


def test_ruling_10_a_latecomer_to_an_engine_round_is_rolled_by_the_engine_and_may_seize() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    table.execute(RollInitiative(seed=5), GM)
    (joined,) = table.execute(Join(character=late("d", tactics=20), seed=9), GM)
    assert isinstance(joined, Joined) and joined.roll is not None
    assert joined.source is Source.ENGINE and joined.roll.initiative >= 22
    assert line(table)[-1] == "d" and "d" in table.state.seizers()  # highest, untapped
    table.execute(Seize(character="d"), GM)
    assert table.state.holder == "d"


def test_ruling_10_a_latecomer_tying_a_card_takes_a_random_place_among_equals_once() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0), ("c", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (3, 3), "c": (3, 3)}, seed=4)  # b and c tie at 6
    before = [cid for cid in line(table) if table.state.cards[cid].initiative == 6]
    places = set()
    for seed in range(12):
        branch = encounter(("a", "x", 0), ("b", "y", 0), ("c", "y", 0))
        roll_round(branch, {"a": (1, 1), "b": (3, 3), "c": (3, 3)}, seed=4)
        branch.execute(Join(character=late("d")), GM)
        branch.execute(EnterRoll(character="d", dice=(3, 3), source=Source.GM, seed=seed), GM)
        equals = [cid for cid in line(branch) if branch.state.cards[cid].initiative == 6]
        assert [cid for cid in equals if cid != "d"] == before  # theirs keep their order
        assert [branch.state.cards[cid].tally for cid in equals] == [1, 2, 3]
        places.add(equals.index("d"))
    assert places == {0, 1, 2}


def test_ruling_10_a_table_may_have_latecomers_wait_tapped_for_the_next_round() -> None:
    table = MEGATRAVELLER_RCS.table(RcsOptions(join_mid_round="next_round"))
    for cid in ("a", "b"):
        table.execute(Join(character=late(cid)), GM)
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    (joined,) = table.execute(Join(character=late("d")), GM)
    assert isinstance(joined, Joined) and joined.roll is None and joined.source is None
    assert "d" not in table.state.cards and line(table) == ["a", "b"]
    assert gm_view(table).awaiting[0].what == "declare"
    act(table, "a")
    act(table, "b")
    (rolled,) = table.execute(RollInitiative(seed=2), GM)
    assert isinstance(rolled, InitiativeRolled)
    assert {r.character for r in rolled.rolls} == {"a", "b", "d"}


def test_ruling_10_one_who_joins_while_the_round_is_rolled_rolls_with_the_others() -> None:
    table = encounter(("a", "x", 0))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    table.execute(Join(character=late("d")), GM)
    assert table.state.awaiting_rolls == ("a", "d")
    table.execute(EnterRoll(character="a", dice=(1, 1), source=Source.DEVICE), GM)
    table.execute(EnterRoll(character="d", dice=(6, 6), source=Source.DEVICE, seed=3), GM)
    assert table.state.phase is Phase.ROUND and line(table) == ["a", "d"]


def test_resolving_needs_a_declaration() -> None:
    table = encounter(("a", "x", 0))
    roll_round(table, {"a": (1, 1)})
    refused(table, Resolve(), "megatraveller-rcs.4")

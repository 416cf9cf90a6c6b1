"""One test (or a few) per ruling of RULINGS.md ``awareness``, named after it."""

from __future__ import annotations

from rules.awareness import AwarenessTable, SituationView
from rules.awareness.commands import (
    Act,
    Awareness,
    EnterInitiative,
    Join,
    Mode,
    React,
    Resolve,
    RollInitiative,
    SetAwareness,
    Wait,
)
from rules.awareness.decide import preemption_target, preempts
from rules.awareness.events import InitiativeRolled, Joined, Reacted, Resolved
from rules.awareness.situation import AwarenessOptions, Phase
from rules.awareness.view import ExchangeView
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player

from ..refusals import refused
from .helpers import resolve_all, roll_round, sheet, situation

ALERT, READY, WAITING = Awareness.ALERT, Awareness.READY, Awareness.LYING_IN_WAIT


# Ruling 1: awareness defaults to floor((perception + stealth) / 2); the sheet may set it.
def test_ruling_1_awareness_is_half_perception_plus_stealth_unless_set() -> None:
    assert sheet("a", perception=6, stealth=3).base_awareness == 4
    assert sheet("a", perception=6, stealth=3, awareness=8).base_awareness == 8


# Ruling 2: the awareness ladder and position, set by the GM between rounds.
def test_ruling_2_the_ladder_and_position_move_the_score() -> None:
    options = AwarenessOptions()
    scores = [options.score(sheet("a", state=state)) for state in Awareness]
    assert scores == [1, 3, 5, 7, 9]
    assert options.score(sheet("a", position=-4)) == 1


def test_ruling_2_the_gm_changes_them_between_rounds_only() -> None:
    table = situation(sheet("a"), sheet("b"))
    table.execute(SetAwareness(character="a", state=READY, position=3), GM)
    assert table.state.sheet("a").state is READY  # type: ignore[union-attr]
    assert refused(table, SetAwareness(character="a", position=5), "awareness.2").field == (
        "position"
    )
    roll_round(table, {"a": 5, "b": 5})
    refused(table, SetAwareness(character="a", state=ALERT), "awareness.2")
    refused(table, SetAwareness(character="a", state=ALERT), "roles", player("a"))


# Ruling 3: Initiative Score = awareness + state modifier + position modifier.
def test_ruling_3_the_score_adds_awareness_state_and_position() -> None:
    table = situation(sheet("a", state=READY, position=1, perception=7, stealth=4))
    roll_round(table, {"a": 6})
    assert table.state.initiative["a"].score == 5 + 2 + 1


# Ruling 4: one d10; QR = clamp(d10 - (Score - 5), 1, 10).
def test_ruling_4_the_qr_is_the_die_less_the_score_over_five_clamped() -> None:
    table = situation(
        sheet("alert"), sheet("ambusher", state=WAITING), sheet("dazed", state=Awareness.SURPRISED)
    )
    roll_round(table, {"alert": 6, "ambusher": 2, "dazed": 9})
    qr = {c: i.qr for c, i in table.state.initiative.items()}
    assert qr == {"alert": 6, "ambusher": 1, "dazed": 10}


def test_ruling_4_a_gm_of_another_dice_system_types_qr_and_score() -> None:
    table = situation(sheet("a"))
    table.execute(RollInitiative(source=Source.GM), GM)
    table.execute(EnterInitiative(character="a", qr=3, score=12, source=Source.GM), GM)
    assert table.state.initiative["a"].qr == 3 and table.state.initiative["a"].score == 12


def test_ruling_4_an_engine_roll_is_a_d10() -> None:
    table = situation(sheet("a"), sheet("b"))
    (event,) = table.execute(RollInitiative(seed=11), GM)
    assert isinstance(event, InitiativeRolled)
    assert all(1 <= r.die <= 10 for r in event.results if r.die is not None)


# Ruling 5: best QR first; ties by higher Score; then a hidden roll-off, recorded once.
def test_ruling_5_order_by_qr_then_score_then_a_recorded_rolloff() -> None:
    table = situation(sheet("a"), sheet("b", state=READY), sheet("c"), sheet("d"))
    roll_round(table, {"a": 4, "b": 6, "c": 4, "d": 2}, seed=5)  # QRs 4, 4, 4, 2
    order = table.state.order
    assert order[0] == "d" and order[1] == "b"  # b: QR 4 with the higher Score
    assert set(order[2:]) == {"a", "c"} and set(table.state.rolloff) == {"a", "c"}
    replayed = table.system.table(table.options, table.log).state
    assert replayed.order == order


# Ruling 6: panic (QR 7-9) only all-out; freeze (QR 10) no declaration.
def test_ruling_6_a_panicked_character_acts_all_out_and_never_waits() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 8, "b": 9})
    assert table.state.declaring == "a"
    refused(table, Wait(character="a", trigger="anything"), "awareness.6")
    refused(table, Act(character="a", what="aims carefully"), "awareness.6")
    table.execute(Act(character="a", what="goes berserk", mode=Mode.ALL_OUT_OFFENSIVE), GM)


def test_ruling_6_a_frozen_character_gets_no_declaration() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 10, "b": 9})
    assert table.state.declaring == "b"
    refused(table, Act(character="a", what="x", mode=Mode.ALL_OUT_DEFENSIVE), "awareness.6")
    table.execute(Act(character="b", what="runs and hides", mode=Mode.ALL_OUT_DEFENSIVE), GM)
    resolve_all(table)
    assert table.state.phase is Phase.ROUND_OVER


# Ruling 7: in order, each declares act (resolved as declared) or wait (with its trigger).
def test_ruling_7_declarations_go_in_order_and_an_act_resolves_before_the_next() -> None:
    table = situation(sheet("a"), sheet("b"), sheet("c"))
    roll_round(table, {"a": 3, "b": 1, "c": 5})
    table.execute(Act(character="b", what="shoots"), GM)
    refused(table, Wait(character="a", trigger="x"), "awareness.7")
    assert resolve_all(table) == ["b"]
    table.execute(Wait(character="a", trigger="c moves"), GM)
    assert table.state.declaring == "c"
    assert [d.kind for d in table.state.declarations] == ["act", "wait"]


# Ruling 8: waiting persists until that character's declaration comes round again.
def test_ruling_8_waiting_carries_into_the_next_round_until_the_declaration_comes() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b draws"), GM)
    table.execute(Wait(character="b", trigger="a draws"), GM)
    roll_round(table, {"a": 6, "b": 2})  # b declares first now; a still waits
    assert table.state.waiting == {"a": "b draws", "b": "a draws"}
    table.execute(Act(character="b", what="draws"), GM)
    table.execute(React(character="a", to="b", timing="after", what="fires back"), GM)
    assert resolve_all(table) == ["b", "a"]
    assert table.state.phase is Phase.ROUND_OVER  # a reacted: that was a's action this round


def test_ruling_8_when_the_declaration_comes_round_a_waiter_may_keep_waiting() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b draws"), GM)
    table.execute(Wait(character="b", trigger="a draws"), GM)
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b blinks"), GM)
    assert table.state.waiting["a"] == "b blinks"


# Ruling 9: the surprised get no declaration in round one.
def test_ruling_9_the_totally_unaware_get_no_declaration_in_round_one() -> None:
    table = situation(sheet("victim", state=Awareness.SURPRISED), sheet("ambusher"))
    roll_round(table, {"victim": 1, "ambusher": 6})
    assert table.state.declaring == "ambusher"
    refused(table, Act(character="victim", what="x"), "awareness.9")
    table.execute(Act(character="ambusher", what="stabs"), GM)
    resolve_all(table)
    roll_round(table, {"victim": 1, "ambusher": 6})
    assert table.state.declaring == "victim"


# Ruling 10: reactions: just after with no roll, or a pre-emption to go just before.
def test_ruling_10_going_just_after_needs_no_roll() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b moves"), GM)
    table.execute(Act(character="b", what="moves"), GM)
    (event,) = table.execute(React(character="a", to="b", timing="after", what="follows"), GM)
    assert isinstance(event, Reacted) and not event.preempt and event.die is None


def test_ruling_10_the_preemption_target_is_coordination_plus_the_qr_difference() -> None:
    table = situation(sheet("a", coordination=6), sheet("b", state=READY))
    roll_round(table, {"a": 3, "b": 7})  # a: QR 3, Score 5; b: QR 5, Score 7
    assert preemption_target(table.state, "a", "b") == 6 + (5 - 3)
    table = situation(sheet("a", coordination=6), sheet("b", state=READY))
    roll_round(table, {"a": 5, "b": 7})  # equal QRs (5): b has the higher Score
    assert preemption_target(table.state, "a", "b") == 6 - 1
    assert preemption_target(table.state, "b", "a") == 5 + 1


def test_ruling_10_a_natural_ten_always_fails_and_a_natural_one_always_succeeds() -> None:
    options = AwarenessOptions()
    assert not preempts(options, 10, 15)
    assert preempts(options, 1, -5)
    assert preempts(options, 4, 4) and not preempts(options, 5, 4)


def test_ruling_10_success_goes_just_before_and_failure_just_after() -> None:
    for die, order in ((4, ["a", "b"]), (9, ["b", "a"])):
        table = situation(sheet("a", coordination=2), sheet("b"))
        roll_round(table, {"a": 1, "b": 5})
        table.execute(Wait(character="a", trigger="b moves"), GM)
        table.execute(Act(character="b", what="moves"), GM)
        table.execute(
            React(
                character="a", to="b", timing="before", what="shoots", die=die, source=Source.DEVICE
            ),
            GM,
        )
        assert resolve_all(table) == order  # target 2 + (5 - 1) = 6


# Ruling 11: chains; several pre-emptors in initiative order; a pre-empted action may lapse.
def test_ruling_11_several_successful_preemptors_act_in_initiative_order() -> None:
    table = situation(sheet("x"), sheet("y"), sheet("actor"))
    roll_round(table, {"x": 3, "y": 2, "actor": 8})
    table.execute(Wait(character="y", trigger="anything"), GM)
    table.execute(Wait(character="x", trigger="anything"), GM)
    table.execute(Act(character="actor", what="x", mode=Mode.ALL_OUT_OFFENSIVE), GM)
    for cid in ("x", "y"):
        table.execute(
            React(
                character=cid, to="actor", timing="before", what="shoot", die=2, source=Source.GM
            ),
            GM,
        )
    assert table.state.sequence() == ("y", "x", "actor")


def test_ruling_11_a_preemption_can_itself_be_preempted() -> None:
    table = situation(
        sheet("sniper", coordination=7), sheet("counter", coordination=6), sheet("target")
    )
    roll_round(table, {"sniper": 1, "counter": 2, "target": 3})
    table.execute(Wait(character="sniper", trigger="target moves"), GM)
    table.execute(Wait(character="counter", trigger="the sniper fires"), GM)
    table.execute(Act(character="target", what="moves"), GM)
    table.execute(
        React(
            character="sniper", to="target", timing="before", what="fires", die=2, source=Source.GM
        ),
        GM,
    )
    table.execute(
        React(
            character="counter", to="sniper", timing="before", what="fires", die=3, source=Source.GM
        ),
        GM,
    )
    assert table.state.sequence() == ("counter", "sniper", "target")


def test_ruling_11_the_engine_asks_whether_a_preempted_action_could_still_happen() -> None:
    table = situation(sheet("a", coordination=9), sheet("b"))
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b moves"), GM)
    table.execute(Act(character="b", what="moves"), GM)
    table.execute(
        React(character="a", to="b", timing="before", what="shoots", die=2, source=Source.GM), GM
    )
    assert not _exchange(table).next_preempted  # a goes first: no one pre-empted a
    table.execute(Resolve(outcome="hits b"), GM)
    assert _exchange(table).next_preempted  # b was pre-empted: could b still act?
    (event,) = table.execute(Resolve(performed=False), GM)
    assert isinstance(event, Resolved) and event.character == "b" and not event.performed
    assert table.state.exchange is None


def _exchange(table: AwarenessTable) -> ExchangeView:
    shown = table.view(GM)
    assert isinstance(shown, SituationView) and shown.exchange is not None
    return shown.exchange


# Ruling 12: nobody but the GM sees another's QR, Score or rolls, or the order to come.
def test_ruling_12_a_player_sees_their_own_initiative_and_nobody_elses() -> None:
    table = situation(sheet("a"), sheet("b"), sheet("c"))
    roll_round(table, {"a": 3, "b": 1, "c": 5})
    shown = table.view(player("a"))
    assert isinstance(shown, SituationView)
    seen = {c.id: c for c in shown.characters}
    assert seen["a"].initiative is not None and seen["a"].sheet is not None
    assert seen["b"].initiative is None and seen["b"].sheet is None
    assert shown.declaring == "b" and shown.upcoming is None
    gm = table.view(GM)
    assert isinstance(gm, SituationView) and gm.upcoming == ("b", "a", "c")


def test_ruling_12_reveal_order_shows_the_order_to_come_but_not_the_numbers() -> None:
    table = situation(sheet("a"), sheet("b"), reveal_order=True)
    roll_round(table, {"a": 3, "b": 1})
    shown = table.view(OVERLAY)
    assert isinstance(shown, SituationView) and shown.upcoming == ("b", "a")
    assert all(c.initiative is None for c in shown.characters)


def test_ruling_12_events_reach_players_with_others_initiative_cut_out() -> None:
    table = situation(sheet("a"), sheet("b"))
    (event,) = table.execute(RollInitiative(seed=3), GM)
    seen = table.censor(event, player("a"))
    assert seen is not None and [r["character"] for r in seen["results"]] == ["a"]
    assert seen["rolloff"] == {}
    overlay = table.censor(event, OVERLAY)
    assert overlay is not None and overlay["results"] == []


def test_ruling_12_what_a_character_waits_for_is_the_gms_and_the_waiters_alone() -> None:
    """The hostage-taker never learns what the police sniper waits for: others see that the
    sniper waits, in the view and in the event, never the trigger."""
    table = situation(sheet("sniper"), sheet("taker"))
    roll_round(table, {"sniper": 1, "taker": 5})
    (event,) = table.execute(Wait(character="sniper", trigger="the taker raises the gun"), GM)
    for viewer in (player("taker"), OVERLAY):
        seen = table.censor(event, viewer)
        assert seen is not None and seen["kind"] == "wait" and seen["what"] == ""
        shown = table.view(viewer)
        assert isinstance(shown, SituationView)
        sniper = next(c for c in shown.characters if c.id == "sniper")
        assert sniper.waits and sniper.waiting is None
        assert [d.what for d in shown.declarations] == [""]
    for viewer in (GM, player("sniper")):
        assert table.censor(event, viewer) == event.model_dump(mode="json")
        shown = table.view(viewer)
        assert isinstance(shown, SituationView)
        assert [d.what for d in shown.declarations] == ["the taker raises the gun"]


def test_ruling_12_a_table_may_reveal_what_everyone_waits_for() -> None:
    table = situation(sheet("sniper"), sheet("taker"), reveal_triggers=True)
    roll_round(table, {"sniper": 1, "taker": 5})
    (event,) = table.execute(Wait(character="sniper", trigger="the taker raises the gun"), GM)
    seen = table.censor(event, OVERLAY)
    assert seen is not None and seen["what"] == "the taker raises the gun"


def test_ruling_12_a_preemption_die_is_the_reactors_and_its_target_the_gms() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b moves"), GM)
    table.execute(Act(character="b", what="moves"), GM)
    (event,) = table.execute(
        React(character="a", to="b", timing="before", what="shoots", die=4, source=Source.GM), GM
    )
    assert table.censor(event, player("a")) == {**event.model_dump(mode="json"), "target": None}
    seen = table.censor(event, player("b"))
    assert seen is not None and seen["die"] is None and seen["target"] is None
    assert seen["placed"] == "before"


def test_ruling_13_a_latecomer_rolls_at_once_and_declares_when_its_place_comes() -> None:
    """The round's dice came from the tray, so the latecomer's d10 is awaited from it; its
    place (QR 4, between A's 1 and B's 6) has not come yet, so it declares when it does."""
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 1, "b": 6})
    (joined,) = table.execute(Join(sheet=sheet("late")), GM)
    assert isinstance(joined, Joined) and joined.result is None and joined.source is Source.DEVICE
    shown = table.view(GM)
    assert isinstance(shown, SituationView)
    assert shown.awaiting[0].model_dump() == {"what": "initiative", "who": ("late",)}
    table.execute(EnterInitiative(character="late", die=4, seed=2), GM)
    assert table.state.order == ("a", "late", "b") and table.state.declaring == "a"
    table.execute(Wait(character="a", trigger="someone moves"), GM)
    assert table.state.declaring == "late"
    assert not table.state.may_react("late")  # it is not waiting


def test_ruling_13_a_latecomer_whose_place_has_passed_declares_next_round() -> None:
    """A and B have declared. A latecomer with QR 2 falls between them: B, after it, has
    declared, so its place has passed. One with QR 7 comes after C, still to come."""
    for die, declares in ((2, "c"), (7, "c")):
        table = situation(sheet("a"), sheet("b"), sheet("c"))
        roll_round(table, {"a": 1, "b": 3, "c": 6})
        table.execute(Wait(character="a", trigger="x"), GM)
        table.execute(Wait(character="b", trigger="y"), GM)
        table.execute(Join(sheet=sheet("late")), GM)
        table.execute(EnterInitiative(character="late", die=die, seed=1), GM)
        assert table.state.declaring == declares
        assert ("late" in table.state.declared) is (die == 2)
        table.execute(Wait(character="c", trigger="z"), GM)
        assert table.state.declaring == (None if die == 2 else "late")


def test_ruling_13_a_latecomers_initiative_is_its_owners_and_the_gms() -> None:
    table = situation(sheet("a"), sheet("b"))
    table.execute(RollInitiative(seed=4), GM)
    (joined,) = table.execute(Join(sheet=sheet("late"), seed=5), GM)
    assert isinstance(joined, Joined) and joined.result is not None
    for viewer in (player("a"), OVERLAY):
        seen = table.censor(joined, viewer)
        assert seen is not None and seen["result"] is None and seen["rolloff"] is None
    own = table.censor(joined, player("late"))
    assert own is not None and own["result"]["die"] == joined.result.die


def test_ruling_13_one_who_joins_while_the_dice_come_in_rolls_with_the_others() -> None:
    table = situation(sheet("a"))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    table.execute(Join(sheet=sheet("late")), GM)
    assert table.state.awaiting_rolls == ("a", "late")
    table.execute(EnterInitiative(character="a", die=2), GM)
    table.execute(EnterInitiative(character="late", die=5, seed=1), GM)
    assert table.state.phase is Phase.DECLARING and table.state.order == ("a", "late")

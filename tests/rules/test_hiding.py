"""Hidden participants in each system (the shared rulings): nothing of them reaches players and
overlays, they keep their place, and acting reveals them, with an event, just before the step
that shows them acting."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.awareness.commands import (
    Act,
    EnterInitiative,
    EnterPreemption,
    Join,
    Mode,
    React,
    Resolve,
    RollInitiative,
    Sheet,
    Wait,
)
from rules.awareness.events import InitiativeRolled
from rules.awareness.situation import Phase
from rules.awareness.view import GM_BUSY
from rules.cards import parse_card
from rules.chronicle import chronicle
from rules.errors import RoleError, RuleError
from rules.four_color import FOUR_COLOR, FourColorOptions
from rules.four_color.commands import (
    AssignCard,
    Deal,
    DealCard,
    Kind,
    Member,
    NextPanel,
    OfferTrade,
)
from rules.four_color.commands import Join as FourColorJoin
from rules.four_color.scene import FULL_DECK
from rules.four_color.scene import Phase as FourColorPhase
from rules.hiding import Hide, Reveal, Revealed, scrubbed
from rules.megatraveller_rcs.commands import (
    Character,
    Declare,
    EnterRoll,
    Seize,
    SetPool,
    SpendTactics,
)
from rules.megatraveller_rcs.commands import Join as RcsJoin
from rules.megatraveller_rcs.commands import Resolve as Done
from rules.megatraveller_rcs.commands import RollInitiative as RollRcs
from rules.megatraveller_rcs.events import InitiativeRolled as RcsRolled
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer, player
from rules.standing import Window
from rules.table import Table, Undo, Undone

from .awareness.helpers import roll_round as roll_awareness
from .awareness.helpers import sheet, situation
from .four_color.helpers import scene
from .megatraveller_rcs.helpers import encounter
from .megatraveller_rcs.helpers import roll_round as roll_rcs

AnyTable = Table[Any, Any, Any, Any]


def shown(table: AnyTable, viewer: Viewer, since: int = 0) -> str:
    """What ``viewer`` is shown: the view now, and the events from sequence ``since`` + 1."""
    view = json.loads(table.view(viewer).model_dump_json())
    return json.dumps([view, *told(table, viewer, list(table.log[since:]))])


def told(table: AnyTable, viewer: Viewer, events: list[Any]) -> list[Any]:
    return [table.censor(e, viewer) for e in events]


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


def test_a_hidden_villain_keeps_its_card_and_its_panel_reveals_it() -> None:
    table = scene(heroes=2)
    villain = {"id": "boss", "name": "Doctor Null", "kind": "villain"}
    table.execute(
        table.system.commands.validate_python({"type": "join", "member": villain, "hidden": True}),
        GM,
    )
    deal(table, {"h1": "KS", "h2": "QH", "boss": "JC"})
    assert [h.holder for h in table.state.ranked_in_hand()][:3] == ["h1", "h2", "boss"]
    for viewer in (OVERLAY, player("h1")):
        assert "boss" not in shown(table, viewer) and "Null" not in shown(table, viewer)
        assert [c.holder for c in table.view(viewer).order] == ["h1", "h2"]  # type: ignore[attr-defined]
    assert table.view(GM).hidden == ("boss",)  # type: ignore[attr-defined]
    table.execute(NextPanel(), GM)
    table.execute(NextPanel(), GM)
    before = len(table.log)
    events = table.execute(NextPanel(), GM)
    assert types(events) == ["revealed", "panel_played"]
    assert events[0] == Revealed(participant="boss", acting=True, unseen=())
    assert "boss" not in json.dumps(told(table, OVERLAY, list(table.log[:before])))
    assert "Null" in shown(table, OVERLAY) and table.view(OVERLAY).hidden == ()  # type: ignore[attr-defined]


def test_a_trade_with_someone_hidden_is_refused_as_with_no_one() -> None:
    table = scene(heroes=2)
    table.execute(Hide(participant="h2"), GM)
    deal(table, {"h1": "2S", "h2": "KH"})
    hidden = refusal(table, OfferTrade(hero="h1", partner="h2"), player("h1"))
    nobody = refusal(table, OfferTrade(hero="h1", partner="zz"), player("h1"))
    assert hidden.rule == nobody.rule == "hidden"
    assert hidden.message.replace("h2", "zz") == nobody.message
    assert table.execute(OfferTrade(hero="h1", partner="h2"), player("h1", "h2"))  # its player may
    assert not table.state.hidden, "a trade is made in the open"


def deal(table: AnyTable, cards: dict[str, str], extra: str = "9D") -> None:
    """A page dealt by hand: each member the card given, the Editor's extra cards ``extra``
    and the low diamonds after it."""
    spare = iter([extra, "3D", "4D", "5D", "6D"])
    table.execute(Deal(source=Source.GM), GM)
    while table.state.to_deal:
        to = table.state.to_deal[0]
        card = cards[to] if to in cards else next(spare)
        table.execute(DealCard(card=parse_card(card), to=to, source=Source.GM), GM)


def refusal(table: AnyTable, command: Any, actor: Viewer) -> RuleError:
    before = (table.state, len(table.log))
    with pytest.raises(RuleError) as refused:
        table.execute(command, actor)
    assert (table.state, len(table.log)) == before
    return refused.value


def test_an_editors_card_on_a_hidden_villain_stays_secret_and_hidden() -> None:
    table = scene(heroes=2, villains=1)
    table.execute(Hide(participant="v1"), GM)
    since = len(table.log)
    deal(table, {"h1": "2S", "h2": "4S", "v1": "3S"}, extra="KD")
    table.execute(AssignCard(card=parse_card("KD"), acting="v1"), GM)
    assert "v1" not in shown(table, player("h1"), since)
    assert "KD" not in shown(table, player("h1"), since)


def test_a_hidden_rcs_character_is_revealed_when_the_token_reaches_it() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0), ("ambusher", "corp", 0))
    table.execute(Hide(participant="ambusher"), GM)
    hidden_from = len(table.log)
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6), "ambusher": (4, 4)})
    assert table.state.line[:2] == ("jena", "ambusher")
    view = table.view(player("jena"))
    assert [c.character for c in view.line] == ["jena", "guard"]  # type: ignore[attr-defined]
    assert "ambusher" not in shown(table, OVERLAY, hidden_from)
    assert table.view(GM).hidden == ("ambusher",)  # type: ignore[attr-defined]
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    events = table.execute(Done(), GM)
    assert types(events) == ["revealed", "resolved"], "the token moved to the ambusher"
    assert table.view(OVERLAY).token == "ambusher"  # type: ignore[attr-defined]


def test_an_rcs_round_starts_without_a_hidden_roll_and_the_roll_takes_its_place() -> None:
    """The shared rulings, "No tells": the round starts with the last roll players wait for,
    its tallies as without the ambusher; the ambusher's roll, landing below the token, takes
    the token in its place (revealing it), and the holder's declaration lapses."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    ambusher = Character(id="amb", name="Ambusher", side="corp", dex=0, movement=-3, tactics=0)
    table.execute(RcsJoin(character=ambusher, hidden=True), GM)
    table.execute(RollRcs(source=Source.DEVICE), GM)
    table.execute(EnterRoll(character="jena", dice=(3, 3), seed=0), player("jena"))
    (started,) = table.execute(EnterRoll(character="guard", dice=(4, 4), seed=0), GM)
    assert started.tallies == {} and table.state.holder == "jena"  # type: ignore[union-attr]
    view = table.view(player("jena"))
    assert view.token == "jena" and [a.what for a in view.awaiting] == ["declare"]  # type: ignore[attr-defined]
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    events = table.execute(EnterRoll(character="amb", dice=(1, 1), source=Source.GM, seed=0), GM)
    assert types(events) == ["revealed", "roll_entered"]
    assert events[1].lapsed.what == "runs"  # type: ignore[union-attr]
    assert table.state.holder == "amb" and table.state.pending is None
    assert table.view(OVERLAY).line[1].character == "jena"  # type: ignore[attr-defined]


def test_a_hidden_rcs_character_seizing_is_revealed_by_its_seize() -> None:
    table = encounter(("jena", "crew", 0), ("ambusher", "corp", 0))
    roll_rcs(table, {"jena": (1, 1), "ambusher": (5, 5)})
    table.execute(Hide(participant="ambusher"), GM)
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    assert table.view(player("jena")).may_seize == ()  # type: ignore[attr-defined]
    assert table.view(GM).may_seize == ("ambusher",)  # type: ignore[attr-defined]
    events = table.execute(Seize(character="ambusher"), GM)
    assert types(events) == ["revealed", "seized"]
    assert table.censor(events[1], OVERLAY) is not None


def test_the_sniper_lying_in_wait_is_seen_only_when_its_shot_resolves() -> None:
    table = situation(sheet("kid"), sheet("bart"))
    table.execute(Join(sheet=sheet("sniper"), hidden=True), GM)
    roll_awareness(table, {"sniper": 1, "kid": 4, "bart": 9})
    assert table.state.declaring == "sniper"
    assert table.view(player("kid")).declaring == "kid", "the sniper holds no one up"  # type: ignore[attr-defined]
    table.execute(Wait(character="sniper", trigger="Kid draws"), GM)
    table.execute(Act(character="kid", what="draws"), player("kid"))
    table.execute(React(character="sniper", to="kid", timing="before", what="fires", die=10), GM)
    assert table.state.hidden == {"sniper"}, "neither a wait nor a pre-emption reveals"
    assert "sniper" not in shown(table, player("kid")) and "Sniper" not in shown(table, OVERLAY)
    first = table.state.next_to_resolve()
    events = table.execute(Resolve(outcome="the Kid drops"), GM)
    if first == "sniper":
        assert types(events) == ["revealed", "resolved"]
    while table.state.resolving is not None:
        table.execute(Resolve(), GM)
    assert not table.state.hidden and "Sniper" in shown(table, OVERLAY, len(table.log))


def test_a_refusal_names_no_one_hidden_but_to_the_gm_and_its_player() -> None:
    roster = [Sheet(id="sniper", name="Lone Rifleman", perception=5, stealth=5, coordination=5)]
    error = RuleError("x.1", "only one faster than 'sniper' (Lone Rifleman) may", field="to")
    hidden = frozenset({"sniper"})
    told = scrubbed(error, player("kid"), hidden, roster)
    assert told.message == "only one faster than someone (someone) may" and told.field == "to"
    assert scrubbed(error, GM, hidden, roster) is error
    assert scrubbed(error, player("sniper"), hidden, roster) is error
    assert isinstance(scrubbed(RoleError("not 'sniper'"), OVERLAY, hidden, roster), RoleError)


def test_hiding_is_the_gms_and_each_step_undoes() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    assert refusal(table, Hide(participant="guard"), player("jena")).rule == "roles"
    assert refusal(table, Reveal(participant="guard"), GM).rule == "hidden"
    assert refusal(table, Hide(participant="nobody"), GM).field == "participant"
    seen = table.numbering.count(OVERLAY)
    table.execute(Hide(participant="guard"), GM)
    # Seen until now, the guard is seen to go: the step is the stream's too, as nothing more.
    read = table.log.__getitem__
    assert table.numbering.since(OVERLAY, seen, lambda n: read(n - 1)) == [(seen + 1, None)]
    assert refusal(table, Hide(participant="guard"), GM).rule == "hidden"
    table.execute(Undo(), GM)
    assert not table.state.hidden and "guard" in shown(table, OVERLAY, len(table.log))
    undone = {"type": "undone", "undoes": seen + 1}
    assert table.numbering.since(OVERLAY, seen + 1, lambda n: read(n - 1)) == [(seen + 2, undone)]


def test_a_table_that_never_hides_anyone_logs_as_before() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6)})
    assert all("unseen" not in table.system.events.dump_json(e).decode() for e in table.log)
    table.execute(Hide(participant="guard"), GM)
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    stamped = json.loads(table.system.events.dump_json(table.log[-1]))
    assert stamped["unseen"] == ["guard"]
    assert "unseen" not in table.censor(table.log[-1], OVERLAY)  # type: ignore[operator]


NAMINGS = [
    lambda c, t: React(character=c, to=t, timing="after", what="ducks"),
    lambda c, t: React(character=t, to=c, timing="before", what="fires", die=7),
    lambda c, t: Wait(character=c, trigger="the Kid draws"),
    lambda c, t: Act(character=c, what="fires"),
    lambda c, t: EnterPreemption(character=c, die=3),
]


@given(
    st.sampled_from(NAMINGS),
    st.sampled_from(["kid", "bart"]),
    st.sampled_from([player("bart"), player("kid"), player("kid", "bart"), OVERLAY]),
)
def test_a_player_naming_someone_hidden_learns_what_naming_no_one_teaches(
    naming: Any, other: str, sender: Viewer
) -> None:
    """Whatever a player sends that names the hidden sniper is answered exactly as the same
    command naming "nobody" is."""
    table = situation(sheet("kid"), sheet("bart"))
    table.execute(Join(sheet=sheet("sniper"), hidden=True), GM)
    roll_awareness(table, {"kid": 1, "sniper": 4, "bart": 9})
    table.execute(Act(character="kid", what="draws"), GM)
    one = refusal(table, naming("sniper", other), sender)
    another = refusal(table, naming("nobody", other), sender)
    assert (one.rule, one.field, one.message.replace("sniper", "nobody")) == (
        another.rule,
        another.field,
        another.message,
    )


def test_a_tie_or_a_pool_gives_no_hidden_rcs_character_away() -> None:
    """Ties are marked on the cards, and a pool is its side's best Tactics: neither may count
    one the viewer cannot see."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 1))
    table.execute(
        RcsJoin(
            character=Character(id="boss", name="Boss", side="corp", dex=0, movement=0, tactics=3),
            hidden=True,
        ),
        GM,
    )
    roll_rcs(table, {"jena": (1, 1), "guard": (4, 4), "boss": (4, 2)})
    gm, overlay = table.view(GM), table.view(OVERLAY)
    assert {c.character: c.tally for c in gm.line} == {"jena": 0, "guard": 1, "boss": 2}  # type: ignore[attr-defined]
    assert {c.character: c.tally for c in overlay.line} == {"jena": 0, "guard": 0}  # type: ignore[attr-defined]
    assert gm.pools["corp"] == 3 and overlay.pools["corp"] == 1  # type: ignore[attr-defined]
    table.execute(Reveal(participant="boss"), GM)
    assert table.view(OVERLAY).pools["corp"] == 3  # type: ignore[attr-defined]


@given(
    dice=st.lists(st.integers(2, 4), min_size=4, max_size=4),
    order=st.permutations(range(4)),
    engine=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_tie_with_a_hidden_card_leaves_the_seen_cards_marked_as_if_it_were_not_there(
    dice: list[int], order: list[int], engine: bool, seed: int
) -> None:
    """The tally marks an event carries, as a player or the stream is shown them, are those a
    table without the hidden would have drawn: each tie of cards they see marked from one, in
    the order drawn, and a card tied only to a hidden one not marked at all; as the view has
    them once the event is in. Initiatives of 2-4 make ties likely, the hidden card's among
    them; the rolls come all at once, or typed in any order (a card laid mid-round is placed
    among those it ties)."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0), ("sarge", "crew", 0))
    boss = Character(id="boss", name="Boss", side="corp", dex=0, movement=0, tactics=0)
    table.execute(RcsJoin(character=boss, hidden=True), GM)
    who = ("jena", "guard", "sarge", "boss")
    if engine:
        steps: list[Any] = [RollRcs(source=Source.ENGINE, seed=seed)]
    else:
        steps = [RollRcs(source=Source.GM)]
        for n in order:
            pair = (1, dice[n] - 1)
            steps.append(EnterRoll(character=who[n], dice=pair, source=Source.GM, seed=seed))
    for step in steps:
        for event in table.execute(step, GM):
            tallies: dict[str, int] = getattr(event, "tallies", None) or {}
            if not tallies:
                continue
            drawn = {c.character: c.tally for c in table.view(GM).line}  # type: ignore[attr-defined]
            for viewer in (OVERLAY, player("jena")):
                shown = table.censor(event, viewer)
                if shown is None:
                    continue  # the hidden card's own roll: none of theirs
                line = {c.character: c.tally for c in table.view(viewer).line}  # type: ignore[attr-defined]
                marks = shown["tallies"]
                assert {c: marks.get(c, 0) for c in tallies if c in line} == {
                    c: line[c] for c in tallies if c in line
                }, viewer
                for tied in _ties(marks):
                    assert sorted(tied, key=drawn.__getitem__) == tied  # the order drawn, kept


def _ties(tallies: dict[str, int]) -> list[list[str]]:
    """The groups of tied cards an event's tally marks show, each in its marks' order."""
    groups: list[list[str]] = []
    for character, mark in tallies.items():
        if mark == 1:
            groups.append([])
        groups[-1].append(character)
    return groups


def test_a_side_of_none_but_hidden_rcs_characters_is_not_shown() -> None:
    """An ambush's side is a secret too: its name in the pools would tell of it. Revealing one
    of its characters shows the side and its pool."""
    table = encounter(("jena", "crew", 2))
    table.execute(
        RcsJoin(
            character=Character(
                id="amb", name="Ambusher", side="assassins", dex=0, movement=0, tactics=2
            ),
            hidden=True,
        ),
        GM,
    )
    assert table.view(GM).pools == {"crew": 2, "assassins": 2}  # type: ignore[attr-defined]
    for viewer in (OVERLAY, player("jena")):
        assert "assassins" not in shown(table, viewer)
    assert table.view(player("amb")).pools == {"crew": 2, "assassins": 2}  # type: ignore[attr-defined]
    table.execute(Reveal(participant="amb"), GM)
    assert table.view(OVERLAY).pools == {"crew": 2, "assassins": 2}  # type: ignore[attr-defined]


def test_one_undo_takes_back_a_step_and_the_reveal_its_acting_caused() -> None:
    """The shared rulings, "Undo and reveals": the ambusher is hidden again, in one press."""
    table = encounter(("jena", "crew", 0), ("ambusher", "corp", 0), ("guard", "corp", 0))
    table.execute(Hide(participant="ambusher"), GM)
    roll_rcs(table, {"jena": (1, 1), "ambusher": (4, 4), "guard": (6, 6)})
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    before, hidden_view = table.state, shown(table, OVERLAY, len(table.log))
    revealing = len(table.log)
    assert types(table.execute(Done(), GM)) == ["revealed", "resolved"]
    undone = table.execute(Undo(), GM)
    assert [u.undoes for u in undone] == [revealing + 2, revealing + 1]  # type: ignore[union-attr]
    assert table.state == before and table.state.hidden == {"ambusher"}
    assert shown(table, OVERLAY, len(table.log)) == hidden_view
    assert table.view(OVERLAY).token == "jena"  # type: ignore[attr-defined]
    table.execute(Undo(), GM)  # the next undo takes the declaration, not a stray reveal
    assert table.view(GM).declared is None and table.state.hidden == {"ambusher"}  # type: ignore[attr-defined]


def test_a_reveal_by_hand_is_a_step_of_its_own() -> None:
    table = encounter(("jena", "crew", 0), ("ambusher", "corp", 0))
    table.execute(Hide(participant="ambusher"), GM)
    roll_rcs(table, {"jena": (1, 1), "ambusher": (4, 4)})
    table.execute(Reveal(participant="ambusher"), GM)
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    table.execute(Done(), GM)  # the token moves onto the ambusher, seen already: no reveal
    for _ in range(2):
        assert len(table.execute(Undo(), GM)) == 1
        assert not table.state.hidden
    assert len(table.execute(Undo(), GM)) == 1
    assert table.state.hidden == {"ambusher"}, "the third undo takes back the reveal by hand"


def test_an_undo_reaching_behind_its_window_still_takes_the_reveal_with_the_step() -> None:
    """A table restored from a snapshot knows no standing event before it: the undo reads the
    log back to find the reveal that goes with the step."""
    played = scene(heroes=2)
    villain = {"id": "boss", "name": "Doctor Null", "kind": "villain"}
    played.execute(
        played.system.commands.validate_python({"type": "join", "member": villain, "hidden": True}),
        GM,
    )
    deal(played, {"h1": "KS", "h2": "QH", "boss": "JC"})
    played.execute(NextPanel(), GM)
    played.execute(NextPanel(), GM)
    before = played.state
    assert types(played.execute(NextPanel(), GM)) == ["revealed", "panel_played"]
    restored = Table.restore(played.system, played.options, list(played.log), played.state)
    assert len(restored.execute(Undo(), GM)) == 2
    assert restored.state == before and restored.state.hidden == {"boss"}
    # A checkpoint at every step, two kept: the window may hold the Panel, not its reveal.
    narrow = Table(played.system, played.options, played.log, Window(every=1, kept=2))
    last = len(played.log)
    assert narrow.execute(Undo(), GM) == [Undone(undoes=last), Undone(undoes=last - 1)]
    assert narrow.state == before


def test_a_hidden_declaration_holds_no_one_up_and_an_act_in_its_place_lapses_later_waits() -> None:
    """The shared rulings, "No tells": while the sniper has yet to declare, the Kid's phone
    and the stream show the Kid declaring, as without it, and the Kid may. When the sniper then
    acts, its act takes its place, first: the Kid's wait, made after that place, lapses, and
    the Kid declares again once the shot is resolved."""
    table = situation(sheet("kid"), sheet("bart"))
    table.execute(Join(sheet=sheet("sniper"), hidden=True), GM)
    for viewer in (player("kid"), OVERLAY):
        assert table.view(viewer).awaiting == (GM_BUSY,), "between rounds, as without it"  # type: ignore[attr-defined]
    roll_awareness(table, {"sniper": 1, "kid": 4, "bart": 9})
    assert table.state.declaring == "sniper"
    for viewer in (player("kid"), OVERLAY):
        view = table.view(viewer)
        assert view.declaring == "kid" and view.awaiting[0].who == ("kid",)  # type: ignore[attr-defined]
    assert table.view(GM).awaiting[0].who == ("sniper",)  # type: ignore[attr-defined]
    table.execute(Wait(character="kid", trigger="someone moves"), player("kid"))
    assert table.view(OVERLAY).declaring == "bart"  # type: ignore[attr-defined]
    events = table.execute(Act(character="sniper", what="fires at the Kid"), GM)
    assert types(events) == ["revealed", "declared"]
    assert events[1].lapsed == ("kid",)  # type: ignore[union-attr]
    assert "kid" not in table.state.declared and "kid" not in table.state.waiting
    assert [d.character for d in table.view(OVERLAY).declarations] == ["sniper"]  # type: ignore[attr-defined]
    table.execute(Resolve(outcome="the Kid ducks"), GM)
    assert table.view(OVERLAY).declaring == "kid", "the Kid declares again"  # type: ignore[attr-defined]
    table.execute(Undo(), GM)
    table.execute(Undo(), GM)
    assert table.state.hidden == {"sniper"} and table.state.waiting == {"kid": "someone moves"}


def test_a_hidden_reaction_left_to_resolve_holds_no_one_up_and_lapses_what_came_since() -> None:
    """The sniper answers the Kid's draw just after it. Once the draw is resolved, the Kid's
    phone and the stream show Bart declaring, as they would without the sniper, and Bart may.
    The GM records the shot next: it takes its place, just after the draw, and Bart's
    declaration made since lapses."""
    table = situation(sheet("kid"), sheet("bart"))
    table.execute(Join(sheet=sheet("sniper"), hidden=True), GM)
    roll_awareness(table, {"sniper": 1, "kid": 4, "bart": 9})
    table.execute(Wait(character="sniper", trigger="Kid draws"), GM)
    table.execute(Act(character="kid", what="draws"), player("kid"))
    table.execute(React(character="sniper", to="kid", timing="after", what="fires"), GM)
    table.execute(Resolve(outcome="the Kid draws"), GM)
    assert table.state.next_to_resolve() == "sniper" and table.state.hidden == {"sniper"}
    assert table.view(GM).exchange.next == "sniper", "the GM records the deferred shot next"  # type: ignore[attr-defined]
    for viewer in (player("kid"), OVERLAY):
        view = table.view(viewer)
        assert view.declaring == "bart" and view.exchange is None  # type: ignore[attr-defined]
        assert view.concluded.resolved[0].outcome == "the Kid draws"  # type: ignore[attr-defined]
    table.execute(Act(character="bart", what="dives", mode=Mode.ALL_OUT_DEFENSIVE), player("bart"))
    assert table.view(OVERLAY).exchange.act.character == "bart"  # type: ignore[attr-defined]
    events = table.execute(Resolve(outcome="the Kid falls"), GM)
    assert types(events) == ["revealed", "resolved"]
    assert events[1].lapsed == ("bart",)  # type: ignore[union-attr]
    view = table.view(OVERLAY)
    assert view.exchange is None and view.declaring == "bart"  # type: ignore[attr-defined]
    assert [r.character for r in view.concluded.resolved] == ["kid", "sniper"]  # type: ignore[attr-defined]


def test_a_pool_set_for_a_side_of_none_but_the_hidden_reaches_no_one_else() -> None:
    table = encounter(("jena", "crew", 2))
    ambusher = Character(id="amb", name="Ambusher", side="assassins", dex=0, movement=0, tactics=2)
    table.execute(RcsJoin(character=ambusher, hidden=True), GM)
    since = len(table.log)
    table.execute(SetPool(side="assassins", points=5), GM)
    table.execute(SetPool(side="crew", points=3), GM)
    for viewer in (OVERLAY, player("jena")):
        assert "assassins" not in shown(table, viewer, since)
        assert told(table, viewer, list(table.log[since:]))[0] is None
    assert table.censor(table.log[since], player("amb"))["side"] == "assassins"  # type: ignore[index]
    assert "hidden_side" not in table.censor(table.log[since], player("amb"))  # type: ignore[operator]
    assert "hidden_side" not in table.system.events.dump_json(table.log[-1]).decode()


def test_a_hidden_characters_spending_leaves_the_pool_as_players_saw_it_till_its_reveal() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 3))
    ambusher = Character(id="amb", name="Ambusher", side="corp", dex=0, movement=0, tactics=1)
    table.execute(RcsJoin(character=ambusher, hidden=True), GM)
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6), "amb": (5, 5)})
    before = shown(table, OVERLAY)
    spend = SpendTactics(side="corp", character="amb", points=-2, purpose="initiative")
    table.execute(spend, GM)
    assert table.view(GM).pools["corp"] == 1  # type: ignore[attr-defined]
    for viewer in (OVERLAY, player("jena")):
        assert table.view(viewer).pools["corp"] == 3  # type: ignore[attr-defined]
    assert json.loads(shown(table, OVERLAY, len(table.log) - 1)) == [*json.loads(before)[:1], None]
    table.execute(SpendTactics(side="corp", character="guard", points=1, purpose="other"), GM)
    assert table.view(OVERLAY).pools["corp"] == 2  # type: ignore[attr-defined]
    table.execute(Reveal(participant="amb"), GM)
    assert table.view(OVERLAY).pools["corp"] == 0  # type: ignore[attr-defined]


VISIBLE = ("kid", "bart", "marshal")
WATCHING = (player("kid"), player("bart"), OVERLAY)


class Watched:
    """A table and what each watcher was shown of it, as a subscriber gets it: every event it
    may see, in order, with the number it knows it by (``rules.numbering``: what it resumes
    from and sends back), and what it was left with after each step (its view, alerts
    included, and whose turn the turn clock times), a moment unchanged by a step not counted
    again."""

    def __init__(self, table: AnyTable, watching: tuple[Viewer, ...] = WATCHING) -> None:
        self.table, self.watching = table, watching
        self.events: dict[Viewer, list[Any]] = {v: [] for v in watching}
        self.views: dict[Viewer, list[str]] = {v: [] for v in watching}

    def run(self, command: Any, actor: Viewer = GM) -> str | None:
        """The command's outcome as its sender reads it: None, or the refusal."""
        table, numbering = self.table, self.table.numbering
        seen = {viewer: numbering.count(viewer) for viewer in self.watching}
        try:
            events = table.decide(command, actor)
        except RuleError as refused:
            return refused.message
        # As a server shows them live, numbered before they are taken (``numbered``); and as
        # it shows them to one catching up, once they are (``since``): the same, each time.
        first = table.version + 1
        folded = table.folded(events)
        live = {
            viewer: numbering.numbered(
                viewer, first, events, told(table, viewer, events), folded.marked
            )
            for viewer in self.watching
        }
        table.record(events, folded)
        for viewer in self.watching:
            caught_up = numbering.since(viewer, seen[viewer], lambda n: table.log[n - 1])
            assert live[viewer] == caught_up, viewer
            self.events[viewer] += caught_up
            turn = self.table.system.story.turn(self.table.state, viewer)
            view = json.dumps([turn, json.loads(self.table.view(viewer).model_dump_json())])
            if self.views[viewer][-1:] != [view]:
                # A step a role is sent nothing of must leave it what it had: nothing would
                # bring it the change.
                assert caught_up or not self.views[viewer], (viewer, command)
                self.views[viewer].append(view)
        return None

    def step(self, command: Any, undone: bool = False) -> None:
        """A step of the hidden participant's own, the GM's, which must not reveal it; taken
        back at once if ``undone`` (a slip of the GM's, which no one else may see either)."""
        assert self.run(command) is None
        assert self.table.state.hidden, "it was revealed"
        if undone:
            assert self.run(Undo()) is None
            assert self.run(command) is None

    def same_as(self, plain: Watched) -> None:
        """Each watcher was shown here what it was shown at ``plain``, step for step, and its
        story (the timeline, the recap, the export) tells the same steps and turns."""
        for viewer in self.watching:
            assert self.events[viewer] == plain.events[viewer], viewer
            assert self.views[viewer] == plain.views[viewer], viewer
            assert self.story(viewer) == plain.story(viewer), viewer

    def story(self, viewer: Viewer) -> tuple[list[Any], list[Any]]:
        """The viewer's story of the table, its steps numbered as the viewer has them, but for
        the times of its steps (a table with more steps took more time)."""
        table = self.table
        log = [(n, e, float(n)) for n, e in enumerate(table.log, start=1)]
        told = chronicle(table.system.table(table.options), viewer, log).told()
        steps = [
            (s.seq, s.kind, s.said, s.who, s.round, s.chain, s.struck, s.undoes) for s in told.steps
        ]
        return steps, [(t.seq, t.who, t.round) for t in told.turns]


def _sniper_steps(sit: Any, die: int, draw: Any) -> list[Any]:
    """The GM's steps for the hidden sniper that the table takes now, revealing or not."""
    steps: list[Any] = [EnterInitiative(character="sniper", die=die, source=Source.GM, seed=0)]
    steps.append(Wait(character="sniper", trigger="someone draws"))
    steps.append(Act(character="sniper", what="fires", mode=Mode.ALL_OUT_OFFENSIVE))
    if sit.exchange is not None:
        to = sit.exchange.actor
        steps.append(React(character="sniper", to=to, timing="after", what="fires"))
        steps.append(React(character="sniper", to=to, timing="before", what="fires", die=draw))
        steps.append(
            React(character="sniper", to=to, timing="before", what="fires", source=Source.DEVICE)
        )
    steps.append(EnterPreemption(character="sniper", die=draw, source=Source.DEVICE))
    if sit.next_to_resolve() == "sniper":
        steps.append(Resolve(outcome="the shot"))
    return steps


class RevealError(Exception):
    """The comparison is over: a step revealed the sniper."""


@given(st.data())
def test_a_player_is_shown_the_same_game_whether_or_not_someone_hidden_is_at_the_table(
    data: st.DataObject,
) -> None:
    """The shared rulings, "No tells": the same public steps played beside a hidden sniper and
    without it show each player and the stream the same events, views, alerts and turn, up to
    the step that reveals it, and no step of theirs is refused for it. The sniper joins at any
    place; its die comes at any moment (before, among or after theirs); the GM declares for it
    (a wait, or an act in its place), reacts with it (just after, or a pre-emption whose die
    comes with it or later) and records its outcome, each whenever the table takes it. The
    dice come from a tray, a player, the GM's typed QR and Score, or the engine."""
    at = data.draw(st.integers(0, len(VISIBLE)), label="the sniper's place among the sheets")
    plain = Watched(situation(*(sheet(c) for c in VISIBLE)))
    beside = Watched(situation(*(sheet(c) for c in VISIBLE[:at])))
    beside.table.execute(Join(sheet=sheet("sniper"), hidden=True), GM)
    for c in VISIBLE[at:]:
        beside.table.execute(Join(sheet=sheet(c)), GM)

    def hidden_steps(sniper_die: int, chance: bool = True) -> None:
        """The GM's steps for the sniper that the table would take now, as drawn."""
        while chance and data.draw(st.booleans(), label="the GM steps in for the sniper"):
            die = data.draw(st.integers(1, 10), label="a die of the sniper's")
            taken = [c for c in _sniper_steps(beside.table.state, sniper_die, die)
                     if _takes(beside.table, c)]  # fmt: skip
            if not taken:
                return
            command = data.draw(st.sampled_from(taken), label="the sniper's step")
            if _reveals(beside.table, command, GM):
                raise RevealError
            beside.step(command, data.draw(st.booleans(), label="the GM takes it back"))

    def public(command: Any, actor: Viewer, sniper_die: int, chance: bool = True) -> None:
        hidden_steps(sniper_die, chance)
        if _reveals(beside.table, command, actor):
            raise RevealError
        assert plain.run(command, actor) == beside.run(command, actor), command

    try:
        for _ in range(data.draw(st.integers(1, 2), label="rounds")):
            qrs = {c: data.draw(st.integers(1, 10), label=f"{c}'s d10") for c in VISIBLE}
            free = [d for d in range(1, 7) if d not in qrs.values()]  # no tie: it may wait
            sniper = data.draw(st.sampled_from(free), label="the sniper's d10")
            # Whatever the GM owes the sniper before a new round: its die, and its declaration.
            while beside.table.state.phase is Phase.DECLARING:
                owed = [c for c in _sniper_steps(beside.table.state, sniper, 5)[:2]
                        if _takes(beside.table, c)]  # fmt: skip
                if not owed or _reveals(beside.table, owed[0], GM):
                    raise RevealError
                beside.step(owed[0])
            how = data.draw(st.sampled_from(["tray", "player", "typed", "engine"]), label="dice")
            if how == "engine" and at == len(VISIBLE):  # its d10 rolled after theirs
                seed = data.draw(st.integers(0, 2**32 - 1), label="the engine's seed")
                roll = RollInitiative(source=Source.ENGINE, seed=seed)
                (rolled,) = beside.table.decide(roll, GM)
                assert isinstance(rolled, InitiativeRolled)
                mine = next(r for r in rolled.results if r.character == "sniper")
                if any((r.qr, r.score) == (mine.qr, mine.score) and r is not mine
                       for r in rolled.results):  # fmt: skip
                    break  # a tie with it is broken by the same draw as theirs
                public(roll, GM, sniper)
            else:
                how = "tray" if how == "engine" else how
                public(RollInitiative(source=Source.DEVICE), GM, sniper)
                order = data.draw(st.permutations(VISIBLE), label="dice in")
                for c in order:
                    entered = {
                        "tray": (EnterInitiative(character=c, die=qrs[c], seed=0), GM),
                        "player": (EnterInitiative(character=c, die=qrs[c], seed=0), player(c)),
                        "typed": (
                            EnterInitiative(
                                character=c, qr=qrs[c], score=5, source=Source.GM, seed=0
                            ),
                            GM,
                        ),
                    }[how]
                    public(*entered, sniper)
            while plain.table.state.phase is Phase.DECLARING:
                state = plain.table.state
                if state.exchange is None:
                    c = state.declaring
                    assert c is not None
                    if data.draw(st.booleans(), label=f"{c} acts"):
                        act = Act(character=c, what="draws", mode=Mode.ALL_OUT_OFFENSIVE)
                        public(act, player(c), sniper)
                    else:
                        public(Wait(character=c, trigger="someone draws"), GM, sniper)
                    continue
                reactors = [c for c in VISIBLE if state.may_react(c)]
                if bool(reactors) and data.draw(st.booleans(), label="a reaction"):
                    c = data.draw(st.sampled_from(reactors))
                    timing = data.draw(st.sampled_from(["before", "after"]))
                    die = data.draw(st.integers(1, 10)) if timing == "before" else None
                    to = state.exchange.actor
                    react = React(character=c, to=to, timing=timing, what="fires", die=die)
                    public(react, player(c), sniper)
                elif state.exchange.pending:
                    c = state.exchange.pending[0].character
                    public(EnterPreemption(character=c, die=3), player(c), sniper)
                else:
                    # The GM records an outcome: first the sniper's pre-emption die, if owed.
                    hidden_steps(sniper)
                    pending = beside.table.state.resolving
                    if pending is not None and pending.pending:
                        beside.step(EnterPreemption(character="sniper", die=sniper))
                    public(Resolve(outcome="done"), GM, sniper, chance=False)
    except RevealError:
        pass
    beside.same_as(plain)


def _takes(table: AnyTable, command: Any) -> bool:
    """Whether the table takes the GM's command now."""
    try:
        table.decide(command, GM)
    except RuleError:
        return False
    return True


@given(st.data())
def test_an_rcs_player_is_shown_the_same_encounter_whether_or_not_an_ambusher_lies_in_wait(
    data: st.DataObject,
) -> None:
    """The same, at RCS, up to the ambusher's reveal. Its roll comes at any moment: before,
    among or after the others' (the round starts without it, and its card is laid when it
    comes, taking the token at once if its place has passed); it spends from its side's pool
    (the guard's, or a side of its own whose pool the referee sets) while the others take
    their turns; when the token reaches it, it is revealed. The others' rolls come from a
    tray, a player, the referee's typing, or the engine. The guard is the referee's, who spends
    only what its pool holds in both: what the ambusher spent is gone, and its Tactics counted
    in the pool, and the referee knows it."""
    side = data.draw(st.sampled_from(["corp", "assassins"]), label="the ambusher's side")
    crew = (("jena", "crew", 1), ("guard", "corp", 1), ("sarge", "crew", 0))
    watching = (player("jena"), player("sarge"), OVERLAY)
    plain, beside = Watched(encounter(*crew), watching), Watched(encounter(*crew), watching)
    # Its initiative ties no one's: 1 or 14 (a tie with a hidden card is the tally's to tell).
    low = data.draw(st.booleans(), label="its roll is low")
    movement = -3 if low else 0
    ambusher = Character(id="amb", name="Ambusher", side=side, dex=0, movement=movement, tactics=2)
    beside.table.execute(RcsJoin(character=ambusher, hidden=True), GM)
    watched = (plain, beside)
    its_roll = EnterRoll(character="amb", dice=(1, 1) if low else (6, 6), source=Source.GM, seed=0)

    def public(command: Any, actor: Viewer = GM) -> bool:
        """Run a public step on both; False once it would reveal the ambusher."""
        if _reveals(beside.table, command, actor):
            return False
        assert plain.run(command, actor) == beside.run(command, actor)
        return True

    def ambushers_step() -> bool:
        """The referee's steps for the ambusher, as drawn; False once one would reveal it."""
        if _takes(beside.table, its_roll) and data.draw(st.booleans(), label="its roll"):
            if _reveals(beside.table, its_roll, GM):
                return False
            beside.step(its_roll, data.draw(st.booleans(), label="the GM takes it back"))
        pool = beside.table.state.pools.get(side, 0)
        if side == "assassins" and data.draw(st.booleans(), label="its pool set"):
            setting = SetPool(side=side, points=data.draw(st.integers(0, 4)))
            beside.step(setting, data.draw(st.booleans(), label="the GM takes it back"))
        elif pool and data.draw(st.booleans(), label="it spends"):
            points = data.draw(st.integers(1, pool))
            spent = SpendTactics(side=side, character="amb", points=points, purpose="other")
            beside.step(spent, data.draw(st.booleans(), label="the GM takes it back"))
        return True

    def play() -> None:
        how = data.draw(st.sampled_from(["tray", "player", "typed", "engine"]), label="rolls")
        if how == "engine":
            roll = RollRcs(source=Source.ENGINE, seed=data.draw(st.integers(0, 2**32 - 1)))
            (rolled,) = [e for e in beside.table.decide(roll, GM) if isinstance(e, RcsRolled)]
            its = next(r for r in rolled.rolls if r.character == "amb")
            if any(r.initiative == its.initiative and r is not its for r in rolled.rolls):
                return  # a tie with it is broken by the same draw as theirs
            if not public(roll):
                return
        else:
            assert public(RollRcs(source=Source.GM if how == "typed" else Source.DEVICE))
            for cid, _, _ in crew:
                if not ambushers_step():
                    return
                pair = (data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))
                by = player(cid) if how == "player" else GM
                source = Source.GM if how == "typed" else Source.DEVICE
                entered = EnterRoll(character=cid, dice=pair, source=source, seed=0)
                if not public(entered, by):
                    return
        while True:
            if not ambushers_step():
                return
            holder = plain.table.state.holder
            if holder is None:
                return
            if plain.table.state.pending is None:
                declared = Declare(character=holder, action="long", what="fires", target="x")
                if not public(declared):
                    return
            if not ambushers_step():
                return
            spender = data.draw(st.sampled_from([c for c, _, _ in crew]), label="a spender")
            mine = next(s for c, s, _ in crew if c == spender)
            left = min(w.table.state.pools.get(mine, 0) for w in watched)
            if left and data.draw(st.booleans(), label="spends"):
                spend = SpendTactics(side=mine, character=spender, points=1, purpose="other")
                public(spend, GM if spender == "guard" else player(spender))
            if not public(Done()):
                return

    play()
    beside.same_as(plain)


def _reveals(table: AnyTable, command: Any, actor: Viewer) -> bool:
    """Whether the command, if taken, reveals someone: the comparison ends there."""
    try:
        return any(isinstance(e, Revealed) for e in table.decide(command, actor))
    except RuleError:
        return False


@given(st.data())
def test_a_four_color_player_is_shown_the_same_page_whether_or_not_a_villain_lies_in_wait(
    data: st.DataObject,
) -> None:
    """The same at the Four Color Hack, up to the hidden villain's Panel. Dealt by hand, its card
    comes when its place in the deal does (before, between or after the villains players know),
    while players see the Editor at the deal; after the last Panel they know of, the page looks
    done to them, as it would be without it. Its joker is no secret card of theirs to count."""
    place = data.draw(st.integers(0, 2), label="its place among the villains")
    joker = data.draw(st.sampled_from(["play_last", "discard"]), label="unplayed jokers")
    known = [Member(id=f"h{n}", name=f"Hero {n}", kind=Kind.HERO) for n in (1, 2, 3)]
    known += [Member(id=f"v{n}", name=f"Villain {n}", kind=Kind.VILLAIN) for n in (1, 2)]
    watching = (player("h1"), player("h2"), OVERLAY)
    plain, beside = (Watched(FOUR_COLOR.table(FourColorOptions(unplayed_joker=joker)), watching)
                     for _ in range(2))  # fmt: skip
    lurker = Member(id="amb", name="Ambusher", kind=Kind.VILLAIN)
    at = len(known) - 2 + place
    for w, members in ((plain, known), (beside, [*known[:at], lurker, *known[at:]])):
        for member in members:
            w.table.execute(FourColorJoin(member=member, hidden=member is lurker), GM)

    def public(command: Any) -> bool:
        """Run a GM's public step on both; False once it would reveal the ambusher."""
        if _reveals(beside.table, command, GM):
            return False
        assert plain.run(command) == beside.run(command)
        return True

    pile = iter(data.draw(st.permutations(list(FULL_DECK)), label="the deck as it falls"))
    public(Deal(source=Source.GM))
    while beside.table.state.to_deal:
        to = beside.table.state.to_deal[0]
        member = beside.table.state.member(to)
        card = next(c for c in pile if not (member and member.is_hero and c.is_joker))
        dealt = DealCard(card=card, source=Source.GM)
        if to == "amb":
            beside.step(dealt, data.draw(st.booleans(), label="the GM takes it back"))
        else:
            public(dealt)
    while plain.table.state.phase is FourColorPhase.PANELS:
        state = plain.table.state
        top = (state.ranked_in_hand() or state.jokers_in_hand())[0]
        if top.acting is None and top.element is None:
            acting = data.draw(st.sampled_from(["v1", "v2", None]), label="the Editor's choice")
            public(AssignCard(card=top.card, acting=acting, element=None if acting else "Storm"))
        if not public(NextPanel()):
            break
    beside.same_as(plain)

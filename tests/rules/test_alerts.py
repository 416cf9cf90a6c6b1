"""Turn alerts (rules/alerts.py): each system's "your turn", "on deck", seize, react and die owed,
and the property that matters most: a hidden participant never changes when a player is warned.

The property plays one table twice with the same visible steps: once with a hidden participant
taking its place (a villain's card, an ambusher's initiative, a sniper who rolls and waits), and
once without it. Up to the step that reveals it, every player's alerts run the same in both,
taken at the moments the table is not waiting on the hidden participant alone (those are, to a
player, the moments the GM is busy: nothing is asked of anyone they can see).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.alerts import Alert
from rules.awareness import AWARENESS
from rules.awareness import commands as aw
from rules.cards import parse_card
from rules.four_color import FOUR_COLOR
from rules.four_color import commands as fc
from rules.hiding import Revealed
from rules.megatraveller_rcs import MEGATRAVELLER_RCS
from rules.megatraveller_rcs import commands as rcs
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer, player
from rules.table import Table

from .awareness.helpers import sheet, situation
from .four_color.helpers import deal_by_hand, scene
from .megatraveller_rcs.helpers import encounter

AnyTable = Table[Any, Any, Any, Any]
HIDDEN = "x"
STEPS = frozenset({"card", "roll", "initiative", "declare", "preemption"})
"""What the table may wait for from one participant alone."""


def alerts(table: AnyTable, viewer: Viewer) -> list[tuple[str, str]]:
    return [(a.kind, a.character) for a in table.view(viewer).alerts]  # type: ignore[attr-defined]


def test_four_color_your_panel_and_the_one_before_it() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "KS", "QH", "2C", "3D")  # h1, h2, v1, the Editor's extra card
    assert alerts(table, player("h1")) == [("on_deck", "h1")]
    table.execute(fc.NextPanel(), GM)
    assert alerts(table, player("h1")) == [("turn", "h1")]
    assert alerts(table, player("h2")) == [("on_deck", "h2")]
    table.execute(fc.NextPanel(), GM)
    assert alerts(table, player("h1")) == []
    assert alerts(table, player("h2")) == [("turn", "h2")]
    assert alerts(table, GM) == alerts(table, OVERLAY) == []


def test_four_color_an_editors_card_before_yours_is_no_warning() -> None:
    """The Editor's secret card comes between: the player is told "on deck" as soon as the
    cards they can see say so, so the warning gives no secret card away."""
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "KS", "2H", "3C", "QD")  # h1 K, h2 2, v1 3, the extra Q
    table.execute(fc.NextPanel(), GM)
    assert alerts(table, player("h2")) == []  # v1's 3 comes before the 2
    table.execute(fc.AssignCard(card=parse_card("QD"), element="a falling sign"), GM)
    table.execute(fc.NextPanel(), GM)
    table.execute(fc.NextPanel(), GM)
    assert alerts(table, player("h2")) == [("on_deck", "h2")]


def test_rcs_the_token_the_card_after_it_a_seize_and_a_roll_owed() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0), ("boss", "corp", 0))
    table.execute(rcs.RollInitiative(source=Source.GM), GM)
    assert alerts(table, player("jena")) == [("die", "jena")]
    for cid, pair in {"jena": (1, 1), "guard": (3, 3), "boss": (6, 6)}.items():
        table.execute(rcs.EnterRoll(character=cid, dice=pair, source=Source.GM), GM)
    assert alerts(table, player("jena")) == [("turn", "jena")]
    # The token moved onto the lowest card: the higher ones may seize it (ruling 5).
    assert alerts(table, player("guard")) == [("on_deck", "guard"), ("seize", "guard")]
    assert alerts(table, player("guard", "boss")) == [
        ("on_deck", "guard"),
        ("seize", "boss"),
        ("seize", "guard"),
    ]
    table.execute(rcs.Seize(character="boss"), GM)
    assert alerts(table, player("boss")) == [("turn", "boss")]
    assert alerts(table, player("jena")) == [("on_deck", "jena")]
    assert alerts(table, player("guard")) == []


def test_awareness_declaring_next_only_where_the_order_is_shown_react_and_d10() -> None:
    for reveal_order in (False, True):
        table = situation(sheet("kid"), sheet("bart"), reveal_order=reveal_order)
        table.execute(aw.RollInitiative(source=Source.DEVICE), GM)
        assert alerts(table, player("kid")) == [("die", "kid")]
        for cid, die in {"kid": 2, "bart": 4}.items():
            table.execute(aw.EnterInitiative(character=cid, die=die), GM)
        assert alerts(table, player("kid")) == [("turn", "kid")]
        assert alerts(table, player("bart")) == ([("on_deck", "bart")] if reveal_order else [])
    table.execute(aw.Wait(character="kid", trigger="Bart draws"), GM)
    table.execute(aw.Act(character="bart", what="draws"), GM)
    assert alerts(table, player("kid")) == [("react", "kid")]
    table.execute(
        aw.React(character="kid", to="bart", timing="before", what="fires", source=Source.DEVICE),
        GM,
    )
    assert alerts(table, player("kid")) == [("die", "kid")]


# The property: the same visible steps, with and without a hidden participant.

Move = Callable[[Any], Any]


class Pair:
    """One table with the hidden participant, one without, played by the same visible steps."""

    def __init__(self, with_hidden: AnyTable, without: AnyTable, players: list[Viewer]) -> None:
        self.with_hidden, self.without, self.players = with_hidden, without, players
        self.seen_with: list[list[tuple[Alert, ...]]] = []
        self.seen_without: list[list[tuple[Alert, ...]]] = []

    def told(self, table: AnyTable) -> list[tuple[Alert, ...]]:
        return [table.view(p).alerts for p in self.players]  # type: ignore[attr-defined]

    def owed_by_hidden(self) -> tuple[bool, bool]:
        """Whether the table with the hidden participant waits for a step of its, and whether
        for its alone."""
        owed = [
            set(wait.who if isinstance(wait.who, tuple) else (wait.who,))
            for wait in self.with_hidden.view(GM).awaiting  # type: ignore[attr-defined]
            if wait.what in STEPS
        ]
        return any(HIDDEN in who for who in owed), any(who == {HIDDEN} for who in owed)

    def play(
        self, data: st.DataObject, visible: Move, hidden: Move, steps: int = 60
    ) -> tuple[list[Any], list[Any]]:
        self.seen_with.append(self.told(self.with_hidden))
        self.seen_without.append(self.told(self.without))
        for _ in range(steps):
            owed, alone = self.owed_by_hidden()
            if owed and (alone or data.draw(st.booleans(), label="the hidden one's step first")):
                events = self.with_hidden.execute(hidden(self.with_hidden.state), GM)
            else:
                move = visible(self.without.state)
                if move is None:
                    break
                events = self.with_hidden.execute(move, GM)
                if any(isinstance(e, Revealed) for e in events):
                    break
                self.without.execute(move, GM)
                self.seen_without.append(self.told(self.without))
            if any(isinstance(e, Revealed) for e in events):
                break
            if not self.owed_by_hidden()[1]:
                self.seen_with.append(self.told(self.with_hidden))
        # Where the hidden one's own step revealed it, the table without it went on a step
        # further: the two agree up to the reveal, the first a beginning of the second.
        return collapsed(self.seen_with), collapsed(self.seen_without)


def collapsed(seen: list[Any]) -> list[Any]:
    """The alerts as a player lives them: a moment like the one before it is no change."""
    return [now for n, now in enumerate(seen) if n == 0 or seen[n - 1] != now]


def both(build: Callable[[bool], AnyTable]) -> tuple[AnyTable, AnyTable]:
    return build(True), build(False)


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@given(st.data(), st.integers(2, 4), st.permutations(RANKS), st.permutations(RANKS))
def test_four_color_alerts_are_the_same_with_a_hidden_villain(
    data: st.DataObject, heroes: int, spades: list[str], hearts: list[str]
) -> None:
    """The hidden villain's card falls anywhere in the order, and so do the Editor's."""
    heroes_ids = [f"h{n}" for n in range(1, heroes + 1)]
    holders = [*heroes_ids, HIDDEN]
    cards = {who: parse_card(f"{rank}S") for who, rank in zip(holders, spades, strict=False)}
    extras = iter(parse_card(f"{rank}H") for rank in hearts)

    def build(with_hidden: bool) -> AnyTable:
        table = scene(heroes=heroes)
        if with_hidden:
            villain = fc.Member(id=HIDDEN, name="Doctor Null", kind=fc.Kind.VILLAIN)
            table.execute(fc.Join(member=villain, hidden=True), GM)
        return table

    def visible(state: Any) -> Any:
        for wait in FOUR_COLOR.view(state, GM).awaiting:  # type: ignore[attr-defined]
            match wait.what:
                case "deal":
                    return fc.Deal(source=Source.GM)
                case "card":
                    card = next(extras) if wait.who == fc.EDITOR else cards[wait.who]
                    return fc.DealCard(card=card, to=wait.who, source=Source.GM)
                case "assign":
                    return fc.AssignCard(card=wait.card, element="a falling sign")
                case "next_panel":
                    return fc.NextPanel()
        return None

    def hidden(state: Any) -> Any:
        return fc.DealCard(card=cards[HIDDEN], to=HIDDEN, source=Source.GM)

    pair = Pair(*both(build), [player(h) for h in heroes_ids])
    told_with, told_without = pair.play(data, visible, hidden)
    assert told_with == told_without[: len(told_with)]


def pairs(total: int) -> Any:
    """Distinct 2D6 totals, as the dice that make them: no tie to break by a roll-off."""
    return st.permutations(range(2, 13)).map(
        lambda totals: [(min(6, t - 1), t - min(6, t - 1)) for t in totals[:total]]
    )


@given(st.data(), st.integers(2, 4), pairs(5))
def test_rcs_alerts_are_the_same_with_a_hidden_ambusher(
    data: st.DataObject, crew: int, dice: list[tuple[int, int]]
) -> None:
    """The ambusher's card lies anywhere in the line; the token reaching it, or its seize,
    reveals it. Players seize when the view lets them, as a hypothesis draws."""
    ids = [f"c{n}" for n in range(1, crew + 1)]
    rolls = dict(zip([*ids, HIDDEN], dice, strict=False))

    def build(with_hidden: bool) -> AnyTable:
        table = encounter(*((cid, "crew" if n % 2 else "corp", 0) for n, cid in enumerate(ids)))
        if with_hidden:
            ambusher = rcs.Character(id=HIDDEN, name="Ambusher", side="corp", dex=0, movement=0)
            table.execute(rcs.Join(character=ambusher, hidden=True), GM)
        return table

    def visible(state: Any) -> Any:
        for wait in MEGATRAVELLER_RCS.view(state, GM).awaiting:  # type: ignore[attr-defined]
            match wait.what:
                case "roll_initiative" if state.round == 0:
                    return rcs.RollInitiative(source=Source.GM)
                case "roll":
                    return rcs.EnterRoll(character=wait.who[0], dice=rolls[wait.who[0]])
                case "declare":
                    return rcs.Declare(
                        character=wait.who[0], action="long", what="fires", target="them"
                    )
                case "seize_or_resolve" if data.draw(st.booleans(), label="seize"):
                    return rcs.Seize(character=data.draw(st.sampled_from(wait.who)))
                case "seize_or_resolve" | "resolve":
                    return rcs.Resolve()
        return None

    def hidden(state: Any) -> Any:
        return rcs.EnterRoll(character=HIDDEN, dice=rolls[HIDDEN])

    pair = Pair(*both(build), [player(c) for c in ids])
    told_with, told_without = pair.play(data, visible, hidden)
    assert told_with == told_without[: len(told_with)]


@given(st.data(), st.integers(2, 4), st.permutations(range(1, 7)), st.booleans())
def test_awareness_alerts_are_the_same_with_a_hidden_sniper(
    data: st.DataObject, posse: int, dice: list[int], reveal_order: bool
) -> None:
    """The sniper rolls, declares a wait and may react to an act, all hidden; its reaction
    resolving reveals it. The others act or wait, and react just after, as a hypothesis
    draws; with ``reveal_order`` the next declaration is told too."""
    ids = [f"c{n}" for n in range(1, posse + 1)]
    rolled = dict(zip([*ids, HIDDEN], dice, strict=False))

    def build(with_hidden: bool) -> AnyTable:
        table = situation(*(sheet(cid) for cid in ids), reveal_order=reveal_order)
        if with_hidden:
            table.execute(aw.Join(sheet=sheet(HIDDEN), hidden=True), GM)
        return table

    def visible(state: Any) -> Any:
        for wait in AWARENESS.view(state, GM).awaiting:  # type: ignore[attr-defined]
            match wait.what:
                case "roll_initiative" if state.round == 0:
                    return aw.RollInitiative(source=Source.DEVICE)
                case "initiative":
                    return aw.EnterInitiative(character=wait.who[0], die=rolled[wait.who[0]])
                case "declare" if data.draw(st.booleans(), label="wait"):
                    return aw.Wait(character=wait.who[0], trigger="someone moves")
                case "declare":
                    return aw.Act(character=wait.who[0], what="draws")
                case "react_or_resolve" if wait.who and data.draw(st.booleans(), label="react"):
                    to = state.exchange.act.character
                    return aw.React(character=wait.who[0], to=to, timing="after", what="ducks")
                case "react_or_resolve":
                    return aw.Resolve(outcome="done")
        return None

    def hidden(state: Any) -> Any:
        if state.declaring == HIDDEN:
            return aw.Wait(character=HIDDEN, trigger="someone draws")
        return aw.EnterInitiative(character=HIDDEN, die=rolled[HIDDEN])

    pair = Pair(*both(build), [player(c) for c in ids])
    told_with, told_without = pair.play(data, visible, hidden)
    assert told_with == told_without[: len(told_with)]

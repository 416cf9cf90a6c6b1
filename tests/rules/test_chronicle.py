"""A fight's story (``rules/chronicle.py``) and its recap (``rules/recap.py``): each role's
story holds what that role was shown, in the game's words, with its times and numbers; and,
over random whole games with hidden participants, no player's or overlay's story or recap
names a hidden participant before its reveal."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.awareness.commands import Act, React, Resolve, Wait
from rules.awareness.commands import Join as AwJoin
from rules.chronicle import Chronicle, Told, chronicle
from rules.errors import RuleError
from rules.four_color.commands import Deal, NextPanel, PlayJoker
from rules.four_color.story import STORY as FOUR_COLOR
from rules.hiding import Hide
from rules.megatraveller_rcs.commands import (
    NO_TARGET,
    Declare,
    EndTurn,
    Seize,
    SetPool,
    SpendTactics,
)
from rules.megatraveller_rcs.commands import Resolve as RcsResolve
from rules.megatraveller_rcs.story import aimed
from rules.randomness import Source
from rules.recap import lasted, recap
from rules.roles import GM, OVERLAY, Viewer, player
from rules.table import Table, Undo
from rules.telling import named, possessive
from tests.rules.awareness.helpers import roll_round as roll_awareness
from tests.rules.awareness.helpers import sheet, situation
from tests.rules.four_color.helpers import deal_by_hand, scene
from tests.rules.megatraveller_rcs.helpers import encounter
from tests.rules.megatraveller_rcs.helpers import roll_round as roll_rcs
from tests.rules.whole_games import AwarenessGame, FourColorGame, Game, RcsGame, choose

AnyTable = Table[Any, Any, Any, Any]


def story(table: AnyTable, viewer: Viewer, every: float = 10.0) -> Told:
    """The table's story for ``viewer``, each event stored ``every`` seconds after the last."""
    log = [(n + 1, event, 1000.0 + n * every) for n, event in enumerate(table.log)]
    return chronicle(table.system.table(table.options), viewer, log).told()


def test_the_counter_sniper_is_a_chain_the_stream_sees_only_once_the_sniper_is_revealed() -> None:
    table = situation(sheet("kid"), sheet("bart"), sheet("marshal"))
    table.execute(AwJoin(sheet=sheet("sniper"), hidden=True), GM)
    roll_awareness(table, {"sniper": 1, "marshal": 2, "kid": 5, "bart": 9})
    table.execute(Wait(character="sniper", trigger="the Kid draws"), GM)
    table.execute(Wait(character="marshal", trigger="a rifle shows"), GM)
    table.execute(Act(character="kid", what="draws"), player("kid"))
    table.execute(React(character="sniper", to="kid", timing="before", what="fires", die=1), GM)
    table.execute(React(character="marshal", to="sniper", timing="before", what="fires", die=1), GM)
    gm = story(table, GM)
    chained = [(s.who[0], s.kind, s.chain) for s in gm.steps if s.chain]
    assert chained == [("sniper", "preemption", 1), ("marshal", "preemption", 2)]
    assert gm.numbers.preemptions.tried == 2 and gm.numbers.preemptions.won == 2
    stream = story(table, OVERLAY)
    assert "sniper" not in stream.cast and "Sniper" not in recap(stream, "Saloon", "the stream")
    assert all("sniper" not in s.who for s in stream.steps)
    while table.state.exchange is not None:
        table.execute(Resolve(outcome="done"), GM)
    stream = story(table, OVERLAY)
    revealed = next(s for s in stream.steps if s.kind == "reveal")
    assert revealed.said == "Sniper is revealed" and stream.cast["sniper"] == "Sniper"
    assert all(s.seq >= revealed.seq for s in stream.steps if "sniper" in s.who)


def test_a_seize_taken_back_is_struck_and_counted_tried_but_not_won() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6)})
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    table.execute(Seize(character="guard"), player("guard"))
    table.execute(Undo(), GM)
    told = story(table, player("jena"))
    seize, undo = told.steps[-2:]
    assert (
        seize.kind == "seize"
        and seize.struck
        and seize.said == ("Guard seizes the initiative from Jena: Jena's action (runs) lapses")
    )
    assert undo.kind == "undo" and undo.undoes == seize.seq and not undo.struck
    assert undo.said == (
        "The referee takes back: Guard seizes the initiative from Jena: Jena's action (runs) lapses"
    )
    assert told.numbers.seizes.tried == 1 and told.numbers.seizes.won == 0
    assert told.numbers.undos == 1
    struck = "~~Guard seizes the initiative from Jena: Jena's action (runs) lapses~~ (taken back)"
    assert struck in recap(told, "T", "Jena")


def test_an_action_aimed_at_no_one_is_told_without_a_target() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6)})
    table.execute(Declare(character="jena", action="short", what="reloads", target=NO_TARGET), GM)
    table.execute(RcsResolve(), GM)
    table.execute(Declare(character="jena", action="short", what="fires", target="Guard"), GM)
    said = [s.said for s in story(table, OVERLAY).steps if s.kind == "declare"]
    assert said == [
        "Jena declares a short action: reloads",
        "Jena declares a short action: fires at Guard",
    ]


def test_words_that_name_the_target_are_not_followed_by_it_again() -> None:
    """As the console and the phones say a declaration (``shared/forms.js``, ``aimed``): the
    target after the words only where they do not name it already, in any case, whole."""
    said = []
    for what, target in (("shoots vance", "Vance"), ("stabs Vance's arm", "Vance Reyes"),
                         ("fires at the Boss!", "Boss"), ("hits Vancer", "Vance")):  # fmt: skip
        table = encounter(("jena", "crew", 0), ("vance", "corp", 0))
        roll_rcs(table, {"jena": (1, 1), "vance": (6, 6)})
        table.execute(Declare(character="jena", action="short", what=what, target=target), GM)
        said += [s.said for s in story(table, OVERLAY).steps if s.kind == "declare"]
    assert said == [
        "Jena declares a short action: shoots vance",
        "Jena declares a short action: stabs Vance's arm",
        "Jena declares a short action: fires at the Boss!",
        "Jena declares a short action: hits Vancer at Vance",
    ]


@given(
    st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True),
    st.text(st.sampled_from(" ,.!?-'"), max_size=3),
    st.text(st.sampled_from(" ,.!?-'"), max_size=3),
)
def test_a_target_named_anywhere_in_the_words_is_said_once(
    name: str, before: str, after: str
) -> None:
    """Whatever stands around the name (none, spaces, punctuation), it is not said twice; and
    words with no name in them are followed by the target."""
    assert aimed(f"{before}{name.upper()}{after}", name) == ""
    assert aimed(f"{before}fires{after}", name) == f" at {name}"


def test_tactics_points_are_told_as_the_way_they_moved_the_card() -> None:
    """Ruling 2: a point spent lowers or raises an initiative (lower acts sooner), or buys
    another DM; the story says which, as the console's buttons do."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    table.execute(SetPool(side="crew", points=3), GM)
    roll_rcs(table, {"jena": (3, 3), "guard": (6, 6)})
    for points, purpose, note in ((-1, "initiative", ""), (2, "other", "aimed shot")):
        table.execute(SpendTactics(side="crew", character="jena", points=points,
                                   purpose=purpose, note=note), GM)  # fmt: skip
    said = [s.said for s in story(table, OVERLAY).steps if "tactics point" in s.said]
    assert said == [
        "Jena spends 1 tactics point: initiative -1 (sooner)",
        "Jena spends 2 tactics points on another DM (aimed shot)",
    ]


def test_a_round_taken_back_is_not_counted_among_the_rounds() -> None:
    """Round 2 is rolled, then undone: the numbers say one round, not two."""
    table = encounter(("jena", "crew", 0))
    roll_rcs(table, {"jena": (3, 3)})
    table.execute(Declare(character="jena", action="long", what="runs", target=NO_TARGET), GM)
    table.execute(RcsResolve(), GM)
    roll_rcs(table, {})
    assert story(table, GM).numbers.rounds == 2
    table.execute(Undo(), GM)
    assert story(table, GM).numbers.rounds == 1


def test_turns_last_from_the_token_reaching_someone_to_its_leaving_them() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6)})
    rolled = len(table.log)  # the last roll starts the round: the token is on Jena
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    table.execute(RcsResolve(), GM)  # her turn is over: the token moves to the guard
    told = story(table, OVERLAY, every=30.0)
    jena, guard = told.turns
    assert (jena.who, jena.seq, jena.seconds) == ("jena", rolled, 60.0)
    assert (guard.who, guard.seq, guard.seconds) == ("guard", rolled + 2, None)
    (figures,) = told.numbers.turns  # the guard's turn goes on: it is not counted yet
    assert (figures.who, figures.turns, figures.seconds, figures.longest) == ("jena", 1, 60, 60)
    assert [s.took for s in told.steps[-3:]] == [30.0, 30.0, None]
    assert told.numbers.rounds == 1 and told.numbers.round_word == "round"


def test_a_turn_seized_from_goes_on_afterwards_as_one_turn_with_all_its_time() -> None:
    """The guard seizes from Jena, acts, and the token comes back to her: she had one turn,
    cut into, not two; its time is both spans. A seize taken back cuts nothing either, and
    was no turn of the guard's: the span it began is struck, and not counted."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0), ("boss", "corp", 0))
    roll_rcs(table, {"jena": (1, 1), "guard": (6, 6), "boss": (3, 3)})
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    table.execute(Seize(character="guard"), player("guard"))
    table.execute(Declare(character="guard", action="short", what="fires", target="Jena"), GM)
    table.execute(RcsResolve(), GM)
    table.execute(EndTurn(character="guard"), GM)
    table.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    table.execute(RcsResolve(), GM)  # the token moves on to the boss
    for viewer in (GM, OVERLAY, player("jena")):
        told = story(table, viewer, every=10.0)
        spans = [(t.who, t.seconds, t.resumes) for t in told.turns]
        assert spans == [
            ("jena", 20.0, False),
            ("guard", 30.0, False),
            ("jena", 20.0, True),
            ("boss", None, False),
        ]
        figures = {f.who: (f.turns, f.seconds, f.longest) for f in told.numbers.turns}
        assert figures == {"jena": (1, 40.0, 40.0), "guard": (1, 30.0, 30.0)}
        assert "| Jena | 1 | 40 s | 40 s | 40 s |" in recap(told, "T", "the referee")
    said = [s.said for s in story(table, GM).steps if s.kind == "resolve"]
    assert said == [
        "Guard's action (fires at Jena) resolves",  # what was declared, target and all
        "Jena's action (runs at door) resolves, and the turn is over",
    ]

    again = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_rcs(again, {"jena": (1, 1), "guard": (6, 6)})
    again.execute(Seize(character="guard"), player("guard"))
    again.execute(Undo(), GM)  # back to Jena, whose turn it still is
    again.execute(Declare(character="jena", action="long", what="runs", target="door"), GM)
    again.execute(RcsResolve(), GM)
    told = story(again, GM)
    struck = [(t.who, t.seconds, t.resumes, t.struck) for t in told.turns]
    assert struck == [
        ("jena", 10.0, False, False),
        ("guard", 10.0, False, True),  # the seize, taken back
        ("jena", 20.0, True, False),
        ("guard", None, False, False),  # his turn, now that hers is over
    ]
    assert {f.who: (f.turns, f.seconds) for f in told.numbers.turns} == {"jena": (1, 30.0)}


def test_a_jokers_panel_is_editorial_control_and_the_editors_secret_card_stays_a_card() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "KH", "QH", "2C", "RJ")  # two heroes, the villain, one extra card
    stream = story(table, OVERLAY)
    assert stream.steps[-1].said == "The Editor is dealt a card"
    assert "joker" not in recap(stream, "T", "the stream")
    table.execute(PlayJoker(card="RJ", acting="v1"), GM)
    gm = story(table, GM)
    assert gm.steps[-2].said == "The Editor is dealt the red joker"
    assert gm.steps[-1].kind == "editorial_control"
    assert gm.steps[-1].said == "Editorial Control: villain 1 acts on the red joker"
    assert gm.numbers.jokers == 1
    assert story(table, OVERLAY).steps[-1].said == gm.steps[-1].said  # played: public now


def test_panels_are_told_page_by_page_with_each_members_time() -> None:
    table = scene(heroes=1, villains=1)
    deal_by_hand(table, "KH", "QH")
    table.execute(NextPanel(), GM)
    table.execute(NextPanel(), GM)
    table.execute(Deal(source=Source.GM), GM)
    told = story(table, player("h1"), every=20.0)
    panels = [(s.round, s.kind, s.said) for s in told.steps if s.kind == "panel"]
    assert panels == [(1, "panel", "Hero 1's Panel (K♥)"), (1, "panel", "Villain 1's Panel (Q♥)")]
    assert told.steps[-1].round == 2 and told.steps[-1].said == "Page 2: the deal by hand begins"
    assert [(t.who, t.seconds) for t in told.turns] == [("h1", 20.0), ("v1", 20.0)]
    written = recap(told, "The Bank Job", "Hero 1's player")
    assert "## Page 1" in written and "## Page 2" in written
    assert "| hero 1 | 1 | 20 s | 20 s | 20 s |" in written


def test_spans_are_said_as_a_table_says_them() -> None:
    assert [lasted(s) for s in (4.4, 60, 125, 3725)] == ["4 s", "1 min", "2 min 5 s", "1 h 2 min"]


# Whole games with hidden participants --------------------------------------------------------

GAMES = [FourColorGame(), AwarenessGame(), RcsGame()]


def turn_as_the_view_shows(table: AnyTable, viewer: Viewer) -> str | None:
    """Whose turn the viewer's view shows: what ``Story.turn`` must agree with."""
    view: Any = table.view(viewer)
    match table.system.name:
        case "four-color":
            return view.current.acting if view.current is not None else None
        case "megatraveller-rcs":
            token: str | None = view.token
            return token
    if view.declaring is not None:
        declaring: str | None = view.declaring
        return declaring
    exchange = view.exchange
    return exchange.act.character if exchange is not None else None


def mentions(text: str, participants: dict[str, str]) -> list[str]:
    return [
        who
        for who, name in participants.items()
        if re.search(rf"\b{re.escape(who)}\b", text) or re.search(rf"\b{re.escape(name)}\b", text)
    ]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), data=st.data())
def test_no_story_or_recap_names_a_participant_hidden_from_its_reader_before_its_reveal(
    game: Game, data: st.DataObject
) -> None:
    """Random whole games, some participants joining hidden and the GM hiding and revealing
    others: after every event, each player's and the overlay's story (its new steps, turns and
    cast) and its recap name no participant that reader was never yet shown; and the story's
    turns are the view's."""
    rnd = data.draw(st.randoms(use_true_random=False), label="table")
    table = game.system.table(game.options(rnd))
    for join in game.cast(rnd):
        table.execute(join, GM)
    for _ in range(data.draw(st.integers(10, 60), label="steps")):
        command, actor = choose(game.moves(table.state, rnd), data)
        try:
            table.execute(command, actor)
        except RuleError:
            continue
    readers = [OVERLAY, *game.players(table.state)]
    replay = game.system.table(table.options)
    tellers = {v: Chronicle(game.system.table(table.options), v) for v in readers}
    seen: dict[Viewer, set[str]] = {v: set() for v in readers}
    names: dict[str, str] = {}
    for n, event in enumerate(table.log):
        replay.apply(event)
        state = replay.state
        hidden = game.system.hidden(state)
        names |= {p.id: p.name for p in game.system.roster(state)}
        for viewer, teller in tellers.items():
            before = (len(teller.steps), len(teller.turns))
            teller.take(n + 1, event, 1000.0 + n)
            seen[viewer] |= {
                p.id for p in game.system.roster(state) if p.id not in hidden or viewer.plays(p.id)
            }
            never = {who: name for who, name in names.items() if who not in seen[viewer]}
            for step in teller.steps[before[0] :]:
                assert not mentions(step.said, never), (viewer, step)
                assert not set(step.who) & set(never), (viewer, step)
            for turn in teller.turns[before[1] :]:
                assert turn.who not in never, (viewer, turn)
            assert not set(teller.cast) & set(never), viewer
            assert teller.table.system.story.turn(state, viewer) == turn_as_the_view_shows(
                replay, viewer
            )
            if n % 7 == 0 or n == len(table.log) - 1:
                assert not mentions(recap(teller.told(), "T", "them"), never), viewer


def test_the_hidden_check_can_fail() -> None:
    """The check itself: a step naming a hidden participant by name or id is caught."""
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    table.execute(Hide(participant="guard"), GM)
    gm = story(table, GM)
    assert mentions(gm.steps[-1].said, {"guard": "Guard"}) == ["guard"]
    assert named({"type": "seized", "character": "guard", "seized_from": "jena"}) == [
        "guard",
        "jena",
    ]
    assert mentions("Guards are here", {"guard": "Guard"}) == []


def test_whose_it_is_is_written_as_the_pages_write_it() -> None:
    """The story's possessives follow the pages' rule (``possessive`` in forms.js): a name
    ending in a single "s" takes the apostrophe alone."""
    panel = {"type": "panel_played", "holder": "goons", "acting": "goons", "card": "2C"}
    names = {"goons": "Doombots", "boss": "The Boss", "hero": "Jena"}
    told = FOUR_COLOR.told(panel, lambda who: names.get(who or "", ""))
    assert told.startswith("Doombots' Panel"), told
    assert [possessive(n) for n in ("Jena", "Doombots", "The Boss", "s")] == [
        "Jena's", "Doombots'", "The Boss's", "s's",
    ]  # fmt: skip

"""MegaTraveller RCS's scenes, played on the referee's console by taps (and the dice the table
rolls, typed as the console asks), at tablet and phone size: seizing the initiative when the
token moves and when an action is declared, a seize of a seize, the tactics pool, a Short Action
cut off by a seize, and a ruled interrupt between two Short Actions.

Characters have Dex 0, Movement 0 and Tactics 0 unless said, so a card's initiative is its
2D6."""

from __future__ import annotations

from .console_driver import Console, no_sideways_scroll, small_targets, speaks_the_game

TALLY = "| tally marks: a tie of equal initiatives broken at random, once; fewer marks act first"


def at_the_table(console: Console, cast: dict[str, tuple[str, str]], **fields: str) -> None:
    """A new table with ``cast`` (name → side, the 2D6 they roll), round 1 rolled at the table."""
    console.create("megatraveller-rcs")
    for name, (side, _) in cast.items():
        console.add(name, **{"side": side, "dex": "0", "movement": "0", "tactics": "0", **fields})
    console.roll_2d6_at_the_table({name: dice for name, (_, dice) in cast.items()})


def declare(console: Console, what: str, *, short: bool = False) -> None:
    if short:
        console.page.select_option("#next select[aria-label=Action]", "short")
    console.type("#next input[name=what]", what)
    console.press()


def fit_for_touch(console: Console) -> None:
    speaks_the_game(console.page)
    no_sideways_scroll(console.page)
    assert not small_targets(console.page)


def test_a_seize_as_the_token_moves_and_a_seize_of_that_seize(console: Console) -> None:
    """The token moves onto Jena, the lowest card: the Guard seizes before she says a word.
    The Guard declares; the Boss, higher still, seizes from him. The Guard's declaration
    lapses: when the token comes back to him he declares again."""
    at_the_table(
        console,
        {"Jena": ("crew", "11"), "Bea": ("crew", "22"), "Guard": ("corp", "33"),
         "Boss": ("corp", "55")},
    )  # fmt: skip
    assert console.names == ["Jena", "Bea", "Guard", "Boss"]  # lowest first
    assert console.current == "Jena" and console.prompt == "Jena holds the token: declare an action"
    for name in ("Bea", "Guard", "Boss"):  # the token has just moved: a window to seize
        assert console.row(name).locator(f"[data-action=seize-{name.lower()}]").count() == 1
    console.tap("[data-action=seize-guard]")
    assert console.names == ["Guard", "Jena", "Bea", "Boss"]  # the Guard's card moved in front
    assert console.current == "Guard" and console.doing("Jena") == ""
    declare(console, "fires at Jena")
    assert console.prompt == "Guard declares: fires at Jena. Boss may seize the initiative first"
    console.tap("[data-action=seize-boss]")
    assert console.names == ["Boss", "Guard", "Jena", "Bea"]
    assert console.current == "Boss" and console.prompt == "Boss holds the token: declare an action"
    fit_for_touch(console)
    declare(console, "throws a grenade")
    console.press()  # resolved: the Boss is tapped, the token goes back to the Guard
    assert console.doing("Boss") == "Tapped"
    assert console.current == "Guard"
    assert console.prompt == "Guard holds the token: declare an action"  # his lapsed
    # His lapsed declaration is offered again as it was, to send or to change.
    assert console.page.locator("#next input[name=what]").input_value() == "fires at Jena"
    assert console.page.locator("#next [data-lapsed]").inner_text() == (
        "As declared before it lapsed: send it, or change it"
    )
    declare(console, "fires at Bea")
    console.press()
    played = []
    while console.page.locator("#next [data-action=roll]").count() == 0:
        played.append(console.current)
        declare(console, "fires")
        console.press()
    assert played == ["Jena", "Bea"]


def test_the_tactics_pool(console: Console) -> None:
    """Bea's Tactics 2 makes the crew's pool 2 points. Spent on her initiative, one point a
    tap, they lift her card past the Guard's; the pool is then empty and offers nothing more.
    The referee gives the corp a point; the Guard spends it to go sooner."""
    console.create("megatraveller-rcs")
    for name, side, tactics in (("Jena", "crew", "0"), ("Bea", "crew", "2"),
                                ("Guard", "corp", "0")):  # fmt: skip
        console.add(name, side=side, dex="0", movement="0", tactics=tactics)
    console.roll_2d6_at_the_table({"Jena": "11", "Bea": "22", "Guard": "34"})  # 2, 6, 7
    assert console.names == ["Jena", "Bea", "Guard"]
    pools = console.page.locator("[data-pool=crew]")
    assert pools.inner_text().split()[:3] == ["crew", "2", "points"]
    console.tap("[data-action=tactics-bea-up]")
    # Level with the Guard: raised into his initiative, she comes below him in the tallies.
    assert console.row("Bea").locator(".big").inner_text() == "7 |"
    assert console.row("Guard").locator(".big").inner_text() == "7 ||"
    # The marks say what they are (ruling 3), on the card and in a line beside the cards.
    assert console.row("Bea").locator(".tally").get_attribute("title") == TALLY
    assert console.page.inner_text("[data-legend=tally]") == TALLY
    assert console.names == ["Jena", "Bea", "Guard"]
    # The pool's box follows the pool as it is spent: it never shows the number before.
    assert console.page.input_value("[data-form=pool-crew] input") == "1"
    console.tap("[data-action=tactics-bea-up]")
    assert console.row("Bea").locator(".big").inner_text() == "8"
    assert console.names == ["Jena", "Guard", "Bea"]
    assert pools.inner_text().split()[:3] == ["crew", "0", "points"]
    assert console.page.input_value("[data-form=pool-crew] input") == "0"
    assert console.page.locator("[data-action^=tactics-bea]").count() == 0  # the pool is spent
    assert console.page.locator("[data-action^=tactics-guard]").count() == 0  # corp has none
    console.type("[data-form=pool-corp] input", "1")
    console.tap("[data-action=pool-corp]")
    console.tap("[data-action=tactics-guard-down]")
    assert console.row("Guard").locator(".big").inner_text() == "6"
    assert console.page.input_value("[data-form=pool-corp] input") == "0"  # not the 1 typed
    assert console.page.locator("[data-pool=corp]").inner_text().split()[:3] == [
        "corp",
        "0",
        "points",
    ]
    fit_for_touch(console)


def the_guard_cuts_in(console: Console, what: str) -> None:
    """The Guard, having cut in between Jena's Short Actions, takes his turn; the token comes
    back to Jena, her card marked: one Short Action left."""
    assert console.current == "Guard"
    assert console.doing("Jena") == "One Short Action left"
    declare(console, what)
    console.press()
    assert console.current == "Jena"
    assert console.prompt == "Jena holds the token: declare an action (one Short Action left)"


def test_a_short_action_cut_off_by_a_seize(console: Console) -> None:
    """Jena takes one Short Action; as she declares her second, the Guard seizes. Her second
    declaration lapses and her card carries a marker: when the token comes back she has one
    Short Action left, and no Long Action is offered."""
    at_the_table(console, {"Jena": ("crew", "11"), "Guard": ("corp", "66")})
    declare(console, "aims", short=True)
    console.press()  # resolved: one Short Action done
    assert console.prompt == "Jena holds the token: declare an action (one Short Action left)"
    declare(console, "fires at the Guard")
    assert console.prompt.endswith("Guard may seize the initiative first")
    console.tap("[data-action=seize-guard]")
    the_guard_cuts_in(console, "fires at Jena")
    action = console.page.locator("#next select[aria-label=Action] option")
    assert action.all_inner_texts() == ["Short Action"]
    declare(console, "fires at the Guard")
    console.press()
    assert console.primary == "Roll round 2 at the table"


def test_a_ruled_interrupt_between_two_short_actions(console: Console) -> None:
    """Between Jena's two Short Actions nobody may seize; the referee rules an attack of
    opportunity for the Guard, who acts at once. Then the token comes back to Jena, who has
    her second Short Action still to take."""
    at_the_table(console, {"Jena": ("crew", "11"), "Guard": ("corp", "66")})
    declare(console, "ducks from cover to cover", short=True)
    console.press()
    assert console.page.locator("[data-action=seize-guard]").count() == 0  # no window
    console.row("Guard").get_by_text("More…").click()
    console.tap("[data-action=interrupt-guard]")
    the_guard_cuts_in(console, "fires at Jena as she crosses")
    declare(console, "fires back", short=True)
    console.press()
    assert console.primary == "Roll round 2 at the table"
    assert [e["type"] for e in console.events() if e["type"] == "seized"] == ["seized"]
    seized = next(e for e in console.events() if e["type"] == "seized")
    assert seized["ruled_interrupt"] is True and seized["reason"] == "attack of opportunity"

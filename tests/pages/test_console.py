"""The GM console in Chromium against a real server, played by tapping at tablet and phone sizes:
three pages or rounds of each system. Every step checks the roster and the words of the one
obvious action."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from adapters.tray import TrayStatus
from tests.server.process import ServerProcess, call

from .conftest import Table, shoot
from .console_driver import (
    Console,
    no_sideways_scroll,
    small_targets,
    speaks_the_game,
)


def gm_view(console: Console, server: ServerProcess, table_id: str) -> dict[str, Any]:
    token = console.page.evaluate(f"JSON.parse(localStorage.getItem('seize:{table_id}')).gm_token")
    _, answer = call(f"{server.url}/api/tables/{table_id}", token=token)
    return dict(answer["view"])


def fit_for_touch(console: Console, ids: list[str]) -> None:
    speaks_the_game(console.page, ids)
    no_sideways_scroll(console.page)
    assert not small_targets(console.page)


def test_four_color_three_pages(console: Console, server: ServerProcess) -> None:
    table_id = console.create("four-color")
    assert console.prompt == "Add the heroes, villains and mobs, then deal the first page"
    for name, kind in (("Nightingale", "hero"), ("Spider-Man", "hero"), ("Doom", "villain"),
                       ("Thugs", "mob")):  # fmt: skip
        console.add(name, kind=kind)
    assert console.names == ["Nightingale", "Spider-Man", "Doom", "Thugs"]  # listed at once
    assert console.primary == "Deal page 1"
    console.tap("[data-action=deal-by-hand]")
    for name, card in (("Nightingale", "9H"), ("Spider-Man", "4D"), ("Doom", "RJ"),
                       ("Thugs", "5C"), ("the Editor", "KC")):  # fmt: skip
        assert console.prompt.startswith(f"Deal {name} a card")
        console.type("#next input[name=card]", card)
        console.press()
    assert "9♥" in console.row("Nightingale").inner_text()
    assert console.prompt == "Assign the Editor's K♣: its Panel is next"
    assert console.primary == "Assign K♣"
    console.press()  # to Doom, the first villain
    assert console.primary == "Next Panel: Doom, K♣"
    console.press()
    assert console.current == "Doom" and console.doing("Doom") == "Acting now"
    # The card being played stands out from those already spent, not struck through with them.
    assert console.row("Doom").locator(".playing .card").inner_text() == "K♣"
    assert console.row("Doom").locator(".played").count() == 0
    console.tap("[data-action=joker-RJ]")  # Doom's joker, at any moment
    assert console.doing("Doom") == "Acting now: Editorial Control!"
    # A trade: Spider-Man offers his 4♦ to Nightingale, who accepts.
    console.row("Spider-Man").get_by_text("Trade…").click()
    console.tap("[data-action=offer-spider-man-nightingale]")
    assert "Offers a trade to Nightingale" in console.row("Spider-Man").inner_text()
    console.tap(console.row("Spider-Man").locator("text=Nightingale accepts"))
    assert "4♦" in console.row("Nightingale").inner_text()
    assert console.primary == "Next Panel: Spider-Man, 9♥"
    console.press()
    assert console.current == "Spider-Man"
    undo = console.page.locator("[data-action=undo]")
    assert undo.inner_text() == "↶ Undo Spider-Man's Panel on 9♥"
    console.tap(undo)
    assert console.page.inner_text("#notice") == "Took back Spider-Man's Panel on 9♥."
    assert console.primary == "Next Panel: Spider-Man, 9♥"
    # The table moves on from another screen: the notice of the undo goes with the step.
    before = console.seq
    console.page.evaluate(
        """async (id) => {
             const token = JSON.parse(localStorage.getItem(`seize:${id}`)).gm_token;
             await fetch(`/api/tables/${id}/commands`, { method: "POST",
               headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
               body: JSON.stringify({ type: "next_panel" }) });
           }""",
        console.page.url.split("/console/", 1)[1].split("#", 1)[0],
    )
    console.drawn(before + 1)
    assert console.primary == "Next Panel: Thugs, 5♣"
    assert console.page.inner_text("#notice") == "", "the table moved on from the undo"
    console.press()
    assert console.primary == "Next Panel: Nightingale, 4♦"
    fit_for_touch(console, ["nightingale", "spider-man", "doom", "thugs"])
    console.page.evaluate("window.scrollTo(0, 0)")
    shoot(console.page, f"console-four-color-{console.size}")
    console.press()
    assert console.prompt == "Every Panel of page 1 is played"
    for page in (2, 3):
        assert console.primary == f"Deal page {page}"
        console.press()
        while console.primary.startswith(("Next Panel", "Assign")):
            expected = re.match(r"Next Panel: (.+), \S+$", console.primary)
            console.press()
            if expected:
                assert console.current in (expected[1], None)  # None: an Element's complication
        assert console.prompt == f"Every Panel of page {page} is played"
    assert gm_view(console, server, table_id)["page"] == 3
    console.tap("[data-action=end]")
    assert console.prompt == "The scene is over"


def test_rcs_rolls_are_typed_on_their_rows_in_any_order(
    console: Console, server: ServerProcess
) -> None:
    """Rolled at the table, the step asks for the first roll awaited and every other rolling
    character's row takes its own: the GM types the NPCs' dice while a player still looks for
    theirs (ruling 1: each character's dice, entered in any order)."""
    console.create("megatraveller-rcs")
    console.add("Jena", side="crew", dex="0", movement="0", tactics="0")
    console.add("Guard", side="corp", dex="0", movement="0", tactics="0")
    console.add("Boss", dex="0", movement="0", tactics="0")  # the side stays from the last
    assert console.row("Boss").locator(".kind").inner_text() == "corp"
    assert console.row("Boss").locator("[data-ratings]").inner_text().strip() == (
        "Dex 0 · Movement 0"  # what his initiative adds to the 2D6, on his row
    )
    console.tap("[data-action=await-rolls]")
    assert console.prompt == "Waiting for Jena's 2D6: type it as rolled"
    assert console.row("Jena").locator("[data-action^=enter-roll]").count() == 0  # the step's
    boss = console.row("Boss")
    boss.locator("input[name=die1]").fill("6")
    boss.locator("input[name=die2]").fill("5")
    console.tap(boss.locator("[data-action=enter-roll-boss]"))
    assert console.prompt == "Waiting for Jena's 2D6: type it as rolled"  # still hers
    assert console.doing("Boss") == "Roll in: the cards are laid once every roll is"
    assert console.doing("Guard") == "Rolling initiative"

    guard = console.row("Guard")
    guard.locator("input[name=die1]").fill("2")
    guard.locator("input[name=die2]").fill("2")
    console.tap(guard.locator("[data-action=enter-roll-guard]"))
    console.type("#next input[name=die1]", "3")
    console.type("#next input[name=die2]", "4")
    console.press()  # the last roll in: the round begins
    assert console.names == ["Guard", "Jena", "Boss"]  # 4, 7, 11: lowest first
    entered = [e for e in console.events() if e["type"] == "roll_entered"]
    assert [e["roll"]["character"] for e in entered] == ["boss", "guard", "jena"]
    console.type("#next input[name=what]", "shouts Freeze!")
    console.press()
    assert console.prompt == (  # no full stop after his own exclamation mark
        "Guard declares: shouts Freeze! Jena and Boss may seize the initiative first"
    )
    console.type("#next input[name=outcome]", "everyone ducks")  # what came of it, for the story
    console.press()
    resolved = [e for e in console.events() if e["type"] == "resolved"]
    assert [e["outcome"] for e in resolved] == ["everyone ducks"]
    # Jena holds the token: aimed at the Boss in her own words, not "at the Boss at Boss".
    console.type("#next input[name=what]", "fires at the Boss")
    console.page.select_option("#next select[aria-label=At]", "Boss")
    console.press()
    assert console.prompt == "Jena declares: fires at the Boss. Boss may seize the initiative first"


def test_rcs_three_rounds_with_a_seize_chain(console: Console, server: ServerProcess) -> None:
    table_id = console.create("megatraveller-rcs")
    for name, side in (("Jena", "crew"), ("Bea", "crew"), ("Guard", "corp"), ("Boss", "corp")):
        console.add(name, side=side, dex="0", movement="0", tactics="0")
    assert console.primary == "The engine rolls round 1"
    console.tap("[data-action=await-rolls]")
    for name, dice in (("Jena", "11"), ("Bea", "22"), ("Guard", "33"), ("Boss", "55")):
        assert console.prompt == f"Waiting for {name}'s 2D6: type it as rolled"
        assert console.doing(name) == "Rolling initiative"
        console.type("#next input[name=die1]", dice[0])
        console.type("#next input[name=die2]", dice[1])
        console.press()
    assert console.names == ["Jena", "Bea", "Guard", "Boss"]  # lowest first
    assert console.current == "Jena" and console.prompt == "Jena holds the token: declare an action"
    console.type("#next input[name=what]", "dives out the window")
    console.press()
    assert console.prompt == (  # aimed at no one unless the GM picks a target
        "Jena declares: dives out the window. Bea, Guard and Boss may seize the initiative first"
    )
    assert console.primary == "Resolve: Jena dives out the window"
    console.tap("[data-action=seize-guard]")
    assert console.current == "Guard" and console.prompt.startswith("Guard holds the token")
    console.tap("[data-action=seize-boss]")  # an even higher card seizes from the seizer
    assert console.current == "Boss"
    assert console.page.locator("[data-action=seize-guard]").count() == 0
    console.type("#next input[name=what]", "fires")
    console.press()
    assert console.primary == "Resolve: Boss fires"
    console.page.evaluate("window.scrollTo(0, 0)")
    shoot(console.page, f"console-rcs-{console.size}")
    console.key("Enter")
    assert console.doing("Boss") == "Tapped"
    assert console.doing("Boss") == "Tapped"
    turns = 0
    while console.page.locator("#next [data-action=roll]").count() == 0:
        holder = console.current
        console.press()  # declare
        console.press()  # resolve
        assert console.doing(holder or "") == "Tapped"
        turns += 1
    assert turns == 3
    fit_for_touch(console, ["jena", "bea", "guard", "boss"])
    undo = console.page.locator("[data-action=undo]")
    label = undo.inner_text()
    # The declaration's own words in brackets: not "Undo resolving Boss's fires".
    assert re.fullmatch(r"↶ Undo resolving \S+'s action \(.+\)", label), label
    assert console.prompt == "Every card is tapped: roll initiative for round 2"
    # Round 1 was rolled at the table: so is round 2 first, at a tap, Space or Enter.
    assert console.primary == "Roll round 2 at the table"
    console.tap("#next [data-action=roll]")  # this time the engine rolls
    while console.page.locator("#next [data-action=roll]").count() == 0:
        console.press()
    assert console.primary == "The engine rolls round 3"  # as round 2 was
    console.tap("[data-action=await-rolls]")  # round 3 at the table again
    for name in ("Jena", "Bea", "Guard", "Boss"):
        assert console.prompt == f"Waiting for {name}'s 2D6: type it as rolled"
        console.type("#next input[name=die1]", "4")
        console.type("#next input[name=die2]", "2")
        console.press()
    holder = console.current
    assert holder and console.doing(holder) == "Holds the token"
    for name in ("Jena", "Bea", "Guard", "Boss"):  # all on 6: the tie is broken by tallies
        assert console.row(name).locator(".big").inner_text().startswith("6 |")
    while console.page.locator("#next [data-action=roll]").count() == 0:
        console.press()
    assert gm_view(console, server, table_id)["round"] == 3


def test_awareness_three_rounds_with_a_typed_preemption(
    console: Console, server: ServerProcess
) -> None:
    table_id = console.create("awareness")
    for name in ("Kid", "Marshal", "Bea", "Deputy"):
        console.add(name)
    assert console.names == ["Kid", "Marshal", "Bea", "Deputy"]
    console.tap("[data-action=await-rolls]")
    for name, die in (("Kid", "1"), ("Marshal", "3"), ("Bea", "5"), ("Deputy", "6")):
        assert console.prompt == f"Waiting for {name}'s d10: type it as rolled"
        console.type("#next input[name=die]", die)
        console.press()
    assert "QR 1" in console.row("Kid").inner_text()
    assert console.prompt == "Kid declares: act or wait"
    console.type("#next input[name=what]", "the Marshal draws")
    console.tap("[data-action=wait]")
    assert console.doing("Kid") == "Waits for: the Marshal draws"
    assert console.prompt == "Marshal declares: act or wait"
    console.type("#next input[name=what]", "draws")
    console.press()
    assert console.prompt == "Marshal acts: draws. Kid may react first"
    fit_for_touch(console, ["kid", "marshal", "bea", "deputy"])  # with the reactions on show
    console.type(".row[data-id=kid] input[name=die]", "4")  # 5 + (3 - 1) = 7: success
    console.tap("[data-action=preempt-kid]")
    assert console.doing("Kid") == (
        "Pre-empts Marshal: goes just before; rolled 4 on the d10, needed 7 or less "
        "(Coordination + QR difference)"
    )
    assert "Resolves in order: Kid → Marshal" in console.visible_text()
    assert console.current == "Kid" and console.primary == "Resolve Kid's pre-emption of Marshal"
    console.page.evaluate("window.scrollTo(0, 0)")
    shoot(console.page, f"console-awareness-{console.size}")
    console.press()
    assert console.prompt == "Marshal was pre-empted: could Marshal's action (draws) still happen?"
    done = console.page.locator("[data-sequence] s")
    assert done.get_attribute("aria-label") == "Kid pre-empted Marshal: acted first"
    console.press()
    for _ in ("Bea", "Deputy"):
        console.press()  # act
        console.press()  # resolve
    fit_for_touch(console, ["kid", "marshal", "bea", "deputy"])
    for round_number in (2, 3):
        assert console.prompt == (
            f"No one is left to declare: roll initiative for round {round_number}"
        )
        console.tap("#next [data-action=roll]")  # the engine rolls
        while console.page.locator("#next [data-action=roll]").count() == 0:
            console.press()
    assert gm_view(console, server, table_id)["round"] == 3


def test_a_refusal_is_told_in_the_games_words(console: Console, server: ServerProcess) -> None:
    console.create("four-color")
    console.add("Nightingale")
    console.tap("[data-action=deal-by-hand]")
    console.type("#next input[name=card]", "joker")
    said = console.refused("#next [data-primary]")
    assert said == (
        "Not understood: 'joker': a deck has two jokers; say which (RJ or BJ). Where it stands: "
        "Deal Nightingale a card: type it as it is dealt, or read it."
    )
    # A typo is not "not now": nothing later would make it a card.
    console.type("#next input[name=card]", "QX")
    said = console.refused("#next [data-primary]")
    assert said.startswith("Not understood: 'QX' is not a card (try Q♥, 10♠"), said
    speaks_the_game(console.page, ["nightingale"])
    console.type("#next input[name=card]", "9H")
    console.press()
    assert console.page.inner_text("#notice") == ""
    console.row("Nightingale").get_by_text("Correct…").click()
    console.type(".row[data-id=nightingale] [data-form=correct-9H] input", "8H")
    console.tap("[data-action=correct-9H]")
    assert "8♥" in console.row("Nightingale").inner_text()
    # The fold the GM opened stays open as the table moves on, until the GM closes it.
    console.type(".row[data-id=nightingale] [data-form=correct-8H] input", "8H")
    said = console.refused("[data-action=correct-8H]")
    assert said.startswith("Not now: 8♥ is on the table already.")
    # Never allowed, now or later (ruling 4): said as the rule, with what to do instead.
    console.type(".row[data-id=nightingale] [data-form=correct-8H] input", "RJ")
    said = console.refused("[data-action=correct-8H]")
    assert said.startswith(
        "Heroes never hold jokers: a joker dealt to the hero Nightingale goes back into the deck "
        "and Nightingale is dealt another card; correct 8♥ to that card instead. Where it "
        "stands: "
    ), said


def test_a_phone_link_and_a_new_overlay_link_from_the_console(
    console: Console, server: ServerProcess
) -> None:
    console.create("megatraveller-rcs")
    console.add("Jena", side="crew")
    console.page.click("[data-action=phone-jena]")
    link = console.page.locator("[data-qr=jena] a")
    console.page.locator("[data-qr=jena] svg").wait_for()
    play = link.get_attribute("href")
    assert "/play/" in play
    console.page.click("[data-action=overlay-link]")
    console.page.locator("[data-qr=overlay] svg").wait_for()
    first = console.page.locator("[data-qr=overlay] a").get_attribute("href")
    # The stream's story and its replays go with the overlay link, and the GM's from the header.
    overlay = urlsplit(first)
    table_id = overlay.path.rsplit("/", 1)[1]
    stream = console.page.locator("[data-link=stream-timeline]").get_attribute("href")
    assert stream == f"/tables/{table_id}/timeline?{overlay.query}"
    replay = console.page.locator("[data-link=replay-2]").get_attribute("href")
    assert replay == f"{overlay.path}?{overlay.query}&replay=last&speed=2"
    gm_story = console.page.locator("header a[data-link=timeline]").get_attribute("href")
    assert gm_story == f"/tables/{table_id}/timeline"
    console.page.click("[data-action=overlay-link]")
    console.page.wait_for_function(
        f"document.querySelector('[data-qr=overlay] a').href !== {first!r}"
    )
    status, _ = call(first.replace("/overlay/", "/api/tables/"))
    assert status == 401  # the older overlay link stopped working


def test_the_referee_rules_an_interrupt_between_two_short_actions(
    console: Console, server: ServerProcess
) -> None:
    console.create("megatraveller-rcs")
    for name, side in (("Jena", "crew"), ("Guard", "corp")):
        console.add(name, side=side, dex="0", movement="0", tactics="0")
    console.tap("[data-action=await-rolls]")
    for dice in ("11", "66"):
        console.type("#next input[name=die1]", dice[0])
        console.type("#next input[name=die2]", dice[1])
        console.press()
    console.page.select_option("#next select[aria-label=Action]", "short")
    console.type("#next input[name=what]", "aims")
    console.press()
    console.press()  # resolved: Jena has one Short Action left, no window to seize
    assert console.prompt == "Jena holds the token: declare an action (one Short Action left)"
    assert console.page.locator("[data-action=seize-guard]").count() == 0
    console.row("Guard").get_by_text("More…").click()
    console.tap("[data-action=interrupt-guard]")
    assert console.current == "Guard"
    assert console.doing("Jena") == "One Short Action left"


def test_a_joker_played_last_goes_to_the_villain(console: Console, server: ServerProcess) -> None:
    """The Editor's extra card is a joker: after the last ranked Panel it is played last,
    assigned to the villain. (In a scene of heroes alone the rules discard it instead.)"""
    console.create("four-color")
    for name in ("Nightingale", "Spider-Man"):
        console.add(name)
    console.add("Doom", kind="villain")
    console.tap("[data-action=deal-by-hand]")
    for card in ("2H", "3H", "4H", "RJ"):  # the Editor's extra card is a joker
        console.type("#next input[name=card]", card)
        console.press()
    # The Editor's row holds the Editor's own cards: it is no one the players could be kept
    # from seeing, so it offers no hiding, as every participant's row does.
    assert console.row("The Editor").locator("[data-action^=hide-]").count() == 0
    assert console.row("Doom").locator("[data-action^=hide-]").count() == 1
    steps = []
    while console.prompt != "Every Panel of page 1 is played":
        steps.append(console.primary)
        console.press()
    assert steps[-2:] == ["Assign red joker", "Next Panel: Doom, red joker"], steps


def test_a_hero_trades_with_the_editor(console: Console, server: ServerProcess) -> None:
    console.create("four-color")
    for name, kind in (("Nightingale", "hero"), ("Spider-Man", "hero"), ("Doom", "villain")):
        console.add(name, kind=kind)
    console.press()  # the engine deals
    row = console.row("Spider-Man")
    row.get_by_text("Trade…").click()
    console.tap("[data-action=offer-spider-man-editor]")
    assert "Offers a trade to the Editor" in row.inner_text()
    given = row.locator('select[aria-label="The Editor\'s card"]')
    chosen = given.evaluate("select => select.selectedOptions[0].textContent")
    console.tap(row.locator("button[data-action^=accept-]"))
    assert row.locator(".card").first.inner_text() == chosen
    assert console.page.locator(".offer").count() == 0


def test_the_devices_panel_counts_a_trays_refused_lines(page: Any, server: ServerProcess) -> None:
    """What the tray adapter reports (its own ``TrayStatus.report``, kind and all) is what the
    GM reads: a tray was once left out of the panel, as a kind of "dice …" taken for a die's."""
    table = Table(server, "megatraveller-rcs")
    report = TrayStatus(connected=True).report(Counter({"checksum": 2, "not_a_roll": 1}))
    status, _ = call(f"{table.url}/devices/tray", "PUT", report, table.gm)
    assert status == 200
    reader = {"connected": True, "last_read": "6S"}
    assert call(f"{table.url}/devices/reader", "PUT", reader, table.gm)[0] == 200
    table.devices(page)
    line = page.locator("[data-device='tray']")
    line.wait_for()
    assert "refused 2 checksum, 1 not a roll" in line.inner_text()
    assert "last read 6♠" in page.locator("[data-device='reader']").inner_text()  # as a card


def test_a_latecomer_joins_an_rcs_round_and_rolls_at_once(
    console: Console, server: ServerProcess
) -> None:
    """Ruling 10 at the console: the round was rolled at the table, so the latecomer's 2D6 is
    the next thing asked for; its card is laid among those still to act, untapped."""
    table_id = console.create("megatraveller-rcs")
    for name, side in (("Jena", "crew"), ("Guard", "corp")):
        console.add(name, side=side, dex="0", movement="0", tactics="0")
    console.tap("[data-action=await-rolls]")
    for dice in ("11", "66"):
        console.type("#next input[name=die1]", dice[0])
        console.type("#next input[name=die2]", dice[1])
        console.press()
    assert console.current == "Jena"
    console.add("Okoro", side="corp", dex="0", movement="0", tactics="0")
    assert console.prompt == "Waiting for Okoro's 2D6: type it as rolled"
    console.type("#next input[name=die1]", "3")
    console.type("#next input[name=die2]", "3")
    console.press()
    assert console.prompt == "Jena holds the token: declare an action"
    assert "6 rolled 3 + 3, +0" in console.row("Okoro").inner_text().replace("\n", " ")
    line = gm_view(console, server, table_id)["line"]
    assert [(c["character"], c["tapped"]) for c in line] == [
        ("jena", False),
        ("okoro", False),
        ("guard", False),
    ]


def test_an_awareness_character_who_froze_is_said_to_sit_the_round_out(
    console: Console, server: ServerProcess
) -> None:
    """A QR of 10 freezes (ruling 6): no declaration this round. The Thug's row says so, where
    before it said nothing and he was only missing from those still to declare."""
    table = Table(server, "awareness")
    for ident, name in (("kid", "Kid"), ("marshal", "Marshal"), ("thug", "Thug")):
        sheet = {"id": ident, "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": {**sheet, "state": "alert"}})
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 3, "source": "gm"})
    table.send({"type": "enter_initiative", "character": "marshal", "die": 8, "source": "gm"})
    seq = table.send({"type": "enter_initiative", "character": "thug", "die": 10, "source": "gm"})
    console.page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    console.drawn(seq["seq"])
    assert console.doing("Thug") == "Froze (QR 10): no declaration this round"
    assert console.doing("Kid") == "Declaring now"
    console.type("#next input[name=what]", "shoots the Thug")
    console.press()
    console.type("#next input[name=outcome]", "the Thug drops")  # what came of it
    console.press()
    resolved = [e for e in console.events() if e["type"] == "resolved"]
    assert [e["outcome"] for e in resolved] == ["the Thug drops"]
    # QR 8 panics (ruling 6): all-out only, and no wait; the prompt offers no wait either.
    assert console.prompt == "Marshal declares: act all-out (QR 8: panic)"
    assert console.page.locator("#next [data-action=wait]").count() == 0


def test_a_roll_typed_on_a_row_leaves_the_keyboard_in_the_steps_boxes(
    browser: Any, server: ServerProcess
) -> None:
    """At a keyboard (a fine pointer), the GM types the Boss's dice on his row and presses
    Enter: his boxes go, and the cursor is in the step's first box for the next roll, so the
    next digit is not lost (before, it was nowhere)."""
    table = Table(server, "megatraveller-rcs")
    for ident, side in (("jena", "crew"), ("boss", "corp")):
        character = {"id": ident, "name": ident.title(), "side": side, "dex": 0, "movement": 0}
        table.send({"type": "join", "character": character})
    seq = table.send({"type": "roll_initiative", "source": "gm"})["seq"]
    context = browser.new_context(viewport={"width": 1024, "height": 768})  # no touch
    page = context.new_page()
    page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    page.wait_for_function(f"Number(document.body.dataset.seq) === {seq}")
    boss = page.locator(".row[data-id=boss]")
    boss.locator("input[name=die1]").fill("6")
    boss.locator("input[name=die2]").fill("5")
    boss.locator("input[name=die2]").press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.seq) === {seq + 1}")
    expect(boss.locator("input[name=die1]")).to_have_count(0)
    assert page.evaluate("document.activeElement.closest('#next') !== null")
    assert page.evaluate("document.activeElement.name") == "die1"
    context.close()


def test_awareness_d10s_are_typed_on_their_rows_in_any_order(
    console: Console, server: ServerProcess
) -> None:
    """As at RCS: the step asks for the first d10 awaited, and each other rolling character's
    row takes its own, so the GM types the NPCs' while a player still looks for their die."""
    console.create("awareness")
    for name in ("Ada", "Thug", "Lookout"):
        console.add(name)
    console.tap("[data-action=await-rolls]")
    assert console.prompt == "Waiting for Ada's d10: type it as rolled"
    assert console.row("Ada").locator("[data-action^=enter-initiative]").count() == 0
    lookout = console.row("Lookout")
    lookout.locator("input[name=die]").fill("2")
    console.tap(lookout.locator("[data-action=enter-initiative-lookout]"))
    assert console.prompt == "Waiting for Ada's d10: type it as rolled"  # still hers
    assert "QR 2" in lookout.inner_text()
    thug = console.row("Thug")
    thug.locator("input[name=die]").fill("6")
    console.tap(thug.locator("[data-action=enter-initiative-thug]"))
    console.type("#next input[name=die]", "4")
    console.press()  # the last d10 in: the declarations begin, the best QR first
    assert console.prompt.startswith("Lookout declares: act or wait"), console.prompt
    console.declare("Lookout", "until someone moves", wait=True)
    assert console.doing("Lookout") == "Waits until someone moves"  # not "for: until…"

"""The player page at a phone's size (390 by 844), in Chromium against a real server: what matters
first is on top. The player's own step, then who plays now and the order, then offers made to
them and their buttons; while dice are gathered, whose are still to come and what the player
owes; a wait carried over from last round, recalled."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from tests.server.process import ServerProcess
from tests.waiting import until

from .conftest import Table, shoot
from .console_driver import no_sideways_scroll, small_targets, speaks_the_game
from .test_play import at_seq, first_panel, hand_to, rcs_character


def boxes(locators: tuple[Any, ...]) -> list[dict[str, float]]:
    """Where each locator's one element is on screen; none while one is not shown."""
    found = [locator.bounding_box() for locator in locators]
    return [dict(one) for one in found] if all(one is not None for one in found) else []


def above(page: Any, *locators: Any) -> None:
    """Each one is shown and ends above where the next begins, top to bottom. Read again until
    all are on screen at once: a redraw takes an element off for a moment (the socket's first
    view redraws what the page fetched), and one read in that moment is no box at all."""
    shown = until(lambda: boxes(locators), lambda: f"not all on screen: {locators}")
    for upper, lower in pairwise(shown):
        assert upper["y"] + upper["height"] <= lower["y"], (upper, lower)


def fits(page: Any) -> None:
    no_sideways_scroll(page)
    assert not small_targets(page)


def test_four_color_the_step_then_now_then_the_order_then_offers(
    phone: Any, server: ServerProcess
) -> None:
    """Three heroes; a Panel is up, Peter's card is still to play, and a hero who still holds a
    card offers Peter a trade. Peter's phone reads top to bottom: his step, Now, the order, the
    offer; the trades he could offer wait behind one button."""
    table = Table(server, "four-color")
    for hero in ("peter", "sue", "ben"):
        table.send({"type": "join", "member": {"id": hero, "name": hero.title(), "kind": "hero"}})
    table.send({"type": "deal", "source": "gm"})
    for card in ("2H", "KS", "QD", "3C"):  # Peter, Sue, Ben, then the Editor's extra card
        table.send({"type": "deal_card", "card": card})
    table.send({"type": "next_panel"})
    view = table.view(table.gm)["view"]
    offering = next(c["holder"] for c in view["order"] if c["holder"] not in ("peter", "editor"))
    seq = table.send({"type": "offer_trade", "hero": offering, "partner": "peter"})["seq"]
    phone.goto(hand_to(table, "peter"))
    at_seq(phone, seq)
    above(
        phone,
        phone.get_by_text("Your card is still to play"),
        phone.locator(".now"),
        phone.locator(".order"),
        phone.get_by_text(f"{offering.title()} offers you a trade"),
        phone.get_by_role("button", name="Accept the trade"),
        phone.get_by_text("Offer a trade…"),
    )
    trade = phone.locator("[data-action=offer-editor]")
    assert not trade.is_visible()  # folded away until asked for
    speaks_the_game(phone, ["peter", "sue", "ben"])
    fits(phone)
    shoot(phone, "player-four-color")
    phone.get_by_text("Offer a trade…").click()
    trade.click()
    phone.wait_for_selector("text=You offered a trade to the Editor")
    assert {(o["hero"], o["partner"]) for o in table.view(table.gm)["view"]["offers"]} == {
        (offering, "peter"),
        ("peter", "editor"),
    }


def test_four_color_your_panel_comes_first(phone: Any, server: ServerProcess) -> None:
    """When Peter's Panel is up, his phone says so first, then Now and the order, then his
    card."""
    table, seq = first_panel(server, ("KH", "2C", "3D"))
    assert table.view(table.gm)["view"]["current"]["acting"] == "peter"
    phone.goto(hand_to(table, "peter"))
    at_seq(phone, seq)
    above(
        phone,
        phone.get_by_text("Your Panel: act now!"),
        phone.locator(".now"),
        phone.locator(".order"),
        phone.get_by_role("heading", name="Peter"),
    )


def test_rcs_the_phone_says_whose_dice_are_still_to_come(phone: Any, server: ServerProcess) -> None:
    """While the round's 2D6 come in, Jena's phone says first that she owes her roll, and the
    table whose dice are still to come: named as the view names them, a hidden sniper not at
    all."""
    table = Table(server, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp"), ("sniper", "corp")):
        table.send(rcs_character(cid, side))
    table.send({"type": "hide", "participant": "sniper"})
    link = hand_to(table, "jena")
    seq = table.send({"type": "roll_initiative", "source": "gm"})["seq"]
    phone.goto(link)
    at_seq(phone, seq)
    owed = phone.get_by_text("Roll for Jena")
    still = phone.get_by_text("Dice still to come for: Jena, Guard", exact=True)
    above(phone, owed, phone.get_by_role("heading", name="The table"), still,
          phone.locator("[data-action=enter-roll]"))  # fmt: skip
    assert "Sniper" not in phone.inner_text("body")
    speaks_the_game(phone, ["jena", "guard", "sniper"])
    fits(phone)
    shoot(phone, "player-rcs-rolling")
    seq = table.send({"type": "enter_roll", "character": "jena", "dice": [3, 4], "source": "gm"})
    at_seq(phone, seq["seq"])
    assert owed.count() == 0
    assert phone.get_by_text("Dice still to come for: Guard", exact=True).is_visible()
    assert "Sniper" not in phone.inner_text("body")


def test_awareness_a_wait_from_last_round_is_recalled_while_the_dice_come_in(
    phone: Any, server: ServerProcess
) -> None:
    """Round one passes in a stare: the Kid waits for the draw, the Marshal for the Kid. While
    round two's d10s come in, the Kid's phone says he owes his roll and is still waiting, and the
    table says the dice are coming in (a player's view names no one else's die); once the round
    starts, the wait is still recalled, and the Marshal's trigger is still not the Kid's to see."""
    table = Table(server, "awareness")
    for cid in ("kid", "marshal"):
        sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5,
                 "coordination": 5, "state": "ready"}  # fmt: skip
        table.send({"type": "join", "sheet": sheet})
    link = hand_to(table, "kid")
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 5, "source": "gm"})
    table.send({"type": "enter_initiative", "character": "marshal", "die": 6, "source": "gm"})
    table.send({"type": "wait", "character": "kid", "trigger": "the draw"})
    table.send({"type": "wait", "character": "marshal", "trigger": "the Kid draws"})
    seq = table.send({"type": "roll_initiative", "source": "gm"})["seq"]
    phone.goto(link)
    at_seq(phone, seq)
    above(
        phone,
        phone.get_by_text("Roll for Kid"),
        phone.get_by_text("Kid is still waiting for: the draw", exact=True),
        phone.get_by_role("heading", name="The table"),
        phone.get_by_text("Round 2: initiative dice still coming in"),
        phone.locator("[data-action=enter-initiative]"),
    )
    speaks_the_game(phone, ["kid", "marshal"])
    fits(phone)
    shoot(phone, "player-awareness-rolling")
    table.send({"type": "enter_initiative", "character": "kid", "die": 8, "source": "gm"})
    seq = table.send({"type": "enter_initiative", "character": "marshal", "die": 4,
                      "source": "gm"})["seq"]  # fmt: skip
    at_seq(phone, seq)
    assert phone.get_by_text("Kid is still waiting for: the draw", exact=True).is_visible()
    assert phone.get_by_text("Roll for Kid").count() == 0
    assert "the Kid draws" not in phone.inner_text("body")


def test_four_color_the_table_says_where_the_page_is_before_a_card_is_shown(
    phone: Any, server: ServerProcess
) -> None:
    """Before any card is on the table, the phone's table says why, not an empty box: no page
    dealt yet, then the cards being dealt, until the first shows."""
    table = Table(server, "four-color")
    for hero in ("peter", "sue"):
        table.send({"type": "join", "member": {"id": hero, "name": hero.title(), "kind": "hero"}})
    link = hand_to(table, "peter")
    phone.goto(link)
    at_seq(phone, table.view()["seq"])
    assert phone.locator("[data-page=setup]").inner_text() == "No page dealt yet"
    at_seq(phone, table.send({"type": "deal", "source": "gm"})["seq"])
    dealing = phone.locator("[data-page=dealing]")
    assert dealing.inner_text() == "Page 1: the cards are being dealt"
    at_seq(phone, table.send({"type": "deal_card", "card": "KH"})["seq"])
    assert dealing.count() == 0  # Peter's K♥ is in the order now


def test_rcs_the_phone_says_what_tally_marks_mean_where_they_show(
    phone: Any, server: ServerProcess
) -> None:
    """Jena and the Guard roll the same: the tie is broken once at random, shown as tally
    marks, and the phone says what they mean, as the console does."""
    table = Table(server, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp")):
        table.send(rcs_character(cid, side))
    link = hand_to(table, "jena")
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_roll", "character": "jena", "dice": [3, 4], "source": "gm"})
    seq = table.send({"type": "enter_roll", "character": "guard", "dice": [4, 3],
                      "source": "gm"})["seq"]  # fmt: skip
    phone.goto(link)
    at_seq(phone, seq)
    assert "|" in phone.locator(".order").inner_text()
    legend = phone.locator("[data-legend=tally]")
    assert legend.inner_text().startswith("| tally marks: a tie of equal initiatives")
    above(phone, phone.locator(".order"), legend)

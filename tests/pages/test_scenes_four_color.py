"""The Four Color Hack's scenes, played on the Editor's console by taps (and the cards dealt at
the table, typed as the console asks for them), at tablet and phone size: a joker dealt to a
hero, the Editor's joker as an interrupt, trades with a Writer and with the Editor, and a joker
still unplayed when the last ranked card is done."""

from __future__ import annotations

import re

from .console_driver import Console, no_sideways_scroll, small_targets, speaks_the_game


def dealt_by_hand(console: Console, cast: dict[str, str], cards: list[str]) -> None:
    """A new table with ``cast`` (name → kind), page 1 dealt by hand: ``cards`` in the order the
    console asks for them (each in the order they joined, then the Editor's extra cards)."""
    console.create("four-color")
    for name, kind in cast.items():
        console.add(name, kind=kind)
    console.tap("[data-action=deal-by-hand]")
    for code in cards:
        console.type("#next input[name=card]", code)
        console.press()


def panels(console: Console) -> list[str]:
    """Play the page out with the one obvious step; answers each step's words."""
    steps = []
    while console.primary.startswith(("Next Panel", "Assign")):
        steps.append(console.primary)
        console.press()
    return steps


def test_a_joker_dealt_to_a_hero_goes_back_and_the_hero_is_dealt_again(console: Console) -> None:
    console.create("four-color")
    for name, kind in (("Nightingale", "hero"), ("Doom", "villain")):
        console.add(name, kind=kind)
    console.tap("[data-action=deal-by-hand]")
    console.type("#next input[name=card]", "RJ")
    said = console.refused("#next [data-primary]")
    assert said.startswith(
        "Heroes never hold jokers: a joker dealt to the hero Nightingale goes back into the "
        "deck: put it back at a random place and deal Nightingale a replacement."
    ), said
    assert console.prompt.startswith("Deal Nightingale a card")
    console.type("#next input[name=card]", "9H")
    console.press()
    assert console.prompt.startswith("Deal Doom a card")
    console.type("#next input[name=card]", "RJ")  # the joker is back in the deck: Doom keeps it
    console.press()
    assert console.row("Nightingale").locator(".card").all_inner_texts() == ["9♥"]
    assert console.row("Doom").locator(".card").all_inner_texts() == ["red joker"]
    speaks_the_game(console.page, ["nightingale", "doom"])


def test_the_editors_joker_interrupts_the_sequence(console: Console) -> None:
    """Doom holds the black joker. After Nightingale's Panel, the Editor plays it at once: Doom
    acts with Editorial Control, and the Panels go on where they were."""
    dealt_by_hand(
        console,
        {"Nightingale": "hero", "Spider-Man": "hero", "Doom": "villain", "Thugs": "mob"},
        ["KH", "9D", "BJ", "5C", "2S"],  # the Editor's extra card: 2♠
    )
    assert console.primary == "Next Panel: Nightingale, K♥"
    console.press()
    console.tap("[data-action=joker-BJ]")  # between two Panels, at any moment
    assert console.current == "Doom"
    assert console.doing("Doom") == "Acting now: Editorial Control!"
    events = console.events()
    played = [e for e in events if e["type"] == "panel_played"]
    assert [(e["card"], e["editorial_control"], e["bonus_hero_die"]) for e in played] == [
        ("KH", False, True),
        ("BJ", True, False),
    ]
    assert panels(console) == [
        "Next Panel: Spider-Man, 9♦",
        "Next Panel: Thugs, 5♣",
        "Assign 2♠",
        "Next Panel: Doom, 2♠",
    ]
    assert console.prompt == "Every Panel of page 1 is played"
    no_sideways_scroll(console.page)
    assert not small_targets(console.page)


def test_trades_with_a_writer_and_with_the_editor(console: Console) -> None:
    """Spider-Man offers his 4♦ to Nightingale, who accepts: they swap. Then Nightingale offers
    a trade to the Editor, who gives Doom's Q♣ for it. The Panels follow the cards."""
    dealt_by_hand(
        console,
        {"Nightingale": "hero", "Spider-Man": "hero", "Doom": "villain"},
        ["9H", "4D", "QC", "3S"],
    )
    spider = console.row("Spider-Man")
    spider.get_by_text("Trade…").click()
    console.tap("[data-action=offer-spider-man-nightingale]")
    assert "Offers a trade to Nightingale" in spider.inner_text()
    console.tap(spider.get_by_role("button", name="Nightingale accepts"))
    assert console.row("Nightingale").locator(".card").all_inner_texts() == ["4♦"]
    assert spider.locator(".card").all_inner_texts() == ["9♥"]
    nightingale = console.row("Nightingale")
    nightingale.get_by_text("Trade…").click()
    console.tap("[data-action=offer-nightingale-editor]")
    nightingale.locator('select[aria-label="The Editor\'s card"]').select_option("QC")
    console.tap(nightingale.locator("button[data-action^=accept-]"))
    assert nightingale.locator(".card").all_inner_texts() == ["Q♣"]
    assert "4♦" in console.row("Doom").inner_text()
    assert panels(console) == [
        "Next Panel: Nightingale, Q♣",
        "Next Panel: Spider-Man, 9♥",
        "Next Panel: Doom, 4♦",
        "Assign 3♠",
        "Next Panel: Doom, 3♠",
    ]
    speaks_the_game(console.page, ["nightingale", "spider-man", "doom"])


def test_a_joker_unplayed_at_the_end_of_the_page_is_played_last(console: Console) -> None:
    """Doom's red joker is never played as an interrupt: when the last ranked card is done, it
    is played then, as Doom's Editorial Control."""
    dealt_by_hand(console, {"Nightingale": "hero", "Doom": "villain"}, ["7H", "RJ"])
    steps = panels(console)
    assert steps == ["Next Panel: Nightingale, 7♥", "Next Panel: Doom, red joker"]
    assert console.prompt == "Every Panel of page 1 is played"
    last = [e for e in console.events() if e["type"] == "panel_played"][-1]
    assert (last["card"], last["acting"], last["editorial_control"]) == ("RJ", "doom", True)
    assert re.fullmatch(r"Deal page 2", console.primary)

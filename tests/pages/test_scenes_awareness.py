"""The designer's four scenes of the awareness one-pager, played on the GM console by taps (and
the dice the table rolls, typed as the console asks for them), at tablet and phone size. Each
scene has the seed's sheets and dice (tests/rules/awareness/test_scenes.py works the numbers),
and asserts the order and outcomes the seed tells.

Sheets have Perception 5 and Stealth 5 unless said: an alert character's QR is the d10, ready
the d10 - 2, lying in wait the d10 - 4."""

from __future__ import annotations

from typing import Any

from tests.server.process import ServerProcess

from .conftest import shoot
from .console_driver import (
    Console,
    no_sideways_scroll,
    preempting,
    small_targets,
    speaks_the_game,
)


def performed(console: Console) -> dict[str, bool]:
    """Who acted in the exchanges of the table, and whether their action happened."""
    names = {
        e["sheet"]["id"]: e["sheet"]["name"] for e in console.events() if e["type"] == "joined"
    }
    return {
        names[e["character"]]: e["performed"] for e in console.events() if e["type"] == "resolved"
    }


def fit_for_touch(console: Console) -> None:
    speaks_the_game(console.page)
    no_sideways_scroll(console.page)
    assert not small_targets(console.page)


def test_the_western_shootout(console: Console) -> None:
    """Two gunslingers, ready, each waiting for the other to draw. Round one passes in a stare;
    in round two the Marshal draws and the Kid, still waiting, beats him: Coordination 6 +
    (Marshal's QR 2 - Kid's QR 6) = 2, and he rolls a 2."""
    console.create("awareness")
    console.add("Kid", state="ready", coordination="6")
    console.add("Marshal", state="ready")
    console.roll_at_the_table({"Kid": 5, "Marshal": 6})  # QR 3 and 4
    console.declare("Kid", "the Marshal draws", wait=True)
    console.declare("Marshal", "the Kid draws", wait=True)
    assert console.prompt == "No one is left to declare: roll initiative for round 2"
    console.roll_at_the_table({"Kid": 8, "Marshal": 4})  # QR 6 and 2: the Marshal first
    assert console.doing("Kid") == "Waits for: the Marshal draws"  # waiting persists
    console.declare("Marshal", "draws and fires at the Kid")
    assert console.prompt == "Marshal acts: draws and fires at the Kid. Kid may react first"
    console.preempt("Kid", "Marshal", 2)
    assert console.doing("Kid") == (
        "Pre-empts Marshal: goes just before; rolled 2 on the d10, needed 2 or less"
        " (Coordination + QR difference)"
    )
    assert "Resolves in order: Kid → Marshal" in console.visible_text()
    assert console.resolve_exchange() == ["Kid", "Marshal"]
    assert console.prompt == "No one is left to declare: roll initiative for round 3"


def test_the_shootout_with_a_dastardly_sniper(console: Console) -> None:
    """The same standoff, with a sniper lying in wait on the roof for anyone to draw. The
    Marshal draws; the Kid pre-empts him (6 + (4 - 3) = 7, rolls 5); the Sniper pre-empts the
    Kid (7 + (3 - 1) = 9, rolls 9). The Sniper fires, the Kid is down before his shot, and the
    Marshal's draw still goes off."""
    console.create("awareness")
    console.add("Kid", state="ready", coordination="6")
    console.add("Marshal", state="ready")
    console.add("Sniper", state="lying_in_wait", coordination="7")
    console.roll_at_the_table({"Kid": 5, "Marshal": 6, "Sniper": 3})  # QR 3, 4, 1
    assert console.names == ["Sniper", "Kid", "Marshal"]
    console.declare("Sniper", "anyone draws", wait=True)
    console.declare("Kid", "the Marshal draws", wait=True)
    console.declare("Marshal", "draws on the Kid")
    # Both waiters may answer the Marshal; nobody else has a place in the exchange yet.
    for waiter in ("Kid", "Sniper"):
        assert console.row(waiter).locator(".react").count() == 1
    console.preempt("Kid", "Marshal", 5)
    # The chain: the Sniper may now pre-empt the Kid as well as the Marshal, in the game's words.
    sniper = console.row("Sniper")
    assert sniper.locator(".react").count() == 2
    assert "Kid pre-empts Marshal" in sniper.inner_text()
    fit_for_touch(console)
    console.page.evaluate("window.scrollTo(0, 0)")
    shoot(console.page, f"scene-sniper-{console.size}")
    console.preempt("Sniper", "Kid", 9)
    assert console.doing("Sniper") == (
        "Pre-empts Kid: goes just before; rolled 9 on the d10, needed 9 or less"
        " (Coordination + QR difference)"
    )
    assert "Resolves in order: Sniper → Kid → Marshal" in console.visible_text()
    assert console.resolve_exchange(taken_out=["Kid"]) == ["Sniper", "Kid", "Marshal"]
    assert performed(console) == {"Sniper": True, "Kid": False, "Marshal": True}


def test_the_iai_duel(console: Console) -> None:
    """Two swordsmen, ready, hands on the hilt. Both roll QR 2; Gonbei's higher Score puts him
    first, and he waits. Jubei draws; Gonbei's pre-emption needs 5 + 0 + 1 (the higher Score)
    = 6 and rolls 7: he cuts a hair too late."""
    console.create("awareness")
    console.add("Jubei", state="ready")
    console.add("Gonbei", state="ready", perception="7")
    console.roll_at_the_table({"Jubei": 4, "Gonbei": 5})  # QR 2 (Score 7), QR 2 (Score 8)
    assert console.names == ["Gonbei", "Jubei"]
    console.declare("Gonbei", "Jubei draws", wait=True)
    console.declare("Jubei", "draws and cuts")
    console.preempt("Gonbei", "Jubei", 7)
    assert console.doing("Gonbei") == (
        "Tried to pre-empt Jubei: goes just after; rolled 7 on the d10, needed 6 or less"
        " (Coordination + QR difference)"
    )
    # Not asked whether it happens: nobody pre-empted him.
    assert console.primary == "Resolve Jubei's action (draws and cuts)"
    assert console.resolve_exchange() == ["Jubei", "Gonbei"]


def test_the_hostage_standoff_with_a_counter_sniper(
    console: Console, phone: Any, server: ServerProcess
) -> None:
    """A hostage-taker; a police sniper lying in wait for him to move the gun; his accomplice,
    ready on a rooftop, waiting for the police sniper to fire, played from his player's phone.
    He moves the gun. The police sniper pre-empts him (7 + (3 - 1) = 9, rolls 6); the
    counter-sniper pre-empts the police sniper (6 + (1 - 2) = 5, rolls 3). The counter-sniper
    fires first, the police sniper is hit before his shot, and the hostage-taker's action still
    happens."""
    console.create("awareness")
    console.add("Taker")
    console.add("Police sniper", state="lying_in_wait", coordination="7")
    console.add("Accomplice", state="ready", coordination="6")
    console.page.click("[data-action=phone-accomplice]")
    phone.goto(str(console.page.locator("[data-qr=accomplice] a").get_attribute("href")))
    phone.get_by_role("heading", name="Accomplice").wait_for()
    console.roll_at_the_table({"Taker": 3, "Police sniper": 2, "Accomplice": 4})  # QR 3, 1, 2
    console.declare("Police sniper", "he moves the gun", wait=True)
    # The accomplice's player declares on the phone; the GM sees it arrive.
    seq = console.seq
    phone.fill(".mine input[name=what]", "the police sniper fires")
    phone.click("[data-action=wait]")
    console.page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
    assert console.doing("Accomplice") == "Waits for: the police sniper fires"
    console.declare("Taker", "turns the gun on the hostage")
    console.preempt("Police sniper", "Taker", 6)
    # On the phone: the police sniper's pre-emption is there to be pre-empted, in words.
    line = phone.locator(".react[data-to=police-sniper]")
    line.get_by_text("Police sniper pre-empts Taker").wait_for()
    speaks_the_game(phone, ["police-sniper", "accomplice", "taker"])
    no_sideways_scroll(phone)
    shoot(phone, "scene-counter-sniper-phone")
    seq = console.seq
    preempting(phone, "Police sniper", 3).click()
    phone.get_by_text("You pre-empt Police sniper: you go just before (d10 3)").wait_for()
    console.page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
    assert "Resolves in order: Accomplice → Police sniper → Taker" in console.visible_text()
    order = console.resolve_exchange(taken_out=["Police sniper"])
    assert order == ["Accomplice", "Police sniper", "Taker"]
    assert performed(console) == {"Accomplice": True, "Police sniper": False, "Taker": True}


def test_a_waiter_who_panics_this_round_reacts_all_out(console: Console) -> None:
    """The Kid waits in round one; in round two he rolls QR 8 (panic) but still waits, his
    declaration not yet come round, when the Marshal draws. He may react, all-out only
    (ruling 6): his row says so and offers the two all-out modes."""
    console.create("awareness")
    console.add("Kid")
    console.add("Marshal")
    console.roll_at_the_table({"Kid": 1, "Marshal": 5})
    console.declare("Kid", "the Marshal draws", wait=True)
    console.declare("Marshal", "the Kid draws", wait=True)
    console.roll_at_the_table({"Kid": 8, "Marshal": 2})
    console.declare("Marshal", "draws")
    kid = console.row("Kid")
    assert "Panicked (QR 8): reacts all-out" in kid.inner_text()
    mode = kid.get_by_role("combobox", name="Panicked (QR 8): reacts all-out")
    assert mode.locator("option").all_inner_texts() == ["all-out offensive", "all-out defensive"]
    mode.select_option("all_out_defensive")
    console.preempt("Kid", "Marshal", 1)  # a natural 1 always succeeds
    (reacted,) = [e for e in console.events() if e["type"] == "reacted"]
    assert (reacted["mode"], reacted["placed"]) == ("all_out_defensive", "before")
    assert console.page.inner_text("#notice") == ""  # the mode went in: nothing said lost


def test_what_the_gm_types_goes_in_with_it_could_not_happen(console: Console) -> None:
    """The Kid's shot comes first; the Marshal, pre-empted, could not fire. What the GM typed
    of it ("his gun goes flying") is kept with "It could not happen", as with a resolve, and
    the story tells it: before, only a resolve took the box's words."""
    console.create("awareness")
    console.add("Kid", state="ready", coordination="6")
    console.add("Marshal", state="ready")
    console.roll_at_the_table({"Kid": 4, "Marshal": 5})  # QR 2 and 3: the Kid first
    console.declare("Kid", "the Marshal draws", wait=True)
    console.declare("Marshal", "draws")
    console.preempt("Kid", "Marshal", 1)  # a natural 1 always succeeds
    console.press()  # the Kid's shot
    assert console.prompt.startswith("Marshal was pre-empted")
    console.type("#next input[name=outcome]", "his gun goes flying")
    console.tap("#next [data-action=not-performed]")
    resolved = [e for e in console.events() if e["type"] == "resolved"]
    assert [(e["performed"], e["outcome"]) for e in resolved][-1] == (False, "his gun goes flying")
    story = console.gm_get("/timeline")
    said = [s["said"] for s in story["steps"] if s["kind"] == "resolve"]
    assert said[-1] == "Marshal's action could not happen: his gun goes flying"

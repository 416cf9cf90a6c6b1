"""The player page on a phone, in Chromium against a real server: the player's own characters
first, exactly the buttons the engine allows them now."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.server.process import ServerProcess, call

from .conftest import Table, shoot, token_of
from .console_driver import no_sideways_scroll, small_targets, speaks_the_game
from .test_console_races import HeldSocket


def at_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


def hand_to(table: Table, participant: str) -> str:
    """The link the console's Phone button would show."""
    path = f"{table.url}/handoff/players/{participant}"
    status, answer = call(path, "POST", {}, table.gm)
    assert status == 201, answer
    return str(answer["url"])


def rcs_character(cid: str, side: str) -> dict[str, Any]:
    character = {"id": cid, "name": cid.title(), "side": side, "dex": 0, "movement": 0}
    return {"type": "join", "character": character}


def guard_may_seize(server: ServerProcess) -> tuple[Table, str, dict[str, Any]]:
    """An RCS round where the token has just moved onto Jena, below the Guard: the Guard's
    player may seize. The table, the Guard's phone link, and the last command's answer."""
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("jena", "crew"))
    table.send(rcs_character("guard", "corp"))
    link = hand_to(table, "guard")
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_roll", "character": "jena", "dice": [1, 1], "source": "gm"})
    seq = table.send({"type": "enter_roll", "character": "guard", "dice": [6, 6], "source": "gm"})
    return table, link, seq


def test_seize_is_offered_only_when_the_engine_allows_it(phone: Any, server: ServerProcess) -> None:
    table, link, seq = guard_may_seize(server)
    phone.goto(link)
    at_seq(phone, seq["seq"])
    seize = phone.locator("[data-action=seize-guard]")
    assert seize.count() == 1  # the token just moved onto the lower card
    aims = {"type": "declare", "character": "jena", "action": "short", "target": "Guard"}
    for command, offered in (
        ({**aims, "what": "aims"}, True),  # a declaration opens a window
        ({"type": "resolve"}, False),  # between two Short Actions: no window
        ({**aims, "what": "fires"}, True),
    ):
        at_seq(phone, table.send(command)["seq"])
        assert seize.count() == int(offered)
    assert phone.locator(".mine h2").all_inner_texts() == ["Guard"]  # only the player's own
    speaks_the_game(phone, ["jena", "guard"])
    no_sideways_scroll(phone)
    assert not small_targets(phone)
    shoot(phone, "player-rcs")
    seize.click()
    phone.wait_for_selector("text=You hold the token: declare your action")
    assert table.view(table.gm)["view"]["token"] == "guard"


def test_before_the_cards_lie_the_phone_says_who_is_there_and_that_its_roll_is_in(
    phone: Any, server: ServerProcess
) -> None:
    """Before the first round the phone names who is at the table (not the hidden Sniper);
    while the dice come in, a player whose roll is in is told so, and when the cards will lie:
    before, the table was empty and her card said nothing until every roll was in."""
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("jena", "crew"))
    table.send(rcs_character("guard", "corp"))
    table.send({**rcs_character("sniper", "corp"), "hidden": True})
    link = hand_to(table, "jena")
    phone.goto(link)
    page = phone.locator("[data-page]")
    expect(page).to_have_text("No round yet. At the table: Jena, Guard")
    table.send({"type": "roll_initiative", "source": "gm"})
    expect(page).to_have_text("Round 1: the cards are laid in order once every roll is in")
    status, _ = call(
        f"{table.url}/commands",
        "POST",
        {"type": "enter_roll", "character": "jena", "dice": [1, 2], "source": "gm"},
        token_of(link),
    )
    assert status == 200
    expect(phone.locator("[data-doing=jena]")).to_have_text("Your roll is in")
    table.send({"type": "enter_roll", "character": "guard", "dice": [3, 3], "source": "gm"})
    table.send({"type": "enter_roll", "character": "sniper", "dice": [6, 6], "source": "gm"})
    expect(page).to_have_count(0)
    expect(phone.locator("ol.order li")).to_have_text(["Jena 3 · holds the token", "Guard 6"])


def test_the_holder_with_one_short_action_left_is_told_so(
    phone: Any, server: ServerProcess
) -> None:
    """Jena's first Short Action resolved, she holds the token with one left (ruling 6's
    marker, as a turn of two Short Actions has it): her phone says so, as the console does, in
    her card and in the order of play, and offers to end her turn."""
    table, _, _ = guard_may_seize(server)
    phone.goto(hand_to(table, "jena"))
    phone.wait_for_selector("text=You hold the token: declare your action")
    aims = {"type": "declare", "character": "jena", "action": "short", "what": "aims"}
    table.send({**aims, "target": "Guard"})
    at_seq(phone, table.send({"type": "resolve"})["seq"])
    said = phone.locator("[data-doing=jena]").inner_text()
    assert said == "You hold the token: declare your action (one Short Action left)"
    assert phone.locator("[data-action=end-turn-jena]").count() == 1
    order = phone.locator("ol.order li").all_inner_texts()
    assert order[0] == "Jena 2 · holds the token, one Short Action left", order


def test_a_seize_the_gm_takes_back_is_said_on_the_phone_that_made_it(
    phone: Any, server: ServerProcess
) -> None:
    """The Guard's player seizes from his phone; the GM takes it back. The phone goes back to
    offering the seize, and says why (before, not a word); the GM's own undo of a step the
    phone did not make says nothing there."""
    table, link, seq = guard_may_seize(server)
    phone.goto(link)
    at_seq(phone, seq["seq"])
    phone.locator("[data-action=seize-guard]").click()
    phone.wait_for_selector("text=You hold the token: declare your action")
    table.send({"type": "undo"})
    notice = phone.locator("#notice")
    expect(notice).to_have_text(
        "The GM took back your seize: the table stands as it did before it."
    )
    expect(notice).to_have_attribute("data-tone", "told")  # news, not a refusal in red
    expect(phone.locator("[data-action=seize-guard]")).to_have_count(1)
    phone.locator("[data-action=seize-guard]").click()  # the next press clears it
    expect(notice).to_have_text("")
    aims = {"type": "declare", "character": "guard", "action": "short", "what": "aims"}
    table.send({**aims, "target": "Jena"})
    at_seq(phone, table.send({"type": "undo"})["seq"])
    expect(notice).to_have_text("")


def test_a_player_seized_from_is_told_their_declaration_lapsed(
    phone: Any, server: ServerProcess
) -> None:
    """Jena declares; the Guard seizes. Her phone says her declaration lapsed and why, and
    that she declares again when the token comes back (ruling 6): before, her words just went."""
    table, _, _ = guard_may_seize(server)
    phone.goto(hand_to(table, "jena"))
    declared = table.send({"type": "declare", "character": "jena", "action": "long",
                           "what": "dives for cover", "target": "Guard"})  # fmt: skip
    at_seq(phone, declared["seq"])  # the seize comes live, as it does at the table
    at_seq(phone, table.send({"type": "seize", "character": "guard"})["seq"])
    notice = phone.locator("#notice")
    expect(notice).to_have_text(
        "Your declaration (dives for cover) lapsed: Guard seized the initiative. You declare "
        "again when the token comes back."
    )
    expect(notice).to_have_attribute("data-tone", "told")
    # The Guard's action resolves: the token comes back to Jena, her form offers her words
    # again, and once she declares again the notice goes.
    at_seq(phone, table.send({"type": "declare", "character": "guard", "action": "long",
                              "what": "fires", "target": "Jena"})["seq"])  # fmt: skip
    # The seizer declares at once: her notice stays (it once went with anyone's declaration).
    assert "lapsed: Guard seized the initiative" in notice.inner_text()
    at_seq(phone, table.send({"type": "resolve"})["seq"])
    expect(phone.locator(".mine input[name=what]")).to_have_value("dives for cover")
    phone.locator(".mine [data-action=declare]").click()
    expect(notice).to_have_text("")
    assert table.view(table.gm)["view"]["declared"]["what"] == "dives for cover"


def test_a_press_on_the_phone_is_on_the_view_it_was_made_on(
    phone: Any, server: ServerProcess
) -> None:
    """The phone's commands carry If-Match, the sequence of the view on screen: a seize pressed
    on a view the table has left is refused and changes nothing, not applied to the new one."""
    table, link, seq = guard_may_seize(server)
    socket = HeldSocket(phone)
    socket.open(phone, link)  # its commands go on the socket it follows the table on
    at_seq(phone, seq["seq"])
    socket.holding = True  # the phone has not heard yet of what follows
    moved = table.send({"type": "declare", "character": "jena", "action": "short",
                        "what": "aims", "target": "Guard"})  # fmt: skip
    table.send({"type": "resolve"})  # the window the phone still shows has closed
    phone.locator("[data-action=seize-guard]").click()
    phone.wait_for_selector("text=Not done: the table moved on")
    assert [sent["if_match"] for sent in socket.sent] == [seq["seq"]]
    assert socket.reply(phone, 0)["status"] == 409
    assert table.view(table.gm)["view"]["token"] == "jena" and moved["seq"] > seq["seq"]


def test_a_phone_offers_the_tray_only_where_the_table_has_one(
    phone: Any, server: ServerProcess
) -> None:
    """With no tray and no die of the Kid's, his phone asks him to type his roll, and offers
    no pre-emption "the tray rolls", which would wait for a d10 nothing sends; a tray plugged
    in brings both back; his own die, on his phone, is named where his roll goes."""
    table = Table(server, "awareness")
    for cid in ("kid", "marshal"):
        sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": sheet})
    link = hand_to(table, "kid")
    table.send({"type": "roll_initiative", "source": "gm"})
    phone.goto(link)
    mine = phone.locator("body")
    expect(mine).to_contain_text("Roll for Kid: your d10, rolled and typed below")
    table.send({"type": "enter_initiative", "character": "kid", "die": 3, "source": "gm"})
    table.send({"type": "enter_initiative", "character": "marshal", "die": 4, "source": "gm"})
    table.send({"type": "wait", "character": "kid", "trigger": "the Marshal draws"})
    at_seq(phone, table.send({"type": "act", "character": "marshal", "what": "draws"})["seq"])
    # The d10 left empty, the button says whose die it sends: not one rolled at the table.
    expect(phone.locator("[data-action=preempt-kid]")).to_have_text(
        "Pre-empt Marshal: the engine rolls"
    )
    assert phone.locator("[data-action=preempt-tray-kid]").count() == 0
    table.tray()
    phone.reload()
    expect(phone.locator("[data-action=preempt-tray-kid]")).to_be_visible()
    table.send({"type": "undo"})
    table.send({"type": "undo"})
    table.send({"type": "undo"})
    at_seq(phone, table.send({"type": "undo"})["seq"])  # the Kid's roll is awaited again
    expect(mine).to_contain_text("Roll for Kid: your d10, in the tray or typed below")
    table.die_on_phone("kid", "pixels-0000beef", "Kid's die")
    phone.reload()
    expect(mine).to_contain_text("Roll for Kid: your d10, with your own die (or typed below)")


def test_a_panicked_player_is_asked_to_act_all_out(phone: Any, server: ServerProcess) -> None:
    """QR 7 is panic (ruling 6): the phone asks for an all-out act, as the console does, not
    "act or wait" above a form that offers no wait."""
    table = Table(server, "awareness")
    sheet = {"id": "marshal", "name": "Marshal", "perception": 5, "stealth": 5, "coordination": 5}
    table.send({"type": "join", "sheet": sheet})
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "marshal", "die": 7, "source": "gm"})
    phone.goto(hand_to(table, "marshal"))
    expect(phone.locator("body")).to_contain_text("Your declaration: act all-out (QR 7: panic)")
    assert "act or wait" not in phone.inner_text("body")


def test_a_player_sees_only_their_own_secrets_and_types_a_pre_emption_die(
    phone: Any, server: ServerProcess
) -> None:
    table = Table(server, "awareness")
    for cid in ("kid", "marshal"):
        sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": sheet})
    link = hand_to(table, "kid")
    table.tray()
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 3, "source": "gm"})
    seq = table.send({"type": "enter_initiative", "character": "marshal", "die": 7, "source": "gm"})
    phone.goto(link)
    at_seq(phone, seq["seq"])
    assert phone.locator("[data-initiative]").inner_text() == "QR 3 · Score 5 · d10 3"
    assert "QR 7" not in phone.content()
    phone.fill(".mine input[name=what]", "the Marshal draws")
    phone.click("[data-action=wait]")
    phone.wait_for_selector("text=Waiting for: the Marshal draws")
    table.send(
        {"type": "act", "character": "marshal", "what": "draws", "mode": "all_out_offensive"}
    )  # QR 7: the Marshal panicked
    phone.wait_for_selector("[data-action=preempt-tray-kid]")
    speaks_the_game(phone, ["kid", "marshal"])
    shoot(phone, "player-awareness")
    phone.click("[data-action=preempt-tray-kid]")
    phone.wait_for_selector("text=Your pre-emption of Marshal waits for your d10")
    phone.fill(".mine input[name=die]", "2")
    phone.click("[data-action=enter-preemption]")
    phone.wait_for_selector("text=You pre-empt Marshal: you go just before (d10 2)")
    assert "Kid pre-empts Marshal: just before" in phone.inner_text(".exchange")
    reactions = table.view(table.gm)["view"]["exchange"]["reactions"]
    assert [(r["character"], r["die"], r["placed"]) for r in reactions] == [("kid", 2, "before")]
    # The Kid's shot comes first and drops the Marshal: the exchange is over, and each page
    # still says what came of it until the next act.
    table.send({"type": "resolve", "outcome": "the Marshal drops"})
    seq = table.send({"type": "resolve", "performed": False})
    at_seq(phone, seq["seq"])
    assert table.view(table.gm)["view"]["exchange"] is None
    shown = phone.inner_text("body")
    assert "Kid: the Marshal drops" in shown and "Marshal: could not happen" in shown
    # Once resolved, the reaction is said as what came of it, and the Kid's declaration is no
    # longer read as still to come.
    assert "Kid pre-empts Marshal" not in shown
    assert phone.inner_text("[data-acted]") == "✓ Kid waits for: the Marshal draws · done"


def test_a_pre_emption_whose_d10_fails_is_said_to_have_failed(
    phone: Any, server: ServerProcess
) -> None:
    """The Kid's d10 of 10 misses (ruling 10): he goes just after the Marshal. His phone says
    his pre-emption failed, and the table that he tried; before, both read as a success."""
    table = Table(server, "awareness")
    for cid in ("kid", "marshal"):
        sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": sheet})
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 3, "source": "gm"})
    table.send({"type": "enter_initiative", "character": "marshal", "die": 4, "source": "gm"})
    table.send({"type": "wait", "character": "kid", "trigger": "the Marshal draws"})
    table.send({"type": "act", "character": "marshal", "what": "draws"})
    phone.goto(hand_to(table, "kid"))
    react = {"type": "react", "character": "kid", "to": "marshal", "timing": "before"}
    at_seq(phone, table.send({**react, "what": "pre-emption", "die": 10, "source": "gm"})["seq"])
    shown = phone.inner_text("body")
    assert "Your pre-emption of Marshal failed (d10 10): you go just after" in shown
    assert "Kid tried to pre-empt Marshal: just after" in phone.inner_text(".exchange")


def test_a_writer_offers_a_trade_from_the_phone(phone: Any, server: ServerProcess) -> None:
    table = Table(server, "four-color")
    for hero in ("peter", "sue"):
        table.send({"type": "join", "member": {"id": hero, "name": hero.title(), "kind": "hero"}})
    table.send({"type": "deal"})
    phone.goto(hand_to(table, "peter"))
    phone.click("text=Offer a trade…")  # the partners are folded behind one button
    phone.click("[data-action=offer-sue]")
    phone.wait_for_selector("text=You offered a trade to Sue")
    speaks_the_game(phone, ["peter", "sue"])
    offer = table.view(table.gm)["view"]["offers"][0]
    assert (offer["hero"], offer["partner"]) == ("peter", "sue")
    phone.click(f"[data-action=decline-{offer['offer']}]")
    phone.wait_for_selector("text=Offer a trade…")
    assert table.view(table.gm)["view"]["offers"] == []


def first_panel(server: ServerProcess, cards: tuple[str, str, str]) -> tuple[Table, int]:
    """Peter and Sue at a Four Color table dealt ``cards`` by hand (Peter's, Sue's, then the
    Editor's extra card), its first Panel played: the table and the sequence it stands at."""
    table = Table(server, "four-color")
    for hero in ("peter", "sue"):
        table.send({"type": "join", "member": {"id": hero, "name": hero.title(), "kind": "hero"}})
    table.send({"type": "deal", "source": "gm"})
    for card in cards:
        table.send({"type": "deal_card", "card": card})
    seq: int = table.send({"type": "next_panel"})["seq"]
    return table, seq


def test_the_phone_offers_trades_only_with_those_who_still_hold_a_card(
    phone: Any, server: ServerProcess
) -> None:
    """Sue's Panel is up, so her card is played: an offer to her could only be refused."""
    table, seq = first_panel(server, ("2H", "KS", "3C"))
    phone.goto(hand_to(table, "peter"))
    phone.wait_for_function(f"Number(document.body.dataset.seq) === {seq}")
    assert phone.locator("[data-action=offer-sue]").count() == 0
    assert phone.locator("[data-action=offer-editor]").count() == 1


def test_players_type_their_own_initiative_from_the_phone(
    phone: Any, server: ServerProcess
) -> None:
    """When the table awaits a character's roll, its player may type it; no one else's."""
    rcs = Table(server, "megatraveller-rcs")
    rcs.send(rcs_character("jena", "crew"))
    rcs.send(rcs_character("guard", "corp"))
    link = hand_to(rcs, "jena")
    seq = rcs.send({"type": "roll_initiative", "source": "gm"})
    phone.goto(link)
    at_seq(phone, seq["seq"])
    assert phone.locator("[data-action=enter-roll]").count() == 1  # Jena's only
    phone.fill(".mine input[name=die1]", "3")
    phone.fill(".mine input[name=die2]", "4")
    phone.click("[data-action=enter-roll]")
    phone.wait_for_selector("[data-action=enter-roll]", state="detached")
    awaiting = rcs.view(rcs.gm)["view"]["awaiting"]
    assert [(a["what"], a["who"]) for a in awaiting] == [("roll", ["guard"])]

    aware = Table(server, "awareness")
    sheet = {"id": "kid", "name": "Kid", "perception": 5, "stealth": 5, "coordination": 5}
    aware.send({"type": "join", "sheet": sheet})
    link = hand_to(aware, "kid")
    seq = aware.send({"type": "roll_initiative", "source": "gm"})
    phone.goto(link)
    at_seq(phone, seq["seq"])
    phone.fill(".mine input[name=die]", "4")
    phone.click("[data-action=enter-initiative]")
    phone.wait_for_selector("text=QR 4 · Score 5 · d10 4")
    no_sideways_scroll(phone)
    assert not small_targets(phone)

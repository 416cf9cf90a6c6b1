"""The timeline page (/tables/{id}/timeline) in Chromium against a real server: the shootout
with a hidden sniper, opened as the GM on a 1920 screen and as the Kid's player on a phone.
Scrubbed step by step, the player's replay, steps and chart show nothing of the sniper before
its shot reveals it; the GM's show it throughout; neither page scrolls sideways."""

from __future__ import annotations

import re
from typing import Any

from tests.server.process import ServerProcess, call

from .conftest import FRAMES, Table, shoot

SHEETS = {
    "kid": "The Kid",
    "marshal": "Marshal",
    "sniper": "Lone Rifleman",
}


def shootout(server: ServerProcess) -> tuple[Table, str]:
    """Up to the sniper's shot declared, still hidden; the Kid's player token."""
    table = Table(server, "awareness")
    for cid, name in SHEETS.items():
        sheet = {"id": cid, "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": sheet, "hidden": cid == "sniper"})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, die in (("sniper", 1), ("kid", 4), ("marshal", 9)):
        table.send({"type": "enter_initiative", "character": cid, "die": die})
    table.send({"type": "wait", "character": "sniper", "trigger": "the Kid draws"})
    table.send({"type": "act", "character": "kid", "what": "draws"})
    shot = {"type": "react", "character": "sniper", "to": "kid", "timing": "before"}
    table.send({**shot, "what": "fires from the roof", "die": 1})
    _, minted = call(f"{table.url}/tokens", "POST", {"participants": ["kid"]}, table.gm)
    return table, str(minted["token"])


def opened(page: Any, table: Table, link: str) -> None:
    page.goto(f"{table.server.url}/tables/{table.id}/timeline{link}")
    page.wait_for_selector("body[data-ready]")
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def at_step(page: Any, step: int) -> str:
    """Scrub to ``step`` (0: before the first); the replay's text once it is drawn."""
    page.evaluate(
        f"""() => {{ const scrub = document.getElementById("scrub");
             scrub.value = "{step}"; scrub.dispatchEvent(new Event("input")); }}"""
    )
    page.wait_for_function(
        f"""() => document.getElementById("at").textContent !== ""
                  && document.getElementById("scrub").value === "{step}"
                  && document.body.dataset.seq === String({step} === 0 ? 0
                     : document.querySelector('ol.steps li[data-step="{step}"]').dataset.seq)"""
    )
    return str(page.inner_text("#then"))


def mentions_sniper(text: str) -> bool:
    return "sniper" in text.lower() or "rifleman" in text.lower()


def test_the_kids_timeline_shows_the_sniper_only_from_its_reveal(
    browser: Any, page: Any, phone: Any, server: ServerProcess
) -> None:
    table, kid = shootout(server)
    opened(phone, table, f"?token={kid}")
    assert not mentions_sniper(phone.inner_text("body")), "hidden, yet on the Kid's page"
    assert not mentions_sniper(phone.inner_html("#chart"))
    steps = phone.locator("ol.steps li").count()
    for step in range(steps + 1):
        assert not mentions_sniper(at_step(phone, step)), step
    opened(page, table, f"#token={table.gm}")
    assert "Lone Rifleman waits for the Kid draws" in page.inner_text("ol.steps")
    assert "Lone Rifleman (hidden from players)" in at_step(page, 3)  # from its join on
    shoot(page, "timeline-gm-1920")

    # The shot resolves first: the sniper is revealed, to the Kid's story too.
    while table.view(table.gm)["view"]["exchange"] is not None:
        table.send({"type": "resolve", "outcome": "hit"})
    opened(phone, table, f"?token={kid}")
    said = phone.locator("ol.steps li .said").all_inner_texts()
    revealed = said.index("Lone Rifleman is revealed") + 1
    assert not any(mentions_sniper(s) for s in said[: revealed - 1]), said
    assert "Lone Rifleman" in at_step(phone, revealed)
    for step in range(revealed):
        assert not mentions_sniper(at_step(phone, step)), step
    marks = phone.locator("#chart circle.mark").evaluate_all(
        "marks => marks.map(m => [Number(m.dataset.step), m.textContent])"
    )
    assert marks and all(not mentions_sniper(t) for s, t in marks if s < revealed), marks
    assert (
        phone.locator("[data-export=recap]").get_attribute("href").endswith(f"/recap?token={kid}")
    )
    shoot(phone, "timeline-player-phone")


def test_the_player_page_links_to_the_players_own_story(phone: Any, server: ServerProcess) -> None:
    table, kid = shootout(server)
    phone.goto(f"{server.url}/play/{table.id}?token={kid}")
    link = phone.locator("header a[data-link=timeline]")
    assert link.get_attribute("href") == f"/tables/{table.id}/timeline?token={kid}"


def replayed(browser: Any, table: Table, query: str) -> list[dict[str, Any]]:
    """The frames an overlay in replay mode drew, each with its sequence and text."""
    stream = browser.new_context(viewport={"width": 1280, "height": 720})
    overlay = stream.new_page()
    overlay.add_init_script(FRAMES)
    overlay.goto(table.overlay_url(query))
    overlay.wait_for_selector("#overlay[data-replay=done]")
    frames: list[dict[str, Any]] = overlay.evaluate("window.frames_seen")
    stream.close()
    return frames


def test_the_overlay_replays_a_round_for_the_stream_as_the_stream_saw_it(
    browser: Any, server: ServerProcess
) -> None:
    table, _ = shootout(server)
    _, story = call(f"{table.url}/timeline", token=table.overlay)
    round_one = [s["seq"] for s in story["steps"] if s["round"] == 1]
    frames = replayed(browser, table, "&replay=1&speed=4")
    played = [f for f in frames if f["replay"] == "playing"]
    assert [f["seq"] for f in played] == round_one
    assert not any(mentions_sniper(f["text"]) for f in frames)
    assert frames[-1]["seq"] == table.view()["seq"], "the live table again, once it is over"

    while table.view(table.gm)["view"]["exchange"] is not None:
        table.send({"type": "resolve", "outcome": "hit"})
    _, story = call(f"{table.url}/timeline", token=table.overlay)
    reveal = next(s["seq"] for s in story["steps"] if s["kind"] == "reveal")
    frames = replayed(browser, table, "&replay=last&speed=4")
    before = [f for f in frames if f["replay"] == "playing" and f["seq"] < reveal]
    assert before and not any(mentions_sniper(f["text"]) for f in before)


def test_the_turn_clock_says_when_a_turn_is_up_and_does_nothing_about_it(
    browser: Any, phone: Any, server: ServerProcess
) -> None:
    table = Table(server, "megatraveller-rcs", turn_clock=1)
    for cid in ("jena", "guard"):
        character = {"id": cid, "name": cid.title(), "side": cid, "dex": 0, "movement": 0}
        table.send({"type": "join", "character": character})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("jena", [1, 1]), ("guard", [6, 6])):
        table.send({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"})
    seq = table.view()["seq"]
    _, minted = call(f"{table.url}/tokens", "POST", {"participants": ["jena"]}, table.gm)
    stream = browser.new_context(viewport={"width": 1280, "height": 720})
    overlay = stream.new_page()
    overlay.goto(table.overlay_url())
    phone.goto(f"{server.url}/play/{table.id}?token={minted['token']}")
    console = stream.new_page()
    console.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    for page in (phone, overlay, console):
        page.wait_for_selector("[data-clock][data-over]")
        said = page.inner_text("[data-clock]")
        assert re.fullmatch(r"Jena's turn: \d+:\d\d \(time is up: the table allows 0:01\)", said)
    assert table.view()["seq"] == seq, "the clock acted"
    table.send({"type": "declare", "character": "jena", "action": "long", "what": "runs",
                "target": "door"})  # fmt: skip
    table.send({"type": "resolve"})
    overlay.wait_for_selector("[data-clock][data-who=guard]")
    stream.close()

    plain = Table(server, "megatraveller-rcs")
    phone.goto(plain.overlay_url())
    phone.wait_for_selector("#overlay[data-seq]")
    assert phone.locator("[data-clock]").count() == 0, "a table without a clock shows none"


def test_an_undo_is_marked_on_the_lane_of_the_step_it_took_back(
    page: Any, server: ServerProcess
) -> None:
    """The GM takes back the sniper's shot, then the Kid's draw: on the GM's chart each undo's
    mark lies on the lane of the step it took back (the Lone Rifleman's, the Kid's), not both on
    whoever's lane comes first, as they were (an undo names no one itself). A legend under the
    chart says what each mark it shows means (a tablet shows no hover titles)."""
    table, _ = shootout(server)
    table.send({"type": "undo"})
    table.send({"type": "undo"})
    opened(page, table, f"#token={table.gm}")
    lanes = page.locator("#chart text.lane-name").evaluate_all(
        "names => Object.fromEntries(names.map(n => [n.textContent, Number(n.getAttribute('y'))]))"
    )
    marks = page.locator("#chart .drawing > svg circle.mark").evaluate_all(
        "marks => marks.map(m => [m.getAttribute('class'), Number(m.getAttribute('cy'))])"
    )
    undone = sorted(cy - 15 for kind, cy in marks if kind == "mark undo")
    assert undone == [lanes["Lone Rifleman"] - 19, lanes["The Kid"] - 19], (lanes, marks)
    assert "The table" not in lanes  # every mark here is someone's
    legend = page.locator("#chart [data-legend] li").all_inner_texts()
    assert [item.strip() for item in legend] == [
        "a turn",
        "an undo",
        "taken back",  # the sniper's pre-emption
    ], legend
    shoot(page, "timeline-undo-gm")

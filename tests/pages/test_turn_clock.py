"""The turn clock follows the table's state in Chromium against a real server: no one's clock
runs once the scene is over or while the table waits on a roll; an undo puts the clock back as
it stood; the overlay's replay shows each turn's time as it was at the table, and says when it
has ended and the picture is live. The pages' own time is driven (Playwright's clock) rather
than waited for: a turn over its time is a jump forward, never a pause."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from tests.server.process import UNLIMITED, ServerProcess, call

from .conftest import FRAMES, Table, shoot

LONG_AGO = 90_000
"""Milliseconds a page's clock is run on to put a turn well over its time (the table's 20 s)."""


def player(table: Table, *participants: str) -> str:
    _, minted = call(f"{table.url}/tokens", "POST", {"participants": list(participants)}, table.gm)
    return str(minted["token"])


def shown(page: Any, table: Table, token: str) -> None:
    """Wait until the page has drawn the table as it stands, as the page's role (its ``token``)
    numbers its steps (the console, the player page and the overlay each say the number they
    drew; a role's number leaves out the steps of someone hidden from it)."""
    seq = table.view(token)["seq"]
    page.wait_for_function(
        f"""() => Number(document.body.dataset.seq
                         ?? document.getElementById('overlay')?.dataset.seq) >= {seq}"""
    )


def clock_of(page: Any) -> dict[str, Any]:
    """What the page's turn clock shows: its text, whose, and whether over time; None, hidden."""
    return dict(
        page.evaluate(
            """() => { const c = document.querySelector('[data-clock]');
                       return c && !c.hidden && c.isConnected
                         ? { text: c.textContent, who: c.dataset.who ?? null,
                             over: 'over' in c.dataset } : null; }"""
        )
        or {}
    )


def scene(server: ServerProcess) -> Table:
    """A Four Color scene with a clock: a hero, Doctor Null and the Goons, its one page dealt."""
    table = Table(server, "four-color", turn_clock=20)
    for member in (
        {"id": "nova", "name": "Nova", "kind": "hero"},
        {"id": "null", "name": "Doctor Null", "kind": "villain"},
        {"id": "goons", "name": "Goons", "kind": "mob"},
    ):
        table.send({"type": "join", "member": member})
    table.send({"type": "deal"})
    return table


def test_no_clock_runs_once_the_scene_is_over(browser: Any, server: ServerProcess) -> None:
    table = scene(server)
    while table.view(table.gm)["view"]["phase"] == "panels":
        table.send({"type": "next_panel"})
    assert table.view(table.gm)["view"]["awaiting"][0]["what"] == "new_page_or_end"
    nova = player(table, "nova")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    console, phone, overlay = (context.new_page() for _ in range(3))
    console.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    phone.goto(f"{server.url}/play/{table.id}?token={nova}")
    overlay.goto(table.overlay_url())
    for page in (console, phone, overlay):
        page.wait_for_selector("[data-clock]:not([hidden])")  # the page's last Panel, in play

    table.send({"type": "end_scene"})
    for page, token in ((console, table.gm), (phone, nova), (overlay, table.overlay)):
        shown(page, table, token)
        assert clock_of(page) == {}, f"a clock runs after the scene: {clock_of(page)}"
    assert "Now:" not in phone.inner_text("body")
    assert "The scene is over" in phone.inner_text("body")
    assert overlay.locator(".panel.current").count() == 0
    assert "the scene is over" in overlay.inner_text("#overlay").lower()
    later = context.new_page()  # a phone opened minutes later
    later.goto(f"{server.url}/play/{table.id}?token={nova}")
    shown(later, table, nova)
    assert clock_of(later) == {}
    story = context.new_page()
    story.goto(f"{server.url}/tables/{table.id}/timeline?token={nova}")
    story.wait_for_selector("body[data-ready]")
    story.wait_for_function("document.getElementById('then').textContent !== ''")
    assert "Now:" not in story.inner_text("#then"), "the story's last step still plays a Panel"
    assert "The scene is over" in story.inner_text("#then")
    context.close()


def rcs_with_a_hidden_guard(server: ServerProcess) -> Table:
    """Jena holds the token and has declared; the Guard, hidden, may seize it."""
    table = Table(server, "megatraveller-rcs", turn_clock=20)
    for cid in ("jena", "guard"):
        character = {"id": cid, "name": cid.title(), "side": cid, "dex": 0, "movement": 0}
        table.send({"type": "join", "character": character, "hidden": cid == "guard"})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("jena", [1, 1]), ("guard", [6, 6])):
        table.send({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"})
    table.send(
        {"type": "declare", "character": "jena", "action": "long", "what": "runs", "target": "door"}
    )
    return table


def test_an_undo_puts_the_clock_back_as_it_stood(browser: Any, server: ServerProcess) -> None:
    table = rcs_with_a_hidden_guard(server)
    jena = player(table, "jena")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.clock.install()  # every page of the context runs on it
    console, phone = context.new_page(), context.new_page()
    console.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    phone.goto(f"{server.url}/play/{table.id}?token={jena}")
    for page in (console, phone):
        page.wait_for_selector("[data-clock][data-who=jena]")
    context.clock.fast_forward(LONG_AGO)
    for page in (console, phone):
        page.wait_for_selector("[data-clock][data-over]")

    table.send({"type": "seize", "character": "guard"})  # reveals the Guard
    for page, token in ((console, table.gm), (phone, jena)):
        shown(page, table, token)
        assert clock_of(page)["who"] == "guard"
    table.send({"type": "undo"})
    for page, token in ((console, table.gm), (phone, jena)):
        shown(page, table, token)
    context.clock.run_for(1000)  # the clocks' next tick
    for page in (console, phone):
        clock = clock_of(page)
        assert clock["who"] == "jena" and clock["over"], f"the clock started again: {clock}"
        assert clock["text"].startswith("Jena's turn: 1:3"), clock

    # A page opened after the undo counts from when Jena's turn began, not from the undo.
    later = context.new_page()
    later.goto(f"{server.url}/play/{table.id}?token={jena}")
    shown(later, table, jena)
    _, story = call(f"{table.url}/timeline", token=jena)
    began = later.evaluate(
        """async (story) => (await import('/static/shared/clock.js')).turnBegan(story)""", story
    )
    first = next(t for t in story["turns"] if t["who"] == "jena")
    assert began == first["at"], (began, story["turns"])
    context.close()


def test_no_clock_runs_while_the_table_waits_on_a_roll(browser: Any, server: ServerProcess) -> None:
    """Awareness: while a pre-emption's die is awaited no one is up; once it is in, the act's
    turn goes on from where it stood."""
    table = Table(server, "awareness", turn_clock=20)
    for cid, name in (("kid", "The Kid"), ("marshal", "Marshal")):
        sheet = {"id": cid, "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": sheet})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, die in (("kid", 5), ("marshal", 3)):
        table.send({"type": "enter_initiative", "character": cid, "die": die})
    table.send({"type": "wait", "character": "marshal", "trigger": "the Kid draws"})
    table.send({"type": "act", "character": "kid", "what": "draws"})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.clock.install()
    page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    page.wait_for_selector("[data-clock][data-who=kid]")
    page.clock.fast_forward(LONG_AGO)
    page.wait_for_selector("[data-clock][data-over]")
    table.send(
        {"type": "react", "character": "marshal", "to": "kid", "timing": "before",
         "what": "fires", "source": "device"}
    )  # fmt: skip
    assert table.view(table.gm)["view"]["awaiting"][0]["what"] == "preemption"
    shown(page, table, table.gm)
    assert clock_of(page) == {}, f"a clock runs while a roll is awaited: {clock_of(page)}"
    page.clock.fast_forward(LONG_AGO)  # the roll takes its time: no one's
    table.send({"type": "enter_preemption", "character": "marshal", "die": 1, "source": "gm"})
    shown(page, table, table.gm)
    page.clock.run_for(1000)
    clock = clock_of(page)
    assert clock and clock["over"] and clock["text"].startswith("The Kid's turn: 1:3"), clock
    page.close()


def test_the_overlays_replay_keeps_the_tables_time(browser: Any, tmp_path: Path) -> None:
    """Steps stored four seconds apart (the store's times moved back, the server stopped):
    replayed twice as fast, Jena's turn shows over its 3 s the moment it is, and the overlay
    says when the replay is over."""
    db = tmp_path / "seize.db"
    with ServerProcess(db, **UNLIMITED) as server:
        table = rcs_with_a_hidden_guard(server)
        table.send({"type": "resolve"})
        story_id = table.id
    with sqlite3.connect(db) as stored:
        first = stored.execute("select min(at) from events where table_id = ?", (story_id,))
        start = float(first.fetchone()[0])
        stored.execute(
            "update events set at = ? + 4 * seq where table_id = ?", (start - 1000, story_id)
        )
    options = "update tables set options = ? where id = ?"
    with sqlite3.connect(db) as stored:
        stored.execute(options, ('{"turn_clock": 3}', story_id))
    with ServerProcess(db, **UNLIMITED) as server:
        table.server = server
        _, story = call(f"{table.url}/timeline", token=table.overlay)
        began = next(t for t in story["turns"] if t["who"] == "jena")
        declared = next(s for s in story["steps"] if s["kind"] == "declare")
        stream = browser.new_context(viewport={"width": 1280, "height": 720})
        overlay = stream.new_page()
        overlay.add_init_script(FRAMES)
        overlay.goto(table.overlay_url("&replay=last&speed=2"))
        overlay.wait_for_selector("#overlay[data-replay=done]")
        frames = overlay.evaluate("window.frames_seen")
        at_declare = next(f for f in frames if f["seq"] == declared["seq"])
        seconds = int(declared["at"] - began["at"])
        assert f"Jena's turn: 0:0{seconds} (time is up" in at_declare["text"], at_declare
        note = overlay.locator("[data-replay-note]")
        assert note.inner_text() == "The replay is over: live"
        shoot(overlay, "overlay-replay-over")
        stream.close()


def test_a_roll_taken_back_and_rolled_again_starts_the_turn_afresh(
    browser: Any, server: ServerProcess
) -> None:
    """Awareness: the Kid's clock ran 14 s, the GM took the roll back and entered it again; every
    page, the ones open all along and one opened after, starts the Kid at 0:00, never where the
    turn the undo took back stood."""
    table = Table(server, "awareness", turn_clock=20)
    sheet = {"id": "kid", "name": "The Kid", "perception": 5, "stealth": 5, "coordination": 5}
    table.send({"type": "join", "sheet": sheet})
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 5})  # up at once
    kid = player(table, "kid")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.clock.install()
    console, phone = context.new_page(), context.new_page()
    console.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    phone.goto(f"{server.url}/play/{table.id}?token={kid}")
    for page in (console, phone):
        page.wait_for_selector("[data-clock][data-who=kid]")
    context.clock.run_for(14_000)
    # 14 s at least: the turn began by the server's clock a moment before the pages' fake
    # clock was installed, a moment that runs to seconds on a loaded machine.
    for page in (console, phone):
        page.wait_for_selector("[data-clock]:text-matches('0:(1[4-9]|[2-5][0-9]) of')")

    table.send({"type": "undo"})
    for page, token in ((console, table.gm), (phone, kid)):
        shown(page, table, token)
        assert clock_of(page) == {}, f"a clock runs while the roll is awaited: {clock_of(page)}"
    context.clock.run_for(5_000)
    table.send({"type": "enter_initiative", "character": "kid", "die": 5})
    later = context.new_page()
    later.goto(f"{server.url}/play/{table.id}?token={kid}")
    for page, token in ((console, table.gm), (phone, kid), (later, kid)):
        shown(page, table, token)
        page.wait_for_selector("[data-clock][data-who=kid]")
    context.clock.run_for(1000)  # the clocks' next tick
    for page in (console, phone, later):
        clock = clock_of(page)
        assert clock["text"].startswith("The Kid's turn: 0:0"), f"time carried over: {clock}"
    context.close()


def test_the_overlays_last_replay_plays_the_last_page_of_an_ended_scene(
    browser: Any, server: ServerProcess
) -> None:
    """Once the scene is over, ``replay=last`` plays the last page that was played, as
    ``replay=1`` does: not the page 2 the GM dealt and took back before ending the scene."""
    table = scene(server)
    while table.view(table.gm)["view"]["phase"] == "panels":
        table.send({"type": "next_panel"})
    table.send({"type": "deal"})
    table.send({"type": "undo"})
    table.send({"type": "end_scene"})
    _, story = call(f"{table.url}/timeline", token=table.overlay)
    panels = [s["seq"] for s in story["steps"] if s["kind"] == "panel"]
    overlay = browser.new_page(viewport={"width": 1280, "height": 720})
    overlay.add_init_script(FRAMES)
    overlay.goto(table.overlay_url("&replay=last&speed=4"))
    overlay.wait_for_selector("#overlay[data-replay=done]")
    played = [f for f in overlay.evaluate("window.frames_seen") if f["replay"] == "playing"]
    assert [f["seq"] for f in played if f["seq"] in panels] == panels, played
    assert all("Replay: page 1, 4\u00d7" in f["text"] for f in played), played
    overlay.close()

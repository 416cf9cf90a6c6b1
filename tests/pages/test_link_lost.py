"""When the server cannot be reached, the console and the player page say so at the top, and
stop saying so once it is back: a GM must not play on a picture that stopped moving."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServerProcess

from .conftest import Table
from .console_driver import Console
from .test_play import hand_to


@pytest.fixture(autouse=True)
def running(server: ServerProcess) -> Iterator[None]:
    """The module's server is running again after each test, whatever became of the test."""
    yield
    if server.process is None or server.process.poll() is not None:
        server.start(same_port=True)


def test_the_console_says_its_link_is_down_and_clears_that_once_back(
    console: Console, server: ServerProcess
) -> None:
    console.create("four-color")
    console.add("Nightingale")
    console.add("Doom", kind="villain")
    banner = console.page.locator("#link-lost")
    assert banner.count() == 0
    server.stop()
    banner.wait_for()
    assert "Reconnecting to the table" in banner.inner_text()
    console.page.locator("#next [data-primary]").click()  # the deal cannot go through
    notice = console.page.locator("#notice")
    notice.filter(has_text=re.compile(r"\S")).wait_for()
    assert notice.inner_text().startswith("Not sent: the server cannot be reached")
    server.start(same_port=True)
    banner.wait_for(state="detached")
    assert notice.inner_text() == ""  # the outage's notice goes with it
    console.press()  # and the deal goes through now (the press waits for the table to move)


def test_the_player_page_says_its_link_is_down_and_clears_that_once_back(
    browser: Any, server: ServerProcess
) -> None:
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "h1", "name": "Nightingale", "kind": "hero"}})
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(hand_to(table, "h1"))
    phone.wait_for_function("document.body.dataset.seq !== undefined")
    server.stop()
    banner = phone.locator("#link-lost")
    banner.wait_for()
    server.start(same_port=True)
    banner.wait_for(state="detached")
    seq = table.send({"type": "join", "member": {"id": "v1", "name": "Doom", "kind": "villain"}})
    phone.wait_for_function(f"document.body.dataset.seq === '{seq['seq']}'")
    phone.close()


def test_a_page_whose_table_the_server_no_longer_holds_says_so_and_comes_back_with_it(
    browser: Any, console: Console, server: ServerProcess, tmp_path: Path
) -> None:
    """The server starts afresh on another database (as a demo's links are new at every
    start): an open player page and console cannot reconnect. They say the server does not
    hold their table, rather than "reconnecting" for ever; once it runs on the table's
    database again, they open it again by themselves."""
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "h1", "name": "Nightingale", "kind": "hero"}})
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(hand_to(table, "h1"))
    phone.wait_for_function("document.body.dataset.seq !== undefined")
    console.create("four-color")
    kept = server.db
    server.stop()
    server.db = tmp_path / "afresh.db"
    try:
        server.start(same_port=True)
        phone.get_by_text("The server does not hold this table now").wait_for()
        phone.locator("#link-lost").wait_for(state="detached")  # not "reconnecting" any more
        # The console's table is not in the new database: it says so, not "revoked".
        lacking = "This table is not in the database the server now runs on"
        console.page.get_by_text(lacking).wait_for()
    finally:
        server.stop()
        server.db = kept
    # The host starts the server on the table's database again: both pages open the table
    # again by themselves, with their old links.
    server.start(same_port=True)
    phone.get_by_text("The server does not hold this table now").wait_for(state="detached")
    phone.locator("text=Nightingale").first.wait_for()
    console.page.get_by_text(lacking).wait_for(state="detached")
    console.page.locator("[data-prompt]").wait_for()
    phone.close()

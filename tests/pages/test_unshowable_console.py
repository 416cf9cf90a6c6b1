"""A table whose stored log this version cannot show opens in the console as a repair screen,
not a broken page: it says what happened and offers the undo that mends it.

The servers run in this process, each on a thread of its own over the same real SQLite file, so
that the RCS view can be swapped for one that fails on a given state (as in
tests/server/test_unshowable.py): the log is written by a server whose view shows it, then read
by one whose view cannot.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import web

from server.run.app import make_app
from server.settings import Settings
from server.tables import systems
from tests.server.process import UNLIMITED, call, free_port
from tests.waiting import PATIENCE

RCS = systems.SYSTEMS["megatraveller-rcs"]


def _fails_on_three(state: Any, viewer: Any) -> Any:
    if state.pools.get("a") == 3:
        raise KeyError("a")
    return RCS.view(state, viewer)


@contextmanager
def serving(db: Path) -> Iterator[str]:
    """A server on loopback, run by a thread's own event loop while the block runs."""
    port, loop, ready = free_port(), asyncio.new_event_loop(), threading.Event()
    settings = Settings(db=db, port=port, **UNLIMITED)

    async def start() -> web.AppRunner:
        runner = web.AppRunner(make_app(settings))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        return runner

    def serve() -> None:
        runner = loop.run_until_complete(start())
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(PATIENCE), "the server never started"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(PATIENCE)


def test_the_console_of_an_unshowable_table_offers_the_undo_that_mends_it(
    page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "seize.db"
    with serving(db) as older:
        _, table = call(f"{older}/api/tables", "POST", {"system": "megatraveller-rcs", "name": "t"})
        commands = f"{older}/api/tables/{table['id']}/commands"
        character = {"id": "a", "name": "Jena", "side": "a", "dex": 1, "movement": 1}
        for command in (
            {"type": "join", "character": character},
            {"type": "set_pool", "side": "a", "points": 3},
        ):
            assert call(commands, "POST", command, table["gm_token"])[0] == 200
    systems.SYSTEMS["megatraveller-rcs"] = dataclasses.replace(RCS, view=_fails_on_three)
    try:
        with serving(db) as newer:
            page.goto(f"{newer}/console/{table['id']}#token={table['gm_token']}")
            screen = page.locator("[data-section='This table cannot be shown']")
            screen.wait_for()
            assert "undo the last event" in screen.inner_text()
            screen.get_by_role("button", name="Undo the last event").click()
            page.locator("[data-section='Roster'] [data-id='a']").wait_for()
            _, read = call(f"{newer}/api/tables/{table['id']}", token=table["gm_token"])
    finally:
        systems.SYSTEMS["megatraveller-rcs"] = RCS
    assert read["seq"] == 3 and read["view"]["pools"]["a"] == 0

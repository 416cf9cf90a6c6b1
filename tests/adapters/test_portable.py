"""The server and the adapters on a system without POSIX's extras (Windows): no ``resource``
module, an event loop that cannot watch a serial port, no pseudo-terminals.

Windows itself cannot run here, so its absences are made: ``resource`` and ``termios`` are
hidden from imports, and the running loop's ``add_reader`` raises NotImplementedError as the
proactor loop's does. Everything else is real: a tray on a pseudo-terminal, pyserial, the
adapter and a server on loopback.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from adapters.link import TableLink
from adapters.registry import TableRegistry
from adapters.simulators.tray import TraySimulator
from adapters.tray import TrayAdapter
from server.run.cli import main
from tests.server.conftest import Client, bearer
from tests.waiting import eventually

from .test_tray import rcs_awaiting_rolls


def no_add_reader(*args: Any) -> None:
    raise NotImplementedError  # as asyncio's ProactorEventLoop does


def reading_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("seize-serial")]


async def test_a_tray_delivers_rolls_through_a_reader_thread_when_the_loop_cannot_watch_it(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(asyncio.get_running_loop(), "add_reader", no_add_reader)
    table = await rcs_awaiting_rolls(client)
    path = tmp_path / "seize-tray"
    tray = TraySimulator(path).plug()
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    registry = TableRegistry(str(client.make_url("")), table["id"], table["gm_token"])
    adapter = TrayAdapter(str(path), link, registry, max_pause=0.2)
    stop = asyncio.Event()
    running = asyncio.create_task(adapter.run(stop))
    try:
        await eventually(lambda: adapter.status.connected)
        # Said connected as the port opens; the thread that reads it starts just after.
        await eventually(lambda: reading_threads() == [f"seize-serial {path}"])
        tray.send("$SEIZE,tray1,9,ROLL,6,6,6*00")  # refused, counted
        tray.roll(6, 3, 5)
        await eventually(lambda: adapter.status.rolls_sent == 1)
        tray.unplug()  # the thread's read fails: it ends, and the port is looked for again
        await eventually(lambda: not adapter.status.connected)
        assert reading_threads() == []
        tray.plug()
        await eventually(lambda: adapter.status.connected)
        tray.roll(6, 6, 6)
        await eventually(lambda: adapter.status.rolls_sent == 2)
        assert adapter.status.reconnects == 1
    finally:
        stop.set()
        await running
        tray.unplug()
    assert reading_threads() == []  # stopping ends the thread
    assert adapter.tray.bad == {"bad_checksum": 1}
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    rolls = [c["dice"] for c in (await read.json())["view"]["line"]]
    assert sorted(rolls) == [[3, 5], [6, 6]]


def test_the_server_imports_and_starts_its_checks_without_posix_modules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``resource`` and ``termios`` missing, ``seize`` imports, raises no open-file limit,
    and the demo runs without simulated devices instead of failing."""
    for name in ("resource", "termios", "pty", "tty"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it raises ImportError
    for name in ("server.run.cli", "server.demo.devices", "server.devices.commands"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    cli = importlib.import_module("server.run.cli")
    cli._allow_many_connections()
    assert not importlib.import_module("server.demo.devices").available()


@pytest.mark.parametrize("kind", ["tray", "pn532", "ntag"])
def test_a_simulator_says_it_needs_posix(
    kind: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("termios", "pty", "tty"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["sim", kind]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "POSIX" in line and f"sim {kind}" in line

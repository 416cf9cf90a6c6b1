"""``seize serve --loop``: the server really runs on the loop chosen, and asking for uvloop where
it is missing is refused clearly. The startup line names the loop as the running server reads
it from itself."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from server.run import loops
from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import within

needs_uvloop = pytest.mark.skipif(not loops.uvloop_installed(), reason="uvloop not installed")


def serve(tmp_path: Path, *flags: str, hide_uvloop: bool = False) -> str:
    """Start ``seize serve`` with ``flags``, check it answers, and return what it printed."""
    printed = tmp_path / "printed.txt"
    server = ServerProcess(tmp_path / "seize.db", output=printed, extra_args=flags)
    if hide_uvloop:
        server.env["PYTHONPATH"] = str(_without_uvloop(tmp_path))
    with server:
        pass
    return printed.read_text()


def _without_uvloop(tmp_path: Path) -> Path:
    """A folder that shadows uvloop with a package whose import fails, as on a machine that
    cannot build it."""
    shadow = tmp_path / "shadow" / "uvloop"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('no uvloop on this machine')\n")
    return shadow.parent


def test_the_asyncio_loop_when_asked_for(tmp_path: Path) -> None:
    assert "event loop: asyncio)" in serve(tmp_path, "--loop", "asyncio")


@needs_uvloop
def test_the_uvloop_loop_when_asked_for(tmp_path: Path) -> None:
    assert "event loop: uvloop)" in serve(tmp_path, "--loop", "uvloop")


def test_uvloop_by_default_where_it_is_installed(tmp_path: Path) -> None:
    expected = "uvloop" if loops.uvloop_installed() else "asyncio"
    assert f"event loop: {expected})" in serve(tmp_path)


def test_without_uvloop_the_default_still_serves(tmp_path: Path) -> None:
    assert "event loop: asyncio)" in serve(tmp_path, hide_uvloop=True)


def test_without_uvloop_asking_for_it_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="exited with status 2"):
        serve(tmp_path, "--loop", "uvloop", hide_uvloop=True)
    assert "seize: --loop: uvloop is not installed here" in (tmp_path / "printed.txt").read_text()


@pytest.mark.parametrize(
    "loop",
    [
        "asyncio",
        pytest.param("uvloop", marks=needs_uvloop),
    ],
)
def test_a_websocket_follows_a_table_on_each_loop(tmp_path: Path, loop: str) -> None:
    """The hub writes frames straight onto the socket's transport, whichever loop made it."""
    with ServerProcess(tmp_path / "seize.db", extra_args=["--loop", loop], **UNLIMITED) as server:
        _, table = call(f"{server.url}/api/tables", "POST", {"system": "four-color", "name": "t"})
        member = {"type": "join", "member": {"id": "h1", "name": "H", "kind": "hero"}}
        url = f"{server.url}/api/tables/{table['id']}"
        seen = asyncio.run(_follow(url, table["overlay_token"], table["gm_token"], member))
    assert [(m["type"], m["seq"]) for m in seen] == [("view", 0), ("event", 1)]


async def _follow(url: str, overlay: str, gm: str, body: object) -> list[dict[str, object]]:
    """The overlay's first two messages: the view, then the event of a command the GM sends."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"{url}/ws", headers={"Authorization": f"Bearer {overlay}"}) as ws,
    ):
        view = await within(ws.receive_json(), "no view came")
        headers = {"Authorization": f"Bearer {gm}"}
        async with session.post(f"{url}/commands", json=body, headers=headers) as answer:
            assert answer.status == 200, await answer.text()
        return [view, await within(ws.receive_json(), "the GM's event never came")]


def test_the_loop_reports_what_runs_it() -> None:
    """``running`` reads the loop, not the setting: the sign the tests above rely on."""
    for name in ("asyncio", *(["uvloop"] if loops.uvloop_installed() else [])):
        loop = loops.new_loop(name)
        try:
            assert loop.run_until_complete(_running()) == name
        finally:
            loop.close()


async def _running() -> str:
    return loops.running()

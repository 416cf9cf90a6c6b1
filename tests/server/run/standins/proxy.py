"""What the stand-ins share: their state file, and the public side of a tunnel, played by a
TLS listener on loopback that pipes each connection to the origin (a tunnel's edge terminates
TLS with a certificate phones trust; here the test's own authority signs it)."""

from __future__ import annotations

import asyncio
import json
import os
import ssl
from pathlib import Path
from typing import Any


def state() -> dict[str, Any]:
    """The test's instructions to the stand-in: a JSON file named by STANDIN_STATE."""
    loaded: dict[str, Any] = json.loads(Path(os.environ["STANDIN_STATE"]).read_text())
    return loaded


def note_pid(given: dict[str, Any]) -> None:
    """Where the test can find the running tool, to end it while the table plays."""
    if pidfile := given.get("pidfile"):
        Path(pidfile).write_text(str(os.getpid()))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def edge(given: dict[str, Any], origin: tuple[str, int]) -> asyncio.Server:
    """The tunnel's public https side, at the state's ``listen`` port on loopback."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(given["cert"], given["key"])

    async def forward(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*origin)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    return await asyncio.start_server(forward, "127.0.0.1", given["listen"], ssl=context)

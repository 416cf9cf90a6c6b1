"""Sharing benchmark: from ``seize serve --share …`` to a phone's page loaded over https, and
what the local certificate authority's https costs a command's answer. Prints figures; asserts
nothing.

    .venv/bin/python -m bench.share_bench [--starts 5] [--commands 2000]

Start: a real ``seize serve`` process per start, the clock running from just before it is
spawned until a player page (``/play/…``, its HTML) has loaded over https at the shared address,
as a phone would ask for it: for ``tailscale`` and ``cloudflare`` through the tests' stand-ins
(``tests/server/run/standins/``, which answer as the tools do and carry the page over TLS on
loopback, in place of the real tools' trip to the internet, which no figure here includes), for
``lan-ca`` straight to the server, trusting the table's root. The first ``lan-ca`` start makes
the root and the leaf; the later ones read them.

Commands: two servers side by side, one over plain http and one with ``--share lan-ca``, each
with a Four Color table; one client each, on one kept-alive connection, sends the GM's "hide"
and "reveal" of a hero in turn, alternating between the two servers so both see the same
machine; the figure is each answer's round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.server.process import UNLIMITED, free_port
from tests.server.run.sharing import QUICK_NAME, TAILNET_NAME, Standins, free_pair, standins_in

PACE = 0.01


def spawn(folder: Path, env: dict[str, str], port: int, *flags: str) -> subprocess.Popen[bytes]:
    limits = {f"SEIZE_{k.upper()}": str(v) for k, v in UNLIMITED.items()}
    return subprocess.Popen(
        [sys.executable, "-m", "server", "serve", "--port", str(port),
         "--db", str(folder / "seize.db"), *flags],
        env={**os.environ, **env, **limits},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def page_loaded(
    address: str, name: str, trusted: ssl.SSLContext, server: subprocess.Popen[bytes]
) -> None:
    """Ask for a player page at ``https://name`` (reached at ``address``) until it loads."""
    async with aiohttp.ClientSession() as session:
        while True:
            alive(server)
            try:
                async with session.get(
                    f"https://{address}/play/table", ssl=trusted, server_hostname=name
                ) as answer:
                    if answer.status == 200 and "<!doctype html>" in (await answer.text()).lower():
                        return
            except (aiohttp.ClientError, OSError):
                pass  # not serving yet
            await asyncio.sleep(PACE)


def alive(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is not None:
        raise RuntimeError(f"the server exited with status {server.returncode}")


def root_trusted(folder: Path) -> ssl.SSLContext | None:
    root = folder / "data" / "seize" / "share" / "lan-ca" / "root.pem"
    return ssl.create_default_context(cafile=str(root)) if root.exists() else None


async def one_start(way: str, folder: Path, tools: Standins, env: dict[str, str]) -> float:
    port = free_pair()
    if way == "tailscale":
        tools.play(BackendState="Running", DNSName=f"{TAILNET_NAME}.", funnel="ok")
    else:
        tools.play(hostname=QUICK_NAME)
    started = time.perf_counter()
    process = spawn(
        folder, env, port, "--share", way, *(["--host", "127.0.0.1"] if way == "lan-ca" else [])
    )
    try:
        if way == "lan-ca":
            while (trusted := root_trusted(folder)) is None:
                alive(process)
                await asyncio.sleep(PACE)
            await page_loaded(f"127.0.0.1:{port}", "seize.local", trusted, process)
        else:
            name = TAILNET_NAME if way == "tailscale" else QUICK_NAME
            await page_loaded(f"127.0.0.1:{tools.edge_port}", name, tools.trusted, process)
        return time.perf_counter() - started
    finally:
        process.terminate()
        process.wait()


async def starts(count: int, folder: Path) -> dict[str, list[float]]:
    took: dict[str, list[float]] = {}
    for way in ("tailscale", "cloudflare", "lan-ca"):
        where = folder / way
        where.mkdir()
        tools, env = standins_in(where, ["tailscale", "cloudflared"])
        took[way] = [await one_start(way, where, tools, env) for _ in range(count)]
    return took


Reach = tuple[str, ssl.SSLContext | bool, str | None]
"""A server's base URL, the TLS context its certificate is checked with, and the name asked."""


async def table(session: aiohttp.ClientSession, reach: Reach) -> tuple[str, str]:
    """A Four Color table with one hero: its commands' URL and the GM's token."""
    base, trusted, name = reach
    options: dict[str, Any] = {"ssl": trusted, "server_hostname": name}
    spec = {"system": "four-color", "name": "Bench"}
    async with session.post(f"{base}/api/tables", json=spec, **options) as answer:
        created = await answer.json()
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    hero = {"type": "join", "member": {"id": "peter", "name": "Peter", "kind": "hero"}}
    path = f"{base}/api/tables/{created['id']}/commands"
    async with session.post(path, json=hero, headers=gm, **options) as answer:
        assert answer.status == 200, await answer.text()
    return path, created["gm_token"]


async def commands(count: int, folder: Path) -> dict[str, list[float]]:
    """Each command's round trip over plain http and over lan-ca https, alternating."""
    env = {"XDG_DATA_HOME": str(folder / "data")}
    plain_port, secure_port = free_port(), free_pair()
    plain = spawn(folder / "plain", env, plain_port)
    secure = spawn(folder / "secure", env, secure_port, "--share", "lan-ca", "--host", "127.0.0.1")
    took: dict[str, list[float]] = {"http": [], "https (lan-ca)": []}
    try:
        while (trusted := root_trusted(folder)) is None:
            alive(secure)
            await asyncio.sleep(PACE)
        bases: dict[str, Reach] = {
            "http": (f"http://127.0.0.1:{plain_port}", True, None),
            "https (lan-ca)": (f"https://127.0.0.1:{secure_port}", trusted, "seize.local"),
        }
        async with (
            aiohttp.ClientSession() as plain_session,
            aiohttp.ClientSession() as secure_session,
        ):
            sessions = {"http": plain_session, "https (lan-ca)": secure_session}
            targets = {}
            for name, reach in bases.items():
                while True:
                    try:
                        targets[name] = await table(sessions[name], reach)
                        break
                    except (aiohttp.ClientError, OSError):
                        alive(plain)
                        alive(secure)
                        await asyncio.sleep(PACE)  # not serving yet
            for n in range(count):
                command = {"type": "hide" if n % 2 == 0 else "reveal", "participant": "peter"}
                for name in ("http", "https (lan-ca)") if n % 2 else ("https (lan-ca)", "http"):
                    path, gm = targets[name]
                    started = time.perf_counter()
                    async with sessions[name].post(
                        path,
                        json=command,
                        headers={"Authorization": f"Bearer {gm}"},
                        ssl=bases[name][1],
                        server_hostname=bases[name][2],
                    ) as answer:
                        await answer.read()
                        assert answer.status == 200, answer.status
                    took[name].append(time.perf_counter() - started)
    finally:
        for process in (plain, secure):
            process.terminate()
            process.wait()
    return took


def p99(found: list[float]) -> float:
    return (
        statistics.quantiles(found, n=100, method="inclusive")[98] if len(found) > 1 else found[0]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--commands", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "starts").mkdir()
        took = asyncio.run(starts(args.starts, root / "starts"))
        print(
            "from `seize serve --share …` to a player page loaded over https, "
            f"{args.starts} starts, seconds"
        )
        print(f"{'way':<12} {'first':>7} {'median':>7} {'max':>7}")
        for way, times in took.items():
            print(f"{way:<12} {times[0]:7.2f} {statistics.median(times):7.2f} {max(times):7.2f}")
        for name in ("commands", "commands/plain", "commands/secure"):
            (root / name).mkdir()
        answered = asyncio.run(commands(args.commands, root / "commands"))
    print(f"\na command's answer (hide, reveal), {args.commands} each, milliseconds")
    print(f"{'path':<16} {'p50':>7} {'p99':>7} {'max':>7}")
    for name, times in answered.items():
        print(f"{name:<16} {statistics.median(times) * 1000:7.2f} {p99(times) * 1000:7.2f} "
              f"{max(times) * 1000:7.2f}")  # fmt: skip
    extra = {
        "p50": statistics.median(answered["https (lan-ca)"]) - statistics.median(answered["http"]),
        "p99": p99(answered["https (lan-ca)"]) - p99(answered["http"]),
    }
    print(f"{'https extra':<16} {extra['p50'] * 1000:7.2f} {extra['p99'] * 1000:7.2f}")


if __name__ == "__main__":
    main()

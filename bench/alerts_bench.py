"""Turn alerts benchmark: from a GM's "next" to the alert at the push service, in the Discord
channel and in the player's page. Prints figures; asserts nothing.

    .venv/bin/python -m bench.alerts_bench [--turns 500] [--db FILE] [--stalled]

One server, in this process, on loopback over a fresh SQLite file; beside it the tests' push
service (RFC 8030, decrypting each message: ``tests/server/live/push_service.py``) and Discord
stand-in (``tests/server/live/discord_stand_in.py``, its bucket set wide, 1000 posts a second, so
that what is measured is Seize's path and not Discord's limits, which a real channel imposes:
about five posts in two seconds per webhook). An RCS fight of two characters, Jena and the
Guard, each with a player's page following the table on its WebSocket (the page's own socket:
"in the page" is the view with the alert arriving there, before the browser draws it), each
subscribed to pushes, both linked to Discord and mentioned. Each turn the GM gives the command
that moves the token (the last roll of a round gives it to the first character, the first's
"resolve" to the second) and the clock runs until the alert has reached all three; the next
turn waits for that. Times are on the monotonic clock all three share.

``--stalled``: each player's grant also keeps a subscription whose push service takes every
push in and never answers (one held until the server's own time limit gives up on it), as a
phone's dead push service would; the figures are of the healthy subscription beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from server.run.app import make_app
from server.settings import Settings
from tests.server.live.discord_stand_in import HOOK_ID, HOOK_TOKEN, Discord
from tests.server.live.push_service import LOOPBACK, PushService

PACE = 0.0005
"""Seconds between looks at what has arrived: the resolution of the figures."""


async def serve(app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


class Page:
    """A player's page: follows the table on its socket, noting when its alerts say turn."""

    def __init__(self, character: str) -> None:
        self.character, self.turns = character, 0
        self.at = 0.0

    async def follow(self, session: aiohttp.ClientSession, url: str) -> None:
        async with session.ws_connect(url) as ws:
            async for message in ws:
                frame = json.loads(message.data)
                view = frame.get("view")
                if view and any(a["kind"] == "turn" for a in view.get("alerts", [])):
                    if self.at == 0.0:
                        self.at = time.monotonic()
                else:
                    self.at = 0.0 if view else self.at


async def run(turns: int, db: Path, stalled: bool = False) -> dict[str, list[float]]:
    push, discord = PushService(), Discord(limit=1000, per=1.0)
    push_runner, push.base = await serve(push.app())
    discord_runner, discord_url = await serve(discord.app())
    settings = Settings(db=db, port=0, discord_api=f"{discord_url}/api", rate_per_second=1e6,
                        rate_burst=1_000_000, outbound_allowed=[LOOPBACK])  # fmt: skip
    seize_runner, url = await serve(make_app(settings))
    times: dict[str, list[float]] = {"push": [], "discord": [], "page": []}
    async with aiohttp.ClientSession() as session:

        async def call(method: str, path: str, token: str, body: Any = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"}
            async with session.request(
                method, f"{url}{path}", json=body, headers=headers
            ) as answer:
                assert answer.status < 300, await answer.text()
                return await answer.json()

        created = await call("POST", "/api/tables", "", {"system": "megatraveller-rcs",
                                                         "name": "bench"})  # fmt: skip
        tid, gm = created["id"], created["gm_token"]
        base = f"/api/tables/{tid}"
        for cid, side in (("jena", "crew"), ("guard", "corp")):
            character = {"id": cid, "name": cid.title(), "side": side, "dex": 0, "movement": 0}
            await call("POST", f"{base}/commands", gm, {"type": "join", "character": character})
        webhook = f"{discord_url}/api/webhooks/{HOOK_ID}/{HOOK_TOKEN}"
        await call("PUT", f"{base}/discord", gm, {"webhook": webhook})
        pages, subs, followers = {}, {}, []
        for n, cid in enumerate(("jena", "guard")):
            link = await call("POST", f"{base}/handoff/players/{cid}", gm)
            token = link["url"].split("token=")[1]
            await call("PUT", f"{base}/discord/players/{cid}", token,
                       {"discord_id": f"{n + 1}" * 18, "mention": True})  # fmt: skip
            key = (await call("GET", f"{base}/push", token))["public_key"]
            sub_id, subscription = push.subscribe(key)
            await call("PUT", f"{base}/push", token, subscription)
            subs[cid] = push.subscriptions[sub_id]
            if stalled:
                dead_id, dead = push.subscribe(key)
                push.subscriptions[dead_id].held = asyncio.Event()  # never set
                await call("PUT", f"{base}/push", token, dead)
            pages[cid] = Page(cid)
            ws = f"{url.replace('http', 'ws')}{base}/ws?token={token}"
            followers.append(asyncio.create_task(pages[cid].follow(session, ws)))

        async def timed(command: dict[str, Any], cid: str) -> None:
            pushed, posted = len(subs[cid].arrived), len(discord.posted)
            start = time.monotonic()
            await call("POST", f"{base}/commands", gm, command)
            while not (len(subs[cid].arrived) > pushed and pages[cid].at
                       and any(p.content.startswith(f"{cid.title()}'s turn")
                               for p in discord.posted[posted:])):  # fmt: skip
                await asyncio.sleep(PACE)
            said = next(p for p in discord.posted[posted:]
                        if p.content.startswith(f"{cid.title()}'s turn"))  # fmt: skip
            times["push"].append(subs[cid].arrived[pushed] - start)
            times["discord"].append(said.at - start)
            times["page"].append(pages[cid].at - start)

        declare = {"type": "declare", "action": "long", "what": "runs", "target": "door"}
        for _ in range(turns // 2):
            await call("POST", f"{base}/commands", gm, {"type": "roll_initiative", "source": "gm"})
            roll = {"type": "enter_roll", "source": "gm"}
            await call("POST", f"{base}/commands", gm, {**roll, "character": "guard",
                                                         "dice": [6, 6]})  # fmt: skip
            await timed({**roll, "character": "jena", "dice": [1, 1]}, "jena")
            await call("POST", f"{base}/commands", gm, {**declare, "character": "jena"})
            await timed({"type": "resolve"}, "guard")
            await call("POST", f"{base}/commands", gm, {**declare, "character": "guard"})
            await call("POST", f"{base}/commands", gm, {"type": "resolve"})
        for follower in followers:
            follower.cancel()
    for runner in (seize_runner, push_runner, discord_runner):
        await runner.cleanup()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--stalled", action="store_true",
                        help="beside each subscription, one that never answers")  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        times = asyncio.run(run(args.turns, args.db or Path(folder) / "seize.db", args.stalled))
    beside = ", beside a push service that never answers" if args.stalled else ""
    print(f"from the GM's command to the alert, {len(times['page'])} turns{beside}, milliseconds")
    print(f"{'where':<34} {'p50':>8} {'p99':>8} {'max':>8}")
    for name, label in (("page", "in the page (its socket)"),
                        ("push", "at the push service (decrypted)"),
                        ("discord", "in the Discord channel")):  # fmt: skip
        found = sorted(times[name])
        p99 = (
            statistics.quantiles(found, n=100, method="inclusive")[98]
            if len(found) > 1
            else found[0]
        )
        print(f"{label:<34} {statistics.median(found) * 1000:8.1f} {p99 * 1000:8.1f} "
              f"{found[-1] * 1000:8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()

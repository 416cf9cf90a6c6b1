"""Each role's own numbers over the real API (the shared rulings, "No tells"): an RCS encounter
played with an ambusher lying in wait and the same encounter without it show a player and the
stream the same numbers and the same events everywhere a number is read (the WebSocket, SSE
with Last-Event-ID, ``/events``, the view's ``seq``, a command's answer, ``If-Match``, the
replay's bounds), and after a restart that loads the table from a snapshot. RCS is where this
matters most: nothing else in it is ever unseen, so a missing number would be someone hidden."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.run.app import make_app
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.following import read_sse
from tests.waiting import eventually

CREW = [
    {"id": "jena", "name": "Jena", "side": "crew", "dex": 0, "movement": 0, "tactics": 1},
    {"id": "guard", "name": "Guard", "side": "corp", "dex": 0, "movement": 0, "tactics": 1},
]
AMBUSHER = {"id": "amb", "name": "Ambusher", "side": "assassins", "dex": 0, "movement": 0}
"""Its 2D6 of 12 puts it last, behind everyone: the token reaches it only after the others."""


def roll(character: str, dice: tuple[int, int]) -> dict[str, Any]:
    return {"type": "enter_roll", "character": character, "dice": list(dice), "source": "gm"}


class Encounter:
    """One table, followed live by the player's phone and the stream over WebSockets."""

    def __init__(self, client: Client, table: dict[str, Any]) -> None:
        self.client, self.table = client, table
        self.url = f"/api/tables/{table['id']}"
        self.jena = ""
        self.heard: dict[str, list[dict[str, Any]]] = {}
        self._sockets: list[Any] = []
        self._readers: list[asyncio.Task[None]] = []

    async def mint(self) -> None:
        answer = await self.client.post(
            f"{self.url}/tokens",
            json={"participants": ["jena"], "label": "Jena's phone"},
            headers=bearer(self.table["gm_token"]),
        )
        assert answer.status == 201
        self.jena = (await answer.json())["token"]

    async def follow(self) -> None:
        for who, token in (("jena", self.jena), ("stream", self.table["overlay_token"])):
            socket = await self.client.ws_connect(f"{self.url}/ws?after=0", headers=bearer(token))
            heard = self.heard[who] = []
            self._sockets.append(socket)
            self._readers.append(asyncio.create_task(self._read(socket, heard)))

    @staticmethod
    async def _read(socket: Any, heard: list[dict[str, Any]]) -> None:
        async for message in socket:
            heard.append(json.loads(message.data))

    async def gm(self, command: dict[str, Any]) -> None:
        status, body = await send(self.client, self.table, command)
        assert status == 200, body

    async def seq(self, token: str) -> int:
        answer = await self.client.get(self.url, headers=bearer(token))
        seq: int = (await answer.json())["seq"]
        return seq

    async def read(self, path: str, token: str) -> tuple[int, Any]:
        answer = await self.client.get(self.url + path, headers=bearer(token))
        return answer.status, await answer.json()

    async def settled(self, last: int) -> None:
        """Until both followers have the view of the role's ``last`` step, then close."""
        heard = list(self.heard.values())
        await eventually(lambda: all(_reached(h, last) for h in heard), "a follower fell behind")
        for socket in self._sockets:
            await socket.close()
        await asyncio.gather(*self._readers)


def _reached(heard: list[dict[str, Any]], last: int) -> bool:
    return any(m.get("seq", 0) >= last and "view" in m for m in heard)


async def play(client: Client, hidden: bool) -> Encounter:
    """The same public steps; with ``hidden``, the ambusher joins between the two, and the
    referee makes its steps among theirs: its roll (taken back once and entered again), its
    side's pool, its spending. A player's command is made against the view it was shown."""
    table = await new_table(client, "megatraveller-rcs")
    game = Encounter(client, table)
    await game.gm({"type": "join", "character": CREW[0]})
    if hidden:
        await game.gm({"type": "join", "character": AMBUSHER, "hidden": True})
    await game.gm({"type": "join", "character": CREW[1]})
    await game.mint()
    await game.follow()
    await game.gm({"type": "roll_initiative", "source": "gm"})
    if hidden:
        await game.gm(roll("amb", (6, 6)))
        await game.gm({"type": "undo"})
        await game.gm(roll("amb", (6, 6)))
    seen = await game.seq(game.jena)
    if hidden:
        await game.gm({"type": "set_pool", "side": "assassins", "points": 2})
    status, answer = await send(
        client, table, roll("jena", (2, 2)), game.jena, **{"If-Match": str(seen)}
    )
    assert status == 200, answer  # a hidden step since the view on the phone makes it no stale
    assert answer["seq"] == seen + 1
    await game.gm(roll("guard", (3, 3)))  # jena 5 holds the token, the guard 7 is next
    if hidden:
        spend = {"type": "spend_tactics", "side": "assassins", "character": "amb", "points": 1}
        await game.gm({**spend, "purpose": "other"})
    await game.gm(
        {
            "type": "declare",
            "character": "jena",
            "action": "long",
            "what": "runs",
            "target": "cover",
        }
    )
    await game.gm({"type": "resolve", "outcome": "made it"})
    await game.gm({"type": "set_pool", "side": "crew", "points": 1})
    await game.gm({"type": "undo"})
    await game.settled(await game.seq(game.jena))
    return game


async def shown(game: Encounter, token: str) -> dict[str, Any]:
    """Everything a token reads with a number in it, by asking."""
    url = game.url
    seq = await game.seq(token)
    read: dict[str, Any] = {"seq": seq}
    for path in ("/events", "/events?after=3", f"/replay?seq={seq}", f"/replay?seq={seq + 1}"):
        status, body = await game.read(path, token)
        body.pop("at", None)  # when the step was stored: two tables are played one after another
        read[path] = status, body
    async with game.client.get(
        f"{url}/sse", headers={**bearer(token), "Last-Event-ID": "4"}
    ) as stream:
        read["sse"] = [(m["id"], m["data"]) for m in await read_sse(stream, seq - 4 + 1)]
    return read


async def test_a_player_and_the_stream_number_the_encounter_as_without_the_ambusher(
    client: Client,
) -> None:
    plain, beside = await play(client, hidden=False), await play(client, hidden=True)
    assert await beside.seq(beside.table["gm_token"]) > await plain.seq(plain.table["gm_token"])
    for who in ("jena", "stream"):
        assert beside.heard[who] == plain.heard[who], who
        numbers = [m["seq"] for m in beside.heard[who] if m["type"] == "event"]
        assert numbers == list(range(numbers[0], numbers[-1] + 1)), who
        assert "amb" not in json.dumps(beside.heard[who])
    for beside_token, plain_token in (
        (beside.jena, plain.jena),
        (beside.table["overlay_token"], plain.table["overlay_token"]),
    ):
        assert await shown(beside, beside_token) == await shown(plain, plain_token)


async def test_a_player_resumes_by_its_own_number_after_a_restart_from_a_snapshot(
    aiohttp_client: Any, settings: Any
) -> None:
    """The marks of the steps the player's table never had are read back with the snapshot:
    the numbers a phone holds still mean the same steps."""
    first: Client = await aiohttp_client(
        make_app(settings.model_copy(update={"snapshot_every": 1}))
    )
    game = await play(first, hidden=True)
    before = await shown(game, game.jena)
    await first.close()
    second: Client = await aiohttp_client(make_app(settings))
    game.client = second
    assert await shown(game, game.jena) == before
    async with second.ws_connect(f"{game.url}/ws?after=2", headers=bearer(game.jena)) as phone:
        caught_up = [await phone.receive_json() for _ in range(before["seq"] - 2 + 1)]
    assert [m["seq"] for m in caught_up] == [*range(3, before["seq"] + 1), before["seq"]]
    assert [m["event"] for m in caught_up[:-1]] == [
        e["event"] for e in before["/events"][1]["events"][2:]
    ]


async def test_a_player_sees_someone_go_when_the_gm_hides_them(client: Client) -> None:
    """Hiding someone the player saw is a step of theirs (as nothing more than the view it
    leaves): the phone is sent it, numbered, and the guard is gone from what it shows."""
    game = await play(client, hidden=False)
    seen = await game.seq(game.jena)
    async with client.ws_connect(f"{game.url}/ws?after={seen}", headers=bearer(game.jena)) as ws:
        assert (await ws.receive_json())["type"] == "view"
        await game.gm({"type": "hide", "participant": "guard"})
        frame = await ws.receive_json()
    assert (frame["type"], frame["seq"], frame["event"]) == ("event", seen + 1, None)
    assert "guard" not in json.dumps(frame["view"]) and "jena" in json.dumps(frame["view"])

"""Whole games over the real server: the moves of ``tests/rules/whole_games`` sent over HTTP to
a server on loopback with a real SQLite file, and followed by one WebSocket per role.

The game is mirrored locally from the GM's event log, so for every command the test knows what
the rules decide: the server must answer the same (200, 403 for a role, 422 for a rule), never
500; every stream must receive every event, numbered 1 to N, none missing, in order; and no
message to a player or overlay shows what was secret from them at its sequence number, nor does
any step, turn or event of their story (the export) at the step's own.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RoleError, RuleError
from rules.roles import GM, OVERLAY, Viewer
from rules.table import Table
from tests.rules.whole_games import (
    AwarenessGame,
    FourColorGame,
    Game,
    RcsGame,
    Watch,
    choose_by_chance,
)
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.process import UNLIMITED, ServerProcess
from tests.waiting import eventually

GAMES: dict[str, Game] = {
    "four-color": FourColorGame(),
    "awareness": AwarenessGame(),
    "megatraveller-rcs": RcsGame(),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("whole-games")
    with ServerProcess(folder / "seize.db", output=folder / "server.log", **UNLIMITED) as running:
        yield running


def expected_status(table: Table[Any, Any, Any, Any], command: Any, actor: Viewer) -> int:
    """What the server must answer, as the rules decide the command on the mirrored table."""
    try:
        table.decide(command, actor)
    except RoleError:
        return 403
    except RuleError:
        return 422
    return 200


class Seat:
    """One game at the server: its tokens, the mirror of its log, and what each role heard."""

    def __init__(
        self, session: aiohttp.ClientSession, base: str, game: Game, server: ServerProcess
    ) -> None:
        self.session, self.base, self.game, self.server = session, base, game, server
        self.url = ""
        self.tokens: dict[Viewer, str] = {}
        self.mirror: Table[Any, Any, Any, Any] = game.system.table()
        self.watches: dict[int, Watch] = {}  # what was secret as of each sequence number
        self.heard: dict[Viewer, list[dict[str, Any]]] = {}
        self.sent: list[str] = []  # the commands so far, for a report

    async def open(self, options: Any, cast: list[Any]) -> None:
        created = await self.call(
            "POST",
            f"{self.base}/api/tables",
            {
                "system": self.game.system.name,
                "name": "whole",
                "options": options.model_dump(mode="json"),
            },
        )
        self.url = f"{self.base}/api/tables/{created['id']}"
        self.tokens = {GM: created["gm_token"], OVERLAY: created["overlay_token"]}
        self.mirror = self.game.system.table(options)
        self.watches = {0: self.game.watch(options)}
        for join in cast:
            await self.send(join, GM)
        for viewer in self.game.players(self.mirror.state):
            minted = await self.call(
                "POST", f"{self.url}/tokens", {"participants": sorted(viewer.participants)}
            )
            self.tokens[viewer] = minted["token"]

    async def call(self, method: str, url: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.tokens[GM]}"} if self.tokens else {}
        async with self.session.request(method, url, json=body, headers=headers) as answer:
            assert answer.status < 300, await answer.text()
            return await answer.json()

    async def send(self, command: Any, actor: Viewer) -> None:
        """Send a command as ``actor``; the answer must be what the rules decide."""
        expected = expected_status(self.mirror, command, actor)
        body = command.model_dump(mode="json")
        self.sent.append(f"{actor.role.value}{sorted(actor.participants)}: {json.dumps(body)}")
        headers = {"Authorization": f"Bearer {self.tokens[actor]}"}
        async with self.session.post(f"{self.url}/commands", json=body, headers=headers) as answer:
            status, text = answer.status, await answer.text()
        assert status < 500, self.report(f"{status} {text}")
        assert status == expected, self.report(f"{status} (the rules say {expected}) {text}")
        log = await self.call("GET", f"{self.url}/events?after={self.mirror.version}")
        for entry in log["events"]:
            self.mirror.apply(self.game.system.events.validate_python(entry["event"]))
            watch = copy.deepcopy(self.watches[self.mirror.version - 1])
            watch.update(self.mirror)
            self.watches[self.mirror.version] = watch

    def report(self, answer: str) -> str:
        printed = self.server.output.read_text()[-4000:] if self.server.output else ""
        return "\n".join([*self.sent, f"answer: {answer}", "server log:", printed])

    async def follow(self, viewer: Viewer) -> None:
        """One WebSocket for this role, from the first event on."""
        into = self.heard.setdefault(viewer, [])
        headers = {"Authorization": f"Bearer {self.tokens[viewer]}"}
        async with self.session.ws_connect(f"{self.url}/ws?after=0", headers=headers) as ws:
            async for message in ws:
                into.append(json.loads(message.data))


async def play(server: ServerProcess, game: Game, rnd: random.Random, steps: int) -> None:
    """The game's course depends on the server's own draws, so the moves are chosen by a plain
    generator: hypothesis picks its seed, and a failure's report lists the commands sent."""
    async with aiohttp.ClientSession() as session:
        seat = Seat(session, server.url, game, server)
        await seat.open(game.options(rnd), game.cast(rnd))
        listeners = [asyncio.create_task(seat.follow(viewer)) for viewer in seat.tokens]
        await eventually(
            lambda: (
                len(seat.heard) == len(seat.tokens)
                and all(any(m["type"] == "view" for m in heard) for heard in seat.heard.values())
            ),
            "a stream never opened",
        )
        for _ in range(steps):
            command, actor = choose_by_chance(game.moves(seat.mirror.state, rnd), rnd)
            if actor in seat.tokens:  # a latecomer's player has no token
                await seat.send(command, actor)
        # Each role's last number: its own count of the steps (rules/numbering.py).
        numbering, last = seat.mirror.numbering, seat.mirror.version
        mine = {viewer: numbering.count(viewer) for viewer in seat.heard}
        await eventually(
            lambda: all(heard and heard[-1]["seq"] >= mine[v] for v, heard in seat.heard.items()),
            "a stream fell behind",
        )
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        stories = {}
        for viewer, token in seat.tokens.items():
            headers = {"Authorization": f"Bearer {token}"}
            async with session.get(f"{seat.url}/export", headers=headers) as answer:
                assert answer.status == 200, await answer.text()
                stories[viewer] = await answer.json()
    for viewer, told in stories.items():
        if viewer.is_gm:
            assert [e["seq"] for e in told["events"]] == list(range(1, last + 1))
            continue
        # Each step, turn and event of the story as it was shown at its own sequence number (a
        # story numbers its steps as the role's table would without those hidden from it).
        for entry in (*told["steps"], *told["turns"], *told["events"]):
            at = numbering.position(viewer, entry["seq"])
            leaks = seat.watches[at].leaks(entry, viewer)
            assert leaks == [], f"{viewer}'s story at {at}: {leaks}"
    for viewer, heard in seat.heard.items():
        assert not [m for m in heard if m["type"] == "bye"], viewer
        events = [m["seq"] for m in heard if m["type"] == "event"]
        assert events == list(range(1, mine[viewer] + 1)), f"{viewer}: {events}"
        if not viewer.is_gm:
            for message in heard:
                at = numbering.position(viewer, message["seq"])
                leaks = seat.watches[at].leaks(message, viewer)
                assert leaks == [], f"{viewer} at {at}: {leaks} {message}"


@settings(max_examples=max(3, settings().max_examples // 4), deadline=None)
@given(system=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**64))
def test_whole_games_over_the_server_answer_below_500_and_reach_every_stream(
    server: ServerProcess, system: str, seed: int
) -> None:
    steps = settings().stateful_step_count
    asyncio.run(play(server, GAMES[system], random.Random(seed), steps))


@pytest.mark.parametrize(
    ("system", "entry"),
    [
        ("awareness", {"type": "enter_initiative", "die": 4}),
        ("megatraveller-rcs", {"type": "enter_roll", "dice": [3, 4]}),
    ],
)
async def test_a_player_enters_their_own_initiative_dice_over_http_and_no_one_elses(
    client: Client, system: str, entry: dict[str, Any]
) -> None:
    table = await new_table(client, system)
    for cid in ("jena", "guard"):
        if system == "awareness":
            sheet = {"id": cid, "name": cid, "perception": 5, "stealth": 5, "coordination": 5}
            await send(client, table, {"type": "join", "sheet": sheet})
        else:
            character = {"id": cid, "name": cid, "side": cid, "dex": 5, "movement": 1}
            await send(client, table, {"type": "join", "character": character})
    await send(client, table, {"type": "roll_initiative", "source": "device"})
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["jena"]},
        headers=bearer(table["gm_token"]),
    )
    token = (await minted.json())["token"]
    status, refusal = await send(client, table, {**entry, "character": "guard"}, token)
    assert (status, refusal["rule"]) == (403, "roles")
    status, answer = await send(client, table, {**entry, "character": "jena"}, token)
    assert status == 200 and answer["events"][0]["source"] == "device"

"""Random games driven through the API: no player or overlay response, WebSocket or SSE message
carries what RULINGS says that role may not see.

The server runs in its own process. Each game is mirrored locally from the GM's event log, so
for every sequence number the test knows what was secret at that moment: the Editor's unplayed
extra cards and jokers (four-color), everyone's QR, Score and rolls (awareness).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.awareness import AWARENESS
from rules.awareness.commands import Sheet
from rules.cards import Card
from rules.four_color import FOUR_COLOR
from rules.four_color.commands import Kind, Member
from rules.four_color.scene import FULL_DECK
from rules.four_color.story import card as card_words
from rules.roles import Viewer
from rules.table import Table
from tests.rules.awareness.test_secrets import candidates as awareness_moves
from tests.rules.awareness.test_secrets import leaks
from tests.rules.four_color.test_properties import candidates as four_color_moves
from tests.rules.four_color.test_properties import secret_cards, shown_cards
from tests.server.process import UNLIMITED, ServerProcess
from tests.waiting import eventually

PLAYER = "p0"  # the participant the player token is bound to


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("secrets") / "seize.db"
    with ServerProcess(db, **UNLIMITED) as running:
        yield running


class Mirror:
    """The game as the GM knows it, rebuilt from the GM's log, and for each sequence number the
    check a message of that moment must pass."""

    def __init__(self, system: str) -> None:
        self.system = system
        self.table: Table[Any, Any, Any, Any] = (
            FOUR_COLOR.table() if system == "four-color" else AWARENESS.table()
        )
        self.secret_at: dict[int, set[str]] = {0: set()}
        self._public: set[Card] = set()
        self._page = 0

    def follow(self, events: list[dict[str, Any]]) -> None:
        for entry in events:
            self.table.apply(self.table.system.events.validate_python(entry["event"]))
            self.secret_at[entry["seq"]] = self._secrets()

    def _secrets(self) -> set[str]:
        if self.system != "four-color":
            return set()
        state = self.table.state
        if state.page != self._page:
            self._page, self._public = state.page, set()
        self._public |= {h.card for h in state.holdings if not h.is_secret or h.played}
        return {card.code for card in secret_cards(self.table, self._public)}

    def check(self, seq: int, message: Any, own: frozenset[str]) -> None:
        if self.system == "four-color":
            shown = shown_cards(json.dumps(message))
            assert not shown & self.secret_at[seq], f"seq {seq} shows {shown & self.secret_at[seq]}"
        else:
            assert leaks(message, own) == [], f"seq {seq}: {leaks(message, own)}"


async def listen(
    session: aiohttp.ClientSession, url: str, token: str, into: list[dict[str, Any]], sse: bool
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    if sse:
        async with session.get(f"{url}/sse", headers=headers) as stream:
            async for line in stream.content:
                if line.startswith(b"data: "):
                    into.append(json.loads(line[6:]))
        return
    async with session.ws_connect(f"{url}/ws", headers=headers) as ws:
        async for message in ws:
            into.append(json.loads(message.data))


async def play(
    server_url: str, system: str, size: int, choose: Callable[[Any], tuple[Any, Viewer]], steps: int
) -> None:
    async with aiohttp.ClientSession() as session:
        created = await (
            await session.post(f"{server_url}/api/tables", json={"system": system, "name": "s"})
        ).json()
        url = f"{server_url}/api/tables/{created['id']}"
        gm = {"Authorization": f"Bearer {created['gm_token']}"}
        for n in range(size):
            await session.post(f"{url}/commands", json=join(system, n, size), headers=gm)
        minted = await session.post(f"{url}/tokens", json={"participants": [PLAYER]}, headers=gm)
        player_token = (await minted.json())["token"]
        mirror = Mirror(system)
        mirror.follow((await (await session.get(f"{url}/events", headers=gm)).json())["events"])
        heard: dict[str, list[dict[str, Any]]] = {"overlay": [], "player-ws": [], "player-sse": []}
        listeners = [
            asyncio.create_task(
                listen(session, url, created["overlay_token"], heard["overlay"], sse=False)
            ),
            asyncio.create_task(listen(session, url, player_token, heard["player-ws"], sse=False)),
            asyncio.create_task(listen(session, url, player_token, heard["player-sse"], sse=True)),
        ]
        await until(lambda: all(heard.values()))  # each has its first view
        answers: list[tuple[int, Any]] = []
        replays: list[tuple[int, str, Any]] = []
        for _ in range(steps):
            command, actor = choose(mirror.table)
            if not actor.is_gm and not actor.participants <= {PLAYER}:
                continue
            token = created["gm_token"] if actor.is_gm else player_token
            sent = await session.post(
                f"{url}/commands",
                json=command.model_dump(mode="json"),
                headers={"Authorization": f"Bearer {token}"},
            )
            body = await sent.json()
            after = mirror.table.version
            log = await (await session.get(f"{url}/events?after={after}", headers=gm)).json()
            mirror.follow(log["events"])
            if not actor.is_gm:
                answers.append((mirror.table.version, body))
            seen = await (
                await session.get(url, headers={"Authorization": f"Bearer {player_token}"})
            ).json()
            answers.append((mirror.table.version, seen))
        last = mirror.table.version
        stories = [
            (token, await story(session, url, token))
            for token in (player_token, created["overlay_token"])
        ]
        for seq in range(0, last + 1, 3):  # the table as each role saw it then, replayed
            for token in (player_token, created["overlay_token"]):
                replayed = await session.get(
                    f"{url}/replay?seq={seq}", headers={"Authorization": f"Bearer {token}"}
                )
                then = await replayed.json()
                assert then["seq"] == seq
                replays.append((seq, token, then))
        await until(lambda: all(m and m[-1]["seq"] >= last for m in heard.values()))
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    own = frozenset({PLAYER})
    for seq, body in answers:
        mirror.check(seq, body, own)
    for token, told in stories:
        for entry in told:  # each as it was shown at its own step: a card public then may be
            # secret by the end (a later page deals it again, face down to the Editor)
            mirror.check(entry["seq"], entry, own if token == player_token else frozenset())
    for seq, token, then in replays:
        mirror.check(seq, then, own if token == player_token else frozenset())
    for name, messages in heard.items():
        for message in messages:
            mirror.check(message["seq"], message, own if name != "overlay" else frozenset())


async def story(session: aiohttp.ClientSession, url: str, token: str) -> list[Any]:
    """What the token reads of the table's story, entry by entry with the step it tells: its
    timeline's steps (with the cards their sentences name) and turns, and its export's events.
    Its recap is told in its steps' words (cards written K♥, the red joker): a card the recap
    says is one a step says."""
    headers = {"Authorization": f"Bearer {token}"}
    timeline = await (await session.get(f"{url}/timeline", headers=headers)).json()
    export = await (await session.get(f"{url}/export", headers=headers)).json()
    recap = await (await session.get(f"{url}/recap", headers=headers)).text()
    steps = " ".join(step["said"] for step in timeline["steps"])
    told = {card.code for card in FULL_DECK if said(card.code, recap)}
    assert told <= {card.code for card in FULL_DECK if said(card.code, steps)}, recap
    # A step's words are checked as codes: "A♣" in its sentence is the card "AC".
    worded = [
        {**step, "cards": [card.code for card in FULL_DECK if said(card.code, step["said"])]}
        for step in timeline["steps"]
    ]
    return [*worded, *timeline["turns"], *export["events"]]


def said(code: str, text: str) -> bool:
    """Whether ``text`` says the card as the story does (K♥, the red joker)."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(card_words(code))}", text) is not None


async def until(condition: Callable[[], bool]) -> None:
    await eventually(condition, "a listener fell silent")


def join(system: str, n: int, size: int) -> dict[str, Any]:
    """Participant p0 is the player's; four-color: heroes first, the rest villains and mobs."""
    if system == "four-color":
        kind = Kind.HERO if n < max(2, size // 2) else (Kind.VILLAIN, Kind.MOB)[n % 2]
        member = Member(id=f"p{n}", name=f"P{n}", kind=kind)
        return {"type": "join", "member": member.model_dump(mode="json")}
    sheet = Sheet(id=f"p{n}", name=f"P{n}", perception=n % 7, stealth=3, coordination=5)
    return {"type": "join", "sheet": sheet.model_dump(mode="json")}


@settings(max_examples=8, deadline=None)
@given(system=st.sampled_from(["four-color", "awareness"]), size=st.integers(3, 6), data=st.data())
def test_no_role_ever_receives_what_it_may_not_see(
    server: ServerProcess, system: str, size: int, data: st.DataObject
) -> None:
    moves = four_color_moves if system == "four-color" else awareness_moves

    def choose(table: Table[Any, Any, Any, Any]) -> tuple[Any, Viewer]:
        """One draw per step, whatever the table: the server shuffles and rolls with its own
        entropy, so the table a step meets differs from one run of an example to the next, and
        draws that depended on it would differ too (hypothesis would call the test flaky)."""
        pick = random.Random(data.draw(st.integers(0, 2**64 - 1), label="step"))
        state = table if system == "four-color" else table.state
        options = moves(state, pick)  # type: ignore[arg-type]
        return options[pick.randrange(len(options))]

    asyncio.run(play(server.url, system, size, choose, steps=30))


def test_the_mirror_checks_can_fail() -> None:
    """The check itself: an Editor's secret card in a message is caught."""
    mirror = Mirror("four-color")
    mirror.secret_at[5] = {"QH"}
    with pytest.raises(AssertionError):
        mirror.check(5, {"view": {"order": [{"card": "QH"}]}}, frozenset())
    awareness = Mirror("awareness")
    with pytest.raises(AssertionError):
        awareness.check(1, {"character": "p1", "qr": 3}, frozenset({PLAYER}))
    awareness.check(1, {"character": PLAYER, "qr": 3}, frozenset({PLAYER}))


def test_a_card_the_story_says_is_caught() -> None:
    """The story's check itself: a secret card said in a recap's words is caught."""
    mirror = Mirror("four-color")
    mirror.secret_at[5] = {"10H", "RJ"}
    text = "- 20:01:02 The Editor is dealt the red joker"
    caught = [card.code for card in FULL_DECK if said(card.code, text)]
    with pytest.raises(AssertionError):
        mirror.check(5, caught, frozenset())
    assert not said("10H", "0♥ 110♥") and said("10H", "(10♥)")

"""A table's Discord channel (server/live/discord.py) against a stand-in of Discord's webhooks
(``discord_stand_in.py``, written from Discord's documentation): the GM's webhook checked, turns
and rounds posted from the public view with opted-in players mentioned, a hidden sniper never
named until it is revealed, Discord's rate limits honoured, and Discord away survived without
holding up a command."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from server.http.context import SEIZE
from server.live import discord as posting
from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.server.databases import query
from tests.server.private_postgres import private_postgres
from tests.waiting import eventually, eventually_async

from .discord_stand_in import HOOK_ID, HOOK_TOKEN, Discord
from .push_service import LOOPBACK

JENA_ID = "111111111111111111"
GUARD_ID = "222222222222222222"
Seize = Callable[..., Awaitable[tuple[Client, Discord, str]]]


@pytest.fixture
def seize(aiohttp_server: Any, make_client: MakeClient) -> Seize:
    """A server whose Discord is the stand-in, the stand-in, and its webhook's URL."""

    async def made(**limits: Any) -> tuple[Client, Discord, str]:
        stand_in = Discord(**limits)
        discord = await aiohttp_server(stand_in.app())
        api = str(discord.make_url("/api"))
        # The stand-in is on loopback, which no webhook may reach unless allowed.
        client = await make_client(discord_api=api, outbound_allowed=[LOOPBACK])
        return client, stand_in, f"{api}/webhooks/{HOOK_ID}/{HOOK_TOKEN}"

    return made


async def put(client: Client, path: str, body: Any, token: str) -> tuple[int, dict[str, Any]]:
    answer = await client.put(path, json=body, headers=bearer(token))
    return answer.status, await answer.json()


async def player_token(client: Client, table: dict[str, Any], who: str) -> str:
    answer = await client.post(
        f"/api/tables/{table['id']}/handoff/players/{who}", headers=bearer(table["gm_token"])
    )
    url = (await answer.json())["url"]
    return str(url.split("token=")[1])


def character(cid: str, side: str) -> dict[str, Any]:
    return {"type": "join", "character": {"id": cid, "name": cid.title(), "side": side,
                                          "dex": 0, "movement": 0}}  # fmt: skip


async def test_the_webhook_is_the_gms_and_a_wrong_one_is_refused_clearly(seize: Seize) -> None:
    client, _, webhook = await seize()
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, character("jena", "crew"))
    path = f"/api/tables/{table['id']}/discord"
    jena = await player_token(client, table, "jena")
    status, refused = await put(
        client, path, {"webhook": "https://example.com/hook"}, table["gm_token"]
    )
    assert (status, refused["field"]) == (422, "webhook")
    assert "Copy Webhook URL" in refused["message"]
    status, refused = await put(client, path, {"webhook": webhook}, jena)
    assert (status, refused["rule"]) == (403, "roles")
    answer = await client.get(path, headers=bearer(table["gm_token"]))
    assert (await answer.json())["webhook"] is None, "a refused change keeps nothing"
    status, kept = await put(client, path, {"webhook": webhook}, table["gm_token"])
    assert (status, kept["webhook"]) == (200, webhook)
    link = f"{path}/players/jena"
    status, refused = await put(client, link, {"discord_id": "jena#1234"}, jena)
    assert (status, refused["field"]) == (422, "discord_id")
    status, refused = await put(client, f"{path}/players/guard", {"discord_id": GUARD_ID}, jena)
    assert (status, refused["rule"]) == (403, "roles"), "another's, at the table or not"
    status, mine = await put(client, link, {"discord_id": JENA_ID, "mention": True}, jena)
    assert status == 200 and mine == {
        "webhook": None,
        "players": {"jena": {"discord_id": JENA_ID, "mention": True}},
        "posting": True,
    }


async def test_turns_and_rounds_are_posted_and_the_hidden_sniper_never_named(
    seize: Seize,
) -> None:
    """Jena opted in to mentions, the Guard did not. The sniper, hidden, rolls highest: the
    channel follows the round without it until the token reaches it and reveals it."""
    client, discord, webhook = await seize()
    table = await new_table(client, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp"), ("sniper", "corp")):
        await send(client, table, character(cid, side))
    await send(client, table, {"type": "hide", "participant": "sniper"})
    path = f"/api/tables/{table['id']}/discord"
    await put(client, path, {"webhook": webhook}, table["gm_token"])
    for who, discord_id, mention in (("jena", JENA_ID, True), ("guard", GUARD_ID, False)):
        token = await player_token(client, table, who)
        await put(client, f"{path}/players/{who}", {"discord_id": discord_id,
                                                    "mention": mention}, token)  # fmt: skip
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("jena", [1, 1]), ("guard", [3, 3]), ("sniper", [6, 6])):
        await send(client, table, {"type": "enter_roll", "character": cid, "dice": dice,
                                   "source": "gm"})  # fmt: skip
    declare = {"type": "declare", "action": "long", "what": "fires", "target": "them"}
    await send(client, table, {**declare, "character": "jena"})
    await send(client, table, {"type": "resolve"})
    await eventually(lambda: len(discord.posted) == 3, lambda: f"posted {discord.posted}")
    rolled, first, second = discord.posted
    assert rolled.content == "**Round 1**"
    assert first.content == f"Jena's turn <@{JENA_ID}>"
    assert first.allowed_mentions == {"parse": [], "users": [JENA_ID]}
    assert second.content == "Guard's turn" and second.allowed_mentions == {
        "parse": [],
        "users": [],
    }
    await send(client, table, {**declare, "character": "guard"})
    await send(client, table, {"type": "resolve"})  # the token reaches the sniper
    await eventually(lambda: len(discord.posted) == 4, lambda: f"posted {discord.posted}")
    assert all("niper" not in p.content for p in discord.posted[:3])
    assert discord.posted[3].content == "Sniper's turn", "revealed, it is posted as anyone"


async def test_discords_rate_limits_are_read_from_its_headers(seize: Seize) -> None:
    """Six Panels in a row against a bucket of two: every post arrives, in order, and the
    poster waited for the bucket rather than run into a 429."""
    client, discord, webhook = await seize(limit=2, per=0.2)
    table = await new_table(client, "four-color")
    heroes = [f"h{n}" for n in range(1, 7)]
    for hero in heroes:
        await send(client, table, {"type": "join", "member": {"id": hero, "name": hero.upper(),
                                                              "kind": "hero"}})  # fmt: skip
    await put(client, f"/api/tables/{table['id']}/discord", {"webhook": webhook}, table["gm_token"])
    await send(client, table, {"type": "deal", "source": "gm"})
    for card in ("AS", "KS", "QS", "JS", "10S", "9S", "2H", "3H", "4H"):
        await send(client, table, {"type": "deal_card", "card": card})
    for _ in range(6):
        await send(client, table, {"type": "next_panel"})
    expected = ["**Page 1**", *(f"H{n}'s Panel" for n in range(1, 7))]
    await eventually(lambda: len(discord.posted) == 7, lambda: f"posted {discord.posted}")
    assert [p.content for p in discord.posted] == expected
    assert discord.refused == 0


async def test_a_429_is_waited_out_and_the_post_sent_once(seize: Seize) -> None:
    client, discord, webhook = await seize()
    discord.throttle = 2
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, character("jena", "crew"))
    await put(client, f"/api/tables/{table['id']}/discord", {"webhook": webhook}, table["gm_token"])
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [2, 2],
                               "source": "gm"})  # fmt: skip
    await eventually(lambda: len(discord.posted) == 2, "nothing was posted")
    assert discord.refused == 2
    assert [p.content for p in discord.posted] == ["**Round 1**", "Jena's turn"]


async def test_discord_away_holds_no_command_and_the_gm_is_told(
    seize: Seize, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While Discord answers nothing but 502, every command is answered as ever; past the
    queue's bound the oldest views are let go and the GM's settings say so. Back, the channel
    is told the table as it now stands."""
    monkeypatch.setattr(posting, "BACKOFF", (0.02,))  # a test's Discord comes back at once
    client, discord, webhook = await seize()
    discord.away = True
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, character("jena", "crew"))
    await put(client, f"/api/tables/{table['id']}/discord", {"webhook": webhook}, table["gm_token"])
    declare = {"type": "declare", "action": "long", "what": "runs", "target": "door"}
    roll = {"type": "enter_roll", "character": "jena", "dice": [1, 1], "source": "gm"}
    for _ in range(posting.QUEUE // 2 + 4):  # a round is four views, two of them changes
        for command in ({"type": "roll_initiative", "source": "gm"}, roll,
                        {**declare, "character": "jena"}, {"type": "resolve"}):  # fmt: skip
            assert (await send(client, table, command))[0] == 200
    path = f"/api/tables/{table['id']}/discord"

    async def told() -> dict[str, Any]:
        answer = await client.get(path, headers=bearer(table["gm_token"]))
        kept: dict[str, Any] = await answer.json()
        return kept if kept["dropped"] else {}

    notice = (await eventually_async(told, "the GM was never told posts were let go"))["notice"]
    assert "not answering" in notice and discord.tries > 0 and not discord.posted
    discord.away = False
    await eventually(lambda: discord.posted, "nothing was posted once Discord was back")
    last_round = (await (await client.get(f"/api/tables/{table['id']}",
                  headers=bearer(table["gm_token"]))).json())["view"]["round"]  # fmt: skip
    await eventually(
        lambda: (
            [p.content for p in discord.posted[-2:]] == [f"**Round {last_round}**", "Jena's turn"]
        ),
        lambda: f"the last posts are not the round now: {discord.posted[-2:]}",
    )


async def test_a_database_outage_holds_the_posts_and_lets_none_go(
    aiohttp_client: Any,
    aiohttp_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database stops while a turn waits to be posted: the post is held (one line in the
    log, no traceback, the GM told), and posted once the database is back."""
    monkeypatch.setattr(posting, "BACKOFF", (0.02,))  # a test's outage ends at once
    caplog.set_level(logging.INFO, logger="seize")
    stand_in = Discord()
    discord = await aiohttp_server(stand_in.app())
    api = str(discord.make_url("/api"))
    with private_postgres() as postgres:
        await query(postgres.url(), "create database seize")
        settings = Settings(db=postgres.url("seize"), port=0, discord_api=api,
                            outbound_allowed=[LOOPBACK])  # fmt: skip
        client = await aiohttp_client(make_app(settings))
        table = await new_table(client, "megatraveller-rcs")
        for cid, side in (("jena", "crew"), ("guard", "corp")):
            await send(client, table, character(cid, side))
        path = f"/api/tables/{table['id']}/discord"
        await put(client, path, {"webhook": f"{api}/webhooks/{HOOK_ID}/{HOOK_TOKEN}"},
                  table["gm_token"])  # fmt: skip
        await send(client, table, {"type": "roll_initiative", "source": "gm"})
        await eventually(lambda: len(stand_in.posted) == 1, "the round was not posted")
        stand_in.away = True  # Jena's turn is tried, and the Guard's waits behind it
        for cid, dice in (("jena", [1, 1]), ("guard", [3, 3])):
            await send(client, table, {"type": "enter_roll", "character": cid, "dice": dice,
                                       "source": "gm"})  # fmt: skip
        await send(client, table, {"type": "declare", "action": "long", "what": "runs",
                                   "target": "door", "character": "jena"})  # fmt: skip
        await send(client, table, {"type": "resolve"})
        channel = client.app[SEIZE].channels.channels[table["id"]]
        await eventually(
            lambda: channel.queue.qsize() >= 1,
            lambda: (
                f"queued {channel.queue.qsize()} tries {stand_in.tries} posted {stand_in.posted}"
            ),
        )
        await asyncio.to_thread(postgres.stop, "fast")
        channel.read_at = -posting.FRESH  # its settings are due to be read again
        stand_in.away = False
        await eventually(lambda: _logged(caplog, "discord posts held"), "no post was held")
        assert channel.notice == "The database cannot be read: posts are held"
        await asyncio.to_thread(postgres.start)
        await eventually(
            lambda: [p.content for p in stand_in.posted[-2:]] == ["Jena's turn", "Guard's turn"],
            lambda: f"posted {stand_in.posted}",
        )
        await client.close()
    assert [r.getMessage() for r in caplog.records if "held" in r.getMessage()] == [
        "discord posts held: the database cannot be read"
    ]
    assert not any(r.exc_info for r in caplog.records if r.module == "discord"), "a traceback"


def _logged(caplog: pytest.LogCaptureFixture, words: str) -> bool:
    return any(words in r.getMessage() for r in caplog.records)


async def test_a_name_ending_in_s_is_posted_as_the_pages_write_it(seize: Seize) -> None:
    """The Goons' turn, not the Goons's: Discord writes whose turn it is as the clock and the
    story do (``rules.telling.possessive``)."""
    client, discord, webhook = await seize()
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, {"type": "join", "character": {"id": "goons", "name": "Goons",
           "side": "corp", "dex": 0, "movement": 0}})  # fmt: skip
    await put(client, f"/api/tables/{table['id']}/discord", {"webhook": webhook}, table["gm_token"])
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    await send(client, table, {"type": "enter_roll", "character": "goons", "dice": [2, 2],
                               "source": "gm"})  # fmt: skip
    await eventually(lambda: len(discord.posted) == 2, lambda: f"posted {discord.posted}")
    assert discord.posted[1].content == "Goons' turn"

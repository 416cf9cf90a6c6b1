"""A table's Discord channel: turn and round changes posted to the webhook the GM set.

What is posted is read off the table's public view (the overlay's): a hidden participant is not
in it, so it is never posted, and whose turn it is reads as it does on the stream. A player who
linked their Discord id and asked to be mentioned is pinged (``<@id>``) when the turn reaches
one of their characters, and no one else is: each post allows only those mentions.

A command never waits for Discord. Each table with a webhook has one task of its own, fed a
bounded queue of views as commands commit on this server (every server posts only what it
committed itself, so a post is made once however many servers share the table). The task posts
the changes one at a time, as Discord's rate limits allow: it reads the bucket's headers
(``X-RateLimit-Remaining`` and ``X-RateLimit-Reset-After``) and waits for the bucket to refill
before it is empty, and a ``429`` is waited out for its ``retry_after`` (the body's, or the
``Retry-After`` header's) and the post sent again. While Discord cannot be reached the task
tries again with growing pauses; the views that come in meanwhile wait in the queue, and past
its bound the oldest are let go, since only the table as it now stands is worth posting. The GM
is told (``notice``, on the table's Discord settings) when posts were let go or Discord refused
the webhook, and the notice goes once a post goes through again.

Discord's documentation: "Execute Webhook"
(https://discord.com/developers/docs/resources/webhook#execute-webhook) and "Rate Limits"
(https://discord.com/developers/docs/topics/rate-limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp

from rules.roles import OVERLAY, Viewer
from rules.telling import possessive
from server.errors import StoreUnavailableError
from server.live.outbound import Outbound, RefusedError
from server.store import Store
from server.tables.audience import Audience, Shown
from server.tables.systems import SYSTEMS

log = logging.getLogger("seize")

SETTING = "discord"
"""The table setting (the store's ``table_settings``) the webhook and the players' links are
kept under, as JSON: ``{"webhook": url | null, "players": {participant: {"discord_id",
"mention"}}}``."""
QUEUE = 32
"""Views a table's task holds while Discord is slow or away: past it, the oldest go."""
BACKOFF = (1.0, 2.0, 5.0, 15.0, 30.0)
"""Pauses between tries while Discord cannot be reached (or answers 5xx): the last repeats."""
FRESH = 2.0
"""Seconds a table's settings are trusted before they are read from the store again: a GM's
change on another server reaches this one's posts within it."""
SNOWFLAKE = re.compile(r"[0-9]{17,20}")
"""A Discord user id, as Discord's "Copy User ID" gives it."""
TOKEN = r"[A-Za-z0-9_-]{20,100}"
TIMEOUT = 10.0
"""Seconds a post may take before Discord counts as away for it."""


class SettingError(ValueError):
    """A Discord setting refused, ``field`` naming the part at fault; nothing is kept."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def webhook_pattern(api: str, token: str = TOKEN) -> re.Pattern[str]:
    """A channel webhook's URL under ``api``: Discord's own hosts (discord.com, its canary and
    ptb, and the older discordapp.com) when ``api`` is Discord's, with or without an API
    version; its last part ``token``."""
    if api.rstrip("/") == "https://discord.com/api":
        hosts = r"https://(?:(?:canary\.|ptb\.)?discord\.com|discordapp\.com)/api"
    else:
        hosts = re.escape(api.rstrip("/"))
    return re.compile(rf"{hosts}(?:/v[0-9]{{1,2}})?/webhooks/[0-9]{{17,20}}/{token}")


def checked_webhook(url: object, api: str) -> str | None:
    """The webhook URL as the GM gave it, or None to stop posting; refused with what a
    webhook's URL looks like."""
    if url is None:
        return None
    if not isinstance(url, str) or not webhook_pattern(api).fullmatch(url.strip()):
        example = f"{api.rstrip('/')}/webhooks/123456789012345678/AbCd…"
        if isinstance(url, str) and webhook_pattern(api, ".*").fullmatch(url.strip()):
            raise SettingError(
                "webhook",
                "this is a Discord webhook's URL, but its token (the part after the last /) is "
                "cut short or holds a character no token has: copy the whole URL again with "
                "the channel's Integrations → Webhooks → Copy Webhook URL",
            )
        raise SettingError(
            "webhook",
            "a Discord channel webhook's URL, as the channel's Integrations → Webhooks → "
            f"Copy Webhook URL gives it: {example}",
        )
    return url.strip()


def checked_player(body: object) -> dict[str, Any]:
    """A player's Discord link: their user id (or null to unlink) and whether to mention
    them."""
    if not isinstance(body, dict) or set(body) - {"discord_id", "mention"}:
        raise SettingError("body", "an object of discord_id and mention")
    discord_id = body.get("discord_id")
    if discord_id is not None and not (
        isinstance(discord_id, str) and SNOWFLAKE.fullmatch(discord_id)
    ):
        raise SettingError(
            "discord_id",
            "a Discord user id: 17 to 20 digits (Discord's Settings → Advanced → Developer "
            "Mode, then the user's menu → Copy User ID), or null to unlink",
        )
    mention = body.get("mention", discord_id is not None)
    if not isinstance(mention, bool):
        raise SettingError("mention", "true or false")
    return {"discord_id": discord_id, "mention": mention and discord_id is not None}


@dataclass
class Said:
    """What the channel was last told of a table: its round and whose turn it was."""

    round: int | None = None
    turn: tuple[str, ...] = ()


def post_of(system: str, view: dict[str, Any], said: Said) -> tuple[str, list[str]] | None:
    """The post a public view calls for after ``said`` (its text and the characters whose
    turn it announces), or None when neither the round nor the turn changed."""
    spotted = SYSTEMS[system].spotted(SYSTEMS[system].view_model.model_validate(view))
    turn = tuple(who for kind, who in spotted if kind == "turn" and who is not None)
    page = system == "four-color"
    number = view.get("page" if page else "round")
    lines = []
    if number and number != said.round:
        lines.append(f"**{'Page' if page else 'Round'} {number}**")
    if turn and turn != said.turn:
        names = {p["id"]: p["name"] for p in view.get("members", view.get("characters", []))}
        step = "Panel" if page else "declaration" if system == "awareness" else "turn"
        lines += [f"{possessive(names.get(who, who))} {step}" for who in turn]
    said.round, said.turn = number or said.round, turn
    return ("\n".join(lines), list(turn)) if lines else None


@dataclass
class Channel:
    """One table's posting: its queue, its task, what it last said, and the GM's notice."""

    table_id: str
    system: str
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    said: Said = field(default_factory=Said)
    notice: str | None = None
    dropped: int = 0
    posted: int = 0
    task: asyncio.Task[None] | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    read_at: float = -FRESH


class Channels:
    """Every table's Discord posting on this server."""

    def __init__(self, store: Store, api: str, outbound: Outbound) -> None:
        self.store, self.api, self.outbound = store, api, outbound
        self.channels: dict[str, Channel] = {}
        self.quiet: dict[str, float] = {}
        """Tables found with no webhook, and when: asked again after ``FRESH`` (a GM may set
        one through another server)."""

    def told(self, table_id: str, shown: Mapping[Viewer, Shown]) -> None:
        """A command committed here: its public view joins the table's queue (the oldest
        let go if it is full). Never blocks, never raises."""
        public = shown.get(OVERLAY)
        quiet = time.monotonic() - self.quiet.get(table_id, -FRESH) < FRESH
        if quiet or public is None or public.view is None:
            return
        view = json.loads(public.view)
        channel = self.channels.get(table_id)
        if channel is None:
            channel = self.channels[table_id] = Channel(table_id, view["system"])
        if channel.queue.full():
            channel.queue.get_nowait()
            channel.dropped += 1
            channel.notice = f"Discord is not answering: {channel.dropped} posts were let go"
        channel.queue.put_nowait(view)
        if channel.task is None or channel.task.done():
            channel.task = asyncio.get_running_loop().create_task(self._run(channel))

    async def settings(self, table_id: str) -> dict[str, Any]:
        kept = await self.store.setting(table_id, SETTING)
        return {"webhook": None, "players": {}, **(json.loads(kept) if kept else {})}

    def changed(self, table_id: str) -> None:
        """The table's settings changed here: read them again before the next post."""
        self.quiet.pop(table_id, None)
        if (channel := self.channels.get(table_id)) is not None:
            channel.read_at = -FRESH
            channel.notice = None

    def status(self, table_id: str) -> dict[str, Any]:
        channel = self.channels.get(table_id)
        if channel is None:
            return {"queued": 0, "posted": 0, "dropped": 0, "notice": None}
        return {
            "queued": channel.queue.qsize(),
            "posted": channel.posted,
            "dropped": channel.dropped,
            "notice": channel.notice,
        }

    async def _run(self, channel: Channel) -> None:
        try:
            held = 0
            while not channel.queue.empty():
                if time.monotonic() - channel.read_at > FRESH:
                    try:
                        channel.settings = await self.settings(channel.table_id)
                    except StoreUnavailableError:
                        held = await self._held(channel, held)
                        continue
                    if held:
                        where = {"table": channel.table_id}
                        log.info("discord posts go on: the database is back", extra=where)
                    held = 0
                    channel.read_at = time.monotonic()
                webhook = channel.settings["webhook"]
                if webhook is None:
                    self.quiet[channel.table_id] = time.monotonic()
                    self.channels.pop(channel.table_id, None)
                    return
                post = post_of(channel.system, channel.queue.get_nowait(), channel.said)
                if post is not None:
                    await self._post(channel, webhook, *post)
        except Exception:  # a post must never take the server's loop down with it
            log.exception("discord posting stopped", extra={"table": channel.table_id})

    async def _held(self, channel: Channel, held: int) -> int:
        """The table's settings cannot be read (the database is away): the views stay queued,
        the GM is told, one line is logged, and the next try waits a growing pause."""
        if not held:
            where = {"table": channel.table_id}
            log.warning("discord posts held: the database cannot be read", extra=where)
        channel.notice = channel.notice or "The database cannot be read: posts are held"
        await asyncio.sleep(BACKOFF[min(held, len(BACKOFF) - 1)])
        return held + 1

    async def _post(self, channel: Channel, webhook: str, text: str, turn: list[str]) -> None:
        players = channel.settings["players"]
        ids = [
            players[who]["discord_id"]
            for who in turn
            if who in players and players[who].get("mention") and players[who].get("discord_id")
        ]
        body = {
            "content": " ".join([text, *(f"<@{i}>" for i in ids)])[:2000],
            "allowed_mentions": {"parse": [], "users": ids},
        }
        tries = 0
        while True:
            pause = await self._send(channel, webhook, body)
            if pause is None:
                return
            if pause < 0:  # not Discord's limits: it is away, or failing
                pause = BACKOFF[min(tries, len(BACKOFF) - 1)]
                tries += 1
            await asyncio.sleep(pause)

    async def _send(self, channel: Channel, webhook: str, body: dict[str, Any]) -> float | None:
        """One try: None once done (posted, or refused for good), else how long to wait
        before the next (negative: back off)."""
        try:
            answer = await self.outbound.post(
                webhook, json.dumps(body).encode(), {"Content-Type": "application/json"}
            )
        except RefusedError as refused:
            channel.notice = f"Seize may not post to that webhook ({refused.reason}): set it again"
            where = {"table": channel.table_id, "why": refused.reason}
            log.warning("a discord post was refused", extra=where)
            return None
        except (aiohttp.ClientError, TimeoutError):
            channel.notice = channel.notice or "Discord cannot be reached: posts are held"
            return -1.0
        if answer.status == 429:
            try:
                told = json.loads(answer.body)
            except ValueError:
                told = None
            after = told.get("retry_after") if isinstance(told, dict) else None
            return float(after or answer.headers.get("Retry-After") or 1.0)
        if answer.status >= 500:
            return -1.0
        if answer.status >= 300:  # a redirect is not followed: the webhook is not Discord's
            channel.notice = f"Discord refused the webhook ({answer.status}): set it again"
            log.warning("discord refused a post", extra={"table": channel.table_id})
            return None
        channel.posted += 1
        channel.notice = None
        if answer.headers.get("X-RateLimit-Remaining") == "0":
            await asyncio.sleep(float(answer.headers.get("X-RateLimit-Reset-After", 1.0)))
        return None

    async def close(self) -> None:
        for channel in self.channels.values():
            if channel.task is not None:
                channel.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await channel.task


class Herald(Protocol):
    """Something told of each command committed here, beyond the subscribers."""

    def told(self, table_id: str, shown: Mapping[Viewer, Shown]) -> None: ...


class Announcing:
    """The audience commands are published to: the hub's subscribers, then the heralds (the
    tables' Discord channels, their players' pushes), none of which may block. The heralds are
    told in the delivery, once the subscribers (the sender's answer with them) are written to:
    reading each player's view for new alerts is no part of a command's answer."""

    def __init__(self, hub: Audience, *heralds: Herald) -> None:
        self.hub, self.heralds = hub, heralds

    def publish(self, table_id: str, shown: Mapping[Viewer, Shown]) -> Callable[[], None]:
        delivery = self.hub.publish(table_id, shown)

        def announced() -> None:
            delivery()
            for herald in self.heralds:
                herald.told(table_id, shown)

        return announced

    def drop(self, table_id: str, reason: str) -> None:
        self.hub.drop(table_id, reason)

    def followed(self, table_id: str) -> bool:
        return self.hub.followed(table_id)

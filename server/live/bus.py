"""How servers sharing one database learn of each other's commands, to show them live.

The store is the truth and the bus only makes it quick. After a command commits, its server
publishes the new sequence and its events on the table's channel; every server following that
table folds them into its copy and shows them to its own subscribers. A message can be lost (a
Redis restart, a dropped connection, a server that subscribed a moment after the commit), so a
server that hears of a sequence past the one after its own, or that has just (re)subscribed,
reads what it missed from the store. Whatever the bus does, every subscriber gets every event
once and in order, because a copy only ever takes the events after its own last one.

Three ways to run:

- ``Alone``: one process with a database no other server writes to (the embedded default):
  nothing to learn, nothing to publish.
- ``Polling``: no bus named, but others may write (several workers, or PostgreSQL, which other
  hosts may share): the server asks the store, a few times a second, which of its tables moved.
- ``RedisBus``: Redis pub/sub (``--bus redis://…``), falling back to polling while Redis cannot
  be reached, and catching up from the store by itself once it can again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import redis.asyncio as redis
from redis.exceptions import RedisError

from server.errors import StoreUnavailableError
from server.store import shown

log = logging.getLogger("seize")

POLL = 0.25
"""Seconds between asking the store which tables moved, when nothing quicker tells."""
SAFETY = 5.0
"""Seconds between those questions while Redis is up: a published message that never came (a
publish that failed on one server alone) is found within this, even if the table goes quiet."""
STOPPING = 15.0
"""Seconds a look at the store under way may take to finish when the server stops: longer
than a statement's timeout, so only a hung one is cancelled."""
TICK = 0.05
"""Seconds the Redis listener waits for a message before it takes in tables to (un)follow."""
FIRST_RETRY, LAST_RETRY = 0.1, 2.0
"""Seconds before reconnecting to Redis: doubling from the first to the last while it is away."""
CHANNEL = "seize:table:"
"""Channel name prefix; the table id follows it."""


class Follower(Protocol):
    """What a bus tells (the server's tables: ``Games``)."""

    def heard(self, table_id: str, first: int, events: list[Any]) -> bool:
        """Events ``first``… of a table, as published; False if they do not follow on from the
        copy held here, which then needs ``reconcile``."""

    async def reconcile(self, table_ids: set[str] | None) -> None:
        """Bring these tables (None: every one held) up to what the store holds."""


class Alone:
    """One process, alone with its database."""

    async def start(self, follower: Follower) -> None:
        """Nothing to listen to."""

    def publish(self, table_id: str, first: int, events: Sequence[str]) -> None:
        """No one to tell."""

    def follow(self, table_id: str) -> None:
        """No one else writes to it."""

    def unfollow(self, table_id: str) -> None:
        """Nothing was followed."""

    async def close(self) -> None:
        """Nothing to let go of."""

    @property
    def shown(self) -> str:
        return "in memory"

    @property
    def up(self) -> bool:
        """Whether events reach this server as they should (``seize_bus_up``)."""
        return True

    @property
    def shared(self) -> bool:
        """Whether other servers may write to the tables this one holds."""
        return False


class Polling(Alone):
    """Asks the store which tables moved, every ``POLL`` seconds, and at once for a table a
    listener found behind."""

    def __init__(self) -> None:
        self._suspects: set[str] = set()
        self._everything = True
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def start(self, follower: Follower) -> None:
        self._task = asyncio.create_task(self._poll(follower), name="seize-poll")

    async def close(self) -> None:
        """Stop polling once the look under way is done: a query cancelled half-way can leave
        its connection out of step with the database, holding its locks."""
        if self._task is None:
            return
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), STOPPING)
        except TimeoutError:
            self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    @property
    def every(self) -> float:
        return POLL

    @property
    def shared(self) -> bool:
        return True

    def suspect(self, table_id: str | None) -> None:
        """Have a table (None: every table) checked against the store now."""
        if table_id is None:
            self._everything = True
        else:
            self._suspects.add(table_id)
        self._wake.set()

    async def _poll(self, follower: Follower) -> None:
        away = False  # the database: said once an outage, not a few times a second
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)
            self._wake.clear()
            if self._stopping:
                return
            everything, suspects = self._everything, self._suspects
            self._everything, self._suspects = False, set()
            try:
                await follower.reconcile(None if everything or not suspects else suspects)
            except Exception as failed:
                # The database is away, or a table could not be read: ask again next time.
                if not isinstance(failed, StoreUnavailableError):
                    log.warning("tables not brought up to date", exc_info=True)
                elif not away:
                    log.warning("tables not brought up to date until the database is back")
                away = isinstance(failed, StoreUnavailableError)
                self._everything |= everything
                self._suspects |= suspects
                await asyncio.sleep(self.every)
            else:
                if away:
                    log.info("tables brought up to date: the database is back")
                away = False

    @property
    def shown(self) -> str:
        return f"polling the database every {POLL} s"


class RedisBus(Polling):
    """Redis pub/sub, one channel per table a server holds. One listener task owns the
    subscribing connection (redis-py's pub/sub is not for concurrent use), and takes in tables
    to follow between messages; publishing goes through a queue on a pooled connection, so a
    command never waits on Redis."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.connected = False
        self._client: redis.Redis = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )
        self._wanted: set[str] = set()
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._wait = FIRST_RETRY

    async def start(self, follower: Follower) -> None:
        await super().start(follower)
        self._tasks = [
            asyncio.create_task(self._listen(follower), name="seize-bus-listen"),
            asyncio.create_task(self._send(), name="seize-bus-send"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().close()
        await self._client.aclose()

    @property
    def every(self) -> float:
        return SAFETY if self.connected else POLL

    @property
    def up(self) -> bool:
        return self.connected

    def follow(self, table_id: str) -> None:
        self._wanted.add(table_id)

    def unfollow(self, table_id: str) -> None:
        self._wanted.discard(table_id)

    def publish(self, table_id: str, first: int, events: Sequence[str]) -> None:
        payload = f'{{"first": {first}, "events": [{", ".join(events)}]}}'
        self._outbox.put_nowait((CHANNEL + table_id, payload))

    async def _send(self) -> None:
        """Publish what is queued, many at once in one round trip when commands come fast.

        A connection Redis dropped (a restart) fails once it is next used: the batch is sent
        again on a fresh one, or the others, listening on Redis that is back, would only find
        it at their next look at the store. A batch that fails twice is dropped: Redis is
        away, so the listeners are polling the store, and it would only be old news later.
        That is said once an outage, not once a command."""
        failing = False
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            sent = await self._publish(batch) or await self._publish(batch)
            if not sent and not failing:
                log.warning("events not published to the bus until it is back")
            elif sent and failing:
                log.info("events published to the bus again")
            failing = not sent

    async def _publish(self, batch: list[tuple[str, str]]) -> bool:
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for channel, payload in batch:
                    pipe.publish(channel, payload)
                await pipe.execute()
        except (RedisError, OSError):
            return False
        return True

    async def _listen(self, follower: Follower) -> None:
        """Follow the wanted tables' channels; while Redis is away, poll, and try again."""
        while True:
            # Held untyped, as ``_hear`` takes it: redis-py types its PubSub in part, and which
            # part changes between releases (``aclose`` gained its types in 8.x).
            pubsub: Any = self._client.pubsub()
            try:
                await self._hear(pubsub, follower)
            except (RedisError, OSError) as lost:
                if self.connected or self._wait == FIRST_RETRY:  # once an outage, not each retry
                    log.warning("bus lost: polling the database", extra={"why": str(lost)})
                self.connected = False
                self.suspect(None)
                await asyncio.sleep(self._wait)
                self._wait = min(self._wait * 2, LAST_RETRY)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()

    async def _hear(self, pubsub: Any, follower: Follower) -> None:
        subscribed: set[str] = set()
        await pubsub.subscribe(CHANNEL)  # a channel of its own: a connection to listen on
        self.connected, self._wait = True, FIRST_RETRY
        log.info("bus connected", extra={"bus": shown(self.url)})
        while True:
            wanted = set(self._wanted)
            if wanted - subscribed:
                await pubsub.subscribe(*(CHANNEL + t for t in wanted - subscribed))
            if subscribed - wanted:
                await pubsub.unsubscribe(*(CHANNEL + t for t in subscribed - wanted))
            subscribed = wanted
            message = await pubsub.get_message(timeout=TICK)
            if message is not None:
                self._take(message, follower)

    def _take(self, message: dict[str, Any], follower: Follower) -> None:
        table_id = message["channel"].decode()[len(CHANNEL) :]
        if not table_id:
            return
        if message["type"] == "subscribe":
            # Whatever was committed before this subscription took effect is in the store.
            self.suspect(table_id)
        elif message["type"] == "message":
            published = json.loads(message["data"])
            if not follower.heard(table_id, published["first"], published["events"]):
                self.suspect(table_id)

    @property
    def shown(self) -> str:
        return f"Redis at {shown(self.url)}"


def bus_for(url: str | None, *, shared: bool) -> Alone:
    """The bus a server runs with: Redis when a URL names it, else polling when other servers
    may write to its database (``shared``), else none."""
    if url is not None:
        return RedisBus(url)
    return Polling() if shared else Alone()

"""What the running server holds, in one typed application key."""

from __future__ import annotations

from dataclasses import dataclass, field

from aiohttp import web

from server.http.metrics import Metrics
from server.live import revocation
from server.live.bus import Alone, bus_for
from server.live.discord import Announcing, Channels
from server.live.hub import Hub
from server.live.outbound import Outbound
from server.live.push import Pushes
from server.settings import Settings
from server.store import Store, open_store
from server.tables.access import REVOKED_WITHIN, RateLimit, Tokens
from server.tables.cache import Tables
from server.tables.follower import Follower
from server.tables.runner import Runner


@dataclass
class Seize:
    settings: Settings
    store: Store
    hub: Hub
    tables: Tables
    runner: Runner
    follower: Follower
    tokens: Tokens
    rate: RateLimit
    """Commands, per token."""
    reads: RateLimit
    """Reads and reconnects, per token: generous, so a stream's overlays all come back."""
    creations: RateLimit
    """New tables, per client address, when no admin token guards creation."""
    metrics: Metrics
    bus: Alone
    channels: Channels
    """The tables' Discord channels, posted to as commands commit here."""
    pushes: Pushes
    """The players' Web Push subscriptions, pushed to as commands commit here."""
    outbound: Outbound
    """The one way out to addresses the server was given (pushes, Discord)."""
    sockets: set[web.WebSocketResponse] = field(default_factory=set)

    @property
    def admin_token(self) -> str | None:
        secret = self.settings.admin_token
        return secret.get_secret_value() if secret is not None else None

    async def revoke(self, table_id: str, label: str, keep: bytes = b"") -> None:
        """Revoke the table's tokens with this label but ``keep`` (a hash), and drop whoever
        follows with one."""
        await revocation.revoke(self.store, self.tokens, self.hub, table_id, label, keep)

    async def revoke_one(self, table_id: str, token_hash: bytes) -> bool:
        """Revoke one token of the table, and drop whoever follows with it; False if the table
        had no such token."""
        return await revocation.revoke_one(self.store, self.tokens, self.hub, table_id, token_hash)

    @classmethod
    async def open(cls, settings: Settings) -> Seize:
        store = open_store(settings.db, settings.durability)
        await store.open()
        bus = bus_for(settings.bus, shared=settings.shared)
        hub = Hub()
        metrics = Metrics()
        metrics.subscribers = lambda: hub.subscribers
        metrics.dropped = lambda: hub.dropped_slow
        metrics.bus_up = lambda: bus.up
        tables = Tables(store, hub, bus)
        follower = Follower(store, tables, hub, bus)
        outbound = Outbound(settings.outbound_allowed)
        channels = Channels(store, settings.discord_api, outbound)
        pushes = Pushes(store, settings.push_contact, outbound)
        announcing = Announcing(hub, channels, pushes)
        return cls(
            settings=settings,
            store=store,
            hub=hub,
            tables=tables,
            runner=Runner(store, tables, follower, announcing, bus, settings.snapshot_every),
            follower=follower,
            tokens=Tokens(store, trusted_for=REVOKED_WITHIN if settings.shared else None),
            rate=RateLimit(settings.rate_per_second, settings.rate_burst),
            reads=RateLimit(settings.read_rate_per_second, settings.read_burst),
            creations=RateLimit(settings.create_per_minute / 60, settings.create_burst),
            metrics=metrics,
            bus=bus,
            channels=channels,
            pushes=pushes,
            outbound=outbound,
        )


SEIZE = web.AppKey("seize", Seize)

"""What the bus logs names Redis without its password: logs are read, shipped and kept by
more people than the settings are."""

from __future__ import annotations

import logging

import pytest

from server.live.bus import RedisBus, bus_for
from tests.server.redis_server import RedisServer
from tests.waiting import eventually

PASSWORD = "s3cret-bus"


class Nobody:
    """A follower of no table."""

    def heard(self, table_id: str, first: int, events: list[object]) -> bool:
        return True

    async def reconcile(self, table_ids: set[str] | None) -> None:
        return None


async def test_the_bus_names_redis_without_its_password(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="seize")
    with RedisServer(password=PASSWORD) as redis:
        bus = bus_for(redis.url, shared=True)
        assert isinstance(bus, RedisBus)
        await bus.start(Nobody())
        try:
            await eventually(lambda: bus.up, "the bus never connected")
        finally:
            await bus.close()
    (connected,) = [r for r in caplog.records if r.getMessage() == "bus connected"]
    assert connected.__dict__["bus"] == f"redis://:***@127.0.0.1:{redis.port}"
    assert PASSWORD not in bus.shown
    assert not [r for r in caplog.records if PASSWORD in str(r.__dict__)]

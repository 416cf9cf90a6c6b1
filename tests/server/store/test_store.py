"""What every backend guarantees, tested on each: (table, sequence) is the primary key, so two
writers can never both append event N; an append and its idempotency answer commit together or
not at all; one refused write among many written at once fails alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from server.errors import ConflictError
from server.store import Append, Remembered, Store, TableRow, open_store
from tests.server.conftest import Database

TABLE = TableRow("t1", "four-color", "t", "{}")
KEY = Remembered(b"\x01" * 32, "key-1", '{"seq": 1}', '{"type": "join"}')


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    opened = open_store(database())
    await opened.open()
    await opened.create_table(TABLE, [])
    yield opened
    await opened.close()


def append(seq: int, body: str, idempotency: Remembered | None = None) -> Append:
    return Append(TABLE.id, seq, [("joined", body)], [idempotency] if idempotency else [])


async def test_two_writers_cannot_both_append_the_same_sequence(store: Store) -> None:
    await store.append(append(1, '"first"'))
    with pytest.raises(ConflictError):
        await store.append(append(1, '"second"'))
    assert await store.events(TABLE.id) == [(1, '"first"')]


async def test_an_append_and_its_idempotency_answer_commit_together(store: Store) -> None:
    await store.append(append(1, '"first"', KEY))
    with pytest.raises(ConflictError):
        await store.append(append(2, '"retried"', KEY))  # the answer is taken: no event either
    assert await store.events(TABLE.id) == [(1, '"first"')]
    assert await store.idempotent(TABLE.id, KEY.token_hash, KEY.key) == KEY


async def test_a_refused_write_among_concurrent_ones_fails_alone(store: Store) -> None:
    await store.append(append(1, '"first"'))
    outcomes = await asyncio.gather(
        *(store.append(append(seq, f'"{seq}"')) for seq in (2, 1, 3)), return_exceptions=True
    )
    assert [type(outcome) for outcome in outcomes] == [type(None), ConflictError, type(None)]
    assert [seq for seq, _ in await store.events(TABLE.id)] == [1, 2, 3]


async def test_a_setting_changes_only_from_what_was_read(store: Store) -> None:
    """Two changes of one setting read at once: the second finds the first and changes
    nothing, so its writer reads again rather than undo the first (migration 7)."""
    assert await store.setting(TABLE.id, "discord") is None
    assert await store.swap_setting(TABLE.id, "discord", None, '{"url": "a"}')
    assert not await store.swap_setting(TABLE.id, "discord", None, '{"url": "b"}')
    assert not await store.swap_setting(TABLE.id, "discord", '{"url": "b"}', '{"url": "c"}')
    assert await store.swap_setting(TABLE.id, "discord", '{"url": "a"}', '{"url": "d"}')
    assert await store.setting(TABLE.id, "discord") == '{"url": "d"}'
    assert await store.setting(TABLE.id, "other") is None


async def test_a_log_is_read_a_page_at_a_time_with_when_each_event_was_stored(
    store: Store,
) -> None:
    for seq in range(1, 6):
        await store.append(append(seq, f'"{seq}"'))
    first = await store.stamped(TABLE.id, 0, 2)
    rest = await store.stamped(TABLE.id, first[-1][0], 10)
    assert [(seq, body) for seq, body, _ in first + rest] == await store.events(TABLE.id)
    stamps = [at for _, _, at in first + rest]
    assert stamps == sorted(stamps) and all(isinstance(at, float) for at in stamps)
    assert await store.stamped(TABLE.id, 5, 10) == []

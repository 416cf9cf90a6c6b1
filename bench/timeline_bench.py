"""The time and memory to tell a long table's story (its timeline, as the API answers it), beside
the time to fold the same log into its state. Prints figures; asserts nothing.

A MegaTraveller RCS encounter of eight characters is played round after round (declarations,
resolutions, seizes, an undo now and then, one character hidden and revealed each round) until
its log holds ``--events`` events, and stored in an SQLite file. Then, each ``--repeat`` times:

- fold: the log read from the store at once and folded into the table's state, as a table with
  no snapshot loads;
- story: the log read a page at a time and told as the GM saw it and as the stream saw it
  (``server/tables/story.py``), then encoded as the API's answer;
- peak: the most memory the story took while it was told (tracemalloc, in a run of its own).

.venv/bin/python -m bench.timeline_bench [--events N] [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

from rules.hiding import Hide, Reveal
from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs import commands as rcs
from rules.megatraveller_rcs.encounter import Phase
from rules.roles import GM, OVERLAY, Viewer
from rules.table import Undo
from server.http.story import answer
from server.store import Append, Store, TableRow, open_store
from server.tables.story import chronicle

TABLE = "bench"


def played(events: int) -> RcsTable:
    """An encounter played until its log holds at least ``events`` events."""
    table = MEGATRAVELLER_RCS.table()
    for n in range(8):
        character = rcs.Character(
            id=f"c{n}", name=f"Character {n}", side="ab"[n % 2], dex=n % 7, movement=n % 3
        )
        table.execute(rcs.Join(character=character), GM)
    rounds = 0
    while len(table.log) < events:
        rounds += 1
        table.execute(Hide(participant=f"c{rounds % 8}"), GM)
        table.execute(rcs.RollInitiative(seed=rounds), GM)
        turns = 0
        while table.state.phase is Phase.ROUND:
            holder = table.state.holder
            assert holder is not None
            if table.state.pending is None:  # an undone seize leaves the declaration standing
                declare = rcs.Declare(
                    character=holder, action=rcs.ActionLength.LONG, what="fires", target="them"
                )
                table.execute(declare, GM)
            turns += 1
            seizers = table.state.seizers()
            if seizers and turns % 3 == 0:
                table.execute(rcs.Seize(character=seizers[0]), GM)
                if turns % 6 == 0:
                    table.execute(Undo(), GM)
                continue
            table.execute(rcs.Resolve(outcome="hit"), GM)
        hidden = sorted(table.state.hidden)
        for who in hidden:
            table.execute(Reveal(participant=who), GM)
    return table


async def store_of(table: RcsTable, db: Path) -> Store:
    store = open_store(db)
    await store.open()
    options = table.options.model_dump_json()
    await store.create_table(TableRow(TABLE, table.system.name, "Bench", options), [])
    bodies = [(event.type, table.system.events.dump_json(event).decode()) for event in table.log]
    for first in range(0, len(bodies), 500):
        await store.append(Append(TABLE, first + 1, bodies[first : first + 500]))
    return store


async def fold(store: Store) -> int:
    """The log read at once and folded; its answer is the state's size, as JSON."""
    system = MEGATRAVELLER_RCS
    log = [system.events.validate_json(body) for _, body in await store.events(TABLE)]
    return len(system.table(system.options_model(), log).state.model_dump_json())


async def story(store: Store, viewer: Viewer) -> int:
    """The story told a page at a time; its answer is the timeline's size, as JSON."""
    system = MEGATRAVELLER_RCS
    teller = await chronicle(store, TABLE, system, system.options_model(), viewer)
    return len(json.dumps(answer(TABLE, "Bench", teller)))


Work = Callable[[Store], Awaitable[int]]


def run(db: Path, work: Work) -> int:
    """``work`` on the store of ``db``, opened for it (as a request finds it open)."""

    async def opened() -> int:
        store = open_store(db)
        await store.open()
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(opened())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    table = played(args.events)
    works: list[tuple[str, Work]] = [
        ("fold the log", fold),
        ("story, as the GM", partial(story, viewer=GM)),
        ("story, as the stream", partial(story, viewer=OVERLAY)),
    ]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        asyncio.run(stored(table, db))
        print(f"{len(table.log)} events, {table.state.round} rounds, stored in SQLite")
        for label, work in works:
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                run(db, work)
                times.append(time.perf_counter() - started)
            tracemalloc.start()
            size = run(db, work)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(
                f"  {label:21} median {statistics.median(times) * 1000:7.0f} ms "
                f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}); "
                f"peak memory {peak / 2**20:5.1f} MiB; answer {size / 2**10:.0f} KiB"
            )


async def stored(table: RcsTable, db: Path) -> None:
    store = await store_of(table, db)
    await store.close()


if __name__ == "__main__":
    main()

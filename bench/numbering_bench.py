"""What each role's numbering (rules/numbering.py) costs a command. Prints figures; asserts nothing.

.venv/bin/python -m bench.numbering_bench [--steps N] [--repeat N]

An RCS encounter of Jena and the Guard, ``--steps`` pool settings long, with no one hidden;
then the same with an ambusher of a side of its own lying in wait, one setting in eleven for
its side (a step the stream's table never had). Per command, as a server shows one to four
roles (the GM, the stream, two players): which of its events are such steps (``marked``, once
per command) and each role's numbers (``numbered``), for a public step and a hidden one; and
what a resume or an ``If-Match`` asks of it (``count`` and ``position``, per role). Times are
medians of ``--repeat`` runs of each, in microseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs.commands import Character, Join, SetPool
from rules.roles import GM, OVERLAY, player

ROLES = (GM, OVERLAY, player("jena"), player("guard"))


def encounter(steps: int, ambush: bool) -> RcsTable:
    table: RcsTable = MEGATRAVELLER_RCS.table()
    for cid, side in (("jena", "crew"), ("guard", "corp")):
        character = Character(id=cid, name=cid.title(), side=side, dex=0, movement=0, tactics=1)
        table.execute(Join(character=character), GM)
    if ambush:
        ambusher = Character(id="amb", name="Amb", side="assassins", dex=0, movement=0, tactics=1)
        table.execute(Join(character=ambusher, hidden=True), GM)
    for n in range(steps):
        side = "assassins" if n % 11 == 0 else "crew"
        table.execute(SetPool(side=side, points=n % 5), GM)
    return table


def median_us(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def showing(table: RcsTable, side: str) -> Callable[[], object]:
    """A command's numbering for every role, as ``server.tables.showing`` asks for it."""
    events = table.decide(SetPool(side=side, points=2), GM)
    shown = {role: [table.censor(e, role) for e in events] for role in ROLES}
    numbering, first = table.numbering, table.version + 1

    def work() -> None:
        marked = numbering.marked(first, events)
        for role in ROLES:
            numbering.numbered(role, first, events, shown[role], marked)

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=2200)
    parser.add_argument("--repeat", type=int, default=20000)
    args = parser.parse_args()
    plain = encounter(args.steps, ambush=False)
    plainly = median_us(showing(plain, "crew"), args.repeat)
    print(f"No one hidden: a step, 4 roles: {plainly:.1f} µs")
    table = encounter(args.steps, ambush=True)
    numbering = table.numbering
    for role in ROLES:
        numbering.skips(role)  # each role's skips worked out once, as a live table has them
    skipped = len(numbering.skips(OVERLAY))
    print(f"An ambusher: {table.version} events, {skipped} of them the stream's table never had")
    for what, side in (("a public step", "crew"), ("a hidden step", "assassins")):
        print(f"  {what}, 4 roles: {median_us(showing(table, side), args.repeat):.1f} µs")

    def resume() -> None:
        for role in ROLES:
            numbering.count(role)
            numbering.position(role, args.steps // 2)

    print(f"  count and position, 4 roles: {median_us(resume, args.repeat):.1f} µs")


if __name__ == "__main__":
    main()

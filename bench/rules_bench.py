"""Median time per command (decide + evolve) for the rules engines. Prints figures; asserts nothing.

.venv/bin/python -m bench.rules_bench [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial

from rules.four_color import FOUR_COLOR, FourColorTable
from rules.four_color.commands import AssignCard, Deal, Join, Kind, Member, NextPanel, PlayJoker
from rules.four_color.scene import Phase as PagePhase
from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs.commands import (
    ActionLength,
    Character,
    Declare,
    Resolve,
    RollInitiative,
    Seize,
)
from rules.megatraveller_rcs.commands import Join as RcsJoin
from rules.megatraveller_rcs.encounter import Phase
from rules.roles import GM

Step = Callable[[], object]


def four_color_page(seed: int) -> Iterator[Step]:
    """A deal and a whole page of Panels with 8 heroes and 8 villains (and 4 extra cards)."""
    table: FourColorTable = FOUR_COLOR.table()
    for n in range(8):
        table.execute(Join(member=Member(id=f"h{n}", name=f"Hero {n}", kind=Kind.HERO)), GM)
        table.execute(Join(member=Member(id=f"v{n}", name=f"Villain {n}", kind=Kind.VILLAIN)), GM)
    yield partial(table.execute, Deal(seed=seed), GM)
    for holding in [h for h in table.state.holdings if h.is_secret]:
        yield partial(table.execute, AssignCard(card=holding.card, acting="v0"), GM)
    while table.state.phase is PagePhase.PANELS:
        jokers = table.state.jokers_in_hand()
        if jokers and len(table.state.panels) == 5:
            yield partial(table.execute, PlayJoker(card=jokers[0].card), GM)
        else:
            yield partial(table.execute, NextPanel(), GM)


def rcs_round(seed: int) -> Iterator[Step]:
    """A full round of 20 characters on two sides with five seizes."""
    table: RcsTable = MEGATRAVELLER_RCS.table()
    for n in range(20):
        character = Character(
            id=f"c{n}", name=f"C{n}", side="ab"[n % 2], dex=n % 7, movement=n % 3, tactics=n % 2
        )
        table.execute(RcsJoin(character=character), GM)
    yield partial(table.execute, RollInitiative(seed=seed), GM)
    seizes = 0
    while table.state.phase is Phase.ROUND:
        holder = table.state.holder
        assert holder is not None
        yield partial(
            table.execute,
            Declare(character=holder, action=ActionLength.LONG, what="fires", target="them"),
            GM,
        )
        seizers = table.state.seizers()
        if seizes < 5 and seizers:
            seizes += 1
            yield partial(table.execute, Seize(character=seizers[-1]), GM)
        else:
            yield partial(table.execute, Resolve(), GM)


def measure(scenario: Callable[[int], Iterator[Step]], rounds: int) -> list[float]:
    """Microseconds per command over ``rounds`` runs of a scenario."""
    times = []
    for seed in range(rounds):
        for step in scenario(seed):
            start = time.perf_counter_ns()
            step()
            times.append((time.perf_counter_ns() - start) / 1000)
    return times


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    p99 = ordered[int(len(ordered) * 0.99)]
    print(
        f"{name:<44} median {statistics.median(times):7.1f} µs   "
        f"p99 {p99:7.1f} µs   ({len(times)} commands; target median ≤ 50 µs)"
    )


SCENARIOS: dict[str, Callable[[int], Iterator[Step]]] = {
    "four-color: deal + page, 8 heroes 8 villains": four_color_page,
    "megatraveller-rcs: round of 20, five seizes": rcs_round,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    for name, scenario in SCENARIOS.items():
        measure(scenario, 5)  # warm up imports and caches
        report(name, measure(scenario, args.rounds))


if __name__ == "__main__":
    main()

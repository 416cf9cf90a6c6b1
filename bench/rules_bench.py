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
from rules.four_color.scene import Phase
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
    while table.state.phase is Phase.PANELS:
        jokers = table.state.jokers_in_hand()
        if jokers and len(table.state.panels) == 5:
            yield partial(table.execute, PlayJoker(card=jokers[0].card), GM)
        else:
            yield partial(table.execute, NextPanel(), GM)


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

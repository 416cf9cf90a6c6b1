"""Median time per command (decide + evolve) for the rules engines, and for one table the time
to show each command to every role. Prints figures; asserts nothing.

.venv/bin/python -m bench.rules_bench [--rounds N] [--paced N]

``--paced N``: the same command shown to every role, N commands each with a gap before it, as
commands come at a table (one every 100 ms is ten a second): no gap, 1, 10 and 100 ms asleep,
and 100 ms spent spinning on the clock. A command after a gap finds the processor's caches and
branch predictors trained on other code, and costs more than the same command back to back.
The spinning gap keeps the core awake and in this process: where it costs as much as a sleep,
the cost is any other code having run meanwhile (the spin's own included), not the core idling,
and no setting of the server's keeps it out.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial

from rules.awareness import AWARENESS, AwarenessTable
from rules.awareness import commands as aw
from rules.awareness.situation import Phase as AwarenessPhase
from rules.four_color import FOUR_COLOR, FourColorTable
from rules.four_color import commands as fc
from rules.four_color.scene import Phase as PagePhase
from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs import commands as rcs
from rules.megatraveller_rcs.encounter import Phase as RoundPhase
from rules.roles import GM, OVERLAY, player
from server.tables.showing import Encoded, view_json

Step = Callable[[], object]


def four_color_page(seed: int) -> Iterator[Step]:
    """A deal and a whole page of Panels with 8 heroes and 8 villains (and 4 extra cards)."""
    table: FourColorTable = FOUR_COLOR.table()
    for n in range(8):
        for kind, prefix in ((fc.Kind.HERO, "h"), (fc.Kind.VILLAIN, "v")):
            member = fc.Member(id=f"{prefix}{n}", name=f"{prefix}{n}", kind=kind)
            table.execute(fc.Join(member=member), GM)
    yield partial(table.execute, fc.Deal(seed=seed), GM)
    for holding in [h for h in table.state.holdings if h.is_secret]:
        yield partial(table.execute, fc.AssignCard(card=holding.card, acting="v0"), GM)
    while table.state.phase is PagePhase.PANELS:
        jokers = table.state.jokers_in_hand()
        if jokers and len(table.state.panels) == 5:
            yield partial(table.execute, fc.PlayJoker(card=jokers[0].card), GM)
        else:
            yield partial(table.execute, fc.NextPanel(), GM)


def rcs_round(seed: int) -> Iterator[Step]:
    """A full round of 20 characters on two sides with five seizes."""
    table: RcsTable = MEGATRAVELLER_RCS.table()
    for n in range(20):
        character = rcs.Character(
            id=f"c{n}", name=f"C{n}", side="ab"[n % 2], dex=n % 7, movement=n % 3, tactics=n % 2
        )
        table.execute(rcs.Join(character=character), GM)
    yield partial(table.execute, rcs.RollInitiative(seed=seed), GM)
    seizes = 0
    while table.state.phase is RoundPhase.ROUND:
        holder = table.state.holder
        assert holder is not None
        declare = rcs.Declare(
            character=holder, action=rcs.ActionLength.LONG, what="fires", target="them"
        )
        yield partial(table.execute, declare, GM)
        seizers = table.state.seizers()
        if seizes < 5 and seizers:
            seizes += 1
            yield partial(table.execute, rcs.Seize(character=seizers[-1]), GM)
        else:
            yield partial(table.execute, rcs.Resolve(), GM)


def rcs_shown(seed: int, *, apart: bool = False) -> Iterator[Step]:
    """A round of six characters, each a player's, every command decided and its table shown to
    the GM, the overlay and the six players, as the server shows it before a commit
    (``server/tables/showing.py``). ``apart``: each role's view made from a copy of the state,
    so that none is shared with another role's (as every view was made before they were)."""
    table: RcsTable = MEGATRAVELLER_RCS.table()
    for n in range(6):
        character = rcs.Character(id=f"c{n}", name=f"C{n}", side="ab"[n % 2], dex=n, movement=1)
        table.execute(rcs.Join(character=character), GM)
    roles = [GM, OVERLAY, *(player(f"c{n}") for n in range(6))]

    def shown(command: rcs.Command) -> None:
        table.execute(command, GM)
        state = table.state
        made: Encoded = {}
        for role in roles:
            view_json(table.system.view(state.model_copy() if apart else state, role), made)

    yield partial(shown, rcs.RollInitiative(seed=seed))
    while table.state.phase is RoundPhase.ROUND:
        holder = table.state.holder
        assert holder is not None
        yield partial(shown, rcs.Declare(character=holder, action=rcs.ActionLength.LONG,
                                         what="fires", target="them"))  # fmt: skip
        yield partial(shown, rcs.Resolve())


def awareness_round(seed: int) -> Iterator[Step]:
    """A round of 12 characters: the first four able to wait do, and pre-empt later acts."""
    table: AwarenessTable = AWARENESS.table()
    for n in range(12):
        sheet = aw.Sheet(
            id=f"c{n}",
            name=f"C{n}",
            perception=5 + n % 4,
            stealth=4,
            coordination=6,
            state=list(aw.Awareness)[n % 5],
        )
        table.execute(aw.Join(sheet=sheet), GM)
    yield partial(table.execute, aw.RollInitiative(seed=seed), GM)
    waiters: list[str] = []
    preemptions = 0
    while table.state.phase is AwarenessPhase.DECLARING:
        exchange = table.state.exchange
        if exchange is not None:
            reactors = [w for w in waiters if table.state.may_react(w)]
            if preemptions < 4 and reactors and not exchange.reactions:
                preemptions += 1
                react = aw.React(
                    character=reactors[0],
                    to=exchange.actor,
                    timing="before",
                    what="fires",
                    mode=aw.Mode.ALL_OUT_OFFENSIVE,
                    seed=seed + preemptions,
                )
                yield partial(table.execute, react, GM)
            yield partial(table.execute, aw.Resolve(), GM)
            continue
        declaring = table.state.declaring
        assert declaring is not None
        panics = table.state.options.panics(table.state.initiative[declaring].qr)
        if len(waiters) < 4 and not panics:
            waiters.append(declaring)
            yield partial(table.execute, aw.Wait(character=declaring, trigger="anyone"), GM)
        else:
            act = aw.Act(character=declaring, what="acts", mode=aw.Mode.ALL_OUT_OFFENSIVE)
            yield partial(table.execute, act, GM)


def measure(scenario: Callable[[int], Iterator[Step]], rounds: int) -> list[float]:
    """Microseconds per command over ``rounds`` runs of a scenario."""
    times = []
    for seed in range(rounds):
        for step in scenario(seed):
            start = time.perf_counter_ns()
            step()
            times.append((time.perf_counter_ns() - start) / 1000)
    return times


def report(name: str, blocks: list[list[float]], target: str) -> None:
    """The best block's median and p99, and the spread of the medians across blocks.

    A shared machine stalls some blocks; the best block is what the code costs.
    """
    medians = [statistics.median(block) for block in blocks]
    best = sorted(blocks[medians.index(min(medians))])
    p99 = best[int(len(best) * 0.99)]
    print(
        f"{name:<52} median {min(medians):6.1f} µs (blocks {min(medians):.1f}-"
        f"{max(medians):.1f})   p99 {p99:6.1f} µs   {target}"
    )


RULES = "target median ≤ 50 µs"
SCENARIOS: dict[str, tuple[Callable[[int], Iterator[Step]], str]] = {
    "four-color: deal + page, 8 heroes 8 villains": (four_color_page, RULES),
    "megatraveller-rcs: round of 20, five seizes": (rcs_round, RULES),
    "awareness: round of 12, four pre-emptions": (awareness_round, RULES),
    "megatraveller-rcs: round of 6, shown to 8 roles": (rcs_shown, "(with each role's view)"),
    "  the same, each role's view made apart": (
        partial(rcs_shown, apart=True),
        "(as before roles shared one)",
    ),
}


GAPS = ((0.0, False), (0.001, False), (0.01, False), (0.1, False), (0.1, True))
"""The gaps before each paced command, in seconds, and whether it is spun rather than slept."""


def paced(commands: int, gap: float, spin: bool) -> list[float]:
    """Microseconds per command of ``rcs_shown``, ``commands`` of them, each after ``gap``."""
    times: list[float] = []
    for seed in itertools.count():
        for step in rcs_shown(seed):
            if spin:
                until = time.perf_counter() + gap
                while time.perf_counter() < until:
                    pass
            elif gap:
                time.sleep(gap)
            start = time.perf_counter_ns()
            step()
            times.append((time.perf_counter_ns() - start) / 1000)
            if len(times) == commands:
                return times
    raise AssertionError("unreachable: itertools.count never ends")


def report_paced(commands: int) -> None:
    """Each gap's median and p99 per command, and its median over the median back to back."""
    measure(rcs_shown, 5)  # warm up imports and caches
    warm = 0.0
    print(f"megatraveller-rcs, shown to 8 roles, {commands} commands after each gap:")
    for gap, spin in GAPS:
        times = sorted(paced(commands, gap, spin))
        median = statistics.median(times)
        warm = warm or median
        how = "none" if not gap else f"{gap * 1000:g} ms {'spun' if spin else 'asleep'}"
        print(
            f"  gap {how:<16} median {median:6.1f} µs   p99 {times[int(len(times) * 0.99)]:7.1f}"
            f" µs   {median / warm:.1f} times back to back"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=100, help="scenario runs per block")
    parser.add_argument("--blocks", type=int, default=5)
    parser.add_argument(
        "--paced", type=int, metavar="N", help="only the paced measurement, N commands a gap"
    )
    args = parser.parse_args()
    if args.paced:
        report_paced(args.paced)
        return
    for name, (scenario, target) in SCENARIOS.items():
        measure(scenario, 5)  # warm up imports and caches
        report(name, [measure(scenario, args.rounds) for _ in range(args.blocks)], target)


if __name__ == "__main__":
    main()

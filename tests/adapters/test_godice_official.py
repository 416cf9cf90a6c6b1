"""GoDice faces as Particula's own code reads them: our codec against the godice package, 0.1.2
(Particula's Python API, pinned in the dev extra), over a grid of resting vectors, random
messages, and vectors on or beside the edge between two faces, in all seven shells.

Both take the face whose direction in Particula's table lies closest to the reported vector,
and of two as close the lower number (the package's ``min`` over its table keeps the first).
The one difference is ours on purpose, as docs/hardware.md says: the package reads a d10's "0"
as 0 and the tens die's "00" as 0, where we count 10 and 100, as the rules do. On the grid
(x, y, z each from -64 to 64 in steps of 8: 4,913 vectors) that is the 414 vectors that put
d20 face 8 or 13 down, in each of the two shells, and nothing else differs.
"""

from __future__ import annotations

import asyncio
import itertools
import math
from collections import Counter

import godice  # type: ignore[import-untyped]
from godice import xyzinterpret
from hypothesis import given
from hypothesis import strategies as st

from adapters import godice_protocol as go

READERS = {
    go.Shell.D6: xyzinterpret.get_rolled_number_d6,
    go.Shell.D20: xyzinterpret.get_rolled_number_d20,
    go.Shell.D10: xyzinterpret.get_rolled_number_d10,
    go.Shell.D10X: xyzinterpret.get_rolled_number_d10x,
    go.Shell.D4: xyzinterpret.get_rolled_number_d4,
    go.Shell.D8: xyzinterpret.get_rolled_number_d8,
    go.Shell.D12: xyzinterpret.get_rolled_number_d12,
}
"""The package's reader for each shell."""

TABLES = {
    go.Shell.D6: xyzinterpret.d6Vectors,
    **dict.fromkeys((go.Shell.D20, go.Shell.D10, go.Shell.D10X), xyzinterpret.d20Vectors),
    **dict.fromkeys((go.Shell.D4, go.Shell.D8, go.Shell.D12), xyzinterpret.d24Vectors),
}
"""The package's table of directions each shell is read on."""

STABILITY = {
    go.Stability.STABLE: godice.StabilityDescriptor.STABLE,
    go.Stability.FAKE: godice.StabilityDescriptor.FAKE_STABLE,
    go.Stability.TILT: godice.StabilityDescriptor.TILT_STABLE,
    go.Stability.MOVE: godice.StabilityDescriptor.MOVE_STABLE,
}

GRID = range(-64, 65, 8)
BYTE = st.integers(-128, 127)


def as_the_rules_count(theirs: int, shell: go.Shell) -> int:
    """The package's reading with a d10's 0 counted 10 and a tens die's 0 counted 100."""
    if theirs == 0 and shell is go.Shell.D10:
        return 10
    if theirs == 0 and shell is go.Shell.D10X:
        return 100
    return int(theirs)


def test_on_the_grid_only_the_zeros_of_the_d10_and_tens_die_read_otherwise() -> None:
    differ = Counter(
        (shell, go.face(xyz, shell), theirs)
        for xyz in itertools.product(GRID, GRID, GRID)
        for shell, read in READERS.items()
        if go.face(xyz, shell) != (theirs := read(xyz))
    )
    assert differ == {(go.Shell.D10, 10, 0): 414, (go.Shell.D10X, 100, 0): 414}


def heard_by_the_package(data: bytes, shell: go.Shell) -> tuple[int, object]:
    """What the package's die reports for one notification: the handler it gives bleak for the
    die's notifications, on a die it was told wears ``shell``."""
    die = godice.Dice(None)
    godice.set_shell(die, godice.Shell[shell.name])
    heard: list[tuple[int, object]] = []

    async def hear(number: int, stability: object) -> None:
        heard.append((number, stability))

    async def notify() -> None:
        await die.subscribe_number_notification(hear)
        await die._handle_upd(None, bytearray(data))

    asyncio.run(notify())
    (report,) = heard
    return report


@given(
    st.sampled_from(list(go.Shell)),
    st.sampled_from(list(go.Stability)),
    st.tuples(BYTE, BYTE, BYTE),
)
def test_a_settled_message_reads_as_the_package_reads_it(
    shell: go.Shell, stability: go.Stability, xyz: tuple[int, int, int]
) -> None:
    data = go.settled(xyz, stability)
    message = go.parse(data)
    assert isinstance(message, go.Settled)
    theirs, their_stability = heard_by_the_package(data, shell)
    assert (go.face(message.vector, shell), STABILITY[message.stability]) == (
        as_the_rules_count(theirs, shell),
        their_stability,
    )


@st.composite
def edges(draw: st.DrawFn) -> tuple[go.Shell, tuple[int, int, int]]:
    """A shell and a vector on, or one step beside, the edge between two neighbouring faces of
    the package's table for that shell: as near to one's direction as to the other's, where a
    die reads one or the other and ties fall."""
    shell = draw(st.sampled_from(list(go.Shell)))
    table = TABLES[shell]
    first = draw(st.sampled_from(sorted(table)))
    u = table[first]
    neighbours = sorted(set(table) - {first}, key=lambda number: math.dist(u, table[number]))
    v = table[draw(st.sampled_from(neighbours[:3]))]
    w = [b - a for a, b in zip(u, v, strict=True)]
    gap = sum(b * b for b in v) - sum(a * a for a in u)
    k = max(range(3), key=lambda axis: abs(w[axis]))
    xyz = [(a + b) // 2 + draw(st.integers(-12, 12)) for a, b in zip(u, v, strict=True)]
    others = sum(w[axis] * xyz[axis] for axis in range(3) if axis != k)
    xyz[k] = round((gap - 2 * others) / (2 * w[k])) + draw(st.integers(-1, 1))
    x, y, z = (max(-128, min(127, a)) for a in xyz)
    return shell, (x, y, z)


@given(edges())
def test_where_two_faces_meet_we_read_as_the_package(
    edge: tuple[go.Shell, tuple[int, int, int]],
) -> None:
    shell, xyz = edge
    assert go.face(xyz, shell) == as_the_rules_count(READERS[shell](xyz), shell)

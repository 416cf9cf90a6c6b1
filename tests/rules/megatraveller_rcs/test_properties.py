"""Random encounters played by random commands: the invariants of the rulings hold throughout."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs.commands import (
    ActionLength,
    Character,
    Command,
    Declare,
    EndTurn,
    Join,
    Resolve,
    RollInitiative,
    Seize,
    SetPool,
    SpendTactics,
)
from rules.megatraveller_rcs.encounter import Encounter, Phase
from rules.megatraveller_rcs.events import Declared, Resolved, Seized, TacticsSpent
from rules.roles import GM, Viewer
from rules.table import Undo

SIDES = ("crew", "corp", "pirates")
stats = st.tuples(st.integers(0, 12), st.integers(0, 6), st.integers(0, 3))


def candidates(enc: Encounter, data: st.DataObject) -> list[tuple[Command | Undo, Viewer]]:
    pick = data.draw(st.randoms(use_true_random=False), label="pick")
    everyone = [c.id for c in enc.characters] or ["nobody"]  # undo may take back the joins
    someone = pick.choice(everyone)
    side = pick.choice(sorted(enc.pools) or ["nobody"])
    holder = enc.holder
    options: list[tuple[Command | Undo, Viewer]] = [
        (RollInitiative(seed=pick.getrandbits(64)), GM),
        (Seize(character=someone), GM),
        (Seize(character=someone, ruled_interrupt=True), GM),
        (SpendTactics(side=side, character=someone, points=pick.choice([-2, -1, 1, 2])), GM),
        (SetPool(side=side, points=pick.randint(0, 3)), GM),
        (Resolve(), GM), (Resolve(), GM), (Undo(), GM),
    ]  # fmt: skip
    if holder is not None:
        action = pick.choice(list(ActionLength))
        options += [
            (Declare(character=holder, action=action, what="acts", target="them"), GM),
            (Declare(character=holder, action=action, what="acts", target="them"), GM),
            (EndTurn(character=holder), GM),
        ]
    return options


def key(enc: Encounter, cid: str) -> tuple[int, int]:
    return enc.cards[cid].key


@given(roster=st.lists(stats, min_size=2, max_size=12), sides=st.integers(2, 3), data=st.data())
def test_random_play_keeps_every_invariant(
    roster: list[tuple[int, int, int]], sides: int, data: st.DataObject
) -> None:
    """2-12 characters on 2-3 sides, played by random commands, legal or not."""
    table: RcsTable = MEGATRAVELLER_RCS.table()
    for n, (dex, movement, tactics) in enumerate(roster):
        character = Character(
            id=f"c{n}",
            name=f"C{n}",
            side=SIDES[n % sides],
            dex=dex,
            movement=movement,
            tactics=tactics,
        )
        table.execute(Join(character=character), GM)
    for _ in range(data.draw(st.integers(20, 120), label="steps")):
        before = table.state
        options = candidates(before, data)
        command, actor = options[data.draw(st.integers(0, len(options) - 1), label="command")]
        try:
            events = table.execute(command, actor)
        except RuleError:
            assert table.state == before
            continue
        enc = table.state
        ids = {c.id for c in enc.characters}
        for event in events:
            # A tapped character never acts or seizes; a seize is by a strictly higher card.
            if isinstance(event, Declared):
                assert event.declaration.character == before.holder
                assert event.declaration.character not in before.tapped
            if isinstance(event, Seized):
                assert event.character not in before.tapped
                assert key(before, event.character) > key(before, event.seized_from)
            if isinstance(event, TacticsSpent) and event.purpose == "initiative":
                assert event.character not in before.tapped
            if isinstance(event, Resolved):
                assert before.cards[event.declaration.character].used < 2
        # Pool points never go negative.
        assert all(points >= 0 for points in enc.pools.values())
        if enc.phase in (Phase.ROUND, Phase.ROUND_OVER):
            # The order is always a permutation of the characters.
            assert sorted((*enc.tapped, *enc.line)) == sorted(ids)
            # At most two Short Actions (or one Long) in a turn.
            assert all(card.used <= 2 for card in enc.cards.values())
        if enc.phase is Phase.ROUND_OVER:
            # Every character took exactly one turn this round.
            assert sorted(enc.tapped) == sorted(ids)
    # Replaying the log gives the same state.
    assert MEGATRAVELLER_RCS.table(table.options, table.log).state == table.state

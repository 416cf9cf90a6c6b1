"""The probability arrows point the right way: seeded Monte Carlo, 10,000 trials each.

Every parameter value is tried on the same 10,000 seeds, so the comparisons between values
are between the same dice.
"""

from __future__ import annotations

import random

from rules.awareness import AwarenessOptions, Situation
from rules.awareness.commands import Awareness, RollInitiative
from rules.awareness.decide import decide, preemption_target, preempts
from rules.awareness.events import Initiative, InitiativeRolled
from rules.roles import GM

from .helpers import sheet, situation

TRIALS = 10_000
OPTIONS = AwarenessOptions()


def chance_to_act_first(state: Awareness, position: int) -> float:
    """How often "me" declares before a rival who is alert with awareness 5 at position 0."""
    sit = situation(sheet("me", state, position=position), sheet("rival")).state
    first = 0
    for seed in range(TRIALS):
        (event,) = decide(sit, RollInitiative(seed=seed), GM)
        assert isinstance(event, InitiativeRolled)
        ranked = {
            r.character: (r.qr, -r.score, event.rolloff.get(r.character, 0)) for r in event.results
        }
        first += ranked["me"] < ranked["rival"]
    return first / TRIALS


def test_better_position_never_lowers_the_chance_to_act_first() -> None:
    chances = [chance_to_act_first(Awareness.ALERT, p) for p in range(-4, 5, 2)]
    assert chances == sorted(chances) and chances[0] < chances[-1]


def test_better_awareness_never_lowers_the_chance_to_act_first() -> None:
    chances = [chance_to_act_first(state, 0) for state in Awareness]
    assert chances == sorted(chances) and chances[0] < chances[-1]


def with_qrs(coordination: int, mine: int, theirs: int) -> Situation:
    sit = situation(sheet("me", coordination=coordination), sheet("actor")).state
    initiative = {
        "me": Initiative(character="me", die=None, score=5, qr=mine),
        "actor": Initiative(character="actor", die=None, score=5, qr=theirs),
    }
    return sit.model_copy(update={"initiative": initiative})


def chance_to_preempt(coordination: int, mine: int, theirs: int) -> float:
    target = preemption_target(with_qrs(coordination, mine, theirs), "me", "actor")
    dice = random.Random(2026)
    return sum(preempts(OPTIONS, dice.randint(1, 10), target) for _ in range(TRIALS)) / TRIALS


def test_better_coordination_never_lowers_the_chance_to_preempt() -> None:
    chances = [chance_to_preempt(c, 4, 4) for c in range(0, 13)]
    assert chances == sorted(chances) and chances[0] < chances[-1]


def test_a_better_qr_never_lowers_the_chance_to_preempt() -> None:
    for theirs in (1, 5, 10):
        chances = [chance_to_preempt(5, mine, theirs) for mine in range(10, 0, -1)]
        assert chances == sorted(chances)


def test_no_preemption_is_ever_certain() -> None:
    for mine in range(1, 11):
        for theirs in range(1, 11):
            for coordination in (0, 20):
                assert 0 < chance_to_preempt(coordination, mine, theirs) < 1

"""The designer's note's scenes, and the archer and the mage, each with given dice.

Sheets have Perception 5 and Stealth 5 (awareness 5). An alert character's QR is the die;
ready, the die - 2; lying in wait, the die - 4 (never below 1).
"""

from __future__ import annotations

from rules.awareness import AwarenessTable
from rules.awareness.commands import Act, Awareness, Mode, React, Wait
from rules.awareness.events import Resolved
from rules.randomness import Source
from rules.roles import GM

from .helpers import resolve_all, roll_round, sheet, situation

READY, LYING_IN_WAIT = Awareness.READY, Awareness.LYING_IN_WAIT


def preempt(table: AwarenessTable, who: str, to: str, die: int, what: str = "fires") -> None:
    table.execute(
        React(character=who, to=to, timing="before", what=what, die=die, source=Source.DEVICE),
        GM,
    )


def performed(table: AwarenessTable) -> dict[str, bool]:
    return {e.character: e.performed for e in table.log if isinstance(e, Resolved)}


def test_the_western_shootout() -> None:
    """Two gunslingers, both ready, each waiting for the other to draw. Round one passes in a
    stare. In round two the Marshal's declaration comes round and he draws; the Kid, still
    waiting, tries to beat him: Coordination 6 + (Marshal's QR 2 - Kid's QR 6) = 2, and a 2
    on the d10 makes it. The Kid fires first."""
    table = situation(sheet("kid", READY, coordination=6), sheet("marshal", READY))
    roll_round(table, {"kid": 5, "marshal": 6})  # QR 3 and 4
    table.execute(Wait(character="kid", trigger="the Marshal draws"), GM)
    table.execute(Wait(character="marshal", trigger="the Kid draws"), GM)
    roll_round(table, {"kid": 8, "marshal": 4})  # QR 6 and 2: the Marshal declares first
    table.execute(Act(character="marshal", what="draws and fires at the Kid"), GM)
    preempt(table, "kid", "marshal", die=2)
    assert resolve_all(table) == ["kid", "marshal"]


def test_the_shootout_with_a_dastardly_sniper() -> None:
    """The same standoff, and a sniper lying in wait on the roof, waiting for anyone to draw.
    The Marshal draws; the Kid pre-empts him (6 + (4 - 3) = 7, rolls 5); the sniper pre-empts
    the Kid (7 + (3 - 1) = 9, rolls 9). The sniper fires, the Kid is down before his shot, and
    the Marshal's draw still goes off."""
    table = situation(
        sheet("kid", READY, coordination=6),
        sheet("marshal", READY),
        sheet("sniper", LYING_IN_WAIT, coordination=7),
    )
    roll_round(table, {"kid": 5, "marshal": 6, "sniper": 3})  # QR 3, 4, 1
    table.execute(Wait(character="sniper", trigger="anyone draws"), GM)
    table.execute(Wait(character="kid", trigger="the Marshal draws"), GM)
    table.execute(Act(character="marshal", what="draws on the Kid"), GM)
    preempt(table, "kid", "marshal", die=5)
    preempt(table, "sniper", "kid", die=9)
    assert resolve_all(table, taken_out=frozenset({"kid"})) == ["sniper", "kid", "marshal"]
    assert performed(table) == {"sniper": True, "kid": False, "marshal": True}


def test_the_iai_duel() -> None:
    """Two swordsmen, both ready, hands on the hilt. Both roll QR 2; Gonbei's higher Score
    (keener senses) puts him first, and he waits. Jubei draws; Gonbei's pre-emption needs
    5 + 0 + 1 (the higher Score) = 6 and rolls 7: he cuts a hair too late."""
    table = situation(sheet("jubei", READY), sheet("gonbei", READY, perception=7))
    roll_round(table, {"jubei": 4, "gonbei": 5})  # QR 2 (Score 7) and QR 2 (Score 8)
    assert table.state.order == ("gonbei", "jubei")
    table.execute(Wait(character="gonbei", trigger="Jubei draws"), GM)
    table.execute(Act(character="jubei", what="draws and cuts"), GM)
    preempt(table, "gonbei", "jubei", die=7, what="draws and cuts")
    assert resolve_all(table) == ["jubei", "gonbei"]


def standoff() -> AwarenessTable:
    """The hostage-taker moves the gun, with the police sniper and the counter-sniper waiting."""
    table = situation(
        sheet("taker"),
        sheet("police", LYING_IN_WAIT, coordination=7),
        sheet("counter", READY, coordination=6),
    )
    roll_round(table, {"taker": 3, "police": 2, "counter": 4})  # QR 3, 1, 2
    table.execute(Wait(character="police", trigger="he moves the gun"), GM)
    table.execute(Wait(character="counter", trigger="the police sniper fires"), GM)
    table.execute(Act(character="taker", what="turns the gun on the hostage"), GM)
    return table


def test_the_hostage_standoff_with_a_police_sniper_and_a_counter_sniper() -> None:
    """A hostage-taker; a police sniper lying in wait for him to move the gun; his accomplice
    on a rooftop, ready and waiting for the police sniper to fire. He moves the gun. The sniper
    pre-empts him (7 + (3 - 1) = 9, rolls 6); the counter-sniper pre-empts the sniper
    (6 + (1 - 2) = 5, rolls 3). The counter-sniper fires first, the police sniper is hit
    before his shot, and the hostage-taker's action still happens."""
    table = standoff()
    preempt(table, "police", "taker", die=6)
    preempt(table, "counter", "police", die=3)
    assert table.state.sequence() == ("counter", "police", "taker")
    assert resolve_all(table, taken_out=frozenset({"police"})) == ["counter", "police", "taker"]


def test_the_hostage_standoff_when_the_counter_sniper_is_too_slow() -> None:
    """The same, but the counter-sniper rolls 8 against 5: he fires just after the police
    sniper, who takes the hostage-taker down before he can shoot."""
    table = standoff()
    preempt(table, "police", "taker", die=6)
    preempt(table, "counter", "police", die=8)
    order = resolve_all(table, taken_out=frozenset({"taker"}))
    assert order == ["police", "counter", "taker"]
    assert performed(table)["taker"] is False


def test_the_archer_and_the_mage() -> None:
    """An archer waits: "the mage does something". The mage starts a spell and the archer
    pre-empts (6 + (5 - 2) = 9): a 4 and the arrow lands first; but even so confident an
    archer fails on a natural 10, and the spell goes off before the arrow."""
    for die, order in ((4, ["archer", "mage"]), (10, ["mage", "archer"])):
        table = situation(sheet("archer", READY, coordination=6), sheet("mage"))
        roll_round(table, {"archer": 4, "mage": 5})  # QR 2 and 5
        table.execute(Wait(character="archer", trigger="the mage does something"), GM)
        table.execute(Act(character="mage", what="starts a spell", mode=Mode.NORMAL), GM)
        preempt(table, "archer", "mage", die=die, what="looses an arrow")
        assert resolve_all(table) == order

"""Random games: no player or overlay ever receives another character's secrets."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.awareness import AWARENESS, AwarenessOptions
from rules.awareness.commands import (
    Act,
    Awareness,
    Command,
    EnterInitiative,
    EnterPreemption,
    Join,
    Mode,
    React,
    Resolve,
    RollInitiative,
    SetAwareness,
    Sheet,
    Wait,
)
from rules.awareness.situation import Situation
from rules.errors import RuleError
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer, player
from rules.table import Undo

SECRET_KEYS = {"qr", "score", "die", "target"}
TRIGGER = "when this happens to "
"""Every wait's trigger names its waiter: only the GM and the waiter's player may read it."""


def leaks(data: Any, own: frozenset[str]) -> list[str]:
    """Every place in a JSON value where someone else's secret shows."""
    found: list[str] = []
    if isinstance(data, str) and data.startswith(TRIGGER):  # what someone waits for
        if data.removeprefix(TRIGGER) not in own:
            found.append(f"trigger of {data.removeprefix(TRIGGER)}")
    elif isinstance(data, list):
        for item in data:
            found += leaks(item, own)
    elif isinstance(data, dict):
        who = data.get("character", data.get("id"))
        for key in SECRET_KEYS & data.keys():
            if data[key] is not None and (key == "target" or who not in own):
                found.append(f"{key} of {who}")
        if "perception" in data and who not in own:
            found.append(f"sheet of {who}")
        for key in ("rolloff", "upcoming", "sequence", "next"):
            if data.get(key):
                found.append(key)
        for value in data.values():
            found += leaks(value, own)
    return found


def candidates(sit: Situation, pick: random.Random) -> list[tuple[Command | Undo, Viewer]]:
    """Commands the table might plausibly be sent now, each choice ``pick``'s (see the Four
    Color ``candidates``: a server's test seeds it from one draw per step)."""
    ids = [s.id for s in sit.sheets] or ["nobody"]  # undo may take back the joins
    who, other = pick.choice(ids), pick.choice(ids)
    mode = pick.choice(list(Mode))
    seed = pick.getrandbits(32)
    options: list[tuple[Command | Undo, Viewer]] = [
        (RollInitiative(seed=seed), GM), (RollInitiative(source=Source.DEVICE), GM),
        (EnterInitiative(character=who, die=pick.randint(1, 10), seed=seed), GM),
        (EnterInitiative(character=who, qr=pick.randint(1, 10), score=pick.randint(-3, 12),
                         seed=seed), GM),
        (SetAwareness(character=who, state=pick.choice(list(Awareness))), GM),
        (Act(character=who, what="acts", mode=mode), player(who)),
        (Wait(character=who, trigger=TRIGGER + who), player(who)),
        (React(character=who, to=other, timing=pick.choice(["before", "after"]), what="reacts",
               mode=mode, seed=seed), player(who)),
        (Undo(), GM),
    ]  # fmt: skip
    if sit.exchange is not None:
        options += [(Resolve(performed=pick.random() < 0.8), GM)] * 2
        involved = sorted(sit.exchange.involved())
        for reactor in (s.id for s in sit.sheets if sit.may_react(s.id)):
            timing = pick.choice(["before", "after"])
            react = React(
                character=reactor,
                to=pick.choice(involved),
                timing=timing,
                what="reacts",
                mode=Mode.ALL_OUT_OFFENSIVE,
                seed=seed,
            )
            options += [(react, player(reactor))] * 6
            at_the_table = react.model_copy(update={"timing": "before", "source": Source.DEVICE})
            options += [(at_the_table, player(reactor))] * 3
        for pending in sit.exchange.pending:
            die = EnterPreemption(character=pending.character, die=pick.randint(1, 10))
            options += [(die, GM), (die, player(pending.character))] * 3
    if sit.declaring:
        options += [(Act(character=sit.declaring, what="acts", mode=mode), GM)] * 3
        options += [(Wait(character=sit.declaring, trigger="a trigger"), GM)] * 4
    return options


@given(
    stats=st.lists(
        st.tuples(
            st.integers(0, 10),
            st.integers(0, 10),
            st.integers(0, 10),
            st.sampled_from(list(Awareness)),
        ),
        min_size=2,
        max_size=6,
    ),
    reveal=st.booleans(),
    data=st.data(),
)
def test_no_player_or_overlay_ever_sees_another_characters_secrets(
    stats: list[tuple[int, int, int, Awareness]], reveal: bool, data: st.DataObject
) -> None:
    table = AWARENESS.table(AwarenessOptions(reveal_order=reveal))
    for n, (perception, stealth, coordination, state) in enumerate(stats):
        table.execute(
            Join(
                sheet=Sheet(
                    id=f"c{n}",
                    name=f"C{n}",
                    perception=perception,
                    stealth=stealth,
                    coordination=coordination,
                    state=state,
                )
            ),
            GM,
        )
    watchers = [(OVERLAY, frozenset[str]()), (player("c0"), frozenset({"c0"}))]
    for _ in range(data.draw(st.integers(10, 80), label="steps")):
        pick = data.draw(st.randoms(use_true_random=False), label="pick")
        options = candidates(table.state, pick)
        command, actor = options[data.draw(st.integers(0, len(options) - 1), label="command")]
        try:
            events = table.execute(command, actor)
        except RuleError as refusal:
            named = {v for v in command.model_dump().values() if isinstance(v, str)}
            others = {s.id for s in table.state.sheets} - named
            assert not any(f"'{other}'" in refusal.message for other in others)
            continue
        for viewer, own in watchers:
            shown = table.view(viewer).model_dump(mode="json")
            if reveal:
                shown.pop("upcoming")
                for exchange in (shown["exchange"], shown["concluded"]):
                    if exchange:
                        exchange.pop("sequence")
                        exchange.pop("next")
            shown.pop("options")
            assert leaks(shown, own) == []
            for event in events:
                assert leaks(table.censor(event, viewer), own) == []

"""The shared rulings, "No tells", in Chromium against a real server: the same scene played at
two tables, one with someone hidden and one without, renders the same phone and the same
stream overlay at every step, up to the hidden participant's reveal. The hidden one's own steps
(the GM's) are played at its table only, and its table is compared once it has taken them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess, call

from .conftest import SIZES, Table, shoot, token_of

Step = tuple[str, dict[str, Any]]
"""A step of the scene: ``both`` (a public step, played at both tables) or ``hidden`` (the
GM's step for the hidden participant, at its table only), and the command."""


@pytest.fixture
def screens(browser: Any) -> Iterator[dict[str, Any]]:
    """A phone and a stream for each table: ``plain`` and ``beside`` the hidden one."""
    contexts = []
    pages = {}
    for table in ("plain", "beside"):
        phone = browser.new_context(viewport=SIZES["phone"], has_touch=True)
        stream = browser.new_context(viewport={"width": 800, "height": 600})
        contexts += [phone, stream]
        pages[f"{table} phone"], pages[f"{table} stream"] = phone.new_page(), stream.new_page()
    yield pages
    for context in contexts:
        context.close()


def shown(page: Any, table: Table, token: str, where: str) -> str:
    """The page's text once it has caught up with the table as its role numbers it (which it
    says, in its ``data-seq``, and which is compared too: rules/numbering.py)."""
    seq = int(table.view(token)["seq"])
    page.wait_for_function(f"Number(document.querySelector({where!r})?.dataset.seq) >= {seq}")
    drawn = page.locator(where).get_attribute("data-seq")
    return f"step {drawn}: " + str(page.locator(where).inner_text())


def played(
    server: ServerProcess,
    screens: dict[str, Any],
    system: str,
    cast: list[dict[str, Any]],
    hidden: dict[str, Any],
    player: str,
    scene: list[Step],
) -> None:
    """Play ``scene`` at a table of ``cast`` and at one with ``hidden`` joined hidden too, and
    compare, after every step, the text of ``player``'s phone and of the overlay."""
    plain, beside = Table(server, system), Table(server, system)
    for member in cast:
        plain.send(member)
        beside.send(member)
        if member is cast[0]:
            beside.send({**hidden, "hidden": True})
    tables = {"plain": plain, "beside": beside}
    tokens: dict[str, str] = {}
    for name, table in tables.items():
        status, answer = call(f"{table.url}/handoff/players/{player}", "POST", {}, table.gm)
        assert status == 201, answer
        screens[f"{name} phone"].goto(answer["url"])
        tokens[f"{name} phone"] = token_of(answer["url"])
        screens[f"{name} stream"].goto(table.overlay_url())
        tokens[f"{name} stream"] = table.overlay
    for n, (where, command) in enumerate([("both", {}), *scene]):
        if command:
            for table in (beside,) if where == "hidden" else (plain, beside):
                table.send(command)
        for screen, root in (("phone", "body"), ("stream", "#overlay")):
            seen = {name: shown(screens[f"{name} {screen}"], table,
                                tokens[f"{name} {screen}"], root)
                    for name, table in tables.items()}  # fmt: skip
            assert seen["beside"] == seen["plain"], (n, command, screen)
    for screen in ("phone", "stream"):
        shoot(screens[f"beside {screen}"], f"no-tells-{system}-{screen}")


SHEET = {"perception": 5, "stealth": 5, "coordination": 5}


def test_an_awareness_table_with_a_hidden_sniper_looks_like_one_without(
    server: ServerProcess, screens: dict[str, Any]
) -> None:
    """The sniper's die comes first and it declares first in the order, yet the Kid declares at
    once; it waits, reacts just after the Marshal's act, and its shot is left to record (its
    reveal) while the round looks over, as it is without it."""
    cast = [
        {"type": "join", "sheet": {"id": "kid", "name": "Kid", **SHEET}},
        {"type": "join", "sheet": {"id": "marshal", "name": "Marshal", **SHEET}},
    ]
    sniper = {"type": "join", "sheet": {"id": "sniper", "name": "Sniper", **SHEET}}
    die = {"type": "enter_initiative", "source": "gm"}
    played(server, screens, "awareness", cast, sniper, "kid", [
        ("both", {"type": "roll_initiative", "source": "gm"}),
        ("hidden", {**die, "character": "sniper", "die": 1}),
        ("both", {**die, "character": "kid", "die": 3}),
        ("both", {**die, "character": "marshal", "die": 5}),
        ("both", {"type": "wait", "character": "kid", "trigger": "the Marshal draws"}),
        ("hidden", {"type": "wait", "character": "sniper", "trigger": "the Marshal draws"}),
        ("both", {"type": "act", "character": "marshal", "what": "draws"}),
        ("hidden", {"type": "react", "character": "sniper", "to": "marshal", "timing": "after",
                    "what": "fires"}),
        ("both", {"type": "resolve", "outcome": "the Marshal draws"}),
    ])  # fmt: skip


def test_an_rcs_table_with_a_hidden_ambusher_looks_like_one_without(
    server: ServerProcess, screens: dict[str, Any]
) -> None:
    """The round starts without the ambusher's roll; it spends from its side's pool while the
    others take their turns."""
    crew = {"dex": 0, "movement": 0}
    cast = [
        {"type": "join", "character": {"id": "jena", "name": "Jena", "side": "crew", **crew,
                                       "tactics": 1}},
        {"type": "join", "character": {"id": "guard", "name": "Guard", "side": "corp", **crew,
                                       "tactics": 1}},
    ]  # fmt: skip
    ambusher = {"type": "join", "character": {"id": "amb", "name": "Ambusher", "side": "corp",
                                              "dex": 0, "movement": 0, "tactics": 2}}  # fmt: skip
    roll = {"type": "enter_roll", "source": "gm"}
    declare = {"type": "declare", "action": "long", "what": "fires", "target": "x"}
    played(server, screens, "megatraveller-rcs", cast, ambusher, "jena", [
        ("both", {"type": "roll_initiative", "source": "gm"}),
        ("both", {**roll, "character": "jena", "dice": [1, 2]}),
        ("both", {**roll, "character": "guard", "dice": [3, 3]}),
        ("both", {**declare, "character": "jena"}),
        ("hidden", {"type": "spend_tactics", "side": "corp", "character": "amb", "points": 1,
                    "purpose": "other"}),
        ("both", {"type": "resolve", "outcome": "a miss"}),
        ("hidden", {"type": "spend_tactics", "side": "corp", "character": "amb", "points": 1,
                    "purpose": "other"}),
        ("both", {**declare, "character": "guard"}),
    ])  # fmt: skip

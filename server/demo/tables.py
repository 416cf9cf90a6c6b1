"""The demo tables ``seize serve --demo`` has ready, with fresh tokens printed at each start:
the Four Color Hack's example fight, and an RCS firefight. Old demo tokens are revoked, but not
when one worker of several restarts, for the links printed at the start are still in use. When
the simulated devices run (server/demo_devices.py) the deal and the first roll await them, so a
newcomer sees cards dealt and dice rolled; without them the engine deals and rolls."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.four_color.commands import Deal, Kind, Member
from rules.four_color.commands import Join as FourColorJoin
from rules.megatraveller_rcs.commands import Character, RollInitiative
from rules.megatraveller_rcs.commands import Join as RcsJoin
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer, player
from server.http.context import Seize
from server.tables.access import OVERLAY_LABEL, Principal, digest, mint, token_row
from server.tables.games import Game

NAME = "Demo: The Four Color Hack"
RCS_NAME = "Demo: MegaTraveller RCS"
CAST = (
    ("doom", "Doctor Doom", Kind.VILLAIN), ("sue", "Invisible Woman", Kind.HERO),
    ("ben", "The Thing", Kind.HERO), ("reed", "Mr. Fantastic", Kind.HERO),
    ("johnny", "Human Torch", Kind.HERO), ("peter", "Spider-Man", Kind.HERO),
    ("jen", "She-Hulk", Kind.HERO), ("bots", "Doombots", Kind.MOB),
)  # fmt: skip
CREW = (
    ("jena", "Jena Vance", "crew", 9, 2, 1), ("tomas", "Tomas Kell", "crew", 7, 2, 0),
    ("guard", "Corporate guard", "corp", 7, 1, 0), ("sarge", "Sergeant Okoro", "corp", 8, 1, 2),
)  # fmt: skip


async def _table(
    seize: Seize,
    name: str,
    system: str,
    setup: list[BaseModel],
    viewers: dict[str, Viewer],
    keep: bool,
) -> tuple[Game, dict[str, str]]:
    existing = await seize.store.tables_named(name)
    game = await seize.tables.get(existing[0].id) if existing else None
    if game is None:
        created = await seize.tables.create(system, name, {})
        game = created.game
        principal = Principal(game.id, GM, digest(created.gm_token))
        for command in setup:
            await seize.runner.execute(game, principal, command, None, None)
    tokens = {label: mint() for label in viewers}
    # An overlay's token is labelled as every overlay link's is, so that a new overlay link
    # made in the console stops the printed one too.
    stored = {
        label: OVERLAY_LABEL if viewer == OVERLAY else f"demo-{label}"
        for label, viewer in viewers.items()
    }
    for label in () if keep else tokens:
        for old in {stored[label], f"demo-{label}"}:  # the second: as earlier versions had it
            await seize.revoke(game.id, old)
    await seize.store.add_tokens(
        [
            token_row(token, game.id, viewers[label], stored[label])
            for label, token in tokens.items()
        ]
    )
    return game, tokens


async def ready(
    seize: Seize, *, devices: bool = False, keep: bool = False
) -> tuple[Game, dict[str, str]]:
    """The Four Color Hack demo table and a fresh token for each of its roles; ``keep`` leaves
    the tokens given before valid."""
    setup: list[Any] = [FourColorJoin(member=Member(id=m, name=n, kind=k)) for m, n, k in CAST]
    setup.append(Deal(source=Source.DEVICE if devices else Source.ENGINE))
    viewers = {"gm": GM, "overlay": OVERLAY, "peter": player("peter")}
    return await _table(seize, NAME, "four-color", setup, viewers, keep)


async def ready_rcs(
    seize: Seize, *, devices: bool = False, keep: bool = False
) -> tuple[Game, dict[str, str]]:
    """The RCS demo table: two sides of two, initiative awaited from the tray (or rolled)."""
    setup: list[Any] = [
        RcsJoin(character=Character(id=c, name=n, side=s, dex=d, movement=m, tactics=t))
        for c, n, s, d, m, t in CREW
    ]
    setup.append(RollInitiative(source=Source.DEVICE if devices else Source.ENGINE))
    viewers = {"gm": GM, "overlay": OVERLAY, "jena": player("jena")}
    return await _table(seize, RCS_NAME, "megatraveller-rcs", setup, viewers, keep)

"""The demo table ``seize serve --demo`` has ready: the source text's Four Color Hack fight,
dealt, with fresh GM and overlay tokens printed at each start (old demo tokens are revoked)."""

from __future__ import annotations

from rules.four_color.commands import Deal, Join, Kind, Member
from rules.roles import GM, OVERLAY, Viewer, player
from server.access import Principal, digest, mint, token_row
from server.context import Seize
from server.games import Game

NAME = "Demo: The Four Color Hack"
CAST = (
    ("doom", "Doctor Doom", Kind.VILLAIN), ("sue", "Invisible Woman", Kind.HERO),
    ("ben", "The Thing", Kind.HERO), ("reed", "Mr. Fantastic", Kind.HERO),
    ("johnny", "Human Torch", Kind.HERO), ("peter", "Spider-Man", Kind.HERO),
    ("jen", "She-Hulk", Kind.HERO), ("bots", "Doombots", Kind.MOB),
)  # fmt: skip


async def ready(seize: Seize) -> tuple[Game, dict[str, str]]:
    """The demo table and a fresh token for each of its roles."""
    existing = seize.store.tables_named(NAME)
    game = seize.games.get(existing[0].id) if existing else None
    tokens = {"gm": mint(), "overlay": mint(), "peter": mint()}
    if game is None:
        created = await seize.games.create("four-color", NAME, {})
        game = created.game
        principal = Principal(game.id, GM, digest(created.gm_token))
        for member_id, name, kind in CAST:
            member = Member(id=member_id, name=name, kind=kind)
            await seize.games.execute(game, principal, Join(member=member), None, None)
        await seize.games.execute(game, principal, Deal(), None, None)
    viewers: dict[str, Viewer] = {"gm": GM, "overlay": OVERLAY, "peter": player("peter")}
    for label in tokens:
        await seize.store.revoke_tokens(game.id, f"demo-{label}")
        seize.tokens.forget(game.id, f"demo-{label}")
    await seize.store.add_tokens(
        [
            token_row(token, game.id, viewers[label], f"demo-{label}")
            for label, token in tokens.items()
        ]
    )
    return game, tokens

"""The table in the shapes other tools already speak: Foundry VTT's Combat document and Roll20's
Campaign turn order. Both are renderings of ``turns.turn_order`` of the caller's view, or with
``?as=public`` of the public view, which is what a VTT may write where every player can read it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rules.errors import RuleError
from rules.roles import OVERLAY, Viewer
from server.errors import ServerFaultError, problem
from server.http.api import caller, game_of, invalid, json_body, refusal_answer, view_of
from server.http.context import SEIZE
from server.http.routes import EVERYONE, GM, Content, Parameter, Route, refusals
from server.tables.commanding import refusal_of
from server.tables.games import Game
from server.tables.turns import TurnOrder, turn_order

ROLL20_PREFIX = "r20"  # a participant imported from a Roll20 token: r20 + the token's id
ROLL20_ID = 64 - len(ROLL20_PREFIX)  # so that r20 + the id is still a participant id


def foundry_id(table_id: str, key: str) -> str:
    """A stable 16-character id, as Foundry's document ids are."""
    return hashlib.sha256(f"{table_id}:{key}".encode()).hexdigest()[:16]


async def _order(request: web.Request, game: Game) -> TurnOrder:
    principal = await caller(request, game)
    viewer: Viewer = OVERLAY if request.query.get("as") == "public" else principal.viewer
    return turn_order(view_of(game, viewer))


def foundry_combat(table_id: str, system: str, order: TurnOrder) -> dict[str, Any]:
    """Combatants whose initiatives, sorted high to low as Foundry sorts them, give the engine's
    order; a turn with no place gets no initiative (Foundry lists those last).

    Hidden and defeated are the GM's in Foundry: ``hidden`` is there only when Seize must hide
    a turn (``true``), and ``defeated`` never, so that a client writing the dialect as it is
    never un-hides or un-defeats what the GM set."""
    count = len(order.turns)
    combatants = [
        {
            "_id": foundry_id(table_id, turn.key),
            "name": f"{turn.name} · {turn.label}" if system == "four-color" else turn.name,
            "initiative": count - n if turn.placed else None,
            **({"hidden": True} if turn.secret else {}),
            "flags": {
                "seize": {
                    "key": turn.key,
                    "participant": turn.participant,
                    "label": turn.label,
                    "current": turn.current,
                    "done": turn.done,
                    **turn.details,
                }
            },
        }
        for n, turn in enumerate(order.turns)
    ]
    return {"round": order.round, "turn": order.current, "combatants": combatants}


ROLL20_TEXT = "\u2060"  # WORD JOINER: invisible, and no number to JavaScript


def roll20_turnorder(order: TurnOrder, page: str) -> list[dict[str, Any]]:
    """Roll20's turn order: the current actor first, then the rest in order, the unplaced last.
    A participant imported from a Roll20 token keeps that token's id; others are custom (-1).

    Each entry carries its turn's key as ``seize``: custom entries all have the id -1, and two
    of them may have one name (two Goblins, a hero's two cards), so the bridge tells them apart
    by it; Mod scripts keep an entry's fields when they reorder the list. Each ``pr`` ends with
    an invisible word joiner, so that it is never a number to JavaScript: GroupInitiative sorts
    the whole turn order with ``b.pr - a.pr`` after every roll, and a comparison that is not a
    number leaves Seize's entries in their order (Array.prototype.sort is stable), where bare
    initiatives (RCS) could come out as Seize's order moved on by one, a Next to the bridge."""
    placed = [turn for turn in order.turns if turn.placed]
    start = order.current if order.current is not None and order.turns[order.current].placed else 0
    rotated = placed[start:] + placed[:start] + [t for t in order.turns if not t.placed]
    return [
        {
            "id": (turn.participant or "")[len(ROLL20_PREFIX) :]
            if (turn.participant or "").startswith(ROLL20_PREFIX)
            else "-1",
            "pr": turn.label + ROLL20_TEXT,
            "custom": turn.name,
            "_pageid": page,
            "seize": turn.key,
        }
        for turn in rotated
    ]


async def foundry(request: web.Request) -> web.Response:
    game = await game_of(request)
    order = await _order(request, game)
    return web.json_response(foundry_combat(game.id, game.system.name, order))


async def roll20(request: web.Request) -> web.Response:
    game = await game_of(request)
    order = await _order(request, game)
    return web.json_response(roll20_turnorder(order, request.query.get("page", "")))


class Roll20Entry(BaseModel):
    """One entry of Roll20's ``turnorder``: a token's id (or -1 for a custom entry)."""

    model_config = ConfigDict(extra="ignore")

    id: Annotated[str, Field(max_length=ROLL20_ID)]
    pr: str | float | int = ""
    custom: Annotated[str, Field(max_length=80)] = ""
    pageid: str = Field(default="", alias="_pageid")


class Defaults(BaseModel):
    """What a Roll20 turn order does not say, given as query parameters."""

    kind: Literal["hero", "villain", "mob"] = "villain"
    side: Annotated[str, Field(min_length=1, max_length=40)] = "roll20"


def _participant_id(entry: Roll20Entry) -> str:
    if entry.id != "-1":
        return ROLL20_PREFIX + re.sub(r"[^A-Za-z0-9_.-]", "", entry.id)
    return re.sub(r"[^a-z0-9]+", "-", entry.custom.lower()).strip("-")[:60] or "unnamed"


def _join(system: str, pid: str, name: str, defaults: Defaults) -> dict[str, Any]:
    if system == "four-color":
        return {"type": "join", "member": {"id": pid, "name": name, "kind": defaults.kind}}
    if system == "megatraveller-rcs":
        return {
            "type": "join",
            "character": {"id": pid, "name": name, "side": defaults.side, "dex": 0, "movement": 0},
        }
    return {
        "type": "join",
        "sheet": {"id": pid, "name": name, "perception": 5, "stealth": 5, "coordination": 5},
    }


async def roll20_import(request: web.Request) -> web.Response:
    """Join everyone in a Roll20 turn order who is not at the table yet (GM only)."""
    game = await game_of(request)
    principal = await caller(request, game)
    if not principal.viewer.is_gm:
        raise problem(web.HTTPForbidden, "forbidden", "only the GM may import", rule="roles")
    try:
        defaults = Defaults.model_validate(dict(request.query))
    except ValidationError as error:
        raise invalid(error) from None
    try:
        entries = ENTRIES.validate_python(_entries(await json_body(request)))
    except ValidationError as error:
        raise invalid(error, "body") from None
    present = game.system.participants(game.table.state)
    joins: dict[str, BaseModel] = {}
    skipped = []
    for index, entry in enumerate(entries):
        pid = _participant_id(entry)
        if pid in present or pid in joins:
            skipped.append(pid)
            continue
        try:  # every entry is checked before anyone joins: a bad one changes nothing
            joins[pid] = game.system.commands.validate_python(
                _join(game.system.name, pid, entry.custom or pid, defaults)
            )
        except ValidationError as error:
            raise invalid(error, f"body.{index}") from None
    joined, refused = [], []
    for pid, command in joins.items():
        try:
            await request.app[SEIZE].runner.execute(game, principal, command, None, None)
        except ServerFaultError as fault:
            return refusal_answer(refusal_of(fault))
        except RuleError as refusal:
            refused.append({"id": pid, "rule": refusal.rule, "message": refusal.message})
            continue
        joined.append(pid)
    return web.json_response({"joined": joined, "skipped": skipped, "refused": refused})


ENTRIES = TypeAdapter(list[Roll20Entry])


def _entries(body: Any) -> list[Any]:
    if not isinstance(body, list):
        raise problem(
            web.HTTPUnprocessableEntity,
            "invalid",
            "a turn order is a list of entries (parse Roll20's turnorder string first)",
            field="body",
        )
    return body


PUBLIC = Parameter(
    "as",
    "query",
    {"enum": ["public"]},
    "Render the public view, whatever the token: what a VTT may write where every player can "
    "read it",
)

ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/foundry/combat",
        foundry,
        "The table as a Foundry VTT Combat document",
        "foundryCombat",
        {
            200: Content("round, turn, combatants", {"type": "object"}),
            **refusals(401, 403, 404, 429),
        },
        roles=EVERYONE,
        parameters=(PUBLIC,),
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/roll20/turnorder",
        roll20,
        "The table as Roll20's turn order, the current actor first",
        "roll20TurnOrder",
        {
            200: Content("Turn order entries", {"type": "array", "items": {"type": "object"}}),
            **refusals(401, 403, 404, 429),
        },
        roles=EVERYONE,
        parameters=(PUBLIC, Parameter("page", "query", {"type": "string"})),
    ),
    Route(
        "PUT",
        "/api/tables/{table_id}/roll20/turnorder",
        roll20_import,
        "Join everyone in a Roll20 turn order (GM)",
        "roll20Import",
        {
            200: Content("joined, skipped, refused", {"type": "object"}),
            **refusals(400, 401, 403, 404, 408, 413, 422, 429),
        },
        body=Content(
            "Roll20's turnorder, parsed",
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id"],
                    "properties": {
                        "id": {"type": "string"},
                        "pr": {},
                        "custom": {"type": "string"},
                        "_pageid": {"type": "string"},
                    },
                },
            },
        ),
        roles=GM,
        parameters=(
            Parameter("kind", "query", {"enum": ["hero", "villain", "mob"]}),
            Parameter("side", "query", {"type": "string"}),
        ),
    ),
]

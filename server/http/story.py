"""A table's story over HTTP: its timeline and numbers, the table as it stood after any step
(a replay), and its export as a Markdown recap or as JSON. Each answers the caller's role with
its own story (``rules/chronicle.py``): what that role was shown, as it was shown it."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from pydantic import BaseModel, Field

from rules.chronicle import Chronicle, Numbers, Step, Turn
from rules.recap import recap
from rules.roles import Viewer
from server.errors import problem
from server.http.api import Caller, caller, game_of, json_answer
from server.http.context import SEIZE
from server.http.reading import malformed
from server.http.routes import EVERYONE, Content, Parameter, Route, refusals
from server.tables.games import Game
from server.tables.story import chronicle


class TimelineAnswer(BaseModel):
    """A table's story as the caller's role saw it."""

    id: str
    name: str
    system: str
    you: Caller
    seq: int = Field(description="The number of the last step told (``Step.seq``)")
    gm: str = Field(description="What the game calls its GM")
    steps: list[Step]
    turns: list[Turn]
    cast: dict[str, str] = Field(description="Each participant the story names: its name")
    numbers: Numbers


class ReplayAnswer(BaseModel):
    seq: int = Field(description="The step the table stood at, numbered as the timeline's")
    at: float | None = Field(description="When that step was stored; null before the first")
    view: dict[str, Any] = Field(description="The table then, as the caller's role saw it")


class ShownEvent(BaseModel):
    seq: int
    at: float = Field(description="When it was stored, in seconds since the epoch (UTC)")
    event: dict[str, Any] = Field(description="The event as the caller's role was shown it")


class ExportAnswer(TimelineAnswer):
    """The timeline, and every event the caller's role was shown, with its time."""

    events: list[ShownEvent]


def you(viewer: Viewer) -> Caller:
    return Caller(role=viewer.role.value, participants=sorted(viewer.participants))


def seen_as(teller: Chronicle) -> str:
    """Whose story it is, as a recap says it: the game's GM, the stream, or the player of
    their own characters (whom they may always see)."""
    viewer = teller.viewer
    if viewer.is_gm:
        return teller.story.gm
    if not viewer.participants:
        return "the stream"
    names = {p.id: p.name for p in teller.table.system.roster(teller.table.state)}
    return "the player of " + ", ".join(sorted(names.get(p, p) for p in viewer.participants))


async def told(
    request: web.Request, *, replaying: bool = False, keeping: bool = False
) -> tuple[Game, Chronicle]:
    """The caller's story of the table: all of it, or up to the step a replay asks for."""
    game = await game_of(request)
    principal = await caller(request, game)
    seq = game.table.numbering.count(principal.viewer)  # its steps, as it numbers them
    if replaying:
        seq = _seq(request.query.get("seq"), seq)
    teller = await chronicle(
        request.app[SEIZE].store,
        game.id,
        game.system,
        game.table.options,
        principal.viewer,
        seq,
        keeping=keeping,
    )
    return game, teller


def answer(table_id: str, name: str, teller: Chronicle) -> dict[str, Any]:
    """The timeline as the API answers it (``TimelineAnswer``), as data."""
    story = teller.told()
    return TimelineAnswer(
        id=table_id,
        name=name,
        system=teller.table.system.name,
        you=you(teller.viewer),
        seq=teller.steps_seen,
        gm=story.gm,
        steps=story.steps,
        turns=story.turns,
        cast=story.cast,
        numbers=story.numbers,
    ).model_dump(mode="json")


async def timeline(request: web.Request) -> web.Response:
    game, teller = await told(request)
    return json_answer(answer(game.id, game.name, teller))


async def export(request: web.Request) -> web.Response:
    game, teller = await told(request, keeping=True)
    return json_answer({**answer(game.id, game.name, teller), "events": teller.shown})


async def recap_of(request: web.Request) -> web.Response:
    game, teller = await told(request)
    return web.Response(
        text=recap(teller.told(), game.name, seen_as(teller)),
        content_type="text/markdown",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="seize-{game.id}.md"'},
    )


async def replay(request: web.Request) -> web.Response:
    _, teller = await told(request, replaying=True)
    view = json.loads(teller.table.view(teller.viewer).model_dump_json())
    answered = ReplayAnswer(seq=teller.steps_seen, at=teller.last_at, view=view)
    return json_answer(answered.model_dump())


def _seq(raw: str | None, last: int) -> int:
    if raw is None or raw == "":
        raise malformed("seq", "is required: the step to see the table at")
    try:
        seq = int(raw)
    except ValueError:
        raise malformed("seq", "is a sequence number (0 or more)") from None
    if not 0 <= seq <= last:
        raise problem(
            web.HTTPUnprocessableEntity,
            "invalid",
            f"seq: the table has {last} steps; ask for 0 to {last}",
            field="seq",
        )
    return seq


ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/timeline",
        timeline,
        "The table's story as the caller's role saw it: steps, turns and the numbers",
        "readTimeline",
        {200: Content("The timeline", TimelineAnswer), **refusals(401, 403, 404, 429)},
        roles=EVERYONE,
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/replay",
        replay,
        "The table as the caller's role saw it after a step",
        "readReplay",
        {200: Content("The view then", ReplayAnswer), **refusals(400, 401, 403, 404, 422, 429)},
        roles=EVERYONE,
        parameters=(
            Parameter(
                "seq",
                "query",
                {"type": "integer", "minimum": 0},
                "The step (an event's sequence; 0: before the first)",
            ),
        ),
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/recap",
        recap_of,
        "The table's story as a Markdown recap, as the caller's role saw it",
        "readRecap",
        {200: Content("The recap", media="text/markdown"), **refusals(401, 403, 404, 429)},
        roles=EVERYONE,
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/export",
        export,
        "The table's story and every event the caller's role was shown, with its time",
        "readExport",
        {200: Content("The export", ExportAnswer), **refusals(401, 403, 404, 429)},
        roles=EVERYONE,
    ),
]

"""A table's die registry: which smart die (by its own id) belongs to which character, or to
the GM, and how the table takes its dice.

Players bring their own Bluetooth dice, and a roll must land on its owner's pending roll, not
on whoever happens to be next; so each die is registered to an owner, from the console or by
the first roll the page asks for (a claim: "roll the die you will use"). The registry is kept
in the store beside the devices' reports, so that the die station, every console and every
server on the database read the same owners; it has a bound of its own (``MAX_DICE``), apart
from the devices' limit. It also holds the table's dice options: the window within which dice
rolled together are one roll, and whether the acting character's die blinks.

A die connected on a player's phone (the player page's Web Bluetooth) is no station's: the
phone registers it to its player's character and reports how it is (``phone``: connected,
battery), so the GM's console shows it with the station's dice, and answers the player's own
dice requests. A player's token reads and changes the registry for the player's own characters
only: their dice, their claims, the answers to their requests (with their dice), and the
options to read (the phone honours ``blink``); everything else is the GM's.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Collection
from typing import Any

from aiohttp import web

from rules.roles import GM, Role
from server.devices import dice_requests
from server.devices.dice_requests import RequestError
from server.devices.reports import REGISTRY, ROLLERS_SCHEMA, rollers
from server.errors import problem
from server.http.api import caller, game_of, json_body
from server.http.context import SEIZE, Seize
from server.http.routes import Content, Route, refusals
from server.tables.games import Game

MAX_DICE = 32
"""Dice a table registers. A station holds about seven at once (``adapters/dice.py``), and a
table may run two or three stations (more than seven dice, or dice on both ends of a long
table), while players connect their own on their phones, and dice met once stay registered
while away: 32 is four full stations, or three and a die on each of eight phones, and still a
registry a console lists at a glance and the store keeps in a few kilobytes."""
DIE_ID = re.compile(r"[A-Za-z0-9:_-]{1,40}")
GM_OWNER = "gm"
DEFAULTS: dict[str, Any] = {"kind": "dice registry", "dice": {}, "claims": [], "window": 1.0,
                            "blink": True, "requests": {}, "answers": {}}  # fmt: skip
OPTIONS = ("window", "blink")
SWAPS = 8
"""Tries to change the registry while others change it: a table's consoles and phones."""


class RegistryError(ValueError):
    """A change the registry refuses; ``field`` names the part at fault, nothing is kept."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NotYoursError(RegistryError):
    """A player's change that reaches past the player's own characters: refused as the
    roles' rule, ``field`` naming the part at fault; nothing is kept."""


async def registry(seize: Seize, table_id: str) -> dict[str, Any]:
    """The table's registry, with the defaults for what was never set."""
    return (await _kept(seize, table_id))[1]


async def _kept(seize: Seize, table_id: str) -> tuple[str | None, dict[str, Any]]:
    """The registry as the store keeps it (None: never changed), and as it is read."""
    return _among(await seize.store.device_reports(table_id))


def _among(reports: list[tuple[str, str, float]]) -> tuple[str | None, dict[str, Any]]:
    """The registry among the table's reports: as kept (None: never changed), and as read."""
    for device, report, _ in reports:
        if device == REGISTRY:
            kept: dict[str, Any] = json.loads(report)
            return report, {**DEFAULTS, **kept}
    return None, dict(DEFAULTS)


async def changing(
    seize: Seize, table_id: str, change: Any, owners: set[str], mine: Collection[str] | None
) -> dict[str, Any]:
    """Apply ``change`` to the registry as kept, and keep it (see ``swapped``)."""
    after = await swapped(seize, table_id, lambda current: changed(current, change, owners, mine))
    if isinstance(change, dict) and "answers" in change:
        dice_requests.heard(table_id)
    return after


async def swapped(
    seize: Seize, table_id: str, alter: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    """Keep the registry ``alter`` makes of the one kept (its requests and answers long past
    their wait forgotten), unless another change came in between (a console's and a phone's
    at once, on any server): then again on what that one left, so neither is lost. Past
    ``SWAPS`` tries the caller is told to try again."""
    for _ in range(SWAPS):
        before, current = await _kept(seize, table_id)
        after = alter(dice_requests.pruned(current, time.time()))
        if await seize.store.swap_device_report(table_id, REGISTRY, before, json.dumps(after)):
            return after
    raise problem(web.HTTPConflict, "stale", "the dice registry is changing: try again")


def changed(
    current: dict[str, Any],
    change: Any,
    owners: set[str],
    mine: Collection[str] | None = None,
) -> dict[str, Any]:
    """The registry after ``change``: ``dice`` sets (or, with null, forgets) each die named,
    ``claims`` replaces the owners waiting to claim a die with their next roll, ``window`` and
    ``blink`` set the options, ``answers`` answers dice requests (``dice_requests.answered``).
    ``mine``, for a player's change, are the player's characters: the change may touch only
    their dice, their claims and their requests (answered with their dice: a phone's), no
    option. Raises RegistryError naming the field at fault (NotYoursError for what is not the
    player's)."""
    if not isinstance(change, dict) or not set(change) <= {"dice", "claims", "answers", *OPTIONS}:
        raise RegistryError("body", "an object of dice, claims, window, blink and answers")
    after = {**current, "dice": dict(current["dice"])}
    for die, entry in _object(change.get("dice", {}), "dice").items():
        if not DIE_ID.fullmatch(die):
            raise RegistryError(f"dice.{die}", "a die's id is 1 to 40 letters, digits, : _ -")
        kept = current["dice"].get(die)
        if mine is not None and kept is not None and kept["owner"] not in mine:
            message = "this die is another character's: only the GM changes it"
            raise NotYoursError(f"dice.{die}", message)
        if entry is None:
            after["dice"].pop(die, None)
            continue
        after["dice"][die] = _entry(die, _object(entry, f"dice.{die}"), kept, owners, mine)
    if len(after["dice"]) > MAX_DICE:
        raise RegistryError(
            "dice", f"a table registers at most {MAX_DICE} dice: forget one (null) first"
        )
    if "claims" in change:
        after["claims"] = _claims(current["claims"], change["claims"], owners, mine)
    if mine is not None and (option := next((o for o in OPTIONS if o in change), None)):
        raise NotYoursError(option, "the GM sets the table's dice options")
    if "answers" in change:
        if mine is not None:
            _answering_own(after, change["answers"], mine)
        try:
            after = dice_requests.answered(after, change["answers"])
        except RequestError as refused:
            raise RegistryError(refused.field, str(refused)) from None
    if "window" in change:
        window = change["window"]
        if isinstance(window, bool) or not isinstance(window, int | float) or not 0 <= window <= 5:
            raise RegistryError("window", "seconds from 0 to 5")
        after["window"] = float(window)
    if "blink" in change:
        if not isinstance(change["blink"], bool):
            raise RegistryError("blink", "true or false")
        after["blink"] = change["blink"]
    return after


def _entry(
    die: str,
    fields: dict[str, Any],
    kept: dict[str, Any] | None,
    owners: set[str],
    mine: Collection[str] | None,
) -> dict[str, Any]:
    """A die's entry after its change: the owner always given, the name, ``tens`` and the
    phone's state kept unless given (a console reassigning a phone's die leaves its state as
    the phone last told it); ``"phone": null`` forgets the state. ``tens`` marks a d10 that
    reads the tens of a d100, so that two d10s make one (a d00 reads tens by itself)."""
    if not set(fields) <= {"owner", "name", "tens", "phone"}:
        raise RegistryError(f"dice.{die}", "an object of owner, name, tens and phone")
    owner = fields.get("owner")
    name = fields.get("name", (kept or {}).get("name", die))
    if mine is not None and owner not in mine:  # first: a player learns nothing of the rest
        message = "a player registers dice to their own characters only"
        raise NotYoursError(f"dice.{die}.owner", message)
    if not isinstance(owner, str) or owner not in owners:
        raise RegistryError(f"dice.{die}.owner", f"{owner!r} is no character of this table")
    if not isinstance(name, str) or not 0 < len(name) <= 40:
        raise RegistryError(f"dice.{die}.name", "a name of 1 to 40 characters")
    entry: dict[str, Any] = {"owner": owner, "name": name}
    tens = fields.get("tens", (kept or {}).get("tens", False))
    if not isinstance(tens, bool):
        raise RegistryError(f"dice.{die}.tens", "true or false: whether this d10 reads tens")
    if tens:
        entry["tens"] = True
    phone = fields["phone"] if "phone" in fields else (kept or {}).get("phone")
    if phone is not None:
        entry["phone"] = _phone(phone, f"dice.{die}.phone")
    return entry


def _phone(state: Any, field: str) -> dict[str, Any]:
    """How a die on a player's phone is: connected or not, its battery (a percentage, or null
    while the die has not said) and whether it charges."""
    fields = _object(state, field)
    if set(fields) != {"connected", "battery", "charging"}:
        raise RegistryError(field, "an object of connected, battery and charging")
    battery = fields["battery"]
    if battery is not None and (
        isinstance(battery, bool) or not isinstance(battery, int) or not 0 <= battery <= 100
    ):
        raise RegistryError(f"{field}.battery", "a percentage from 0 to 100, or null")
    for flag in ("connected", "charging"):
        if not isinstance(fields[flag], bool):
            raise RegistryError(f"{field}.{flag}", "true or false")
    return {"connected": fields["connected"], "battery": battery, "charging": fields["charging"]}


def _answering_own(book: dict[str, Any], answers: Any, mine: Collection[str]) -> None:
    """A player answers only their own characters' requests, and with dice registered to their
    own characters (the dice on their phone), never another's request or die: checked before
    the answers' form, so that nothing of another's request is told. What is not a request, an
    answer or a die's id is left for ``dice_requests.answered`` to refuse."""
    if not isinstance(answers, dict):
        return
    for rid, answer in answers.items():
        request = book["requests"].get(rid)
        if request is not None and request["owner"] not in mine:
            message = "this dice request is another character's: their own dice answer it"
            raise NotYoursError(f"answers.{rid}", message)
        dice = answer.get("dice") if isinstance(answer, dict) else None
        if isinstance(dice, list) and any(
            isinstance(die, str) and book["dice"].get(die, {}).get("owner") not in mine
            for die in dice
        ):
            message = "a player answers with the dice registered to their own characters"
            raise NotYoursError(f"answers.{rid}.dice", message)


def _claims(
    before: list[str], asked: Any, owners: set[str], mine: Collection[str] | None
) -> list[str]:
    """The claims after a change asks for ``asked``: for the GM, as asked; for a player, who
    reads their own characters' claims alone, asked is their own: everyone else's stay where
    they were, the player's own are closed or kept as asked, and their new ones open after all
    of those. A player naming anyone else is refused before the names are looked up, so a
    hidden character's name is refused as one never at the table is."""
    if not isinstance(asked, list) or not all(isinstance(one, str) for one in asked):
        raise RegistryError("claims", "a list of the table's characters (or gm)")
    if mine is not None and not set(asked) <= set(mine):
        message = "a player opens and closes their own characters' claims only"
        raise NotYoursError("claims", message)
    if not set(asked) <= owners:
        raise RegistryError("claims", "a list of the table's characters (or gm)")
    if mine is None:
        return list(dict.fromkeys(asked))
    kept = [one for one in before if one not in mine or one in asked]
    return kept + [one for one in dict.fromkeys(asked) if one not in before]


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RegistryError(field, "an object")
    return value


def owners(view: dict[str, Any]) -> set[str]:
    """Who may own a die at a table, from the GM's view: its characters (or members), and
    the GM."""
    people = view.get("characters") or view.get("members") or []
    return {one["id"] for one in people} | {GM_OWNER}


def share(book: dict[str, Any], mine: Collection[str] | None) -> dict[str, Any]:
    """What of the registry a caller reads: all of it for the GM (``mine`` None); for a
    player, their own characters' dice, claims and dice requests, and the options their phone
    honours."""
    if mine is None:
        return book
    dice = {die: entry for die, entry in book["dice"].items() if entry["owner"] in mine}
    claims = [one for one in book["claims"] if one in mine]
    return {**book, "dice": dice, "claims": claims, **dice_requests.mine(book, mine)}


async def _registrant(request: web.Request) -> tuple[Game, frozenset[str] | None]:
    """The table, and the characters its caller may register dice to (None: the GM,
    anyone's); an overlay, bound to no one, is refused."""
    game = await game_of(request)
    viewer = (await caller(request, game)).viewer
    if viewer.role is Role.OVERLAY:
        message = "dice are registered with the GM's token or a player's"
        raise problem(web.HTTPForbidden, "forbidden", message, rule="roles")
    return game, None if viewer.is_gm else viewer.participants


async def read(request: web.Request) -> web.Response:
    game, mine = await _registrant(request)
    return web.json_response(await _read(request.app[SEIZE], game.id, mine))


async def _read(seize: Seize, table_id: str, mine: frozenset[str] | None) -> dict[str, Any]:
    """What a caller reads of the registry (``share``), and who can send a roll without anyone
    typing it (``rollers``): a phone says where its player's roll comes from."""
    reports = await seize.store.device_reports(table_id)
    return {**share(_among(reports)[1], mine), "rollers": rollers(reports, mine)}


async def change(request: web.Request) -> web.Response:
    game, mine = await _registrant(request)
    seize = request.app[SEIZE]
    view = game.table.view(GM).model_dump(mode="json")  # every character may own a die
    body = await json_body(request)
    try:
        await changing(seize, game.id, body, owners(view), mine)
    except NotYoursError as refused:
        raise problem(web.HTTPForbidden, "forbidden", str(refused), rule="roles",
                      field=refused.field) from None  # fmt: skip
    except RegistryError as refused:
        raise problem(
            web.HTTPUnprocessableEntity, "invalid", str(refused), field=refused.field
        ) from None
    return web.json_response(await _read(seize, game.id, mine))


_PHONE_SCHEMA = {
    "type": ["object", "null"],
    "description": "How a die on a player's phone is (null forgets it)",
    "properties": {"connected": {"type": "boolean"},
                   "battery": {"type": ["integer", "null"], "minimum": 0, "maximum": 100},
                   "charging": {"type": "boolean"}},
    "required": ["connected", "battery", "charging"],
}  # fmt: skip
_REGISTRY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "dice": {"type": "object", "maxProperties": MAX_DICE, "additionalProperties": {
            "type": "object", "properties": {"owner": {"type": "string"},
                                             "name": {"type": "string"},
                                             "phone": _PHONE_SCHEMA}}},
        "claims": {"type": "array", "items": {"type": "string"}},
        "window": {"type": "number"},
        "blink": {"type": "boolean"},
        "requests": {"type": "object", "description": "Dice requests open (read only)",
                     "additionalProperties": {"type": "object"}},
        "answers": {"type": "object", "description": "Answers to dice requests, by request: "
                    "faces and the dice that rolled them (GM; a player, their own characters' "
                    "requests with their own dice)",
                    "additionalProperties": {"type": "object", "properties": {
                        "faces": {"type": "array", "items": {"type": "integer"}},
                        "dice": {"type": "array", "items": {"type": "string"}}}}},
    },
}  # fmt: skip
_READ = {
    **_REGISTRY_SCHEMA,
    "properties": {**_REGISTRY_SCHEMA["properties"], "rollers": ROLLERS_SCHEMA},
}
PLAYERS = frozenset({Role.GM, Role.PLAYER})

ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/dice",
        read,
        "The table's die registry: each die's owner, the open claims and dice requests, the "
        "dice options (GM); a player's own dice, claims and requests, and the options",
        "readDice",
        {
            200: Content("The registry, and who can send a roll without anyone typing it", _READ),
            **refusals(401, 403, 404, 429),
        },
        roles=PLAYERS,
    ),
    Route(
        "PUT",
        "/api/tables/{table_id}/dice",
        change,
        "Register dice to their owners, open claims, set the dice options, answer dice requests "
        "(GM); register and report dice, open claims and answer dice requests, for the "
        "player's own characters (a player)",
        "changeDice",
        {
            200: Content("The registry after the change, as the caller reads it", _READ),
            **refusals(400, 401, 403, 404, 408, 409, 413, 422, 429),
        },
        body=Content(
            "What changes: dice (null forgets one), claims, window, blink, answers",
            _REGISTRY_SCHEMA,
        ),
        roles=PLAYERS,
        largest=4096,
    ),
]

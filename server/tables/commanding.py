"""Commanding a table: the one path a command takes, whoever sends it.

A command reaches a table as a request (``POST /api/tables/{id}/commands``), as a message on the
socket a client follows the table on, or from a device the server runs. Each sender finds the
table and checks who is sending in its own way (a header, the socket's token, the device's GM
token), then hands the command here: it is parsed against the table's system, run by the
``Runner``, counted, and whatever refuses it is told in one plain value, a ``Refusal``, which
each sender says in its own form (the API's problem document, the socket's ``refused`` message,
a device's status and body). It sits in the tables room, below every sender, so that none goes
through another sender's routes to reach it; the counts go to what the server hands it
(``Tally``), the server's metrics, which live above.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Protocol

from aiohttp import web
from pydantic import ValidationError

from rules.errors import RoleError, RuleError
from server.errors import (
    KeyReusedError,
    ServerFaultError,
    StaleError,
    StoreUnavailableError,
    document,
    internal,
    invalid_input,
    unavailable,
)
from server.tables.access import Principal
from server.tables.games import Game
from server.tables.runner import Runner, Turn

log = logging.getLogger("seize")


class Tally(Protocol):
    """Where each command's outcome is counted (the server's metrics)."""

    def command(self, system: str, outcome: str, seconds: float, events: int = 0) -> None:
        """One command of ``system``: how it ended, how long it took, the events it made."""


@dataclass(frozen=True)
class Refusal:
    """A refused command (or a check before it) as data: the status the API answers with, its
    problem document, and the seconds a client is asked to wait before it tries again."""

    status: int
    problem: dict[str, Any]
    retry_after: int | None = None

    @classmethod
    def of(cls, error: web.HTTPException) -> Refusal:
        """A refusal raised as the API's error (``server.errors.problem``): a token or a table
        refused by the checks every sender makes before its command comes here."""
        body: dict[str, Any] = json.loads(error.text or "{}")
        wait = error.headers.get("Retry-After")
        return cls(error.status, body, int(wait) if wait is not None else None)


def refusal_of(error: RuleError | StaleError | KeyReusedError | ServerFaultError) -> Refusal:
    """How the runner's refusal of a command is said, to every sender."""
    match error:
        case RoleError():
            return Refusal(403, document("forbidden", error.message, rule=error.rule))
        case RuleError():
            found = document("rule", error.message, rule=error.rule, field=error.field)
            return Refusal(422, found)
        case StaleError():
            return Refusal(409, document("stale", str(error), seq=error.current))
        case KeyReusedError():
            return Refusal(422, document("key_reused", str(error), field="Idempotency-Key"))
        case ServerFaultError():
            return Refusal(500, document("server_fault", str(error), command=error.command))


COUNTED_AS = {
    "invalid": "invalid",
    "key_reused": "invalid",
    "forbidden": "forbidden",
    "rule": "refused",
    "server_fault": "fault",
}
"""The outcome a refused command is counted as, by the kind of its refusal. A stale one is not
counted: it was made against an older table, and never decided."""


async def apply_command(
    runner: Runner,
    tally: Tally,
    game: Game,
    principal: Principal,
    body: Any,
    key: str | None = None,
    if_match: int | None = None,
    turn: Turn | None = None,
) -> dict[str, Any] | Refusal:
    """Parse and run one command of ``principal``'s, and count it: its answer (``{"seq",
    "events"}``), or why it was refused. A sender that goes on before it is answered is told
    of its ``turn`` (``Runner.execute``)."""
    started = time.perf_counter()
    answer = await _run(runner, game, principal, body, key, if_match, turn)
    seconds = time.perf_counter() - started
    if not isinstance(answer, Refusal):
        tally.command(game.system.name, "applied", seconds, len(answer["events"]))
    elif (outcome := COUNTED_AS.get(answer.problem["error"])) is not None:
        tally.command(game.system.name, outcome, seconds)
    return answer


async def _run(
    runner: Runner,
    game: Game,
    principal: Principal,
    body: Any,
    key: str | None,
    if_match: int | None,
    turn: Turn | None,
) -> dict[str, Any] | Refusal:
    try:
        parsed = game.system.commands.validate_python(body)
    except ValidationError as error:
        return Refusal(422, invalid_input(error, root="command"))
    try:
        return await runner.execute(game, principal, parsed, key, if_match, turn)
    except (RuleError, StaleError, KeyReusedError, ServerFaultError) as error:
        return refusal_of(error)


async def settled(work: Awaitable[dict[str, Any] | Refusal]) -> dict[str, Any] | Refusal:
    """The answer of ``work`` (a command and the checks before it), or its refusal as the HTTP
    API (its middleware included) would give it: a database out of reach and a failure nobody
    foresaw are refusals too, so a sender that is not a request (a live socket, a device) goes
    on."""
    try:
        return await work
    except web.HTTPException as refused:
        return Refusal.of(refused)
    except StoreUnavailableError:
        log.warning("database unavailable")  # nothing was stored: a retry is safe
        return Refusal.of(unavailable())
    except Exception:
        log.exception("command failed")
        return Refusal.of(internal())

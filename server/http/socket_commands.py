"""Commands sent over the WebSocket a client already follows its table on.

A client that holds the socket need not open a request per command: it sends

    {"type": "command", "id": "c7", "command": {...}, "idempotency_key": "...", "if_match": 12}

and is answered on the same socket, ``answer`` or ``refused``, with the ``id`` it chose. Every
step is the HTTP route's (``POST /api/tables/{id}/commands``), called rather than copied: the
socket's token is checked afresh for each command (a revoked token stops commanding at once, as
over HTTP), the token's command rate limit counts each message, the message is read and bounded
as a request's body is (``server.http.reading``), and the command takes the path every
sender's does (``server.tables.commanding``), so a refusal carries the problem document and
status the HTTP route would answer with. See docs/api.md.

Other kinds of message are handled by the rooms above this one (a VTT's dice requests,
``server/devices/dice_channel.py``), installed in the application under ``MESSAGES`` by their
``type``: each is counted against the same rate limit, and refused the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from aiohttp import WSMessage, WSMsgType, web

from server.http.context import Seize
from server.http.reading import (
    NOT_A_SEQUENCE,
    TOO_MANY_COMMANDS,
    check_shape,
    idempotency_key,
    limited,
    malformed,
    parse_json,
    strict_json,
    table_of,
    too_large,
)
from server.tables.access import digest
from server.tables.commanding import Refusal, apply_command, settled
from server.tables.runner import Turn

Later = Callable[[str], None]
"""Sends a message on the socket later, after the reply (a dice request's answer)."""
Handler = Callable[[Seize, str, str, dict[str, Any], Later], Awaitable[dict[str, Any]]]
"""One kind of message: the table, the socket's token, the message, and how to send later;
answers with the reply, or raises the HTTP error to refuse it with."""
MESSAGES = web.AppKey("socket messages", dict[str, Handler])

FIELDS = frozenset({"type", "id", "command", "idempotency_key", "if_match"})
LONGEST_ID = 64
SHAPE = '{"type": "command", "id": "…", "command": {…}}'


@dataclass(frozen=True)
class CommandMessage:
    """A client's command message, well formed."""

    id: str
    command: Any
    key: str | None
    if_match: int | None


class Send(Protocol):
    """A reply's way out: its place in the socket's queue (``server.live.hub.Place``). A
    command's answer leaves once the socket has been sent the events up to its ``seq``, and
    after the replies to every message read before it."""

    def __call__(self, text: str, seq: int = 0) -> None: ...


async def reply(
    seize: Seize,
    table_id: str,
    token: str,
    message: WSMessage,
    send: Send,
    queued: Callable[[], None],
    others: Mapping[str, Handler],
    later: Later,
) -> None:
    """Reply to one message from a client, on its socket (``send``: the reply's place): the
    command's answer, or why it was refused; a message of another kind is its handler's
    (``others``, by type), which may send more on the socket ``later``. Nothing a client sends
    raises: a malformed message is refused like any other. ``queued`` is called once a command
    waits its turn at its table; its answer is handed to ``send`` as soon as it is settled,
    before its events go out, so that both leave in one write (``Runner.execute``)."""
    wait = seize.rate.allow(digest(token))  # every message counts, as every POST does
    try:
        data = decoded(message, seize.settings.max_body)
    except web.HTTPException as error:
        send(refused(None, Refusal.of(error)))
        return
    ident = ident_of(data)
    kind = data.get("type") if isinstance(data, dict) else None
    handler = others.get(kind) if isinstance(kind, str) else None
    if handler is not None:
        heard = await settled(_other(handler, seize, table_id, token, data, wait, later))
        send(refused(ident, heard) if isinstance(heard, Refusal) else strict_json(heard))
        return

    def answered(answer: dict[str, Any]) -> None:
        send(strict_json({"type": "answer", "id": ident, **answer}), answer["seq"])

    outcome = await settled(_obey(seize, table_id, token, data, wait, Turn(queued, answered)))
    if isinstance(outcome, Refusal):
        send(refused(ident, outcome))


async def _obey(
    seize: Seize,
    table_id: str,
    token: str,
    data: Any,
    wait: float | None,
    turn: Turn,
) -> dict[str, Any] | Refusal:
    limited(wait, TOO_MANY_COMMANDS)
    message = command_message(data)
    game = await table_of(seize, table_id)
    principal = await seize.tokens.principal(token, game.id)
    return await apply_command(
        seize.runner,
        seize.metrics,
        game,
        principal,
        message.command,
        message.key,
        message.if_match,
        turn,
    )


async def _other(
    handler: Handler,
    seize: Seize,
    table_id: str,
    token: str,
    data: dict[str, Any],
    wait: float | None,
    later: Later,
) -> dict[str, Any]:
    limited(wait, TOO_MANY_COMMANDS)
    return await handler(seize, table_id, token, data, later)


def refused(ident: str | None, refusal: Refusal) -> str:
    body: dict[str, Any] = {
        "type": "refused",
        "id": ident,
        "status": refusal.status,
        "problem": refusal.problem,
    }
    if refusal.retry_after is not None:
        body["retry_after"] = refusal.retry_after
    return strict_json(body)


def decoded(message: WSMessage, largest: int) -> Any:
    """A message's JSON: refused when it is not a text frame, is larger than a request body
    may be (``max_body``), or is not JSON."""
    if message.type is not WSMsgType.TEXT:
        raise malformed("message", "send each command as a text frame of JSON")
    text: str = message.data
    if len(text.encode()) > largest:
        raise too_large("message", largest)
    return parse_json(text, "message")


def ident_of(data: Any) -> str | None:
    """The message's ``id`` if it is one a reply can carry back; else the reply's is null."""
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) and 1 <= len(ident) <= LONGEST_ID else None


def command_message(data: Any) -> CommandMessage:
    """The message checked field by field, each refusal naming the field, as the HTTP route
    names its headers (``idempotency_key`` and ``if_match`` stand for ``Idempotency-Key`` and
    ``If-Match``); the command itself is checked as a request body is, and then validated."""
    if not isinstance(data, dict):
        raise malformed("message", f"must be a JSON object: {SHAPE}")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise malformed(unknown[0], "is not a field of a command message")
    if data.get("type") != "command":
        raise malformed("type", 'must be "command"')
    ident = ident_of(data)
    if ident is None:
        raise malformed("id", f"must be a string of 1 to {LONGEST_ID} characters")
    if "command" not in data:
        raise malformed("command", "is required: the command to run")
    key = idempotency_key(data.get("idempotency_key"), "idempotency_key")
    if_match = data.get("if_match")
    if if_match is not None and type(if_match) is not int:  # not a bool, nor a huge number
        raise malformed("if_match", NOT_A_SEQUENCE)
    check_shape(data["command"], "command")
    return CommandMessage(ident, data["command"], key, if_match)

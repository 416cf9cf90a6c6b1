"""The OpenAPI 3.1 description of the API, generated from the same pydantic models that parse
requests, so every command of every system is in it exactly as the server accepts it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, TypeAdapter

from server.http.api import (
    CommandAnswer,
    EventsAnswer,
    NewTable,
    NewTableAnswer,
    NewToken,
    NewTokenAnswer,
    TableAnswer,
)
from server.tables.systems import SYSTEMS

REF = "#/components/schemas/{model}"


class Problem(BaseModel):
    """Every error: what went wrong, and where a rule or a field is at fault, its name."""

    error: str = Field(
        description="invalid, rule, forbidden, stale, not_found, unauthorized, "
        "rate_limited, malformed"
    )
    message: str
    rule: str | None = None
    field: str | None = None
    errors: list[dict[str, str]] | None = None
    seq: int | None = Field(default=None, description="For stale: the table's sequence now")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    reasons = {
        400: "Malformed request",
        401: "No or unknown token",
        403: "Role may not",
        404: "No such table",
        409: "StaleError (If-Match)",
        413: "Body too large",
        422: "Invalid input or a rule broken",
        429: "Too many requests",
        500: "The server could not work out or show the outcome; nothing was stored",
        503: "This version cannot show the table (its GM can undo)",
    }
    return {str(s): {"description": reasons[s], **_json(_ref("Problem"))} for s in statuses}


def build() -> dict[str, Any]:
    models: list[tuple[str, type[BaseModel]]] = [
        ("NewTable", NewTable), ("NewTableAnswer", NewTableAnswer), ("NewToken", NewToken),
        ("NewTokenAnswer", NewTokenAnswer), ("TableAnswer", TableAnswer),
        ("CommandAnswer", CommandAnswer), ("EventsAnswer", EventsAnswer), ("Problem", Problem),
    ]  # fmt: skip
    adapters: list[tuple[str, Any, TypeAdapter[Any]]] = [
        (name, "validation", TypeAdapter(model)) for name, model in models
    ]
    for name, system in SYSTEMS.items():
        adapters += [
            (f"{name}/command", "validation", system.commands),
            (f"{name}/event", "serialization", system.events),
            (f"{name}/view", "serialization", TypeAdapter(system.view_model)),
            (f"{name}/options", "validation", TypeAdapter(system.options_model)),
        ]
    top, defs = TypeAdapter.json_schemas(adapters, ref_template=REF)
    schemas: dict[str, Any] = dict(defs.get("$defs", {}))
    for (key, _), schema in top.items():
        schemas[key.replace("/", "_")] = schema
    commands = {"anyOf": [_ref(f"{name}_command") for name in SYSTEMS]}
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
    after = {
        "name": "after",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 0},
        "description": "The last sequence the client has seen",
    }
    participant = {
        "name": "participant",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
    }
    handoff = {
        "type": "object",
        "properties": {"url": {"type": "string"}, "svg": {"type": "string"}},
        "required": ["url", "svg"],
    }
    secured: list[dict[str, list[str]]] = [{"bearer": []}]
    public = {
        "name": "as",
        "in": "query",
        "required": False,
        "schema": {"enum": ["public"]},
        "description": "Render the public view, whatever the token: what a VTT may write "
        "where every player can read it",
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Seize",
            "version": "0.1.0",
            "description": "An initiative server for tabletop role-playing games. "
            "See docs/api.md for a walk-through and docs/rules.md for every command.",
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A table's GM, player or overlay token (pages may pass ?token=)",
                }
            },
        },
        "paths": {
            "/api/tables": {
                "post": {
                    "summary": "Create a table",
                    "operationId": "createTable",
                    "requestBody": {"required": True, **_json(_ref("NewTable"))},
                    "responses": {
                        "201": {"description": "Created", **_json(_ref("NewTableAnswer"))},
                        **_errors(400, 401, 413, 422, 429),
                    },
                }
            },
            "/api/tables/{table_id}": {
                "get": {
                    "summary": "The table as the caller's role sees it",
                    "operationId": "readTable",
                    "parameters": [table_id],
                    "security": secured,
                    "responses": {
                        "200": {"description": "The view", **_json(_ref("TableAnswer"))},
                        **_errors(401, 403, 404, 429, 503),
                    },
                }
            },
            "/api/tables/{table_id}/commands": {
                "post": {
                    "summary": "Send one command",
                    "operationId": "sendCommand",
                    "parameters": [
                        table_id,
                        {
                            "name": "Idempotency-Key",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string", "minLength": 1, "maxLength": 200},
                            "description": "A retry with the same key returns the first answer",
                        },
                        {
                            "name": "If-Match",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string", "pattern": r'^(W/)?"?[0-9]{1,18}"?$'},
                            "description": "The sequence it was made against; 409 if stale",
                        },
                    ],
                    "security": secured,
                    "requestBody": {"required": True, **_json(commands)},
                    "responses": {
                        "200": {"description": "Applied", **_json(_ref("CommandAnswer"))},
                        **_errors(400, 401, 403, 404, 409, 413, 422, 429, 500),
                    },
                }
            },
            "/api/tables/{table_id}/events": {
                "get": {
                    "summary": "Events after a sequence, as the caller may see them",
                    "operationId": "readEvents",
                    "parameters": [table_id, after],
                    "security": secured,
                    "responses": {
                        "200": {"description": "Events", **_json(_ref("EventsAnswer"))},
                        **_errors(400, 401, 403, 404, 429),
                    },
                }
            },
            "/api/tables/{table_id}/tokens": {
                "post": {
                    "summary": "Mint a player token (GM)",
                    "operationId": "mintToken",
                    "parameters": [table_id],
                    "security": secured,
                    "requestBody": {"required": True, **_json(_ref("NewToken"))},
                    "responses": {
                        "201": {"description": "Minted", **_json(_ref("NewTokenAnswer"))},
                        **_errors(400, 401, 403, 404, 413, 422, 429),
                    },
                }
            },
            **{
                f"/api/tables/{{table_id}}/handoff/{path}": {
                    "post": {
                        "summary": summary,
                        "operationId": operation,
                        "parameters": parameters,
                        "security": secured,
                        "responses": {
                            "201": {"description": "Minted", **_json(handoff)},
                            **_errors(401, 403, 404, 429),
                        },
                    }
                }
                for path, summary, operation, parameters in (
                    (
                        "players/{participant}",
                        "A fresh player link and its QR code (GM)",
                        "handPlayer",
                        [table_id, participant],
                    ),
                    (
                        "overlay",
                        "A fresh overlay link and its QR code; older ones are revoked (GM)",
                        "handOverlay",
                        [table_id],
                    ),
                )
            },
            "/api/tables/{table_id}/ws": {
                "get": {
                    "summary": "Follow the table live, and send commands, over a WebSocket",
                    "description": (
                        "The server sends view, event and bye messages; the client may send "
                        "command messages, each answered on the socket (answer or refused) "
                        "after the command's own events. The message shapes are in docs/api.md."
                    ),
                    "operationId": "followWs",
                    "parameters": [table_id, after],
                    "security": secured,
                    "responses": {
                        "101": {"description": "Switching to WebSocket"},
                        **_errors(400, 401, 403, 404, 429),
                    },
                }
            },
            "/api/tables/{table_id}/sse": {
                "get": {
                    "summary": "Follow the table live as Server-Sent Events (Last-Event-ID)",
                    "operationId": "followSse",
                    "parameters": [table_id, after],
                    "security": secured,
                    "responses": {
                        "200": {
                            "description": "An event stream",
                            "content": {"text/event-stream": {}},
                        },
                        **_errors(400, 401, 403, 404, 429),
                    },
                }
            },
            "/api/tables/{table_id}/foundry/combat": {
                "get": {
                    "summary": "The table as a Foundry VTT Combat document",
                    "operationId": "foundryCombat",
                    "parameters": [table_id, public],
                    "security": secured,
                    "responses": {
                        "200": {
                            "description": "round, turn, combatants",
                            **_json({"type": "object"}),
                        },
                        **_errors(401, 403, 404, 429),
                    },
                }
            },
            "/api/tables/{table_id}/roll20/turnorder": {
                "get": {
                    "summary": "The table as Roll20's turn order, the current actor first",
                    "operationId": "roll20TurnOrder",
                    "parameters": [
                        table_id,
                        public,
                        {
                            "name": "page",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "string"},
                        },
                    ],
                    "security": secured,
                    "responses": {
                        "200": {
                            "description": "Turn order entries",
                            **_json({"type": "array", "items": {"type": "object"}}),
                        },
                        **_errors(401, 403, 404, 429),
                    },
                },
                "put": {
                    "summary": "Join everyone in a Roll20 turn order (GM)",
                    "operationId": "roll20Import",
                    "parameters": [
                        table_id,
                        {
                            "name": "kind",
                            "in": "query",
                            "required": False,
                            "schema": {"enum": ["hero", "villain", "mob"]},
                        },
                        {
                            "name": "side",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "string"},
                        },
                    ],
                    "security": secured,
                    "requestBody": {
                        "required": True,
                        **_json(
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
                            }
                        ),
                    },
                    "responses": {
                        "200": {
                            "description": "joined, skipped, refused",
                            **_json({"type": "object"}),
                        },
                        **_errors(400, 401, 403, 404, 413, 422, 429),
                    },
                },
            },
            "/healthz": {
                "get": {
                    "summary": "Liveness",
                    "operationId": "health",
                    "responses": {"200": {"description": "Serving"}},
                }
            },
            "/metrics": {
                "get": {
                    "summary": "Prometheus metrics",
                    "operationId": "metrics",
                    "responses": {
                        "200": {"description": "Prometheus text", "content": {"text/plain": {}}}
                    },
                }
            },
        },
    }

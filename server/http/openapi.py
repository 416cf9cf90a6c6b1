"""The OpenAPI 3.1 description of the API, made from the route table the router is made from,
and from the same pydantic models that parse requests, so every route is in it and every
command of every system is in it exactly as the server accepts it."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import BaseModel, TypeAdapter

from server.http.routes import Content, Route, ref
from server.tables.systems import SYSTEMS

OPENAPI = web.AppKey("openapi", dict)


def _content(content: Content) -> dict[str, Any]:
    if content.media is None:
        return {}
    schema = content.schema
    if schema is None:
        return {"content": {content.media: {}}}
    shown = ref(schema.__name__) if isinstance(schema, type) else schema
    return {"content": {content.media: {"schema": shown}}}


def _models(table: list[Route]) -> list[type[BaseModel]]:
    """Every model a route takes or answers, once each."""
    contents = [c for route in table for c in (route.body, *route.answers.values()) if c]
    found = {c.schema.__name__: c.schema for c in contents if isinstance(c.schema, type)}
    return [found[name] for name in sorted(found)]


def _schemas(table: list[Route]) -> dict[str, Any]:
    """The models' schemas, and each system's commands, events, view and options under the
    system's name (``four-color_command``: the union a command of that system is one of)."""
    adapters: list[tuple[str, Any, TypeAdapter[Any]]] = [
        (model.__name__, "validation", TypeAdapter(model)) for model in _models(table)
    ]
    for name, system in SYSTEMS.items():
        adapters += [
            (f"{name}/command", "validation", system.commands),
            (f"{name}/event", "serialization", system.events),
            (f"{name}/view", "serialization", TypeAdapter(system.view_model)),
            (f"{name}/options", "validation", TypeAdapter(system.options_model)),
        ]
    top, defs = TypeAdapter.json_schemas(adapters, ref_template=ref("{model}")["$ref"])
    schemas: dict[str, Any] = dict(defs.get("$defs", {}))
    for (key, _), schema in top.items():
        name = key.replace("/", "_")
        if schema != ref(name):  # a model is its definition, not a reference to itself
            schemas[name] = schema
    return schemas


def _operation(route: Route) -> dict[str, Any]:
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in route.path_parameters
    ]
    for parameter in route.parameters:
        described = {"description": parameter.description} if parameter.description else {}
        parameters.append(
            {
                "name": parameter.name,
                "in": parameter.where,
                "required": False,
                "schema": parameter.schema,
                **described,
            }
        )
    operation: dict[str, Any] = {"summary": route.summary, "operationId": route.operation}
    if route.description:
        operation["description"] = route.description
    if parameters:
        operation["parameters"] = parameters
    if route.roles:
        operation["security"] = [{"bearer": []}]
        operation["x-roles"] = sorted(route.roles)
    if route.body is not None:
        operation["requestBody"] = {"required": True, **_content(route.body)}
    operation["responses"] = {
        str(status): {"description": content.description, **_content(content)}
        for status, content in sorted(route.answers.items())
    }
    return operation


def build(table: list[Route]) -> dict[str, Any]:
    """The document of every route of ``table``."""
    paths: dict[str, dict[str, Any]] = {}
    for route in table:
        paths.setdefault(route.template, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Seize",
            "version": "0.1.0",
            "description": "An initiative server for tabletop role-playing games. "
            "See docs/api.md for a walk-through and docs/rules.md for every command.",
        },
        "components": {
            "schemas": _schemas(table),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A table's GM, player or overlay token (pages may pass ?token=)",
                }
            },
        },
        "paths": paths,
    }


async def document(request: web.Request) -> web.Response:
    return web.json_response(request.app[OPENAPI])


ROUTES = [
    Route(
        "GET",
        "/api/openapi.json",
        document,
        "This document: every route, and every command of every system",
        "openapi",
        {200: Content("OpenAPI 3.1", {"type": "object"})},
    ),
]

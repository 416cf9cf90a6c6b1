"""schemathesis hooks: every generated request goes to a real table of the system its body
speaks, with that table's GM token, so the fuzzer reaches the rules and not just 404s.

The test that runs schemathesis creates one table per system and names them in
``SEIZE_SCHEMA_TABLES`` (a JSON list of the tables as ``POST /api/tables`` answered).
"""

from __future__ import annotations

import json
import os
import zlib
from typing import Any

import schemathesis
from pydantic import ValidationError

from server.tables.systems import SYSTEMS

TABLES: list[dict[str, Any]] = json.loads(os.environ.get("SEIZE_SCHEMA_TABLES", "[]"))


def _table_for(body: Any) -> dict[str, Any]:
    """The table whose system takes the body as a command, else one chosen by the body."""
    for table in TABLES:
        try:
            SYSTEMS[table["system"]].commands.validate_python(body)
        except ValidationError:
            continue
        return table
    return TABLES[zlib.crc32(repr(body).encode()) % len(TABLES)]


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    """Name a real table and carry its GM token (tokens are tested in test_api.py)."""
    if TABLES and case.path_parameters and "table_id" in case.path_parameters:
        table = _table_for(case.body if isinstance(case.body, dict) else None)
        case.path_parameters["table_id"] = table["id"]
        headers = case.headers if case.headers is not None else {}
        headers["Authorization"] = f"Bearer {table['gm_token']}"
        case.headers = headers
    return case

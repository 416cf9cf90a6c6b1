"""The rules systems the server runs, by the names tables are created with."""

from __future__ import annotations

from typing import Any

from rules.awareness import AWARENESS
from rules.four_color import FOUR_COLOR
from rules.megatraveller_rcs import MEGATRAVELLER_RCS
from rules.table import System

AnySystem = System[Any, Any, Any, Any]

SYSTEMS: dict[str, AnySystem] = {
    system.name: system for system in (FOUR_COLOR, AWARENESS, MEGATRAVELLER_RCS)
}

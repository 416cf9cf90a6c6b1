"""The shared check for bad input: refused for the named rule, and nothing changed."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from rules.errors import RuleError
from rules.roles import GM, Viewer
from rules.table import Table, Undo

C = TypeVar("C", bound=BaseModel)


def refused(
    table: Table[Any, Any, C, Any], command: C | Undo, rule: str, actor: Viewer = GM
) -> RuleError:
    """Assert the command is refused for ``rule`` and that neither state nor log changed."""
    before, version = table.state, table.version
    with pytest.raises(RuleError) as error:
        table.execute(command, actor)
    assert error.value.rule == rule, str(error.value)
    assert table.state == before
    assert table.version == version
    return error.value

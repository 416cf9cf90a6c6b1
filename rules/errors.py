"""Why a command was refused.

Every refusal names the rule it breaks (``four-color.8``, ``megatraveller-rcs.5``, ``roles``), so
a console can show the table which rule of its book stopped the move, and the server can map
the kind of refusal to an HTTP status without parsing prose. A refusal never changes state:
``decide`` raises before any event exists.
"""

from __future__ import annotations


class RuleError(Exception):
    """A command the rules do not allow. ``rule`` is the ruling's id, ``field`` the input at fault.

    The message is shown to whoever sent the command, so it must not reveal what that sender
    may not see.
    """

    def __init__(self, rule: str, message: str, *, field: str | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.field = field


class RoleError(RuleError):
    """The sender's role may not give this command (the server answers 403, not 422)."""

    def __init__(self, message: str) -> None:
        super().__init__("roles", message)

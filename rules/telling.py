"""How a system tells its fight: what each event was, in the game's own words.

A table's story (``rules/chronicle.py``) is told from its log, event by event, each as one role
saw it. What that story needs of a system is small: what kind of step an event is, the line a
GM would write of it in a recap, whose turn it is, and which round (or page) the fight is in.
Each hook reads an event only as the role was shown it (the censored event, as JSON data), so
a story can name nothing that role was not shown: the hooks never see what was cut.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from pydantic import Field

from rules.roles import Viewer

S = TypeVar("S")

Shown = dict[str, Any]
"""An event as one role was shown it (``System.censor``)."""

Name = Callable[[str | None], str]
"""The name a participant's id stands for in the story."""


def possessive(name: str) -> str:
    """Whose it is, as the pages write it (``possessive`` in server/static/shared/forms.js):
    a name ending in a single "s" takes the apostrophe alone (the Goons' turn), any other the
    apostrophe and an "s" (Jena's, Doctor Null's, the Boss's).

    >>> [possessive(n) for n in ("Jena", "Goons", "Boss")]
    ["Jena's", "Goons'", "Boss's"]
    """
    plural_like = len(name) >= 2 and name[-1] in "sS" and name[-2] not in "sS"
    return f"{name}'" if plural_like else f"{name}'s"


def _off(value: object) -> bool:
    return value is None


TurnClock = Annotated[
    int | None,
    Field(
        ge=1,
        le=3600,
        description="Seconds a turn may take before the pages say so (a notice, never an "
        "action); none: no turn clock",
        exclude_if=_off,
    ),
]
"""Every system's option for a turn clock: off unless the table sets it, and then the pages
show the acting participant's time (``Story.turn``) and say when it is up. The rules never
read it: they have no clock, and the table never acts on it."""


@dataclass(frozen=True)
class Story(Generic[S]):
    """One system's words for its story."""

    gm: str
    """What the game calls its GM: the Editor, the referee."""
    round_word: str
    """What the game calls a round: a page of the Four Color Hack."""
    kind: Callable[[Shown], str]
    """The kind of step an event is (``panel``, ``seize``, ``preemption``); a join, a hide, a
    reveal and an undo are every system's and named by the story itself."""
    told: Callable[[Shown, Name], str]
    """The event as one line of a recap."""
    turn: Callable[[S, Viewer], str | None]
    """Whose turn it is as ``viewer`` sees the table: the one its view shows acting (the
    current Panel, the token, the declaration), or None."""
    round: Callable[[S], int]
    """The round (or page) the fight is in; 0 before the first."""


def named(shown: Shown) -> list[str]:
    """Every id an event names in one of the fields the systems name participants by, at the
    top or in the one object that carries them (a join's member, a declaration, a roll)."""
    found: list[str] = []
    for key in NAMING:
        value = shown.get(key)
        if isinstance(value, str):
            found.append(value)
    for key in CARRYING:
        value = shown.get(key)
        if isinstance(value, dict):
            inner = value.get("id", value.get("character"))
            if isinstance(inner, str):
                found.append(inner)
    return list(dict.fromkeys(found))


NAMING = (
    "participant",
    "character",
    "acting",
    "holder",
    "hero",
    "partner",
    "by",
    "to",
    "seized_from",
    "gave_to",
    "got_from",
)
"""The fields naming a participant by its id, in the events of every system (``to`` and
``holder`` may name the Editor too, who is no participant)."""

CARRYING = ("member", "sheet", "character", "declaration", "roll", "result")
"""The objects naming a participant inside them: a join's member, sheet or character, a
declaration, a roll, an initiative."""

"""Each role's numbers for a table's events: the steps as the role's own table would have had
them (the shared rulings, "No tells").

A table with someone hidden has steps that a table without them would not have had at all:
the hidden participant's own die, its wait, a pool spent for a side of none but the hidden.
A role that may not see that participant is not shown those steps, and it is not shown that
they were there either: its events are numbered without them, so the numbers it is shown,
resumes from and sends back (``If-Match``) run on with no gap, exactly as at the table
without the hidden. An undo of such a step is one too. A step the role was not shown that is
anyone else's (another player's die) keeps its number, as it would at that table.

Whether a step is one a role never had is fixed when it happens: an event is stamped with who
was hidden once it had happened (``rules.hiding``), and only such a stamped event, or an undo
of one, can be. The stream sees least of all (it plays no one), so a step some role never had
is one the stream never had: a table keeps those steps alone (``marks``), and works out a
role's skips from them the first time it is asked. Everything else has the same number for
every role."""

from __future__ import annotations

from bisect import bisect_right
from collections import ChainMap
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from rules.hiding import concealed
from rules.roles import OVERLAY, Viewer
from rules.telling import named

Censor = Callable[[Any, Viewer], dict[str, Any] | None]
"""An event as a viewer may see it (``Table.censor``), or None."""

Numbered = tuple[int, dict[str, Any] | None]
"""An event as a role is shown it: its number for that role, and what the role may see."""


def unseen_step(event: Any, shown: dict[str, Any] | None, viewer: Viewer) -> bool:
    """Whether ``event``, shown to ``viewer`` as ``shown``, is a step the viewer's table would
    not have had at all: the viewer is shown none of it, and it names someone hidden from them
    (or spends a pool for a hidden side). Not an undo: ``Numbering`` follows those. Nor the GM
    hiding someone: the viewer saw them until then, and sees them go (its view changes), so
    the step is theirs, shown as nothing more than that."""
    if viewer.is_gm or shown is not None or getattr(event, "type", None) == "hidden":
        return False
    hidden = concealed(event, viewer)
    if not hidden:
        return False
    data = event.model_dump(mode="json")
    return bool(hidden & {*named(data), *(data.get("hidden_side") or ())})


def _undoes(event: Any) -> int | None:
    """The sequence an undo takes back, or None for any other event. Read by its type's name,
    as ``rules.table`` (which defines it) builds on this module."""
    return event.undoes if getattr(event, "type", None) == "undone" else None


def _number(skips: Sequence[int], seq: int) -> int | None:
    """The number of event ``seq`` for a role that never had ``skips``, or None if it is one."""
    before = bisect_right(skips, seq)
    return None if before and skips[before - 1] == seq else seq - before


def _renumbered(
    event: Any, data: dict[str, Any] | None, skips: Sequence[int]
) -> dict[str, Any] | None:
    """What a role is shown of an event, an undo naming its step by the role's number."""
    undoes = _undoes(event)
    if undoes is None or data is None:
        return data
    return {**data, "undoes": _number(skips, undoes)}


class Numbering:
    """A table's events as each role numbers them. ``take`` each event in order (the table
    does, as it records them), or ``restore`` the marks of a log read from a snapshot."""

    def __init__(self, censor: Censor) -> None:
        self._censor = censor
        self._marks: dict[int, Any] = {}
        """Events that may be steps some role never had, by sequence, in order."""
        self._skips: dict[Viewer, list[int]] = {}
        """Each role asked about so far: the sequences it never had, in order."""
        self.last = 0
        """The sequence of the last event taken."""

    def restore(self, stamped: Iterable[tuple[int, Any]], last: int) -> None:
        """Start from a log's stamped events and undos ((sequence, event) in order: those
        among which the marks are) and its last sequence, without taking every event."""
        for seq, event in stamped:
            if self._marking(event, self._marks):
                self._marks[seq] = event
        self.last = last

    def take(self, seq: int, event: Any, mark: bool) -> None:
        """The event with sequence ``seq``, the next after the last taken; ``mark``: whether it
        is a step the stream's table never had or an undo of one (``marked``)."""
        self.last = seq
        if mark:
            self._marks[seq] = event
            for viewer, skips in self._skips.items():
                if self._unseen(viewer, event, skips):
                    skips.append(seq)

    def rewind(self, last: int) -> None:
        """Forget the events after sequence ``last``, as if they had never been taken: a
        server takes a group of commands' events to decide each on the one before, and takes
        them back until they are stored (``Table.rewind``)."""
        self.last = last
        for seq in [seq for seq in self._marks if seq > last]:
            del self._marks[seq]
        for skips in self._skips.values():
            while skips and skips[-1] > last:
                skips.pop()

    def _marking(self, event: Any, marks: Collection[int]) -> bool:
        """Whether an event is a step the stream's table never had, or undoes one of ``marks``
        (the sequences of those so far)."""
        undoes = _undoes(event)
        if undoes is not None:
            return undoes in marks
        if not getattr(event, "unseen", ()):
            return False
        return unseen_step(event, self._censor(event, OVERLAY), OVERLAY)

    def _unseen(self, viewer: Viewer, event: Any, skips: Sequence[int]) -> bool:
        undoes = _undoes(event)
        if undoes is not None:
            return _number(skips, undoes) is None
        return unseen_step(event, self._censor(event, viewer), viewer)

    def skips(self, viewer: Viewer) -> list[int]:
        """The sequences of the steps ``viewer``'s table never had, in order."""
        if viewer.is_gm:
            return []
        skips = self._skips.get(viewer)
        if skips is None:
            skips = []
            for seq, event in self._marks.items():
                if self._unseen(viewer, event, skips):
                    skips.append(seq)
            self._skips[viewer] = skips
        return skips

    def number(self, viewer: Viewer, seq: int) -> int | None:
        """The number ``viewer`` knows event ``seq`` by, or None for a step it never had."""
        return _number(self.skips(viewer), seq)

    def count(self, viewer: Viewer) -> int:
        """The number of ``viewer``'s last event: the version of the table it is shown."""
        return self.last - len(self.skips(viewer))

    def position(self, viewer: Viewer, number: int) -> int:
        """The sequence of the event ``viewer`` knows as ``number`` (0 for none): what it has
        seen runs to there. A number beyond the viewer's last lies as far beyond the table's."""
        seq = number
        for skipped in self.skips(viewer):
            if skipped > seq:
                break
            seq += 1
        return seq

    def marked(self, first: int, events: Sequence[Any]) -> list[bool]:
        """Which of events ``first``… (not taken yet) are steps the stream's table never had,
        or undo one: the same for every role, so worked out once for a command's events."""
        marks = ChainMap[int, Any]({}, self._marks)  # the new events' marks go in front
        out = []
        for seq, event in zip(range(first, first + len(events)), events, strict=True):
            mark = self._marking(event, marks)
            if mark:
                marks[seq] = event
            out.append(mark)
        return out

    def numbered(
        self,
        viewer: Viewer,
        first: int,
        events: Sequence[Any],
        shown: Sequence[Any],
        marked: Sequence[bool],
    ) -> list[Numbered]:
        """Events ``first``… not taken yet, ``marked`` as ``marked`` says, each shown to
        ``viewer`` as in ``shown``, as the viewer is shown them: numbered, without the steps it
        never had. Nothing is taken: a server shows a command's events to every role before it
        stores them."""
        skips = list(self.skips(viewer))
        count = self.count(viewer)
        out: list[Numbered] = []
        numbered = zip(range(first, first + len(events)), events, shown, marked, strict=True)
        for seq, event, data, mark in numbered:
            if mark and self._unseen(viewer, event, skips):
                skips.append(seq)
                continue
            count += 1
            out.append((count, _renumbered(event, data, skips)))
        return out

    def since(self, viewer: Viewer, number: int, read: Callable[[int], Any]) -> list[Numbered]:
        """The events after the one ``viewer`` knows as ``number``, as it is shown them;
        ``read`` gives an event by its sequence."""
        skips = self.skips(viewer)
        out: list[Numbered] = []
        for seq in range(self.position(viewer, number) + 1, self.last + 1):
            mine = _number(skips, seq)
            if mine is not None:
                event = read(seq)
                out.append((mine, _renumbered(event, self._censor(event, viewer), skips)))
        return out

"""Fan-out: every subscriber of a table gets each event as its role may see it.

Subscribers are grouped by viewer (GM, overlay, each player binding), and each event is encoded
once per group, not once per subscriber. Every message carries its sequence number; an event a
role may see nothing of still goes out, with ``event: null``, so a client can tell a gap from a
loss. A subscriber whose queue fills is dropped with a last message saying where to resume.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.roles import Viewer
from rules.table import Table


@dataclass
class Frame:
    """One message, encoded once and shared by every subscriber of a group."""

    seq: int
    kind: str  # "event", "view" or "bye"
    json: str
    _sse: str | None = field(default=None, repr=False)

    @property
    def sse(self) -> str:
        if self._sse is None:
            self._sse = f"id: {self.seq}\nevent: {self.kind}\ndata: {self.json}\n\n"
        return self._sse


def event_frame(seq: int, event: dict[str, Any] | None, view: str | None) -> Frame:
    body = json.dumps({"type": "event", "seq": seq, "event": event})
    if view is not None:
        body = body[:-1] + f', "view": {view}}}'
    return Frame(seq=seq, kind="event", json=body)


def view_frame(seq: int, view: str) -> Frame:
    return Frame(seq=seq, kind="view", json=f'{{"type": "view", "seq": {seq}, "view": {view}}}')


def bye_frame(seq: int, reason: str) -> Frame:
    body = json.dumps({"type": "bye", "seq": seq, "reason": reason, "resume_after": seq})
    return Frame(seq=seq, kind="bye", json=body)


TOO_SLOW = "too slow to keep up"


class Subscriber:
    """One live connection's queue. ``delivered`` is the last sequence handed to the socket."""

    def __init__(self, viewer: Viewer, limit: int) -> None:
        self.viewer = viewer
        self.queue: asyncio.Queue[Frame] = asyncio.Queue(maxsize=limit + 1)
        self.limit = limit
        self.delivered = 0
        self.reason: str | None = None  # why it was dropped

    def push(self, frame: Frame) -> bool:
        """Queue a frame; False if this is what found the subscriber too slow."""
        if self.reason is not None:
            return True
        if self.queue.qsize() >= self.limit:
            self.drop(TOO_SLOW)
            return False
        self.queue.put_nowait(frame)
        return True

    def drop(self, reason: str) -> None:
        """Stop sending, and tell the client where to resume from. The goodbye says so when it
        is sent (``goodbye``): a frame being written as the drop happens still gets through."""
        if self.reason is not None:
            return
        self.reason = reason
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(bye_frame(0, reason))

    def goodbye(self) -> Frame:
        return bye_frame(self.delivered, self.reason or "")


def encode(
    table: Table[Any, Any, Any, Any], viewer: Viewer, first: int, events: Sequence[Any]
) -> list[Frame]:
    """A command's events as ``viewer`` may see them, the view after them on the last."""
    view = table.view(viewer).model_dump_json()
    last = len(events) - 1
    return [
        event_frame(first + n, table.censor(event, viewer), view if n == last else None)
        for n, event in enumerate(events)
    ]


class Hub:
    def __init__(self, queue_limit: int) -> None:
        self._limit = queue_limit
        self._tables: dict[str, dict[Viewer, set[Subscriber]]] = {}
        self.dropped_slow = 0

    def subscribe(self, table_id: str, viewer: Viewer) -> Subscriber:
        subscriber = Subscriber(viewer, self._limit)
        self._tables.setdefault(table_id, {}).setdefault(viewer, set()).add(subscriber)
        return subscriber

    def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        groups = self._tables.get(table_id, {})
        group = groups.get(subscriber.viewer)
        if group is not None:
            group.discard(subscriber)
            if not group:
                del groups[subscriber.viewer]

    def publish(
        self, table_id: str, table: Table[Any, Any, Any, Any], first: int, events: Sequence[Any]
    ) -> None:
        for viewer, group in self._tables.get(table_id, {}).items():
            frames = encode(table, viewer, first, events)
            for subscriber in list(group):
                if not all(subscriber.push(frame) for frame in frames):
                    self.dropped_slow += 1

    @property
    def subscribers(self) -> int:
        return sum(len(g) for groups in self._tables.values() for g in groups.values())

    def close_all(self, reason: str) -> None:
        for groups in self._tables.values():
            for group in groups.values():
                for subscriber in group:
                    subscriber.drop(reason)

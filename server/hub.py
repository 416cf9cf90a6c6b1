"""Fan-out: every subscriber of a table gets each event as its role may see it.

Subscribers are grouped by viewer (GM, overlay, each player binding), and each event is encoded
once per group, not once per subscriber: its JSON, and for WebSockets the whole frame, bytes
and all, which is then written straight to each socket as the event is published. Every
message carries its sequence number; an event a role may see nothing of still goes out, with
``event: null``, so a client can tell a gap from a loss.

A subscriber with more than its backlog of bytes not yet taken by the network is dropped with
a last message saying where to resume: it is never skipped silently.
"""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.roles import Viewer

TOO_SLOW = "too slow to keep up"


def websocket_frame(payload: bytes) -> bytes:
    """A final, unmasked text frame (RFC 6455 5.2), as a server sends it."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


@dataclass
class Frame:
    """One message, encoded once and shared by every subscriber of a group."""

    seq: int
    kind: str  # "event", "view" or "bye"
    json: str
    _ws: bytes | None = field(default=None, repr=False)
    _sse: bytes | None = field(default=None, repr=False)

    @property
    def ws(self) -> bytes:
        if self._ws is None:
            self._ws = websocket_frame(self.json.encode())
        return self._ws

    @property
    def sse(self) -> bytes:
        if self._sse is None:
            self._sse = f"id: {self.seq}\nevent: {self.kind}\ndata: {self.json}\n\n".encode()
        return self._sse


def event_frame(seq: int, event: str, view: str | None) -> Frame:
    """An event message from the event's JSON (``null`` when the role may see none of it),
    with the view after it when it is a command's last."""
    tail = f', "view": {view}' if view is not None else ""
    return Frame(
        seq=seq, kind="event", json=f'{{"type": "event", "seq": {seq}, "event": {event}{tail}}}'
    )


def view_frame(seq: int, view: str) -> Frame:
    return Frame(seq=seq, kind="view", json=f'{{"type": "view", "seq": {seq}, "view": {view}}}')


def bye_frame(seq: int, reason: str) -> Frame:
    body = json.dumps({"type": "bye", "seq": seq, "reason": reason, "resume_after": seq})
    return Frame(seq=seq, kind="bye", json=body)


class Subscriber:
    """One live connection. ``delivered`` is the last sequence handed to the network."""

    def __init__(self, viewer: Viewer, backlog: int) -> None:
        self.viewer = viewer
        self.backlog = backlog
        self.delivered = 0
        self.reason: str | None = None  # why it was dropped

    def push(self, frame: Frame, *, catching_up: bool = False) -> bool:
        """Send a frame; False if this is what found the subscriber too slow. A catch-up is
        sent whole, however large: it is what the subscriber asked for."""
        if self.reason is not None:
            return True
        if not catching_up and self.pending() > self.backlog:
            self.drop(TOO_SLOW)
            return False
        self.send(frame)
        return True

    def drop(self, reason: str) -> None:
        """Stop sending, and say where to resume from."""
        if self.reason is None:
            self.reason = reason
            self.say_goodbye()

    def pending(self) -> int:
        """Bytes sent but not yet taken by the network."""
        raise NotImplementedError

    def send(self, frame: Frame) -> None:
        raise NotImplementedError

    def say_goodbye(self) -> None:
        raise NotImplementedError


class SocketSubscriber(Subscriber):
    """A WebSocket: frames go straight onto its transport as they are published."""

    def __init__(
        self,
        viewer: Viewer,
        backlog: int,
        transport: asyncio.Transport,
        close: Callable[[str], None],
    ) -> None:
        super().__init__(viewer, backlog)
        self.transport = transport
        self._close = close

    def pending(self) -> int:
        return self.transport.get_write_buffer_size()

    def send(self, frame: Frame) -> None:
        if not self.transport.is_closing():
            self.transport.write(frame.ws)
            self.delivered = frame.seq

    def say_goodbye(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(bye_frame(self.delivered, self.reason or "").ws)
        self._close(self.reason or "")


class StreamSubscriber(Subscriber):
    """An SSE stream: frames queue for a task that writes them (HTTP chunking is aiohttp's)."""

    def __init__(self, viewer: Viewer, backlog: int) -> None:
        super().__init__(viewer, backlog)
        self.queue: asyncio.Queue[Frame] = asyncio.Queue()
        self._pending = 0

    def pending(self) -> int:
        return self._pending

    def send(self, frame: Frame) -> None:
        self._pending += len(frame.sse)
        self.queue.put_nowait(frame)

    def sent(self, frame: Frame) -> None:
        self._pending -= len(frame.sse)
        self.delivered = frame.seq

    def say_goodbye(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()
        self._pending = 0
        self.queue.put_nowait(bye_frame(0, self.reason or ""))

    def goodbye(self) -> Frame:
        """The goodbye as it is sent: a frame being written as the drop happened got through."""
        return bye_frame(self.delivered, self.reason or "")


@dataclass(frozen=True)
class Shown:
    """A command as one role sees it: its events censored (as data, for the sender's answer,
    and as JSON, encoded once for every message), and the view they leave (as JSON). ``view``
    is None only while an undo repairs a table whose view had already broken."""

    events: list[dict[str, Any] | None]
    encoded: list[str]
    view: str | None

    def frames(self, first: int) -> list[Frame]:
        """The events as messages, the view riding on the last."""
        last = len(self.encoded) - 1
        return [
            event_frame(first + n, event, self.view if n == last else None)
            for n, event in enumerate(self.encoded)
        ]


class Hub:
    def __init__(self) -> None:
        self._tables: dict[str, dict[Viewer, set[Subscriber]]] = {}
        self.dropped_slow = 0

    def subscribe(self, table_id: str, subscriber: Subscriber) -> None:
        self._tables.setdefault(table_id, {}).setdefault(subscriber.viewer, set()).add(subscriber)

    def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        groups = self._tables.get(table_id, {})
        group = groups.get(subscriber.viewer)
        if group is not None:
            group.discard(subscriber)
            if not group:
                del groups[subscriber.viewer]

    def viewers(self, table_id: str) -> set[Viewer]:
        """Whom the table's subscribers see it as: each needs the command shown to it."""
        return set(self._tables.get(table_id, {}))

    def publish(
        self, table_id: str, first: int, shown: Mapping[Viewer, Shown]
    ) -> Callable[[], None]:
        """Encode the events for every group now, and return the delivery, which the caller
        runs once it has answered the command: the sender is not kept waiting on a thousand
        sockets. Delivery goes to those subscribed now; whoever subscribes before it runs gets
        these events in their catch-up instead. ``shown`` has every subscribed viewer."""
        targets = [
            (list(group), shown[viewer].frames(first))
            for viewer, group in self._tables.get(table_id, {}).items()
        ]

        def deliver() -> None:
            for subscribers, frames in targets:
                for subscriber in subscribers:
                    if not all(subscriber.push(frame) for frame in frames):
                        self.dropped_slow += 1

        return deliver

    @property
    def subscribers(self) -> int:
        return sum(len(g) for groups in self._tables.values() for g in groups.values())

    def drop(self, table_id: str, reason: str) -> None:
        """Tell a table's subscribers to come back, saying why."""
        for group in self._tables.get(table_id, {}).values():
            for subscriber in list(group):
                subscriber.drop(reason)

    def close_all(self, reason: str) -> None:
        for groups in self._tables.values():
            for group in groups.values():
                for subscriber in list(group):
                    subscriber.drop(reason)

"""Fan-out: every subscriber of a table gets each event as its role may see it.

Subscribers are grouped by viewer (GM, overlay, each player binding), and a command's events are
encoded once per group, not once per subscriber: their JSON, and for WebSockets the whole
frames, bytes and all, joined into one buffer that is written to each socket in one call. At a
thousand subscribers the server's time is the writes themselves, so a subscriber costs its
write and one look at its unsent backlog per command, nothing more. Every message carries its
sequence number; an event a role may see nothing of still goes out, with ``event: null``, so a
client can tell a gap from a loss.

A subscriber with more than its backlog of bytes not yet taken by the network is dropped with
a last message saying where to resume: it is never skipped silently.
"""

from __future__ import annotations

import asyncio
import json
import struct
from collections import deque
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from rules.roles import Role, Viewer
from server.tables.audience import Shown

TOO_SLOW = "too slow to keep up"
MISSED = "events were missed on the way here: resume from your last event"
"""Why a subscriber is dropped whose next frame would not carry the next sequence: a gap is
never delivered, it is resumed from the store (a safety net; nothing known makes one)."""
REVOKED = "this link was revoked: ask the GM for a new one"


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


@dataclass(eq=False)
class Frame:
    """Messages of one kind, each a sequence number and its JSON, encoded once and shared by
    every subscriber of a group: a view, a goodbye, or all of a command's events, which go out
    in one write. Each wire form is made the first time a subscriber needs it."""

    kind: str  # "event", "view" or "bye"
    messages: tuple[tuple[int, str], ...]
    seq: int = field(init=False)
    """The last message's sequence: a subscriber sent this frame has everything to it. Read
    once per subscriber per command, so it is set once rather than looked up each time."""
    first: int = field(init=False)
    """The first message's sequence: a subscriber handed the one before takes it whole."""

    def __post_init__(self) -> None:
        self.seq, self.first = self.messages[-1][0], self.messages[0][0]

    def after(self, seq: int) -> Frame:
        """The messages past ``seq``: what a subscriber already handed up to it still needs."""
        return Frame(self.kind, tuple(m for m in self.messages if m[0] > seq))

    @cached_property
    def ws(self) -> bytes:
        return b"".join(websocket_frame(text.encode()) for _, text in self.messages)

    @cached_property
    def sse(self) -> bytes:
        kind = self.kind
        return "".join(
            f"id: {seq}\nevent: {kind}\ndata: {text}\n\n" for seq, text in self.messages
        ).encode()


def event_message(seq: int, event: str, view: str | None) -> tuple[int, str]:
    """An event message from the event's JSON (``null`` when the role may see none of it),
    with the view after it when it is a command's last."""
    tail = f', "view": {view}' if view is not None else ""
    return seq, f'{{"type": "event", "seq": {seq}, "event": {event}{tail}}}'


def event_frame(seq: int, event: str, view: str | None) -> Frame:
    return Frame("event", (event_message(seq, event, view),))


def view_frame(seq: int, view: str) -> Frame:
    return Frame("view", ((seq, f'{{"type": "view", "seq": {seq}, "view": {view}}}'),))


def bye_frame(seq: int, reason: str) -> Frame:
    body = json.dumps({"type": "bye", "seq": seq, "reason": reason, "resume_after": seq})
    return Frame("bye", ((seq, body),))


class Subscriber:
    """One live connection, and the token it came in with (its hash): revoked, it is dropped.
    ``delivered`` is the last sequence handed to the network, ``handed`` the last handed to
    this subscriber at all (written, or queued to be)."""

    def __init__(self, viewer: Viewer, token_hash: bytes, backlog: int) -> None:
        self.viewer = viewer
        self.token_hash = token_hash
        self.backlog = backlog
        self.delivered = 0
        self.handed = 0
        self.reason: str | None = None  # why it was dropped

    def push(self, frame: Frame, *, catching_up: bool = False) -> bool:
        """Send a frame; False if this is what found the subscriber too slow (more than its
        backlog unsent), which drops it. A catch-up is sent whole, however large: it is what
        the subscriber asked for."""
        raise NotImplementedError

    def drop(self, reason: str) -> None:
        """Stop sending, and say where to resume from."""
        if self.reason is None:
            self.reason = reason
            self.say_goodbye()

    def say_goodbye(self) -> None:
        raise NotImplementedError


class SocketSubscriber(Subscriber):
    """A WebSocket: frames go straight onto its transport as they are published. The
    transport writes at once what the socket takes and keeps only the rest, so a frame costs
    one ``send`` when the client keeps up; what it keeps is the backlog looked at here.

    Its client may send commands on it, and each reply goes out after the events its command
    made (``reply``): in the same write as they do, right behind them, so a sender is not kept
    waiting while the rest of a large table is written to, nor woken twice."""

    def __init__(
        self,
        viewer: Viewer,
        token_hash: bytes,
        backlog: int,
        transport: asyncio.Transport,
        close: Callable[[str], None],
    ) -> None:
        super().__init__(viewer, token_hash, backlog)
        self.transport = transport
        self._close = close
        self._replies: deque[Place] = deque()  # in the order the client's messages came

    def push(self, frame: Frame, *, catching_up: bool = False) -> bool:
        # Once per subscriber per command: kept to the backlog check and the write.
        if self.reason is not None:
            return True
        transport = self.transport
        if not catching_up and transport.get_write_buffer_size() > self.backlog:
            self.drop(TOO_SLOW)
            return False
        self.handed = frame.seq
        if transport.is_closing():  # gone: it is unsubscribed as its handler ends
            return True
        self.delivered = frame.seq
        if self._replies:
            # The answers that waited for these events ride in the same write: one send, and
            # the sender reads its events and its answer at once.
            transport.writelines((frame.ws, *self._due()))
        else:  # a watcher, once per command at a thousand overlays: a plain write
            transport.write(frame.ws)
        return True

    def expecting(self) -> Place:
        """A place in the queue for the reply to the message just read: replies leave in the
        order the client sent its messages, whichever is answered first (a refusal read while
        the command before it waits at its table waits behind its answer)."""
        place = Place(self._send_replies)
        self._replies.append(place)
        return place

    def reply(self, text: str, seq: int = 0) -> None:
        """Send a message once the socket has been sent the events up to ``seq``, and after
        every reply before it; or at once, if nothing more will be sent (the subscriber was
        dropped)."""
        self.expecting()(text, seq)

    def _due(self) -> list[bytes]:
        """The replies that may go now, taken from the queue: those answered whose events were
        sent (or all answered, once the subscriber is dropped), up to the first that is not."""
        replies, due = self._replies, []
        while replies:
            first = replies[0]
            if first.frame is None and not first.void:
                break  # its message is not answered yet: those behind it wait
            if first.frame is not None and first.seq > self.delivered and self.reason is None:
                break
            replies.popleft()
            if first.frame is not None:
                due.append(first.frame)
        return due

    def _send_replies(self) -> None:
        due = self._due()
        if due and not self.transport.is_closing():
            self.transport.writelines(due)

    def say_goodbye(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(bye_frame(self.delivered, self.reason or "").ws)
        self._close(self.reason or "")
        self._send_replies()


class Place:
    """A reply's place in a socket's queue, kept as its message is read: filled with the reply
    (once, by calling it), or given up (``abandon``) if none will come."""

    def __init__(self, changed: Callable[[], None]) -> None:
        self._changed = changed
        self.seq = 0
        self.frame: bytes | None = None
        self.void = False

    def __call__(self, text: str, seq: int = 0) -> None:
        """The reply: it goes once the socket has been sent the events up to ``seq``."""
        self.seq, self.frame = seq, websocket_frame(text.encode())
        self._changed()

    def abandon(self) -> None:
        """No reply will come (its handler failed, or the client left): let those behind go."""
        if self.frame is None:
            self.void = True
            self._changed()


class StreamSubscriber(Subscriber):
    """An SSE stream: frames queue for a task that writes them (HTTP chunking is aiohttp's)."""

    def __init__(self, viewer: Viewer, token_hash: bytes, backlog: int) -> None:
        super().__init__(viewer, token_hash, backlog)
        self.queue: asyncio.Queue[Frame] = asyncio.Queue()
        self._pending = 0  # bytes queued, not yet written

    def push(self, frame: Frame, *, catching_up: bool = False) -> bool:
        if self.reason is not None:
            return True
        if not catching_up and self._pending > self.backlog:
            self.drop(TOO_SLOW)
            return False
        self.handed = frame.seq
        self._pending += len(frame.sse)
        self.queue.put_nowait(frame)
        return True

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


def shown_frame(shown: Shown) -> Frame | None:
    """A command's events as one role sees them, as messages, the view riding on the last;
    None for none (the steps of someone hidden from the role, which its table never had)."""
    last = len(shown.encoded) - 1
    messages = tuple(
        event_message(number, event, shown.view if n == last else None)
        for n, (number, event) in enumerate(zip(shown.numbers, shown.encoded, strict=True))
    )
    return Frame("event", messages) if messages else None


def _nobody() -> None:
    """The delivery of a command no one follows."""


def _watching(group: tuple[Viewer, object]) -> bool:
    """Overlays, which only watch, are written to after those who send commands (the GM, the
    players): a sender's answer follows its events, and a stream's hundreds of overlays need
    not be written to before it."""
    return group[0].role is Role.OVERLAY


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

    def publish(self, table_id: str, shown: Mapping[Viewer, Shown]) -> Callable[[], None]:
        """Encode the events for every group now, each role's as it numbers them, and return
        the delivery, which the caller runs once it has answered the command: the sender is
        not kept waiting on a thousand sockets.

        The delivery walks the groups as they are when it runs, not a copy taken now: one who
        left meanwhile is gone, and one who subscribed meanwhile was handed these events in
        its catch-up and is passed over. Each subscriber gets exactly the events after the last
        it was handed (``handed``): a frame that would leave a gap drops it, saying where to
        resume, and one it was partly handed is cut to the rest. Nothing a delivery does adds
        or removes a subscriber while it walks: a dropped subscriber's connection closes in a
        task."""
        groups = self._tables.get(table_id)
        if not groups:
            return _nobody
        targets = [
            (group, viewer in shown and shown_frame(shown[viewer]))
            for viewer, group in sorted(groups.items(), key=_watching)
        ]

        def deliver() -> None:
            for group, frame in targets:
                if frame is False:  # a role the command was not shown to: never skip it
                    for subscriber in group:
                        subscriber.drop(MISSED)
                elif frame is not None:
                    after = frame.first - 1
                    for subscriber in group:
                        # The usual case inline; the rest (a partial or a gap) in _hand.
                        if subscriber.handed == after:
                            if not subscriber.push(frame):
                                self.dropped_slow += 1
                        else:
                            self._hand(subscriber, frame)

        return deliver

    def _hand(self, subscriber: Subscriber, frame: Frame) -> None:
        """The frame's events past the last this subscriber was handed, or a goodbye if it
        lacks some before them. Once per subscriber per command: kept to a few comparisons."""
        handed, first = subscriber.handed, frame.first
        if handed >= frame.seq:
            return
        if handed + 1 == first:
            pushed = subscriber.push(frame)
        elif handed >= first:
            pushed = subscriber.push(frame.after(handed))
        else:
            subscriber.drop(MISSED)
            return
        if not pushed:
            self.dropped_slow += 1

    def followed(self, table_id: str) -> bool:
        return bool(self._tables.get(table_id))

    @property
    def subscribers(self) -> int:
        return sum(len(g) for groups in self._tables.values() for g in groups.values())

    def drop(self, table_id: str, reason: str) -> None:
        """Tell a table's subscribers to come back, saying why."""
        for group in self._tables.get(table_id, {}).values():
            for subscriber in list(group):
                subscriber.drop(reason)

    def close_all(self, reason: str) -> None:
        for subscriber in self._everyone():
            subscriber.drop(reason)

    def token_hashes(self) -> set[bytes]:
        """The tokens the subscribers came in with."""
        return {subscriber.token_hash for subscriber in self._everyone()}

    def revoke(self, token_hashes: Collection[bytes]) -> int:
        """Drop the subscribers that came in with these tokens, now revoked: a link that
        leaked stops showing the table, not only stops opening it. Returns how many."""
        revoked = [s for s in self._everyone() if s.token_hash in token_hashes]
        for subscriber in revoked:
            subscriber.drop(REVOKED)
        return len(revoked)

    def _everyone(self) -> list[Subscriber]:
        return [
            subscriber
            for groups in self._tables.values()
            for group in groups.values()
            for subscriber in group
        ]

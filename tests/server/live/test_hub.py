"""The hub on its own, with transports that record what is written: every message with its
sequence and in order, a command's frames in one write, ``event: null`` for what a role may not
see, and a subscriber over its backlog dropped with where to resume, never skipped."""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Callable
from typing import Any

from rules.roles import GM, OVERLAY
from server.live.hub import (
    MISSED,
    TOO_SLOW,
    Hub,
    SocketSubscriber,
    StreamSubscriber,
    view_frame,
)
from server.tables.audience import Shown

BACKLOG = 1000
TABLE = "t1"


class Recorded(asyncio.Transport):
    """A transport that keeps what is written, with as much unsent as a test says."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.unsent = 0
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview[int]) -> None:
        self.writes.append(bytes(data))

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.closing

    def messages(self) -> list[dict[str, Any]]:
        return [m for write in self.writes for m in unframe(write)]


def unframe(data: bytes) -> list[dict[str, Any]]:
    """The JSON messages in a run of unmasked text frames (RFC 6455 5.2)."""
    messages = []
    while data:
        assert data[0] == 0x81, "a final text frame"
        size, start = data[1], 2
        if size == 126:
            (size,), start = struct.unpack("!H", data[2:4]), 4
        elif size == 127:
            (size,), start = struct.unpack("!Q", data[2:10]), 10
        messages.append(json.loads(data[start : start + size]))
        data = data[start + size :]
    return messages


def socket(viewer: Any = OVERLAY, seen: int = 0) -> tuple[SocketSubscriber, Recorded, list[str]]:
    """A WebSocket subscriber that was caught up to ``seen`` when it subscribed."""
    transport, closed = Recorded(), list[str]()
    subscriber = SocketSubscriber(viewer, b"t", BACKLOG, transport, closed.append)
    subscriber.handed = subscriber.delivered = seen
    return subscriber, transport, closed


def shown(*events: str, first: int, view: str = '{"round": 1}') -> Shown:
    """Events ``first``… of a command, numbered alike for the role (no one hidden)."""
    numbers = list(range(first, first + len(events)))
    return Shown(
        events=[json.loads(e) for e in events],
        encoded=list(events),
        numbers=numbers,
        view=view,
        seq=first + len(events) - 1,
    )


def test_a_commands_events_go_out_in_order_with_their_sequences_in_one_write() -> None:
    hub = Hub()
    subscriber, transport, _ = socket(seen=6)
    hub.subscribe(TABLE, subscriber)
    events = ('{"type": "a"}', '{"type": "b"}', '{"type": "c"}')
    hub.publish(TABLE, {OVERLAY: shown(*events, first=7)})()
    assert len(transport.writes) == 1
    messages = transport.messages()
    assert [(m["type"], m["seq"], m["event"]["type"]) for m in messages] == [
        ("event", 7, "a"),
        ("event", 8, "b"),
        ("event", 9, "c"),
    ]
    assert ["view" in m for m in messages] == [False, False, True]
    assert messages[-1]["view"] == {"round": 1}
    assert subscriber.delivered == 9


def test_an_event_a_role_may_not_see_still_goes_out_as_null() -> None:
    hub = Hub()
    gm, gm_transport, _ = socket(GM, seen=2)
    overlay, overlay_transport, _ = socket(OVERLAY, seen=2)
    hub.subscribe(TABLE, gm)
    hub.subscribe(TABLE, overlay)
    secret = '{"type": "peek", "card": "AS"}'
    hub.publish(TABLE, {GM: shown(secret, "{}", first=3), OVERLAY: shown("null", "{}", first=3)})()
    assert [(m["seq"], m["event"]) for m in overlay_transport.messages()] == [(3, None), (4, {})]
    assert gm_transport.messages()[0]["event"]["card"] == "AS"


def test_one_over_its_backlog_is_dropped_with_where_to_resume_and_the_rest_go_on() -> None:
    hub = Hub()
    slow, slow_transport, closed = socket()
    fine, fine_transport, _ = socket()
    hub.subscribe(TABLE, slow)
    hub.subscribe(TABLE, fine)
    hub.publish(TABLE, {OVERLAY: shown("{}", "{}", first=1)})()
    slow_transport.unsent = BACKLOG + 1  # it stopped reading
    hub.publish(TABLE, {OVERLAY: shown("{}", first=3)})()
    hub.publish(TABLE, {OVERLAY: shown("{}", first=4)})()
    assert [m["seq"] for m in fine_transport.messages()] == [1, 2, 3, 4]
    *events, bye = slow_transport.messages()
    assert [m["seq"] for m in events] == [1, 2]
    assert bye == {"type": "bye", "seq": 2, "reason": TOO_SLOW, "resume_after": 2}
    assert closed == [TOO_SLOW]
    assert hub.dropped_slow == 1


def test_the_backlog_is_not_checked_in_a_catch_up() -> None:
    """A catch-up is what the subscriber asked for: sent whole, however much is unsent."""
    subscriber, transport, closed = socket()
    transport.unsent = BACKLOG * 10
    assert subscriber.push(view_frame(5, "{}"), catching_up=True)
    assert [m["seq"] for m in transport.messages()] == [5] and not closed


def test_one_who_subscribes_before_the_delivery_runs_gets_each_event_once() -> None:
    """Its catch-up already holds the published events: the delivery passes it over."""
    hub = Hub()
    early, early_transport, _ = socket(seen=2)
    hub.subscribe(TABLE, early)
    deliver = hub.publish(TABLE, {OVERLAY: shown("{}", first=3)})
    late, late_transport, _ = socket()
    hub.subscribe(TABLE, late)
    late.push(view_frame(3, "{}"), catching_up=True)  # the catch-up: the table at 3
    deliver()
    hub.publish(TABLE, {OVERLAY: shown("{}", first=4)})()
    assert [m["seq"] for m in early_transport.messages()] == [3, 4]
    assert [(m["type"], m["seq"]) for m in late_transport.messages()] == [
        ("view", 3),
        ("event", 4),
    ]


def test_one_who_left_before_the_delivery_runs_is_sent_nothing() -> None:
    hub = Hub()
    subscriber, transport, _ = socket()
    hub.subscribe(TABLE, subscriber)
    deliver = hub.publish(TABLE, {OVERLAY: shown("{}", first=3)})
    hub.unsubscribe(TABLE, subscriber)
    deliver()
    assert transport.writes == [] and hub.subscribers == 0


def test_a_closed_connection_is_not_written_to() -> None:
    hub = Hub()
    subscriber, transport, _ = socket()
    hub.subscribe(TABLE, subscriber)
    transport.closing = True
    hub.publish(TABLE, {OVERLAY: shown("{}", first=3)})()
    assert transport.writes == [] and hub.dropped_slow == 0


def test_a_command_with_no_events_sends_nothing() -> None:
    hub = Hub()
    subscriber, transport, _ = socket()
    hub.subscribe(TABLE, subscriber)
    hub.publish(TABLE, {OVERLAY: Shown(events=[], encoded=[], numbers=[], view="{}", seq=2)})()
    assert transport.writes == []


async def test_an_sse_stream_gets_each_message_with_its_id() -> None:
    hub = Hub()
    stream = StreamSubscriber(OVERLAY, b"o", BACKLOG)
    stream.handed = stream.delivered = 4
    hub.subscribe(TABLE, stream)
    hub.publish(TABLE, {OVERLAY: shown('{"n": 1}', '{"n": 2}', first=5)})()
    frame = stream.queue.get_nowait()
    stream.sent(frame)
    records = [r for r in frame.sse.decode().split("\n\n") if r]
    fields = [dict(line.split(": ", 1) for line in r.split("\n")) for r in records]
    assert [(f["id"], f["event"]) for f in fields] == [("5", "event"), ("6", "event")]
    assert [json.loads(f["data"])["event"] for f in fields] == [{"n": 1}, {"n": 2}]
    assert stream.delivered == 6


async def test_an_sse_stream_over_its_backlog_is_told_where_to_resume() -> None:
    hub = Hub()
    stream = StreamSubscriber(OVERLAY, b"o", 200)
    hub.subscribe(TABLE, stream)
    hub.publish(TABLE, {OVERLAY: shown("{}", first=1)})()
    stream.sent(stream.queue.get_nowait())  # written; what follows is not
    for seq in range(2, 10):
        hub.publish(TABLE, {OVERLAY: shown('{"padding": "' + "x" * 50 + '"}', first=seq)})()
    assert hub.dropped_slow == 1
    (bye,) = [stream.queue.get_nowait() for _ in range(stream.queue.qsize())]
    assert bye.kind == "bye"
    assert json.loads(stream.goodbye().messages[0][1]) == {
        "type": "bye",
        "seq": 1,
        "reason": TOO_SLOW,
        "resume_after": 1,
    }


def test_close_all_says_goodbye_to_everyone() -> None:
    reason = "the server is shutting down"
    hub = Hub()
    subscribers = [socket() for _ in range(3)]
    for subscriber, _, _ in subscribers:
        hub.subscribe(TABLE, subscriber)
    hub.close_all(reason)
    for _, transport, closed in subscribers:
        assert transport.messages()[-1]["reason"] == reason and closed == [reason]


def test_a_frame_that_would_leave_a_gap_is_never_sent_the_subscriber_resumes_instead() -> None:
    """Events 2 and 3 never reached this server's copy (its table was reloaded): the
    subscriber at 1 is not sent 4 as if nothing were missing, but told to resume after 1."""
    hub = Hub()
    subscriber, transport, closed = socket(seen=1)
    hub.subscribe(TABLE, subscriber)
    hub.publish(TABLE, {OVERLAY: shown("{}", first=4)})()
    assert [(m["type"], m["seq"], m.get("resume_after")) for m in transport.messages()] == [
        ("bye", 1, 1)
    ]
    assert closed == [MISSED]


def test_a_frame_partly_handed_already_is_cut_to_the_rest() -> None:
    hub = Hub()
    subscriber, transport, _ = socket(seen=5)
    hub.subscribe(TABLE, subscriber)
    hub.publish(TABLE, {OVERLAY: shown('{"n": 4}', '{"n": 5}', '{"n": 6}', first=4)})()
    assert [(m["seq"], m["event"]) for m in transport.messages()] == [(6, {"n": 6})]
    assert subscriber.delivered == 6


def test_a_role_the_command_was_not_shown_to_is_told_to_resume_not_skipped() -> None:
    hub = Hub()
    gm, gm_transport, _ = socket(GM, seen=2)
    overlay, overlay_transport, closed = socket(OVERLAY, seen=2)
    hub.subscribe(TABLE, gm)
    hub.subscribe(TABLE, overlay)
    hub.publish(TABLE, {GM: shown("{}", first=3)})()
    assert [m["seq"] for m in gm_transport.messages()] == [3]
    assert [(m["type"], m["resume_after"]) for m in overlay_transport.messages()] == [("bye", 2)]
    assert closed == [MISSED]


def test_a_reply_goes_out_right_behind_its_commands_events_and_after_the_replies_before_it() -> (
    None
):
    """A command's answer waits for the events up to its sequence; a refusal sent after it
    waits behind it; once the events go out, both follow them in order in the same write (one
    send, one wake-up for the sender), and the overlays are written to after."""
    hub = Hub()
    gm, gm_transport, _ = socket(GM)
    overlay, overlay_transport, _ = socket(OVERLAY)
    hub.subscribe(TABLE, overlay)
    hub.subscribe(TABLE, gm)
    gm.reply('{"type": "answer", "seq": 1}', 1)
    gm.reply('{"type": "refused"}')
    assert gm_transport.writes == []
    order: list[str] = []

    def noting(name: str, recorded: Callable[[bytes], None]) -> Callable[[bytes], None]:
        def write(data: bytes) -> None:
            order.append(name)
            recorded(data)

        return write

    for name, transport in (("gm", gm_transport), ("overlay", overlay_transport)):
        transport.write = noting(name, transport.write)  # type: ignore[method-assign,assignment]
    hub.publish(
        TABLE, {GM: shown('{"type": "a"}', first=1), OVERLAY: shown('{"type": "a"}', first=1)}
    )()
    assert order == ["gm", "overlay"]
    assert [m["type"] for m in gm_transport.messages()] == ["event", "answer", "refused"]


def test_a_reply_to_a_dropped_subscriber_goes_out_at_once() -> None:
    subscriber, transport, _ = socket(GM)
    subscriber.drop(TOO_SLOW)
    subscriber.reply('{"type": "answer", "seq": 5}', 5)
    assert [m["type"] for m in transport.messages()] == ["bye", "answer"]


def test_replies_leave_in_the_order_their_messages_came_and_one_given_up_holds_none_back() -> None:
    """A reply waits for the replies to the messages read before it, whichever is ready first;
    a place given up (no reply will come: the client left mid-command) lets the rest go."""
    subscriber, transport, _ = socket(GM)
    first, second, third = (subscriber.expecting() for _ in range(3))
    third('{"type": "refused", "id": "c"}')
    second('{"type": "answer", "id": "b", "seq": 0}')
    assert transport.writes == []
    first.abandon()
    assert [m["id"] for m in transport.messages()] == ["b", "c"]
    subscriber.reply('{"type": "dice-rolled", "id": "d"}')
    assert [m["id"] for m in transport.messages()] == ["b", "c", "d"]

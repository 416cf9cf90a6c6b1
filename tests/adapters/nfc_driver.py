"""nfcpy's ``udp`` driver, watched: the card reader's tests wait for what the reader's thread
does (a poll begun, a card read, the reader asked to stop) rather than for a length of time,
and can hold the thread inside a sense cycle, where a reader spends most of its time, for as
long as a test needs it there."""

from __future__ import annotations

import threading
from typing import Any

import nfc.tag
import pytest
from nfc.clf import ContactlessFrontend, udp

from adapters.card_reader import CardReader
from tests.waiting import PATIENCE


class Senses:
    """What the reader's thread did, counted:

    ``polls``: polls begun. A poll senses for a card (one sense cycle: a SENS_REQ and up to a
    second's wait for an answer), reads one it finds, and holds it until it is lifted; the
    next poll begins only then. ``read``: cards the reader looked at (its on-connect ran).
    ``begun``: sense cycles begun to look for a card (not those a card's activation runs to
    wake it). ``at_stop``: for each ``CardReader.stop``, the sense cycles begun when it was
    asked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.polls = self.read = self.begun = 0
        self.at_stop: list[int] = []
        self._waiting = threading.Event()  # a sense cycle is held before its SENS_REQ
        self._open = threading.Event()
        self._open.set()
        self._until_stopped = False
        self._lock = threading.Lock()
        self._activating = threading.local()
        activate = nfc.tag.activate
        sense, poll, stop = udp.Device.sense_tta, ContactlessFrontend._rdwr_connect, CardReader.stop

        def count(name: str) -> None:
            with self._lock:
                setattr(self, name, getattr(self, name) + 1)

        def watched_activate(clf: Any, target: Any) -> Any:
            self._activating.now = True
            try:
                return activate(clf, target)
            finally:
                self._activating.now = False

        def watched_sense(device: Any, target: Any) -> Any:
            if getattr(self._activating, "now", False):
                return sense(device, target)
            count("begun")
            self._waiting.set()
            try:
                assert self._open.wait(PATIENCE), "the driver was held and never let go"
            finally:
                self._waiting.clear()
            return sense(device, target)

        def watched_poll(clf: Any, options: dict[str, Any], terminate: Any) -> Any:
            count("polls")
            connected = options["on-connect"]

            def on_connect(tag: Any) -> Any:
                try:
                    return connected(tag)
                finally:
                    count("read")

            return poll(clf, {**options, "on-connect": on_connect}, terminate)

        def watched_stop(reader: CardReader) -> None:
            with self._lock:
                self.at_stop.append(self.begun)
            if self._until_stopped:
                reader._stop.set()  # what stop does first: seen by the thread once let go
                self.let_go()
            stop(reader)

        monkeypatch.setattr(nfc.tag, "activate", watched_activate)
        monkeypatch.setattr(udp.Device, "sense_tta", watched_sense)
        monkeypatch.setattr(ContactlessFrontend, "_rdwr_connect", watched_poll)
        monkeypatch.setattr(CardReader, "stop", watched_stop)

    def hold(self, *, until_stopped: bool = False) -> None:
        """Hold the next sense cycle, before it starts, until ``let_go``, or, with
        ``until_stopped``, until the reader has been asked to stop."""
        self._until_stopped = until_stopped
        self._open.clear()

    def let_go(self) -> None:
        self._open.set()

    def held(self) -> bool:
        """The reader's thread is in a sense cycle, held there: it waits on its driver."""
        return self._waiting.is_set() and not self._open.is_set()

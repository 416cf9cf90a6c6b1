"""Deck enrolment: lay each of the 54 cards on the reader in turn; each tag gets an NDEF text
record naming its card (where the tag is writable) and goes into the deck map."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import ndef
import nfc

from adapters.deck import DeckMap
from rules.cards import Card, full_deck


def enroll(
    device: str,
    deck: DeckMap,
    say: Callable[[str], None],
    cards: tuple[Card, ...] = full_deck(),
    stop: threading.Event | None = None,
) -> DeckMap:
    """Ask for each card in turn; a tag already in the map is refused, once for as long as it
    lies on the reader (nfcpy waits for it to be lifted), not at every poll."""
    stop = stop or threading.Event()
    clf = nfc.ContactlessFrontend(device)
    try:
        for number, card in enumerate(cards, start=1):
            if stop.is_set():
                break
            bar = "#" * (number * 30 // len(cards))
            say(f"[{bar:<30}] {number}/{len(cards)}  lay the {card} on the reader")
            while not stop.is_set():
                read: dict[str, Any] = {}

                def connected(tag: Any, read: dict[str, Any] = read, card: Card = card) -> bool:
                    uid = tag.identifier.hex().upper()
                    if uid in deck.cards:
                        say(f"  that tag is the {deck.cards[uid]} already: lay the {card}")
                        return True  # held until lifted: said once
                    read["uid"] = uid
                    if tag.ndef and tag.ndef.is_writeable:
                        tag.ndef.records = [ndef.TextRecord(card.code)]
                        read["written"] = True
                    return True

                if (
                    clf.connect(
                        rdwr={"targets": ["106A"], "on-connect": connected},
                        terminate=lambda read=read: bool(read) or stop.is_set(),
                    )
                    is False
                ):
                    stop.set()  # the reader failed, or Ctrl-C: keep what is enrolled
                if read:
                    deck.cards[read["uid"]] = card
                    say(
                        f"  {card}: {read['uid']}"
                        + (" (record written)" if read.get("written") else "")
                    )
                    break
    finally:
        clf.close()
    return deck

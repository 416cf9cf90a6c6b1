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
    """Ask for each card in turn; a tag already in the map, or already read, is refused."""
    stop = stop or threading.Event()
    clf = nfc.ContactlessFrontend(device)
    try:
        for number, card in enumerate(cards, start=1):
            bar = "#" * (number * 30 // len(cards))
            say(f"[{bar:<30}] {number}/{len(cards)}  lay the {card} on the reader")
            while not stop.is_set():
                read: dict[str, Any] = {}

                def connected(tag: Any, read: dict[str, Any] = read, card: Card = card) -> bool:
                    read["uid"] = tag.identifier.hex().upper()
                    if read["uid"] not in deck.cards and tag.ndef and tag.ndef.is_writeable:
                        tag.ndef.records = [ndef.TextRecord(card.code)]
                        read["written"] = True
                    return True

                clf.connect(
                    rdwr={"targets": ["106A"], "on-connect": connected},
                    terminate=lambda read=read: bool(read) or stop.is_set(),
                )
                if not read:
                    break
                if read["uid"] in deck.cards:
                    say(f"  that tag is the {deck.cards[read['uid']]} already: lay the {card}")
                    continue
                deck.cards[read["uid"]] = card
                say(
                    f"  {card}: {read['uid']}"
                    + (" (record written)" if read.get("written") else "")
                )
                break
    finally:
        clf.close()
    return deck

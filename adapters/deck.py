"""Deck maps: which NFC tag is on which playing card.

A deck map is a JSON file (firmware-config/decks/):
``{"name": …, "cards": {"<UID hex>": "<card>"}}``, with the UID as nfcpy reports it
(upper-case hex) and the card in any notation ``rules.cards.parse_card`` reads. A tag whose
NDEF text record names a card needs no map.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rules.cards import Card, CardError, full_deck, parse_card

UID = re.compile(r"[0-9A-Fa-f]{8,20}")


class DeckError(ValueError):
    """A deck file that cannot be used, in one line naming the file and the field at fault."""


@dataclass
class DeckMap:
    name: str = "deck"
    cards: dict[str, Card] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> DeckMap:
        """The deck map in ``path``; raises DeckError naming the field at fault."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as unreadable:
            raise DeckError(f"{path}: cannot be read ({unreadable})") from None
        except json.JSONDecodeError as garbled:
            raise DeckError(f"{path}: not JSON ({garbled})") from None
        if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
            raise DeckError(f'{path}: cards: missing; a deck is {{"cards": {{UID: card}}}}')
        name = data.get("name", path.stem)
        if not isinstance(name, str):
            raise DeckError(f"{path}: name: not a string")
        cards: dict[str, Card] = {}
        for uid, card in data["cards"].items():
            if not UID.fullmatch(uid):
                raise DeckError(f"{path}: cards.{uid}: a tag's UID is 8 to 20 hex digits")
            try:
                cards[uid.upper()] = parse_card(card if isinstance(card, str) else repr(card))
            except CardError as wrong:
                raise DeckError(f"{path}: cards.{uid}: {wrong}") from None
        return cls(name=name, cards=cards)

    def save(self, path: Path) -> None:
        cards = {uid: card.code for uid, card in sorted(self.cards.items())}
        path.write_text(json.dumps({"name": self.name, "cards": cards}, indent=2) + "\n")

    def card(self, uid: str) -> Card | None:
        return self.cards.get(uid.upper())

    def problems(self) -> list[str]:
        """What keeps this from being a whole deck: missing cards, a card on two tags."""
        found: dict[Card, list[str]] = {}
        for uid, card in self.cards.items():
            found.setdefault(card, []).append(uid)
        missing = [c.code for c in full_deck() if c not in found]
        doubled = [
            f"{c.code} is on {len(uids)} tags ({', '.join(sorted(uids))})"
            for c, uids in found.items()
            if len(uids) > 1
        ]
        return ([f"missing: {', '.join(missing)}"] if missing else []) + doubled


def card_from_text(text: str | None) -> Card | None:
    """A card named by a tag's NDEF text record, if it names one."""
    if not text:
        return None
    try:
        return parse_card(text)
    except CardError:
        return None

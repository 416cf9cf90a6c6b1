"""Deck maps: which NFC tag is on which playing card.

A deck map is a JSON file (firmware-config/decks/):
``{"name": …, "cards": {"<UID hex>": "<card>"}}``, with the UID as nfcpy reports it
(upper-case hex) and the card in any notation ``rules.cards.parse_card`` reads. A tag whose
NDEF text record names a card needs no map.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from rules.cards import Card, CardError, full_deck, parse_card


@dataclass
class DeckMap:
    name: str = "deck"
    cards: dict[str, Card] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> DeckMap:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            name=data.get("name", path.stem),
            cards={uid.upper(): parse_card(card) for uid, card in data["cards"].items()},
        )

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

"""Deck maps, enrolment through nfcpy and the simulated tag, and the deck commands."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from adapters.deck import DeckError, DeckMap
from adapters.enroll import enroll
from rules.cards import full_deck, parse_card
from server.run.cli import main

from .nfc_driver import Senses
from .test_card_reader import Ntag

EXAMPLE = Path(__file__).parents[2] / "firmware-config" / "decks" / "example.json"


def test_the_example_deck_is_whole(capsys: object) -> None:
    assert DeckMap.load(EXAMPLE).problems() == []
    assert main(["deck", "check", str(EXAMPLE)]) == 0


def test_a_deck_missing_a_card_or_with_a_tag_twice_is_refused(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text())
    first, second = list(data["cards"])[:2]
    data["cards"][second] = data["cards"][first]  # two tags for one card, so one card missing
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    problems = DeckMap.load(broken).problems()
    assert problems[0] == f"missing: {full_deck()[1].code}"
    assert problems[1].startswith(f"{full_deck()[0].code} is on 2 tags")
    assert main(["deck", "check", str(broken)]) == 1


def test_enrolment_writes_each_tags_record_and_maps_it(tmp_path: Path, senses: Senses) -> None:
    """Two cards enrolled through nfcpy's udp driver; the tags now name their cards."""
    ntag = Ntag(senses)
    said: list[str] = []
    cards = (parse_card("AS"), parse_card("RJ"))
    tags = iter(["04A00000000001", "04A00000000002"])

    def lay_next(line: str) -> None:
        said.append(line)
        if line.startswith("["):  # asked for the next card
            ntag.lift()
            ntag.present(next(tags))

    try:
        deck = enroll(
            f"udp:127.0.0.1:{ntag.port}", DeckMap(name="test"), lay_next, cards, threading.Event()
        )
    finally:
        ntag.close()
    assert deck.cards == {"04A00000000001": cards[0], "04A00000000002": cards[1]}
    assert any("record written" in line for line in said)
    assert "[###############               ] 1/2  lay the AS on the reader" in said


def test_a_tag_enrolled_already_is_refused_once_for_as_long_as_it_lies_there(
    senses: Senses,
) -> None:
    """The AS's tag is laid for the RJ and left there a second before it is swapped for the
    RJ's own: one refusal, not one at every poll of the reader."""
    ntag = Ntag(senses)
    said: list[str] = []
    swapped = threading.Event()

    def swap() -> None:
        ntag.remove()
        ntag.present("04A00000000002")

    def lay(line: str) -> None:
        said.append(line)
        if "1/1  lay the RJ" in line:
            ntag.present("04A00000000001")  # the AS's tag, enrolled already
        elif "already" in line and not swapped.is_set():
            swapped.set()
            # The second the tag lies there is the case under test, not a wait for anything:
            # the reader checks it is still there many times meanwhile (fewer on a loaded
            # machine, and the claim holds however many), and says so once.
            threading.Timer(1.0, swap).start()

    deck = DeckMap(name="test", cards={"04A00000000001": parse_card("AS")})
    try:
        enroll(f"udp:127.0.0.1:{ntag.port}", deck, lay, (parse_card("RJ"),), threading.Event())
    finally:
        ntag.close()
    assert deck.cards["04A00000000002"] == parse_card("RJ")
    assert sum("that tag is the AS already" in line for line in said) == 1


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("{", "not JSON"),
        ('{"name": "d"}', "cards: missing"),
        ('{"cards": {"04AB12CD": "ZZ"}}', "cards.04AB12CD: 'ZZ' is not a card"),
        ('{"cards": {"tag one": "AS"}}', "cards.tag one: a tag's UID is 8 to 20 hex digits"),
        ('{"name": 3, "cards": {}}', "name: not a string"),
    ],
)
def test_a_bad_deck_file_is_one_line_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, named: str
) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(text)
    with pytest.raises(DeckError, match=named):
        DeckMap.load(deck)
    assert main(["deck", "check", str(deck)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"seize: {deck}: ") and named in line

"""Whole games of each system, played in the rules alone by the model in ``whole_games``.

Each test also shows that the games it played are long ones: some reach a third round (or
page), so the checks ran over rounds that started from an earlier round's leftovers.
"""

from __future__ import annotations

from typing import ClassVar

from hypothesis.stateful import run_state_machine_as_test

from rules.awareness.situation import AwarenessOptions
from rules.roles import OVERLAY, player

from .whole_games import (
    AwarenessGame,
    AwarenessWatch,
    FourColorGame,
    FourColorWatch,
    Game,
    RcsGame,
    WholeGame,
)


def play_whole_games(game: Game) -> list[int]:
    """Run the machine for ``game`` under the active profile; how far each game got."""

    class Games(WholeGame):
        furthest: ClassVar[list[int]] = []

    Games.game = game
    Games.__name__ = f"{type(game).__name__}s"
    run_state_machine_as_test(Games)
    return Games.furthest


def test_whole_four_color_scenes_keep_every_table_readable_and_every_secret() -> None:
    assert max(play_whole_games(FourColorGame())) >= 3


def test_whole_awareness_situations_keep_every_table_readable_and_every_secret() -> None:
    assert max(play_whole_games(AwarenessGame())) >= 3


def test_whole_rcs_encounters_keep_every_table_readable() -> None:
    assert max(play_whole_games(RcsGame())) >= 3


def test_the_watches_catch_a_secret_shown() -> None:
    """The secret checks themselves: an Editor's hidden card or another's QR is caught."""
    four_color = FourColorWatch()
    four_color.secret = {"QH"}
    assert four_color.leaks({"order": [{"card": "QH"}]}, OVERLAY) == ["QH"]
    assert four_color.refusal_leaks("QH is not yours", None, OVERLAY) == ["QH"]
    awareness = AwarenessWatch(AwarenessOptions())
    assert awareness.leaks({"character": "b", "qr": 3}, player("a")) == ["qr of b"]
    assert awareness.leaks({"character": "a", "qr": 3}, player("a")) == []

import pytest

from rules.four_color.scene import Phase
from server.demo.terminal import play_demo
from server.run.cli import main


def test_the_demo_plays_a_whole_page_and_prints_every_panel() -> None:
    lines: list[str] = []
    table = play_demo(7, lines.append)
    assert table.state.phase is Phase.PAGE_DONE
    assert len(table.state.panels) == 10 + 3  # ten in the cast, three extra cards
    panel_lines = lines[lines.index("Panels:") + 1 : -1]
    assert [line.split()[0] for line in panel_lines] == [p.card.code for p in table.state.panels]


def test_the_command_runs_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3"]) == 0
    shown = capsys.readouterr().out
    assert "Page 1 is dealt (seed 3)" in shown and "Every card is played" in shown

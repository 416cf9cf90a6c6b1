"""A token is handed to command lines (``seize adapter … --token``) as well as to links, so no
token minted may read as an option there; and one an older Seize minted still goes in."""

from __future__ import annotations

import re

import pytest

from server.run.cli import main
from server.tables.access import mint

URLSAFE = re.compile(r"[A-Za-z0-9_-]{43}")


def test_no_minted_token_begins_with_a_dash() -> None:
    """One in 64 did: among 4000, one or more would, but for a chance of 1 in 10^27."""
    tokens = [mint() for _ in range(4000)]
    assert all(URLSAFE.fullmatch(token) for token in tokens)
    assert not [token for token in tokens if token.startswith("-")]
    assert len(set(tokens)) == len(tokens)


def test_a_token_that_begins_with_a_dash_is_refused_after_a_space_and_the_help_says_how(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """argparse reads it as an option after a space, whatever we do; so the help of every
    command that takes one says to give it after "="."""
    old = "-" + mint()[1:]
    with pytest.raises(SystemExit) as refused:
        main(["sim", "dice", "--server", "http://127.0.0.1:9", "--table", "t", "--token", old])
    assert refused.value.code == 2
    assert "argument --token: expected one argument" in capsys.readouterr().err
    for command in (["sim", "dice"], ["adapter", "dice"], ["adapter", "tray"], ["adapter", "nfc"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        assert "goes as --token=TOKEN" in " ".join(capsys.readouterr().out.split()), command

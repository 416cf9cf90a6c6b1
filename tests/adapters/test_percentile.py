"""A d100 as the table rolls it: a tens die and a d10 read together, as the official Pixels
module for Foundry reads them; the registry's ``tens`` makes a d10 the tens die; an answer to
a d100 names both dice of each pair."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.percentile import Rolled, filled, fits
from server.devices.dice import DEFAULTS, RegistryError, changed
from server.devices.dice_requests import RequestError, answered, asked
from tests.waiting import JOB_PATIENCE

PHONE = Path(__file__).parents[2] / "server/static/play/percentile.js"

TENS = list(range(10, 101, 10))  # a d00's and a GoDice tens shell's numbers: "00" is 100
UNITS = list(range(1, 11))  # a d10's: "0" is 10


def test_every_pair_is_one_number_of_a_hundred_and_every_number_one_pair() -> None:
    made = sorted(
        filled([Rolled("t", 100, high, tens=True), Rolled("u", 10, low)], 100, 1)[0][0]  # type: ignore[index]
        for high in TENS
        for low in UNITS
    )
    assert made == list(range(1, 101))


@given(st.sampled_from(TENS), st.sampled_from(UNITS), st.booleans())
def test_a_pair_reads_the_same_whichever_die_lands_first(high: int, low: int, first: bool) -> None:
    pair = [Rolled("t", 100, high, tens=True), Rolled("u", 10, low)]
    made = filled(pair if first else pair[::-1], 100, 1)
    assert made is not None
    assert made[0] == [(high % 100 + low % 10) or 100]
    assert made[1] == ["t", "u"]  # the tens die named first


@given(st.sampled_from(UNITS), st.sampled_from(UNITS))
def test_a_d10_the_table_says_reads_tens_counts_tens(high: int, low: int) -> None:
    made = filled([Rolled("t", 10, high, tens=True), Rolled("u", 10, low)], 100, 1)
    assert made is not None and made[0] == [(high * 10 % 100 + low % 10) or 100]


def test_a_tens_die_alone_or_two_plain_d10s_make_no_d100() -> None:
    assert filled([Rolled("t", 100, 40, tens=True)], 100, 1) is None
    assert filled([Rolled("a", 10, 4), Rolled("b", 10, 7)], 100, 1) is None
    two_tens = [Rolled("t", 100, 40, tens=True), Rolled("t", 100, 70, tens=True)]
    assert filled(two_tens, 100, 1) is None


def test_two_d100s_are_two_pairs_or_two_hundred_sided_dice() -> None:
    dice = [Rolled("t", 100, 40, tens=True), Rolled("u", 10, 7), Rolled("t", 100, 100, tens=True),
            Rolled("u", 10, 10)]  # fmt: skip
    assert filled(dice, 100, 2) == ([47, 100], ["t", "u", "t", "u"])
    assert filled([Rolled("h", 100, 63), Rolled("h", 100, 5)], 100, 2) == ([63, 5], ["h", "h"])


def test_a_tens_die_fits_a_d100_and_no_other_roll() -> None:
    tens, d10 = Rolled("t", 100, 40, tens=True), Rolled("u", 10, 7)
    assert fits(tens, 100) and fits(d10, 100) and fits(d10, 10)
    assert not fits(tens, 10) and not fits(Rolled("d", 20, 7), 100)


OWNERS = {"gm", "jena"}


def test_the_registry_says_which_d10_reads_tens_and_keeps_it() -> None:
    book = changed(dict(DEFAULTS), {"dice": {"godice-A": {"owner": "jena", "tens": True}}}, OWNERS)
    assert book["dice"]["godice-A"] == {"owner": "jena", "name": "godice-A", "tens": True}
    book = changed(book, {"dice": {"godice-A": {"owner": "gm"}}}, OWNERS)  # reassigned: kept
    assert book["dice"]["godice-A"]["tens"] is True
    book = changed(book, {"dice": {"godice-A": {"owner": "gm", "tens": False}}}, OWNERS)
    assert "tens" not in book["dice"]["godice-A"]


@pytest.mark.parametrize("tens", ["yes", 1, None])
def test_a_tens_that_is_not_true_or_false_is_refused_naming_it(tens: Any) -> None:
    with pytest.raises(RegistryError) as refused:
        changed(dict(DEFAULTS), {"dice": {"d": {"owner": "gm", "tens": tens}}}, OWNERS)
    assert refused.value.field == "dice.d.tens"


def _d100_asked(count: int) -> dict[str, Any]:
    book = {**DEFAULTS, "dice": {"t": {"owner": "gm"}, "u": {"owner": "gm"}}}
    return asked(book, "r", "gm", 100, count, 0.0)


def test_a_d100s_answer_names_both_dice_of_each_pair() -> None:
    book = answered(_d100_asked(1), {"r": {"faces": [47], "dice": ["t", "u"]}})
    assert book["answers"]["r"]["dice"] == ["t", "u"]
    with pytest.raises(RequestError) as refused:
        answered(_d100_asked(1), {"r": {"faces": [47], "dice": ["t", "u", "t"]}})
    assert refused.value.field == "answers.r.dice"
    book = {**DEFAULTS, "dice": {"x": {"owner": "gm"}}}
    with pytest.raises(RequestError):  # a d20 is one die to one face
        answered(asked(book, "r", "gm", 20, 1, 0.0), {"r": {"faces": [4], "dice": ["x", "x"]}})


def _cases() -> list[tuple[list[Rolled], int, int]]:
    """Rolls of every kind: each pair both ways round, a d10 reading tens, two pairs, two
    hundred-sided dice, dice short of a d100, and dice of other sizes."""
    cases = []
    for high in TENS:
        for low in UNITS:
            pair = [Rolled("t", 100, high, tens=True), Rolled("u", 10, low)]
            cases += [(pair, 100, 1), (pair[::-1], 100, 1)]
            cases.append(([Rolled("t", 10, low, tens=True), Rolled("u", 10, high // 10)], 100, 1))
    cases += [
        ([Rolled("t", 100, 40, tens=True), Rolled("u", 10, 7)] * 2, 100, 2),
        ([Rolled("h", 100, 63), Rolled("h", 100, 5)], 100, 2),
        ([Rolled("t", 100, 40, tens=True)], 100, 1),
        ([Rolled("a", 10, 4), Rolled("b", 10, 7)], 100, 1),
        ([Rolled("a", 20, 17), Rolled("a", 20, 4)], 20, 2),
        ([Rolled("a", 6, 3)], 6, 2),
    ]  # fmt: skip
    return cases


def test_the_phone_reads_every_d100_as_the_station_does() -> None:
    """The player page's own rule (server/static/play/percentile.js) gives every roll the
    station's numbers and dice: one rule, in the two languages that run it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on this machine: the player page's rule needs Node.js")
    cases = _cases()
    script = (
        f"import {{ filled }} from {json.dumps(PHONE.as_uri())};"
        "let text = ''; process.stdin.on('data', (c) => { text += c; });"
        "process.stdin.on('end', () => console.log(JSON.stringify(JSON.parse(text).map("
        "([dice, sides, count]) => filled(dice, sides, count)))));"
    )
    given = [
        [[{"id": d.die, **{k: v for k, v in asdict(d).items() if k != "die"}} for d in dice],
         sides, count]
        for dice, sides, count in cases
    ]  # fmt: skip
    run = subprocess.run(
        [node, "--input-type=module", "-e", script], input=json.dumps(given),
        capture_output=True, text=True, timeout=JOB_PATIENCE, check=True,
    )  # fmt: skip
    theirs = json.loads(run.stdout)
    for (dice, sides, count), phone in zip(cases, theirs, strict=True):
        ours = filled(dice, sides, count)
        assert (None if ours is None else {"faces": ours[0], "ids": ours[1]}) == phone, dice

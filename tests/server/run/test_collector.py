"""The server's cycle collector: what the built server holds is frozen out of its scans, and
full passes are rare, while young cycles are still collected."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from server.run import collector


@pytest.fixture
def restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored")
def test_settling_freezes_what_is_held_and_makes_full_passes_rare() -> None:
    held = len(gc.get_objects())
    young, middle, _ = gc.get_threshold()
    collector.settle()
    assert gc.get_freeze_count() >= held
    assert gc.get_threshold() == (young, middle, collector.FULL_PASS_EVERY)


@pytest.mark.usefixtures("restored")
def test_a_cycle_made_after_settling_is_still_collected() -> None:
    collector.settle()

    class Node:
        other: object

    first, second = Node(), Node()
    first.other, second.other = second, first
    del first, second
    assert gc.collect(1) >= 2  # a young pass finds the pair

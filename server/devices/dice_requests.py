"""Dice requests: a VTT asks the table's dice for a roll of its own (an attack, a save).

Foundry's dice fulfillment asks "N dice of F faces for this user"; Seize knows whose die is
whose, so the request is kept in the table's die registry (``server/devices/dice.py``) beside
the owners, where the die station reads it: the owner's next roll of as many dice of those
faces answers the request instead of becoming initiative or an unasked-roll notice. An owner
with no die yet opens a claim with the request ("roll the die you will use"). Kept in the
registry, a request is seen by every server and every station on the database, and by the
owner's player's page, whose own die (on their phone) answers it with the player's token; an
answer written through one server reaches the socket that asked on another.

Pure: the registry before and after, and a clock passed in. The channel that asks and waits is
``server/devices/dice_channel.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import Collection, Iterator
from typing import Any

MAX_REQUESTS = 16
"""Requests and answers a table keeps at once: a roll asks for one, a table has a handful of
players, and each is gone once answered or timed out."""
PLAYER_SHARE = 2
"""Requests (and answers not yet taken) one player's token holds at once. A VTT asks for a
player's roll and awaits it before the next: one slot is the roll being rolled, the other the
next one asked while the first's answer is still on its way (an attack, then its damage). A
third would only be a player holding slots the others need: each waits up to LONGEST_WAIT."""
GM_ROOM = 4
"""Slots the players together never take: the GM (the VTT rolling for the table, the die
station's own requests) always finds room. The other twelve are six players' full shares."""
MAX_DICE_ASKED = 8
"""Dice one request asks for: advantage is two, a fireball's 8d6 the most one player rolls."""
SIDES = frozenset({2, 3, 4, 6, 8, 10, 12, 20, 100})
"""The faces a request may ask for: Foundry's standard denominations (CONFIG.Dice.fulfillment.dice),
a coin, and a Fate die's three (``FATE`` in adapters/pixels_protocol.py: 1 is minus, 2 blank,
3 plus)."""
LONGEST_WAIT = 300.0
"""Seconds a request may wait: a player finding their dice bag."""
LINGER = 60.0
"""Seconds past its wait a request or answer is kept before any change forgets it (a server
that asked and stopped never takes its answer)."""
PERCENT = 100
"""A d100's faces: rolled at the table with a tens die and a d10, two dice to one face."""
REQUEST_ID = re.compile(r"[A-Za-z0-9]{1,32}")


class RequestError(ValueError):
    """A request or an answer the table refuses; ``field`` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def new_id() -> str:
    return secrets.token_hex(8)


def asked(
    book: dict[str, Any],
    rid: str,
    owner: str,
    sides: int,
    count: int,
    until: float,
    player: Collection[str] | None = None,
) -> dict[str, Any]:
    """The registry with a request added, asked by the GM's token or (``player``: its
    characters) a player's; an owner with no die registered opens a claim, so that the first
    unowned die rolled becomes theirs and answers. Raises RequestError when the asker has no
    room (``room``)."""
    room(book, player)
    requests = dict(book.get("requests", {}))
    owned = any(entry["owner"] == owner for entry in book["dice"].values())
    claim = not owned and owner not in book["claims"]
    requests[rid] = {"owner": owner, "sides": sides, "count": count, "until": until,
                     "claim": claim, "by": "gm" if player is None else "player"}  # fmt: skip
    claims = [*book["claims"], owner] if claim else book["claims"]
    return {**book, "requests": requests, "claims": claims}


def room(book: dict[str, Any], player: Collection[str] | None) -> None:
    """Refuse a request the asker has no room for: the table keeps ``MAX_REQUESTS``, the
    players together leave ``GM_ROOM`` of them to the GM, and a player's token holds at most
    ``PLAYER_SHARE`` (counted by its characters, whatever token asked for them). So no player
    takes every slot, and the GM's requests wait on no player's."""
    held = [one for _, one in _entries(book)]
    if len(held) >= MAX_REQUESTS:
        raise RequestError("dice", f"a table waits on at most {MAX_REQUESTS} dice requests")
    if player is None:
        return
    players = [one for one in held if one.get("by") == "player"]
    if sum(one["owner"] in player for one in players) >= PLAYER_SHARE:
        message = f"a player waits on at most {PLAYER_SHARE} dice requests at once: roll one"
        raise RequestError("dice", message)
    if len(players) >= MAX_REQUESTS - GM_ROOM:
        message = f"the players wait on {len(players)} dice requests, all the table keeps for them"
        raise RequestError("dice", message)


def answered(book: dict[str, Any], answers: Any) -> dict[str, Any]:
    """The registry with requests answered (a station's, a tray's or a phone's change): each
    answer names an open request and gives its faces, as many as asked and each on the die,
    and the dice that rolled them (a d100's face, two: its tens die and its d10). The claim a
    request opened closes with its answer: the roll it waited for has come (from the tray,
    say), and the next die nobody owns stays no one's. Raises RequestError naming the answer
    at fault."""
    if not isinstance(answers, dict):
        raise RequestError("answers", "an object of request id to faces and dice")
    requests, kept = dict(book.get("requests", {})), dict(book.get("answers", {}))
    claims = book["claims"]
    for rid, answer in answers.items():
        field = f"answers.{rid}"
        request = requests.pop(rid, None)
        if request is None:
            raise RequestError(field, "no such request is open: answered, or timed out")
        if not isinstance(answer, dict) or set(answer) != {"faces", "dice"}:
            raise RequestError(field, "an object of faces and dice")
        faces, dice = answer["faces"], answer["dice"]
        if (
            not isinstance(faces, list)
            or len(faces) != request["count"]
            or not all(type(face) is int and 1 <= face <= request["sides"] for face in faces)
        ):
            message = f"{request['count']} faces, each from 1 to {request['sides']}"
            raise RequestError(f"{field}.faces", message)
        pairs = request["sides"] == PERCENT  # a tens die and a d10 make one face
        if (
            not isinstance(dice, list)
            or not len(faces) <= len(dice) <= len(faces) * (2 if pairs else 1)
            or not all(isinstance(die, str) and len(die) <= 40 for die in dice)
        ):
            each = "each face (two for a tens die and a d10)" if pairs else "each face"
            raise RequestError(f"{field}.dice", f"the id of the die that rolled {each}")
        kept[rid] = {"owner": request["owner"], "faces": faces, "dice": dice,
                     "until": request["until"], "claim": request["claim"],
                     "by": request.get("by", "gm")}  # fmt: skip
        if request["claim"]:
            claims = [one for one in claims if one != request["owner"]]
    return {**book, "requests": requests, "answers": kept, "claims": claims}


def taken(book: dict[str, Any], rid: str) -> dict[str, Any]:
    """The registry without request ``rid`` or its answer (delivered, or timed out), and
    without the claim the request opened, if it is still open."""
    requests, answers = dict(book.get("requests", {})), dict(book.get("answers", {}))
    request = requests.pop(rid, None) or answers.pop(rid, None)
    answers.pop(rid, None)
    claims = book["claims"]
    if request is not None and request["claim"]:
        claims = [one for one in claims if one != request["owner"]]
    return {**book, "requests": requests, "answers": answers, "claims": claims}


def pruned(book: dict[str, Any], now: float) -> dict[str, Any]:
    """The registry without requests and answers ``LINGER`` seconds past their wait."""
    for rid in [rid for rid, one in _entries(book) if one["until"] + LINGER < now]:
        book = taken(book, rid)
    return book


def _entries(book: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield from book.get("requests", {}).items()
    yield from book.get("answers", {}).items()


def mine(book: dict[str, Any], owners: Any) -> dict[str, Any]:
    """The requests and answers of these owners alone: what a player reads of them."""
    return {
        kind: {rid: one for rid, one in book.get(kind, {}).items() if one["owner"] in owners}
        for kind in ("requests", "answers")
    }


_listening: dict[str, set[asyncio.Future[None]]] = {}
"""The sockets of this process waiting on a table's answers: woken when a station here answers,
rather than at their next look at the store (which finds an answer from another server)."""


@contextlib.contextmanager
def listening(table_id: str) -> Iterator[asyncio.Future[None]]:
    """A future done when an answer is next written at the table from this process."""
    heard: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    _listening.setdefault(table_id, set()).add(heard)
    try:
        yield heard
    finally:
        waiting = _listening.get(table_id, set())
        waiting.discard(heard)
        if not waiting:
            _listening.pop(table_id, None)


def heard(table_id: str) -> None:
    """An answer was written at the table: wake the sockets here that wait on it."""
    for waiting in _listening.get(table_id, set()):
        if not waiting.done():
            waiting.set_result(None)

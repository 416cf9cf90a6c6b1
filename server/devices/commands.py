"""The ``seize`` commands for hardware: adapters, simulators and decks.

seize adapter nfc --device udp:127.0.0.1:54321 --server URL --table ID --token GM [--deck F]
seize adapter tray --port /dev/seize-tray --server URL --table ID --token GM
seize sim ntag [--port 54321]          an NTAG215 for nfcpy's udp driver
seize sim tray --link /tmp/seize-tray  a tray on a pseudo-terminal; type "2d6" to roll
seize sim pn532 --link /dev/seize-pn532  a PN532 reader on a pseudo-terminal
seize deck enroll --device … --out deck.json
seize deck check deck.json
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import re
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adapters.deck import DeckMap
    from adapters.link import Link

COMMANDS = {"adapter", "sim", "deck"}


def add_commands(commands: Any) -> None:
    adapter = commands.add_parser("adapter", help="feed a table from a card reader or dice tray")
    kinds = adapter.add_subparsers(dest="kind", required=True)
    for kind, help_text in (
        ("nfc", "an NFC card reader (nfcpy)"),
        ("tray", "a dice tray on a serial port"),
        ("station", "a reader station printing tag UIDs on a serial port"),
    ):
        one = kinds.add_parser(kind, help=help_text)
        one.add_argument("--server", required=True, help="the Seize server's address")
        one.add_argument("--table", required=True)
        one.add_argument("--token", required=True, help="the table's GM token")
        one.add_argument("--name", default=kind, help="how the console names this device")
    kinds.choices["nfc"].add_argument(
        "--device", default="usb", help="nfcpy's path: usb, tty:USB0:pn532, udp:HOST:PORT"
    )
    kinds.choices["nfc"].add_argument("--deck", type=Path, help="a deck map (UID → card)")
    kinds.choices["nfc"].add_argument("--seat", help="the participant this reader deals to")
    for serial_kind in ("tray", "station"):
        kinds.choices[serial_kind].add_argument(
            "--port", dest="device", metavar="PORT", required=True, help="the serial device"
        )
    kinds.choices["tray"].set_defaults(deck=None, seat=None)
    kinds.choices["station"].add_argument(
        "--deck", type=Path, required=True, help="the deck map: a station reports UIDs only"
    )
    kinds.choices["station"].add_argument("--seat", help="the participant it deals to")

    sim = commands.add_parser("sim", help="run a simulated device")
    sims = sim.add_subparsers(dest="kind", required=True)
    sims.add_parser("ntag", help="an NTAG215 for nfcpy's udp driver").add_argument(
        "--port", type=int, default=54321
    )
    sims.add_parser("tray", help="a dice tray on a pseudo-terminal (POSIX)").add_argument(
        "--link", type=Path, default=Path("/tmp/seize-tray"), help="its stable path"
    )
    sims.add_parser("pn532", help="a PN532 reader on a pseudo-terminal (POSIX)").add_argument(
        "--link",
        type=Path,
        default=Path("/dev/seize-pn532"),
        help="its stable path, under /dev: nfcpy opens nothing else",
    )

    deck = commands.add_parser("deck", help="enrol or check a deck of NFC-tagged cards")
    actions = deck.add_subparsers(dest="action", required=True)
    enroll = actions.add_parser("enroll", help="lay each of the 54 cards on the reader in turn")
    enroll.add_argument("--device", default="usb")
    enroll.add_argument("--out", type=Path, required=True)
    enroll.add_argument("--name", default="deck")
    actions.add_parser("check", help="all 54 cards present, no tag twice").add_argument(
        "deck", type=Path
    )


def run(args: argparse.Namespace) -> int:
    """Run a hardware command; a deck file that cannot be used is one line, and Ctrl-C the end
    of an adapter, not a traceback."""
    from adapters.deck import DeckError  # noqa: PLC0415 - adapters only when asked

    try:
        if args.command == "deck":
            return _deck(args)
        if args.command == "sim":
            return _simulate(args)
        return asyncio.run(_adapter(args))
    except KeyboardInterrupt:
        return 130
    except DeckError as wrong:
        print(f"seize: {wrong}", file=sys.stderr)
        return 2


def load_deck(path: Path | None) -> DeckMap | None:
    """The deck map at ``path``, if one is named; raises DeckError naming the field at fault."""
    from adapters.deck import DeckMap  # noqa: PLC0415 - hardware libraries only when asked

    return DeckMap.load(path) if path is not None else None


def _deck(args: argparse.Namespace) -> int:
    from adapters.deck import DeckMap  # noqa: PLC0415 - hardware libraries only when asked

    if args.action == "check":
        problems = DeckMap.load(args.deck).problems()
        print("\n".join(problems) if problems else f"{args.deck}: all 54 cards, no tag twice")
        return 1 if problems else 0
    from adapters.enroll import enroll  # noqa: PLC0415

    deck = DeckMap.load(args.out) if args.out.exists() else DeckMap(name=args.name)
    enroll(args.device, deck, print).save(args.out)
    print(f"saved {args.out}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    """A simulated device, until ``quit``/``q``, the end of its input, Ctrl-C or SIGTERM, after
    which its path is gone. The simulators are POSIX only: the tray and the PN532 sit on a
    pseudo-terminal, and the tag waits on its input and its socket with ``select``."""
    if importlib.util.find_spec("termios") is None:  # Windows
        print(
            f"seize: sim {args.kind} needs a POSIX system (Linux, macOS): the simulators "
            "use pseudo-terminals and select() on their input",
            file=sys.stderr,
        )
        return 2
    if args.kind == "ntag":
        from adapters.simulators.ntag import serve  # noqa: PLC0415

        serve(args.port)
        return 0
    from adapters.simulators.pn532 import Pn532Simulator  # noqa: PLC0415
    from adapters.simulators.tray import TraySimulator  # noqa: PLC0415

    device: TraySimulator | Pn532Simulator
    if args.kind == "pn532":
        device = reader = Pn532Simulator(args.link)
        hint = f"a PN532 at {args.link}: present <uid hex> [<card>] | remove | quit"

        def told(words: list[str]) -> None:
            if words[0] == "present" and len(words) > 1:
                card = words[2] if len(words) > 2 else None
                reader.present(bytes.fromhex(words[1]), card)
            elif words[0] == "remove":
                reader.remove()

    else:
        device = tray = TraySimulator(args.link)
        hint = f"a dice tray at {args.link}: type 2d6 or 1d10 to roll, q to unplug"

        def told(words: list[str]) -> None:
            if match := re.fullmatch(r"(\d+)d(\d+)", words[0]):
                count, sides = int(match.group(1)), int(match.group(2))
                print(tray.roll(sides, *(random.randint(1, sides) for _ in range(count))))

    signal.signal(signal.SIGTERM, _terminated)
    device.plug()
    try:
        if isinstance(device, TraySimulator):
            device.hello()
        print(hint, flush=True)
        for line in sys.stdin:
            words = line.split(maxsplit=2)
            if words and words[0] in ("q", "quit"):
                break
            try:
                if words:
                    told(words)
            except ValueError as wrong:  # a UID that is not hex, a 2d0: say so, go on
                print(f"? {wrong}")
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    finally:
        device.unplug()
    return 0


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM ends a simulator as Ctrl-C does: through its ``finally``, which unplugs it."""
    raise SystemExit(128 + signum)


Adapter = Callable[[asyncio.Event], Coroutine[Any, Any, None]]


def adapter(
    kind: str,
    device: str,
    link: Link,
    *,
    deck: DeckMap | None = None,
    seat: str | None = None,
    name: str | None = None,
) -> Adapter:
    """An adapter for one device feeding one table through ``link``, ready to run until its
    stop event."""
    name = name or kind
    if kind == "tray":
        from adapters.tray import TrayAdapter  # noqa: PLC0415

        return TrayAdapter(device, link, name=name).run
    if kind == "station":
        from adapters.station import StationAdapter  # noqa: PLC0415

        if deck is None:
            raise ValueError("a reader station reports UIDs only: give it a deck map")
        return StationAdapter(device, link, deck, seat=seat, name=name).run
    from adapters.card_reader import CardAdapter  # noqa: PLC0415

    return CardAdapter(device, link, deck, seat=seat, name=name).run


async def _adapter(args: argparse.Namespace) -> int:
    """A device beside a server elsewhere: it reaches the table over the network."""
    from adapters.link import TableLink  # noqa: PLC0415

    run = adapter(
        args.kind,
        args.device,
        TableLink(args.server, args.table, args.token),
        deck=load_deck(args.deck),
        seat=args.seat,
        name=args.name,
    )
    await run(asyncio.Event())
    return 0

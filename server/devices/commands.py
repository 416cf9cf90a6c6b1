"""The ``seize`` commands for hardware: adapters, simulators and decks.

seize adapter nfc --device udp:127.0.0.1:54321 --server URL --table ID --token GM [--deck F]
seize adapter tray --port /dev/seize-tray --server URL --table ID --token GM
seize adapter dice --server URL --table ID --token GM [--limit 7] [--shell DIE=d20]
(and each as a ``[[devices]]`` entry of ``seize serve``'s settings: ``prepare``)
seize sim ntag [--port 54321]          an NTAG215 for nfcpy's udp driver
seize sim tray --link /tmp/seize-tray  a tray on a pseudo-terminal; type "2d6" to roll
seize sim pn532 --link /dev/seize-pn532  a PN532 reader on a pseudo-terminal
seize sim dice --server URL --table ID --token GM  simulated Pixels and GoDice, and a station
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
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.devices.local_link import LocalLink, LocalRegistry

if TYPE_CHECKING:
    from adapters.deck import DeckMap
    from adapters.link import Link
    from adapters.registry import Registry
    from server.settings import DeviceSetting

COMMANDS = {"adapter", "sim", "deck"}
DASHED = "; one that begins with '-' (minted by an older Seize) goes as --token=TOKEN"
"""Said of ``--token``: a value beginning with "-" after a space is read as an option."""


def add_commands(commands: Any) -> None:
    adapter = commands.add_parser("adapter", help="feed a table from a card reader or dice tray")
    kinds = adapter.add_subparsers(dest="kind", required=True)
    for kind, help_text in (
        ("nfc", "an NFC card reader (nfcpy)"),
        ("tray", "a dice tray on a serial port"),
        ("station", "a reader station printing tag UIDs on a serial port"),
        ("dice", "Bluetooth dice: Pixels and GoDice (bleak)"),
    ):
        one = kinds.add_parser(kind, help=help_text)
        one.add_argument("--server", required=True, help="the Seize server's address")
        one.add_argument("--table", required=True)
        one.add_argument("--token", required=True, help=f"the table's GM token{DASHED}")
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
    _dice_arguments(kinds.choices["dice"])

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

    dice = sims.add_parser(
        "dice", help="simulated Pixels and GoDice, and a station feeding a table"
    )
    dice.add_argument("--server", required=True)
    dice.add_argument("--table", required=True)
    dice.add_argument("--token", required=True, help=f"the table's GM token{DASHED}")
    dice.add_argument("--name", default="dice-station", help="how the console names the station")
    dice.add_argument("--pixels", type=int, default=2, help="how many Pixels d6")
    dice.add_argument("--godice", type=int, default=1, help="how many GoDice d6")
    dice.add_argument("--every", type=float, help="roll a die every so many seconds")
    dice.set_defaults(limit=7, shell=[])

    deck = commands.add_parser("deck", help="enrol or check a deck of NFC-tagged cards")
    actions = deck.add_subparsers(dest="action", required=True)
    enroll = actions.add_parser("enroll", help="lay each of the 54 cards on the reader in turn")
    enroll.add_argument("--device", default="usb")
    enroll.add_argument("--out", type=Path, required=True)
    enroll.add_argument("--name", default="deck")
    actions.add_parser("check", help="all 54 cards present, no tag twice").add_argument(
        "deck", type=Path
    )


def _dice_arguments(parser: argparse.ArgumentParser) -> None:
    # Named "dice-station" unless told: "dice" is the die registry's name, which no device
    # reports as.
    parser.set_defaults(deck=None, seat=None, device=None, name="dice-station")
    parser.add_argument("--limit", type=int, default=7, help="dice connected at once")
    parser.add_argument(
        "--shell", action="append", default=[], metavar="DIE=SHELL",
        help="a GoDice's shell (d4, d6, d8, d10, d10x, d12, d20) by its id: godice-B0C7B0=d20",
    )  # fmt: skip


def shells(told: Mapping[str, str], field: str = "--shell") -> dict[str, Any]:
    """The GoDice shells told (die id → shell), from the command line or a ``[[devices]]``
    entry; raises ValueError naming ``field`` and the one at fault."""
    from adapters.godice_protocol import Shell  # noqa: PLC0415 - adapters only when asked

    known = ", ".join(shell.value for shell in Shell)
    found: dict[str, Shell] = {}
    for die, shell in told.items():
        try:
            found[die] = Shell(shell)
        except ValueError:
            raise ValueError(f"{field} {die}={shell}: a shell is one of {known}") from None
    return found


def run(args: argparse.Namespace) -> int:
    """Run a hardware command; a deck file that cannot be used is one line, and Ctrl-C the end
    of an adapter, not a traceback."""
    from adapters.deck import DeckError  # noqa: PLC0415 - adapters only when asked

    try:
        if args.command == "deck":
            return _deck(args)
        if args.command == "sim" and args.kind == "dice":
            return asyncio.run(_dice(args))
        if args.command == "sim":
            return _simulate(args)
        return asyncio.run(_adapter(args))
    except KeyboardInterrupt:
        return 130
    except (DeckError, ValueError, ConnectionError) as wrong:
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
Starter = Callable[[LocalLink], Adapter]
"""A configured device, ready to start on the link to its table."""


def adapter(
    kind: str,
    device: str,
    link: Link,
    registry: Registry,
    *,
    deck: DeckMap | None = None,
    seat: str | None = None,
    name: str | None = None,
) -> Adapter:
    """An adapter for one device feeding one table through ``link``, ready to run until its
    stop event; a tray reads the table's die ``registry`` for the dice requests it answers."""
    name = name or kind
    if kind == "tray":
        from adapters.tray import TrayAdapter  # noqa: PLC0415

        return TrayAdapter(device, link, registry, name=name).run
    if kind == "station":
        from adapters.station import StationAdapter  # noqa: PLC0415

        if deck is None:
            raise ValueError("a reader station reports UIDs only: give it a deck map")
        return StationAdapter(device, link, deck, seat=seat, name=name).run
    from adapters.card_reader import CardAdapter  # noqa: PLC0415

    return CardAdapter(device, link, deck, seat=seat, name=name).run


def _need_bleak() -> None:
    if importlib.util.find_spec("bleak") is None:
        raise ValueError("the dice station needs bleak: pip install 'seize[dice]'")


def dice_station(args: argparse.Namespace, **backends: Any) -> Adapter:
    """A die station feeding the table named by ``args`` over the network; ``backends`` may
    replace bleak's radio (the simulated dice)."""
    _need_bleak()
    from adapters.link import TableLink  # noqa: PLC0415
    from adapters.registry import TableRegistry  # noqa: PLC0415

    told = shells(dict(one.partition("=")[::2] for one in args.shell))
    return station(
        TableLink(args.server, args.table, args.token),
        TableRegistry(args.server, args.table, args.token),
        name=args.name, limit=args.limit, shells=told, **backends,
    )  # fmt: skip


def station(
    link: Link, registry: Registry, *, name: str, limit: int | None, shells: Any, **backends: Any
) -> Adapter:
    """A die station feeding a table through ``link`` and its die registry, connecting up to
    ``limit`` dice (None: as many as one adapter holds)."""
    _need_bleak()
    from adapters.dice import MAX_DICE, DiceStation  # noqa: PLC0415

    return DiceStation(
        link, registry, name=name, limit=limit or MAX_DICE, shells=shells, **backends
    ).run


def prepare(device: DeviceSetting, **backends: Any) -> Starter:
    """What ``seize serve`` runs for a ``[[devices]]`` entry, given the link to its table:
    what can be checked before the server starts (the deck map, the dice extra, the GoDice
    shells) is checked now, raising ValueError naming the field. ``backends`` may replace
    bleak's radio (the simulated dice)."""
    if device.kind == "dice":
        _need_bleak()
        told = shells(device.shells, "shells:")
        return lambda link: station(
            link, LocalRegistry(link), name=device.name or "dice-station", limit=device.limit,
            shells=told, **backends,
        )  # fmt: skip
    deck = load_deck(device.deck)
    place = str(device.device)  # every kind but dice has one (DeviceSetting)
    return lambda link: adapter(
        device.kind, place, link, LocalRegistry(link), deck=deck, seat=device.seat,
        name=device.name,
    )  # fmt: skip


async def _dice(args: argparse.Namespace) -> int:
    """Simulated dice and a station reaching them through the simulated radio: dice roll on
    a key (the die's number, or Enter for any) or every ``--every`` seconds."""
    from adapters.simulators.dice import Air, SimulatedGoDice, SimulatedPixel, roll_any  # noqa: PLC0415

    air = Air()
    for number in range(args.pixels):
        air.add(SimulatedPixel.make(0x5EED0000 + number, f"Pixel {number + 1}"))
    for number in range(args.godice):
        air.add(SimulatedGoDice.make(f"5EED{number:02X}"))
    scanner, client = air.backends()
    stop = asyncio.Event()
    station = asyncio.create_task(
        dice_station(args, scanner_backend=scanner, client_backend=client)(stop)
    )
    dice, rng = list(air.dice.values()), random.Random()
    print("dice: " + ", ".join(f"{n + 1} {d.name}" for n, d in enumerate(dice)), flush=True)
    print("type a die's number to roll it, Enter for any, q to stop", flush=True)
    loop = asyncio.get_running_loop()
    try:
        while not station.done():
            if args.every:
                await asyncio.sleep(args.every)
                line = ""
            else:
                typed = await loop.run_in_executor(None, sys.stdin.readline)
                line = typed.strip()
                if line in ("q", "quit") or not typed:  # nothing at all: the input ended
                    break
            die = (
                dice[int(line) - 1]
                if line.isdigit() and 0 < int(line) <= len(dice)
                else rng.choice(dice)
            )
            print(f"{die.name} rolled {roll_any(die, rng)}", flush=True)
    finally:
        stop.set()
        await station
    return 0


async def _adapter(args: argparse.Namespace) -> int:
    """A device beside a server elsewhere: it reaches the table over the network."""
    from adapters.link import TableLink  # noqa: PLC0415
    from adapters.registry import TableRegistry  # noqa: PLC0415

    if args.kind == "dice":
        await dice_station(args)(asyncio.Event())
        return 0
    run = adapter(
        args.kind,
        args.device,
        TableLink(args.server, args.table, args.token),
        TableRegistry(args.server, args.table, args.token),
        deck=load_deck(args.deck),
        seat=args.seat,
        name=args.name,
    )
    await run(asyncio.Event())
    return 0

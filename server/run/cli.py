"""The ``seize`` command: ``seize serve`` runs the server, ``seize demo`` a terminal demo."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import secrets
import socket
import ssl
import sys
import tomllib
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeAlias, get_args

from aiohttp import web
from pydantic import ValidationError
from pydantic_settings import SettingsError

from rules.recap import recap
from rules.roles import GM, Role, Viewer
from server.demo import devices as demo_devices
from server.demo.tables import ready, ready_rcs
from server.demo.terminal import play_demo
from server.devices import commands as hardware
from server.devices.local_link import LocalLink
from server.errors import SchemaTooNewError, StoreRefusedError, StoreUnavailableError
from server.http.context import SEIZE
from server.http.handoff import NewGmDevice, console_url
from server.http.metrics import worker_index
from server.http.reached import WILDCARD, lan_addresses
from server.http.story import answer, seen_as
from server.run import collector, loops, serving, share
from server.run.app import make_app, tls_context
from server.run.logs import configure
from server.run.workers import (
    leave_with_parent,
    restarted,
    share_figures,
    supervise,
)
from server.settings import Durability, Settings, config_path
from server.store import Store, TableRow, open_store, promised, shown
from server.tables.access import GM_DEVICE_LABEL, mint, token_row
from server.tables.story import chronicle
from server.tables.systems import SYSTEMS

log = logging.getLogger("seize")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command the command line names; what it answers is the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        return _demo(args.seed)
    if args.command in hardware.COMMANDS:
        return _hardware(args)
    if args.command == "gm-link":
        return _gm_link(_flags(args), args.table, args.name)
    if args.command == "export":
        return _export_command(args, parser)
    return _serve(args, parser, argv)


def _parser() -> argparse.ArgumentParser:
    """Every command's flags and help."""
    parser = argparse.ArgumentParser(prog="seize", description="An initiative server for TTRPGs.")
    commands = parser.add_subparsers(dest="command", required=True)
    _serve_parser(commands)
    _gm_link_parser(commands)
    _export_parser(commands)
    _demo_parser(commands)
    hardware.add_commands(commands)
    return parser


Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""Where each command's parser is added (argparse names the type only privately)."""


def _serve_parser(commands: Commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the server",
        epilog="Every setting can also be given as SEIZE_<NAME> in the environment, or in "
        "seize.toml in the working folder (or the file SEIZE_CONFIG names); flags come first, "
        "then the environment, then the file. docs/api.md lists them all.",
    )
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8080)")
    serve.add_argument(
        "--db",
        help="the SQLite file, or a postgresql:// URL (default: a file in the user data folder)",
    )
    serve.add_argument(
        "--bus",
        help="a redis:// URL: servers sharing the database tell each other of commands there",
    )
    serve.add_argument(
        "--workers", type=int, help="processes serving the port, sharing it (default 1)"
    )
    serve.add_argument(
        "--durability",
        choices=get_args(Durability),
        help="where each acknowledged command is before its answer: on the disk (disk, the "
        "default: a power cut loses nothing), or with the operating system (os: quicker, and "
        "a crash of the server loses nothing, but a power cut may lose the last ones)",
    )
    serve.add_argument(
        "--demo",
        action="store_true",
        help="have two demo tables ready (the Four Color Hack, MegaTraveller RCS)",
    )
    serve.add_argument(
        "--tls-cert", type=Path, help="serve HTTPS and WSS with this PEM certificate"
    )
    serve.add_argument("--tls-key", type=Path, help="the PEM private key of --tls-cert")
    serve.add_argument(
        "--share",
        choices=share.WAYS,
        help="give every phone an https link: auto (Tailscale Funnel if logged in, else a "
        "Cloudflare quick tunnel), tailscale, cloudflare, or lan-ca (this network, offline; "
        "phones trust its certificate once); default off",
    )
    serve.add_argument(
        "--loop",
        choices=loops.LOOPS,
        help="the event loop to run on (default: uvloop where installed, else asyncio)",
    )


def _gm_link_parser(commands: Commands) -> None:
    gm_link = commands.add_parser(
        "gm-link",
        help="print a new GM link to a table, read from the database",
        description="Whoever holds the database holds its tables: this mints a GM link to "
        "one, for a GM whose browser lost it, as a device of its own that the console lists "
        "and can revoke. The table's other links keep working.",
    )
    gm_link.add_argument("table", help="the table's id, or its name")
    gm_link.add_argument(
        "--name",
        default="From the host",
        help="what the console calls the device the link is for (default: From the host)",
    )
    gm_link.add_argument(
        "--db", help="the SQLite file, or a postgresql:// URL (default: as seize serve)"
    )
    gm_link.add_argument("--host", help="the address the server listens on, as given to serve")
    gm_link.add_argument(
        "--port", type=int, help="the port the server listens on, as given to serve"
    )


def _export_parser(commands: Commands) -> None:
    export = commands.add_parser(
        "export",
        help="print a table's story as a recap (Markdown) or as JSON, read from the database",
        description="The fight's story as one role saw it: each step in the game's words with "
        "its time, and the numbers afterwards (time per turn, rounds, seizes, pre-emptions, "
        "undos). A player's or the stream's story holds nothing they were not shown.",
    )
    export.add_argument("table", help="the table's id, or its name")
    export.add_argument(
        "--as",
        dest="role",
        choices=[role.value for role in Role],
        default=Role.GM.value,
        help="whose story: the GM's (default), the overlay's (the stream), or a player's",
    )
    export.add_argument(
        "--playing", nargs="+", default=[], metavar="ID", help="the participants the player plays"
    )
    export.add_argument("--format", choices=["markdown", "json"], default="markdown")
    export.add_argument(
        "--db", help="the SQLite file, or a postgresql:// URL (default: as seize serve)"
    )


def _demo_parser(commands: Commands) -> None:
    demo = commands.add_parser("demo", help="play a Four Color Hack scene in the terminal")
    demo.add_argument("--seed", type=int, help="replay a particular deal (default: a fresh one)")


def _demo(seed: int | None) -> int:
    """``seize demo``: the scene played in the terminal, dealt from ``seed`` or afresh."""
    play_demo(seed if seed is not None else secrets.randbits(64), print)
    return 0


def _hardware(args: argparse.Namespace) -> int:
    """``seize adapter``, ``sim`` and ``deck``; an adapter logs as the server does (what it
    refused, what it lost)."""
    if args.command == "adapter":
        configure()
    return hardware.run(args)


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags, over the environment's and the file's."""
    return {
        k: v
        for k, v in vars(args).items()
        if k in ("host", "port", "db", "bus", "workers", "share", "durability") and v is not None
    }


def _export_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``seize export``: the viewer its flags name, whose story is printed."""
    if (args.role == Role.PLAYER.value) != bool(args.playing):
        parser.error("--as player goes with --playing, and --playing with it alone")
    viewer = Viewer(role=Role(args.role), participants=frozenset(args.playing))
    return _export(_flags(args), args.table, viewer, args.format)


def _serve(
    args: argparse.Namespace, parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> int:
    """``seize serve``: the settings checked, then the server run until it is stopped; a
    setting at fault is one line naming it, and exit status 2."""
    flags = _flags(args)
    if (args.tls_cert is None) != (args.tls_key is None):
        parser.error("--tls-cert and --tls-key go together")
    try:
        tls = tls_context(args.tls_cert, args.tls_key) if args.tls_cert else None
    except OSError as wrong:  # a missing file, or one that is not a certificate or its key
        print(f"seize: --tls-cert/--tls-key: {wrong}", file=sys.stderr)
        return 2
    try:
        settings = share.listening(Settings(**flags))
        starters = [hardware.prepare(device) for device in settings.devices]
    except ValueError as wrong:  # a bad setting, settings file, deck file or GoDice shell
        print(f"seize: {_one_line(wrong)}", file=sys.stderr)
        return 2
    try:
        loop = loops.choose(args.loop)
    except loops.LoopUnavailableError as wrong:
        print(f"seize: --loop: {wrong}", file=sys.stderr)
        return 2
    index = worker_index()
    configure(logging.getLevelNamesMapping()[settings.log_level.upper()], index)
    _allow_many_connections()
    if index is None and (taken := _port_taken(settings.host, settings.port)):
        print(f"seize: port {settings.port} on {settings.host}: {taken}", file=sys.stderr)
        return 2
    shared = None
    if index is None:
        try:
            shared = share.begin(settings, tls_given=tls is not None)
        except share.ShareError as wrong:
            print(f"seize: --share {settings.share}: {wrong}", file=sys.stderr)
            return 2
        settings, tls = shared.settings, shared.tls or tls
    if settings.workers > 1 and index is None:
        return supervise(sys.argv[1:] if argv is None else list(argv), settings.workers)
    return _run_server(settings, tls, loop, starters, demo=args.demo, shared=shared)


def _run_server(
    settings: Settings,
    tls: ssl.SSLContext | None,
    loop: str,
    starters: list[hardware.Starter],
    *,
    demo: bool,
    shared: share.Shared | None,
) -> int:
    """Serve in this process until stopped: alone (sharing as ``shared`` says), or as one of
    several workers (``shared`` None)."""
    index = worker_index()
    first = index in (None, 0)  # the one that prints, readies the demo and runs devices
    app = make_app(settings)
    simulated = _Devices()
    if first:  # the links first: how the table is shared, and what phones lose, follow them
        shown = as_reached(settings, tls=tls is not None)
        announce = _announce(shown, starters, demo=demo, simulated=simulated, again=restarted())
        app.on_startup.append(announce)
        app.cleanup_ctx.append(serving.recorded(shown.base_url, settings.port, settings.db))
    if shared is None:
        app.cleanup_ctx.extend((leave_with_parent, share_figures))
    else:
        share.attach(app, shared)
    if first:
        app.on_shutdown.append(simulated.shutdown)
        app.on_cleanup.append(_farewell(settings))  # after the store's close: it is all kept
    collector.settle()
    try:
        web.run_app(
            app,
            host=settings.host,
            port=settings.port,
            ssl_context=tls,
            print=None,
            access_log=None,
            reuse_port=settings.workers > 1,
            loop=loops.new_loop(loop),
        )
    except (StoreUnavailableError, StoreRefusedError, SchemaTooNewError) as wrong:  # at startup
        print(f"seize: db: {wrong}", file=sys.stderr)
        return 2
    return 0


def as_reached(settings: Settings, *, tls: bool) -> Settings:
    """The settings the printed links are made from: where other devices reach the server.
    Served modules follow each request's scheme, but a printed link says https under TLS; and
    listening on every address (``--host 0.0.0.0``), it names this machine's address on the
    table's network, not 0.0.0.0, which no phone can open."""
    if settings.public_url is not None:
        return settings
    host = settings.host
    if host in WILDCARD and (lans := lan_addresses(host)):
        host = str(lans[0].address)
    if not tls and host == settings.host:
        return settings
    scheme = "https" if tls else "http"
    return settings.model_copy(update={"public_url": f"{scheme}://{host}:{settings.port}"})


def _farewell(settings: Settings) -> Any:
    """The line a stopped server prints, once its store is closed: a GM who pressed Ctrl-C
    sees that it stopped, not only that the prompt came back, and where the tables wait."""

    async def farewell(app: web.Application) -> None:
        print(f"Seize stopped. The tables are kept in {shown(settings.db)}.", flush=True)

    return farewell


def _gm_link(flags: dict[str, Any], table: str, name: str) -> int:
    """Print a fresh GM link to ``table`` (an id, or a name only one table has), for a device
    called ``name``."""
    try:
        device = NewGmDevice(name=name)
    except ValueError:
        print("seize: --name: must be 1 to 80 characters, not only spaces", file=sys.stderr)
        return 2

    async def mint_link(store: Store, settings: Settings) -> str:
        table_id = (await _table(store, table)).id
        token = mint()
        await store.add_tokens([token_row(token, table_id, GM, GM_DEVICE_LABEL, device.name)])
        return console_url(settings.base_url, table_id, token)

    link = _on_the_store(flags, mint_link)
    if link is None:
        return 2
    print(link)
    print("Whoever holds this link runs the table: give it to no one else.", file=sys.stderr)
    return 0


def _on_the_store(
    flags: dict[str, Any], work: Callable[[Store, Settings], Awaitable[str]]
) -> str | None:
    """What ``work`` answers on the store the settings name (as ``seize serve`` would open
    it), opened around it; None, with the reason printed in one line, when the settings, the
    store or the table asked for are wrong."""
    try:
        settings = Settings(**flags)
    except ValueError as wrong:
        print(f"seize: {_one_line(wrong)}", file=sys.stderr)
        return None
    # The server on the port given; given none, the one that serves this database.
    served = (
        serving.address_now(settings.port)
        if "port" in flags
        else serving.address_serving(settings.db) or serving.address_now(settings.port)
    )
    if settings.public_url is None and served:
        settings = settings.model_copy(update={"public_url": served})  # links as served
    else:  # none serves there now: its address as the flags give it
        settings = as_reached(settings, tls=False)

    async def opened() -> str:
        store = open_store(settings.db)
        await store.open()
        try:
            return await work(store, settings)
        finally:
            await store.close()

    try:
        return asyncio.run(opened())
    except LookupError as missing:  # which database was read: a GM may have meant another
        print(f"seize: {missing} in {shown(settings.db)} (--db reads another)", file=sys.stderr)
        return None
    except (StoreUnavailableError, StoreRefusedError, SchemaTooNewError) as wrong:
        print(f"seize: {wrong}", file=sys.stderr)
        return None


async def _table(store: Store, table: str) -> TableRow:
    """The table with this id, or the one table with this name."""
    row = await store.table(table)
    if row is not None:
        return row
    named = await store.tables_named(table)
    # The name asked for is quoted: said bare, a name such as "No such table" read as the
    # error's own words.
    if not named:
        raise LookupError(f"no table has the id or the name {json.dumps(table)}")
    if len(named) > 1:
        raise LookupError(f"{len(named)} tables are named {json.dumps(table)}: give its id")
    return named[0]


def _export(flags: dict[str, Any], table: str, viewer: Viewer, form: str) -> int:
    """Print ``table``'s story as ``viewer`` saw it, as a recap (``markdown``) or as the API's
    export (``json``)."""

    async def tell(store: Store, _: Settings) -> str:
        row = await _table(store, table)
        system = SYSTEMS[row.system]
        options = system.options_model.model_validate_json(row.options)
        teller = await chronicle(store, row.id, system, options, viewer, keeping=True)
        if form == "markdown":
            return recap(teller.told(), row.name, seen_as(teller))
        return json.dumps({**answer(row.id, row.name, teller), "events": teller.shown}, indent=1)

    told = _on_the_store(flags, tell)
    if told is None:
        return 2
    sys.stdout.write(told if told.endswith("\n") else told + "\n")
    return 0


def _port_taken(host: str, port: int) -> str | None:
    """Why the server could not listen at ``host:port``, or None if it can: asked before
    anything is printed or started. Workers share their port (SO_REUSEPORT), so without this
    a second server would quietly join the first's, and take a share of its clients."""
    if port == 0:
        return None
    try:
        socket.create_server((host, port)).close()
    except OSError as taken:
        return f"{taken.strerror or taken} (is another server listening there?)"
    return None


def _one_line(wrong: ValueError) -> str:
    """What is wrong with the settings or a deck file, in one line naming the field at fault
    (the first, when several are)."""
    if isinstance(wrong, ValidationError):
        errors = wrong.errors()
        # The field's path, without the names pydantic gives the types it tried in a union.
        field = ".".join(str(p) for p in errors[0]["loc"] if isinstance(p, int) or p.isidentifier())
        message = errors[0]["msg"].removeprefix("Value error, ")
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"setting {field}: {message}{more}"
    if isinstance(wrong, SettingsError) and (named := re.search(r'field "(\w+)"', str(wrong))):
        field = named[1]
        return f'setting {field}: SEIZE_{field.upper()} is written as JSON: ["…", "…"]'

    if isinstance(wrong, tomllib.TOMLDecodeError):
        return f"{config_path()}: not TOML: {wrong}"
    return str(wrong)  # a DeckError names its file and field


def _allow_many_connections() -> None:
    """Every live subscriber holds a socket: raise the soft limit on open files to the hard
    one, so a table with a thousand overlays is not refused at the default 1024. Windows has
    no such limit (nor the module)."""
    try:
        import resource  # noqa: PLC0415 - POSIX only
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class _Devices:
    """Devices beside the server (configured adapters, the demo's simulated hardware): started
    once the server is up, stopped with it."""

    def __init__(self) -> None:
        self.stop = asyncio.Event()
        self.running: list[asyncio.Task[None]] = []

    def start(self, run: hardware.Adapter, name: str) -> None:
        task = asyncio.get_running_loop().create_task(run(self.stop), name=name)
        task.add_done_callback(_ended)
        self.running.append(task)

    async def shutdown(self, app: web.Application) -> None:
        """Ask the devices to stop; any still talking to this server, which no longer answers,
        is cancelled after a moment's grace rather than holding the shutdown."""
        self.stop.set()
        if not self.running:
            return
        _, hanging = await asyncio.wait(self.running, timeout=1)
        for task in hanging:
            task.cancel()
        await asyncio.gather(*self.running, return_exceptions=True)


def _ended(task: asyncio.Task[None]) -> None:
    """A device that fails is logged when it does, not found silent at shutdown."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("device stopped", extra={"device": task.get_name()}, exc_info=error)


def _announce(
    settings: Settings,
    starters: list[hardware.Starter],
    *,
    demo: bool,
    simulated: _Devices,
    again: bool,
) -> Any:
    """Ready the demo tables and start the devices, and print the links; ``again`` (a worker
    restarted) prints nothing and keeps the demo links already printed valid."""

    async def announce(app: web.Application) -> None:
        base = settings.base_url
        bus = app[SEIZE].bus.shown
        workers = f"{settings.workers} workers, " if settings.workers > 1 else ""
        listening = f"listening on {settings.host}:{settings.port}; " if settings.public_url else ""
        lines = [
            f"Seize is serving at {base}  ({listening}database: {shown(settings.db)}; "
            f"{workers}events: {bus}; event loop: {loops.running()})",
            f"  Durability:   {promised(settings.db, settings.durability)}",
            f"  API docs:     {base}/api/docs",
        ]
        if demo:
            seize = app[SEIZE]
            devices = demo_devices.available()
            game, tokens = await ready(seize, devices=devices, keep=again)
            rcs, rcs_tokens = await ready_rcs(seize, devices=devices, keep=again)
            table = f"{base}/api/tables/{game.id}"
            lines += [
                f"  Demo table:   {game.name} ({game.id})",
                f"  GM console:   {base}/console/{game.id}#token={tokens['gm']}",
                f"  Overlay:      {base}/overlay/{game.id}?token={tokens['overlay']}",
                f"  Spider-Man's player page: {base}/play/{game.id}?token={tokens['peter']}",
                f"  API (GM):     {table}?token={tokens['gm']}",
                f"  Demo table:   {rcs.name} ({rcs.id})",
                f"  GM console:   {base}/console/{rcs.id}#token={rcs_tokens['gm']}",
                f"  Overlay:      {base}/overlay/{rcs.id}?token={rcs_tokens['overlay']}",
                f"  Jena Vance's player page: {base}/play/{rcs.id}?token={rcs_tokens['jena']}",
                f"  Owlbear Rodeo extension: {base}/owlbear/manifest.json (docs/owlbear.md)",
            ]
            if devices:
                simulated.start(
                    demo_devices.DemoDevices(
                        base, (game.id, tokens["gm"]), (rcs.id, rcs_tokens["gm"])
                    ).run,
                    "demo devices",
                )
                lines.append(
                    "  Simulated devices: an NFC card reader, a dice tray and players' smart "
                    "dice (with the dice extra) deal and roll whenever these tables wait for "
                    "them (see the consoles)"
                )
            else:
                lines.append(
                    "  (simulated devices need the nfc and serial extras, on Linux or macOS)"
                )
        for device, starter in zip(settings.devices, starters, strict=True):
            where = device.device or "Bluetooth"
            lines.append(f"  Device:       {device.kind} at {where} → table {device.table}")
            link = LocalLink(app[SEIZE], device.table, device.token.get_secret_value())
            try:
                await link.check()
            except ConnectionError as wrong:
                lines.append(f"                not started: {wrong}")
                log.error("device not started", extra={"device": where, "why": str(wrong)})
                continue
            simulated.start(starter(link), device.name or device.device or device.kind)
        lines.append(f"  New table:    {base}/console")
        if not again:
            print("\n".join(lines), flush=True)

    return announce

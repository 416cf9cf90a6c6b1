"""The ``seize`` command."""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Sequence

from server.demo import play_demo


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="seize", description="An initiative server for TTRPGs.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="play a Four Color Hack scene in the terminal")
    demo.add_argument("--seed", type=int, help="replay a particular deal (default: a fresh one)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        play_demo(args.seed if args.seed is not None else secrets.randbits(64), print)
    return 0

"""`gaslight watch HOST:PORT`: watch a game on that host as a spectator."""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="watch a game at HOST:PORT",
        description="Watch a game on the host at HOST:PORT as a spectator.",
    )
    parser.add_argument("address", metavar="HOST:PORT", help="the host's address")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.address import AddressError, parse_address
    from tui.launch import run_app

    try:
        address = parse_address(args.address)
    except AddressError as error:
        raise SystemExit(f"gaslight watch: {error}")
    return run_app((address, True), args.app_interfaces)

"""`gaslight join HOST:PORT`: take a free seat at a table on that host."""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "join",
        help="join a table at HOST:PORT",
        description="Take a free seat at a table on the host at HOST:PORT.",
    )
    parser.add_argument("address", metavar="HOST:PORT", help="the host's address")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.address import AddressError, parse_address
    from tui.launch import run_app

    try:
        address = parse_address(args.address)
    except AddressError as error:
        raise SystemExit(f"gaslight join: {error}")
    return run_app((address, False), args.app_interfaces)

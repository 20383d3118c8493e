"""`gaslight join HOST:PORT` and `gaslight watch HOST:PORT`: straight to a table on that host,
in a seat or as a spectator."""

from __future__ import annotations

import argparse

COMMANDS = {
    # command: (spectate, help, description)
    "join": (False, "join a table at HOST:PORT",
             "Take a free seat (or your own seat again) at a table on the host at HOST:PORT."),
    "watch": (True, "watch a game at HOST:PORT",
              "Watch a game on the host at HOST:PORT as a spectator."),
}


def add_parser(subparsers) -> None:
    for command, (spectate, help_text, description) in COMMANDS.items():
        parser = subparsers.add_parser(command, help=help_text, description=description)
        parser.add_argument("address", metavar="HOST:PORT", help="the host's address")
        parser.add_argument("--code", metavar="CODE",
                            help="the host's table code (1234-5678), needed the first time you "
                            "join a host and at every join of a private table")
        parser.set_defaults(run=run, spectate=spectate)


def run(args: argparse.Namespace) -> int:
    from tui.address import AddressError, parse_address
    from tui.launch import run_app

    from netplay.pairing import read_code

    try:
        address = parse_address(args.address)
        code = None if args.code is None else read_code(args.code)
    except (AddressError, ValueError) as error:
        raise SystemExit(f"gaslight {args.command}: {error}")
    return run_app((address, args.spectate), args.app_interfaces, code)

"""`gaslight tables`: list the tables announced on the LAN, then exit."""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "tables",
        help="list the tables announced on the LAN",
        description="Browse zeroconf for Gaslight tables for a few seconds and list them.",
    )
    parser.add_argument("--interface", metavar="IP", action="append",
                        help="browse on this address only (repeatable; default: $GASLIGHT_INTERFACES, "
                        "else every interface)")
    parser.add_argument("--timeout", type=float, default=3.0, metavar="S",
                        help="seconds to listen (default 3)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from netplay.discovery import discover
    from tui.launch import interfaces_from

    tables = asyncio.run(discover(interfaces_from(args.interface), args.timeout))
    if not tables:
        print("no tables found")
        return 0
    for table in tables:
        print(
            f"{table.address:<21}  {table.name!r}  {table.game}  "
            f"{table.seats_taken}/{table.players} seats taken  {table.phase}  "
            f"(table {table.id}, protocol v{table.version})"
        )
    return 0

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

    from rich.console import Console

    from netplay.discovery import discover
    from tui.launch import interfaces_from

    tables = asyncio.run(discover(interfaces_from(args.interface), args.timeout))
    console = Console(highlight=False)
    if not tables:
        console.print("No tables found on the LAN.")
        return 0
    console.print(tables_table(tables))
    return 0


def tables_table(tables):
    """The tables found, as a Rich table: what a player reads, with the address to join."""
    from rich.table import Table

    from engine.catalogue import CATALOGUE

    table = Table(title="Gaslight tables on the LAN (join one: gaslight join ADDRESS)",
                  title_justify="left")
    table.add_column("Table")
    table.add_column("Game")
    table.add_column("Seats", justify="right")
    table.add_column("Phase")
    table.add_column("Address", no_wrap=True)
    for found in tables:
        info = CATALOGUE.get(found.game)
        table.add_row(
            found.name or found.id,
            info.title if info else found.game,
            f"{found.seats_taken}/{found.players}",
            found.phase,
            found.address,
        )
    return table

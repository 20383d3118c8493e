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
    import signal
    import sys

    from rich.console import Console

    from netplay.discovery import discover
    from tui.launch import interfaces_from

    async def listen():
        # Ctrl+C ends the wait early and lists what was found by then.
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        print(f"Listening for tables for {args.timeout:g} s (Ctrl-C stops)…", file=sys.stderr,
              flush=True)
        return await discover(interfaces_from(args.interface), args.timeout, stop)

    tables = asyncio.run(listen())
    console = Console(highlight=False)
    if not tables:
        console.print("No tables found on the LAN.")
        return 0
    console.print(tables_table(tables))
    return 0


def tables_table(tables):
    """The tables found, as a Rich table with the lobby's columns and words."""
    from rich.table import Table
    from rich.text import Text

    from tui.address import Address
    from tui.listing import TableListing
    from tui.widgets.table_list import HEADERS, order, row_of

    table = Table(title="Gaslight tables on the LAN (join one: gaslight join ADDRESS)",
                  title_justify="left")
    for header in HEADERS:
        table.add_column(header, no_wrap=header == "Address",
                         justify="right" if header == "Free" else "left")
    listings = [
        TableListing(Address(found.host, found.port), found.id, found.name or found.id,
                     found.game, found.players, found.seats_free, found.phase,
                     host_id=found.host_id, people=found.people, bots=found.bots)
        for found in tables
    ]
    for listing in sorted(listings, key=order):
        # Names are text: a table called "[b]x" is printed as typed.
        table.add_row(*(Text(cell) for cell in row_of(listing)))
    return table

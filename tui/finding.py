"""Finding tables: those announced on the LAN (discovery), those a host lists when asked, and
those where this player holds a seat, wherever their host is now (`Backend` mixes this in).
Nothing here imports textual; `netplay` is imported on first use, discovery off the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from dataclasses import replace
from typing import TYPE_CHECKING, Any, AsyncIterator

from tui.address import Address
from tui.listing import TableListing, changed_options_text
from tui.seat_book import HeldSeat, SeatBook

LOOKUP_TIMEOUT = 3.0
"""Seconds to wait for a host that should hold one of this player's seats."""
LIST_EVERY = 1.0
"""Seconds between two lists discovery gives the lobby while changes keep coming: under a
churn of tables, most of an open lobby's CPU went to drawing a list per table, each whole
(`benchmarks/lobby.py`). A change after a quiet second is listed at once."""


class TableFinding:
    """Browses the LAN, asks hosts for their tables, and finds the tables of the seats held."""

    interfaces: list[str] | None
    discover: bool
    seats: SeatBook

    if TYPE_CHECKING:
        def trust(self, address: Address, expected: str | None = None) -> dict[str, Any]: ...
        def check_reachable(self, address: Address) -> None: ...
        def seat_key(self, seat: HeldSeat) -> str | None: ...
        def runs_in_background(self, seat: HeldSeat) -> bool: ...
        async def resume_host(self, seat: HeldSeat) -> Address | None: ...
        async def stop_store(self, store: str) -> None: ...

    async def browse(self) -> AsyncIterator[list[TableListing]]:
        """The tables announced on the LAN, as a fresh full list each time it changes."""
        if not self.discover:
            return
        # zeroconf takes a noticeable time to import: do it off the event loop.
        discovery = await asyncio.to_thread(importlib.import_module, "netplay.discovery")
        TableBrowser = discovery.TableBrowser

        loop = asyncio.get_running_loop()
        async with TableBrowser(self.interfaces) as browser:
            yield []
            listed_at = -LIST_EVERY
            async for _ in browser:
                # Changes come in runs (a host opening or closing its tables, a lobby opened on
                # a busy LAN): the first at once, then at most one list every `LIST_EVERY`
                # while they go on, instead of one per table, each redrawn whole.
                wait = listed_at + LIST_EVERY - loop.time()
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(wait):
                            while True:
                                await browser.__anext__()
                listed_at = loop.time()
                yield [
                    TableListing(
                        address=Address(t.host, t.port),
                        id=t.id,
                        name=t.name or t.id,
                        game=t.game,
                        players=t.players,
                        seats_free=t.seats_free,
                        phase=t.phase,
                        host_id=t.host_id,
                        people=t.people,
                        bots=t.bots,
                        options=changed_options_text(t.game, t.options),
                        by=t.by,
                    )
                    for t in browser.tables.values()
                ]


    async def locate(self, host_id: str, table: str | None = None) -> tuple[str, int] | None:
        """Where the host with this identity announces `table` now, if discovery is on (one
        person's hosts share an identity: the table tells them apart)."""
        if not self.discover:
            return None
        discovery = await asyncio.to_thread(importlib.import_module, "netplay.discovery")
        found = await discovery.locator(self.interfaces)(host_id, table)
        if found is None:
            return None
        try:  # anyone may announce any host's identity: a guest follows it on their network only
            self.check_reachable(Address(*found))
        except PermissionError:
            return None
        return found

    async def held_tables(self, name: str) -> list[TableListing]:
        """The tables where this player holds a seat and whose game is not over. A seat at a
        table that is over or gone is forgotten; one whose host cannot be found now is kept
        (the host may come back) but not listed, unless a host with another key answers where
        it was: that row is listed, marked (`TableListing.key_changed`)."""
        found = []
        for seat in self.seats.all():
            if seat.in_use_elsewhere:
                continue
            listing = await self.find_held(seat, name)
            if listing is not None:
                found.append(replace(listing, held=True, source="seats"))
        return found

    async def find_held(self, seat: HeldSeat, name: str) -> TableListing | None:
        from netplay.client import HostKeyChanged

        key_changed = False

        async def tables_at(address: Address) -> list[TableListing] | None:
            nonlocal key_changed
            try:
                return await self.tables_of(seat, address, name)
            except HostKeyChanged:  # refused before anything was sent: the token stays here
                key_changed = True
                return None

        tables = await tables_at(seat.address)
        address = seat.address
        if tables is None and seat.store is not None and not self.runs_in_background(seat):
            # This app hosted that table and was closed: bring its host back from its store.
            resumed = await self.resume_host(seat)
            if resumed is None:
                self.seats.forget(*seat.key)
                return None
            address = resumed
            tables = await tables_at(address)
        if tables is None:
            # The host may have moved: another key where it was is not yet the last word.
            moved = await self.locate(seat.host_id, seat.table)
            if moved is not None:
                address = Address(*moved)
                tables = await tables_at(address)
        if tables is None:
            return TableListing.of_key_changed_seat(seat) if key_changed else None
        listing = next((t for t in tables if t.id == seat.table), None)
        if listing is None and address == seat.address:
            # One person's hosts share an identity: the table may be at another of them now.
            moved = await self.locate(seat.host_id, seat.table)
            if moved is not None and Address(*moved) != address:
                address = Address(*moved)
                listing = next((t for t in await tables_at(address) or [] if t.id == seat.table),
                               None)
        if listing is None or listing.phase == "over":
            self.seats.forget(*seat.key)
            if seat.store is not None:
                await self.stop_store(seat.store)
            return None
        if address != seat.address:
            self.seats.keep(replace(seat, address=address))
        return listing

    async def tables_of(
        self, seat: HeldSeat, address: Address, name: str
    ) -> list[TableListing] | None:
        """The tables at `address` if the host there is the one that gave `seat`; else
        None. Raises HostKeyChanged if the host there shows another key than that host's."""
        from netplay.client import HostKeyChanged

        try:
            async with asyncio.timeout(LOOKUP_TIMEOUT):
                tables, found = await self.list_tables_of(address, name, seat)
        except HostKeyChanged:
            raise
        except (OSError, ConnectionError, asyncio.TimeoutError):
            return None
        return tables if found == seat.host_id else None

    async def list_tables(self, address: Address, name: str) -> list[TableListing]:
        """Ask the host at `address` for its tables."""
        tables, _ = await self.list_tables_of(address, name)
        return tables

    async def list_tables_of(
        self, address: Address, name: str, seat: HeldSeat | None = None
    ) -> tuple[list[TableListing], str]:
        """The tables at `address`, and the identity of the host there (which must be the one
        that gave `seat`, if given)."""
        from netplay.client import Connection
        from netplay.protocol import Error, ListTables, TableList

        connection = await Connection.connect(
            address.host, address.port, name=name, reconnect=False,
            **self.trust(address, None if seat is None else self.seat_key(seat)),
        )
        try:
            await connection.send(ListTables())
            async for message in connection:
                match message:
                    case TableList(tables=tables):
                        host_id = connection.host_id or ""
                        source = f"address:{address}"
                        return [
                            TableListing.from_message(address, entry, source, host_id)
                            for entry in tables
                        ], host_id
                    case Error(message=text):
                        raise ConnectionError(text)
            raise ConnectionError(f"{address} closed the connection before listing its tables")
        finally:
            await connection.close()


"""The TUI's only door to the network: hosts it starts, connections it opens, tables it finds.

The app receives a Backend (Harlequin injects its adapter the same way), so tests give it one
bound to loopback with a temporary data directory and no bot delay. Nothing here imports
textual; `netplay` is imported on first use so that the lobby draws before zeroconf loads.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator

from tui.address import Address

if TYPE_CHECKING:
    from netplay.client import Connection
    from netplay.host import Host

LOCAL = "127.0.0.1"


def connect_error_text(address: Address, error: BaseException) -> str:
    """Why a connection to `address` failed, in words a player can act on."""
    if isinstance(error, ConnectionRefusedError):
        return f"Nobody answers at {address}: is the host running, and is the port right?"
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return f"{address} did not answer in time: is it on this network?"
    if isinstance(error, OSError) and error.strerror:
        return f"Cannot reach {address}: {error.strerror}."
    name = type(error).__name__
    if name in ("HostRefused", "ProtocolError"):
        return f"{address} refused: {error}"
    return f"Cannot reach {address}: {error}"


@dataclass(frozen=True)
class Ticket:
    """Where a table is and how to sit at it: everything the table screen needs to connect."""

    address: Address
    table: str | None
    spectate: bool = False
    share: str | None = None
    """For a table this app hosts: the HOST:PORT other players can type to join it."""
    private: bool = False
    """A table this app hosts for this player alone (bots): its host stops when they leave."""


@dataclass(frozen=True)
class TableListing:
    """One row of the lobby: a table and where it lives."""

    address: Address
    id: str
    name: str
    game: str
    players: int
    seats_free: int
    phase: str
    source: str = "lan"  # "lan" (discovered) | "address" (typed by the player) | "local"

    @classmethod
    def from_message(cls, address: Address, entry: dict[str, Any], source: str) -> "TableListing":
        return cls(
            address=address,
            id=str(entry["id"]),
            name=str(entry.get("name") or entry["id"]),
            game=str(entry.get("game", "?")),
            players=int(entry.get("players", 0)),
            seats_free=int(entry.get("seats_free", 0)),
            phase=str(entry.get("phase", "waiting")),
            source=source,
        )

    @property
    def key(self) -> str:
        return f"{self.address}/{self.id}"


@dataclass
class Backend:
    """Starts in-process hosts and opens client connections for the app."""

    interfaces: list[str] | None = None
    """Interfaces for zeroconf; None means every LAN interface (the default for players)."""
    data_dir: Path | None = None
    bot_delay: float = 0.4
    seed: int | None = None
    """A fixed seed for the tables this app creates: screenshots and tests."""
    discover: bool = True
    port: int = 0
    """The port for the first host this app starts; 0 picks a free one."""
    hosts: list["Host"] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)
    """Seat tokens by table, for this run of the app only: never written to disk."""

    async def connect(self, ticket: Ticket, name: str) -> "Connection":
        """Sit (or watch) at the ticket's table. A seat this app held there before, left by
        going back to the lobby, is taken back with its token."""
        from netplay.client import Connection, HostRefused

        token = None if ticket.spectate else self.tokens.get(self.seat_key(ticket))
        if token is not None:
            try:
                connection = await Connection.connect(
                    ticket.address.host, ticket.address.port, name=name, token=token,
                    reconnect=True,
                )
            except HostRefused:
                # The seat is gone (left before the game began, or the host restarted anew).
                del self.tokens[self.seat_key(ticket)]
            else:
                return connection
        connection = await Connection.connect(
            ticket.address.host,
            ticket.address.port,
            name=name,
            table=ticket.table,
            spectate=ticket.spectate,
            reconnect=True,
        )
        if connection.token is not None:
            self.tokens[self.seat_key(ticket)] = connection.token
        return connection

    @staticmethod
    def seat_key(ticket: Ticket) -> str:
        # By port and table id, not host: the same table is 127.0.0.1 to the app hosting it
        # and a LAN address once discovered.
        return f"{ticket.address.port}/{ticket.table}"

    def holds_seat(self, listing: "TableListing") -> bool:
        """Whether this app has a seat token for that table: joining takes the seat back."""
        return f"{listing.address.port}/{listing.id}" in self.tokens

    async def list_tables(self, address: Address, name: str) -> list[TableListing]:
        """Ask the host at `address` for its tables."""
        from netplay.client import Connection

        connection = await Connection.connect(
            address.host, address.port, name=name, reconnect=False
        )
        try:
            await connection.send({"t": "list_tables"})
            async for message in connection:
                if message.get("t") == "tables":
                    return [
                        TableListing.from_message(address, entry, "address")
                        for entry in message.get("tables", [])
                    ]
                if message.get("t") == "error":
                    raise ConnectionError(str(message.get("message", "the host refused")))
            raise ConnectionError(f"{address} closed the connection before listing its tables")
        finally:
            await connection.close()

    async def host_table(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        *,
        name: str,
        bots: int,
        advertise: bool,
        bot_level: str | None = None,
    ) -> Ticket:
        """Start a host in this process on a free port and create one table on it."""
        from netplay.host import Host

        host = Host(
            data_dir=self.data_dir,
            bot_delay=self.bot_delay,
            advertise=advertise,
            interfaces=self.interfaces,
        )
        # A table for others listens on every interface; a private bot game, or an app held to
        # loopback (tests, development machines), only on 127.0.0.1.
        bind = "0.0.0.0" if advertise and self.interfaces != [LOCAL] else LOCAL
        _, port = await host.start(bind, 0 if self.hosts else self.port)
        self.hosts.append(host)
        table = host.create_table(
            game, players, options, name=name, bots=bots, seed=self.seed, bot_level=bot_level
        )
        if self.seed is not None:
            # Screenshots and tests replay the same game: the bots' choices must repeat too.
            host.seed_bots(table, self.seed)
        share = None
        if advertise:
            addresses = [a for a in host.advertised_addresses() if not a.startswith("127.")]
            share = str(Address((addresses or [LOCAL])[0], port))
        return Ticket(Address(LOCAL, port), table, share=share, private=not advertise)

    async def play_bots(
        self,
        name: str,
        game: str = "timebomb",
        players: int = 5,
        options: dict[str, Any] | None = None,
        bot_level: str | None = None,
    ) -> Ticket:
        """A private table on loopback, every other seat a bot, never advertised. The host
        starts the game as soon as the player takes the last free seat."""
        return await self.host_table(
            game,
            players,
            options or {},
            name=f"{name} against bots",
            bots=players - 1,
            advertise=False,
            bot_level=bot_level,
        )

    async def browse(self) -> AsyncIterator[list[TableListing]]:
        """The tables announced on the LAN, as a fresh full list each time it changes."""
        if not self.discover:
            return
        # zeroconf takes a noticeable time to import: do it off the event loop.
        discovery = await asyncio.to_thread(importlib.import_module, "netplay.discovery")
        TableBrowser = discovery.TableBrowser

        async with TableBrowser(self.interfaces) as browser:
            yield []
            async for _ in browser:
                yield [
                    TableListing(
                        address=Address(t.host, t.port),
                        id=t.id,
                        name=t.name or t.id,
                        game=t.game,
                        players=t.players,
                        seats_free=t.seats_free,
                        phase=t.phase,
                    )
                    for t in browser.tables.values()
                ]

    async def release(self, ticket: Ticket) -> None:
        """Stop the private host behind `ticket`: nobody else can be at that table."""
        if not ticket.private:
            return
        for host in list(self.hosts):
            if host.address is not None and host.address[1] == ticket.address.port:
                self.hosts.remove(host)
                with contextlib.suppress(Exception):
                    await host.stop()

    async def close(self) -> None:
        hosts, self.hosts = self.hosts, []
        for host in hosts:
            with contextlib.suppress(Exception):
                await host.stop()

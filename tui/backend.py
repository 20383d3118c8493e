"""The TUI's only door to the network: hosts it starts, connections it opens, tables it finds.

The app receives a Backend (Harlequin injects its adapter the same way), so tests give it one
bound to loopback with a temporary data directory and no bot delay. Nothing here imports
textual; `netplay` is imported on first use so that the lobby draws before zeroconf loads.
The door's rooms are modules of their own: `tui.listing` (tickets and listings),
`tui.local_hosts` (the hosts this app runs), `tui.finding` (finding tables),
`tui.replaying` (past games, replay files and watching them, `tui.past_games`),
`tui.kept_games` (the games this player was at, kept as files) and `tui.group_record` (the
group's record across evenings, made from them).
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.address import Address, Network, check_reachable, guest_networks_from_environment
from tui.finding import LOOKUP_TIMEOUT, TableFinding
from tui.kept_games import KeptGames
from tui.listing import TableListing, Ticket
from tui.local_hosts import BOTS_STORE, LOCAL, LocalHosts
from tui.replaying import Replaying
from tui.seat_book import HeldSeat, SeatBook

if TYPE_CHECKING:
    from netplay.client import Connection
    from netplay.host import Host
    from netplay.person import PersonKey
    from netplay.pins import KnownHosts
    from netplay.replay_file import ReplayHost

SEATS_DIR = "seats"
"""The seat book's directory in the data directory: owner-only, as the tokens are."""


@dataclass
class Backend(LocalHosts, TableFinding, Replaying, KeptGames):
    """Starts in-process hosts and opens client connections for the app."""

    interfaces: list[str] | None = None
    """Interfaces for zeroconf; None means every LAN interface (the default for players)."""
    data_dir: Path | None = None
    """Gaslight's data directory (the hosts' stores, the seats held); None: the user's."""
    bot_delay: float | None = None
    """Seconds every bot waits before a move, whatever the table's pace (screenshots and tests:
    0); None: each table's pace."""
    seed: int | None = None
    """A fixed seed for the tables this app creates: screenshots and tests."""
    discover: bool = True
    port: int = 0
    """The port for the first host this app starts; 0 picks a free one."""
    hosts: list["Host"] = field(default_factory=list)
    codes: dict[Address, str] = field(default_factory=dict)
    """Table codes the player gave in this session, by host address: a private table asks
    its code at every join."""
    replay_hosts: list["ReplayHost"] = field(default_factory=list)
    """The hosts of the replay files open now (`open_replay_file`)."""
    guest_networks: tuple[Network, ...] | None = field(
        default_factory=guest_networks_from_environment)
    """For an app that runs for a guest in a browser (`gaslight serve` sets it), the networks
    where that guest may reach a host; None: an app of its own, which reaches anywhere."""
    keeping: set[asyncio.Task] = field(default_factory=set)
    """The finished games being kept now (`keep_game`)."""

    @cached_property
    def seats(self) -> SeatBook:
        """The seats this player holds, kept on disk (see `tui.seat_book`)."""
        from netplay.store import data_dir

        return SeatBook(data_dir(self.data_dir) / SEATS_DIR)

    @cached_property
    def known_hosts(self) -> "KnownHosts":
        """The hosts this player paired with, beside the seat book (see `netplay.pins`)."""
        from netplay.pins import KNOWN_HOSTS_FILE, KnownHosts

        return KnownHosts(self.seats.path.parent / KNOWN_HOSTS_FILE)

    @cached_property
    def person(self) -> "PersonKey":
        """Who this player is to every host (`netplay.person`): a key made once, kept beside
        the seat book, owner-only."""
        from netplay.person import PERSON_FILE, PersonKey

        return PersonKey(self.seats.path.parent / PERSON_FILE)

    async def close(self, by: str | None = None) -> None:
        """Let the games being kept be kept, stop the replay files' hosts still open, then
        every host this app runs (`LocalHosts.close`)."""
        await self.finish_keeping()
        await self.close_replay_files()
        await super().close(by)

    def own_host(self, address: Address) -> "Host | None":
        """The host this app runs at `address`, if it runs one there."""
        for host in self.hosts:
            if host.address is not None and address.port == host.address[1] and (
                    address.host in (LOCAL, "localhost", host.address[0])):
                return host
        return None

    def trust(self, address: Address, expected: str | None = None) -> dict[str, Any]:
        """How to make sure of the host at `address`: a host this app runs pairs by the code
        it holds, pinned nowhere (its key goes with its store); any other by the code the
        player gave for it, if any, and the known hosts. Going back with a token, the key of
        the host that gave it is `expected` first, and no code overrides it: the token goes
        to that host only. Every connection asks here first: a guest in a browser is refused
        a host outside their networks (`AddressNotAllowed`), before anything is sent."""
        own = self.own_host(address)
        if own is not None:
            return {"code": own.table_code, "known_hosts": None, "fingerprint": expected}
        self.check_reachable(address)
        return {"code": self.codes.get(address), "known_hosts": self.known_hosts,
                "fingerprint": expected}

    def check_reachable(self, address: Address) -> None:
        """Raise AddressNotAllowed if this app runs for a guest who may not reach `address`
        (a host this app runs is always theirs to reach)."""
        if self.guest_networks is not None and self.own_host(address) is None:
            check_reachable(address, self.guest_networks)

    def seat_key(self, seat: HeldSeat) -> str | None:
        """The key of the host that gave `seat`'s token. A seat kept before protocol 4 has no
        key with it: its host's pin stands in."""
        return seat.fingerprint or self.known_hosts.pinned(seat.host_id)

    def remember_code(self, address: Address, code: str) -> None:
        from netplay.pairing import read_code

        self.codes[address] = read_code(code)

    def needs_code(self, listing: "TableListing") -> bool:
        """Whether joining `listing`'s table needs a code the player has not given: a host
        never paired with, or a private table. A host's identity from discovery is only a
        hint: the connection still checks the key."""
        if self.own_host(listing.address) is not None or listing.address in self.codes:
            return False
        return listing.private or not (
            listing.host_id and self.known_hosts.pinned(listing.host_id))

    async def connect(self, ticket: Ticket, name: str) -> "Connection":
        """Sit (or watch) at the ticket's table. A seat this player holds there is taken back
        with its token; a new seat's token is kept in the seat book. A code the host refused
        is forgotten, so the next join asks for it again instead of trying it again."""
        from netplay.client import WrongCode

        try:
            return await self._connect(ticket, name)
        except WrongCode:
            self.codes.pop(ticket.address, None)
            raise

    async def _connect(self, ticket: Ticket, name: str) -> "Connection":
        from netplay.client import Connection, HostKeyChanged, HostRefused, NotPaired, WrongCode

        held = None if ticket.spectate else self.seats.get(ticket.host_id, ticket.table)
        if held is not None and held.in_use_elsewhere:
            held = None
        elif held is not None:
            try:
                connection = await Connection.connect(
                    ticket.address.host, ticket.address.port, name=name, token=held.token,
                    reconnect=True, locate=self.locate, person=self.person,
                    **self.trust(ticket.address, self.seat_key(held)),
                )
            except (HostKeyChanged, NotPaired, WrongCode):
                raise  # the host is not trusted yet: the seat may well still be there
            except HostRefused:
                # The seat is gone (the table closed, or the host started anew).
                self.seats.forget(*held.key)
            else:
                self.seats.keep(replace(held, address=ticket.address, pid=os.getpid(),
                                        fingerprint=connection.fingerprint))
                return connection
        connection = await Connection.connect(
            ticket.address.host,
            ticket.address.port,
            name=name,
            table=ticket.table,
            spectate=ticket.spectate,
            reconnect=True,
            locate=self.locate,
            person=self.person,
            **self.trust(ticket.address),
        )
        mine = self.seats.get(connection.host_id, connection.table)
        if connection.token is not None and connection.host_id and connection.table and not (
            mine is not None and mine.in_use_elsewhere  # that app's seat stays in the book
        ):
            self.seats.keep(HeldSeat(
                connection.host_id, connection.table, connection.token, ticket.address,
                ticket.game, ticket.name, ticket.store, os.getpid(), connection.fingerprint,
            ))
        return connection

    def holds_seat(self, listing: "TableListing") -> bool:
        """Whether this player holds a seat at that table: joining takes the seat back."""
        seat = self.seats.get(listing.host_id, listing.id) if listing.host_id else None
        return seat is not None and not seat.in_use_elsewhere

    async def let_go(self, listing: "TableListing", name: str) -> bool:
        """Give up the seat this player holds at `listing`'s table: at its host, if it answers
        (`leave`, which frees a seat before the game), and in the seat book either way. A
        private bot game this app hosted ends with its host and its store, as nobody else is
        there; a table this app hosted and keeps running in the background closes. Whether
        the host answered."""
        from netplay.client import Connection
        from netplay.protocol import Leave, Welcome
        from netplay.store import data_dir
        from tui import background

        seat = self.seats.get(listing.host_id, listing.id)
        if seat is None:
            return False
        self.seats.forget(*seat.key)
        if seat.store is not None and seat.store.startswith(BOTS_STORE):
            await self.discard_store(seat.store)
            return True
        if seat.store is not None and await asyncio.to_thread(
                background.stop, data_dir(self.data_dir), seat.store):
            # This app's table, kept running in the background: it closes, telling everyone.
            await self.discard_store(seat.store)
            return True
        if listing.key_changed:
            return False  # the host there shows another key: it is told nothing
        try:
            async with asyncio.timeout(LOOKUP_TIMEOUT):
                connection = await Connection.connect(
                    listing.address.host, listing.address.port, name=name, token=seat.token,
                    reconnect=False, **self.trust(listing.address, self.seat_key(seat)))
        except Exception:  # gone, or the seat with it: forgotten here all the same
            return False
        try:
            await connection.send(Leave())
            async for message in connection:
                if isinstance(message, Welcome) and message.table is None:
                    break
        except Exception:
            return False
        finally:
            await connection.close()
        return True


    def forget_seat(self, ticket: Ticket) -> None:
        """The seat at the ticket's table is over (left before the game, or after its end)."""
        self.seats.forget(ticket.host_id, ticket.table)


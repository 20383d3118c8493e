"""The TUI's only door to the network: hosts it starts, connections it opens, tables it finds.

The app receives a Backend (Harlequin injects its adapter the same way), so tests give it one
bound to loopback with a temporary data directory and no bot delay. Nothing here imports
textual; `netplay` is imported on first use so that the lobby draws before zeroconf loads.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import secrets
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator

from tui.address import Address
from tui.seat_book import HeldSeat, SeatBook

if TYPE_CHECKING:
    from netplay.client import Connection
    from netplay.host import Host
    from netplay.pins import KnownHosts

LOCAL = "127.0.0.1"
SEATS_DIR = "seats"
"""The seat book's directory in the data directory: owner-only, as the tokens are."""
BOTS_STORE, LAN_STORE = "bots", "lan"
"""How the stores of the hosts this app runs begin: a private bot game's, a LAN table's."""
LOOKUP_TIMEOUT = 3.0
"""Seconds to wait for a host that should hold one of this player's seats."""


def connect_error_text(address: Address, error: BaseException) -> str:
    """Why a connection to `address` failed, in words a player can act on."""
    if isinstance(error, ConnectionRefusedError):
        return f"Nobody answers at {address}: is the host running, and is the port right?"
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return f"{address} did not answer in time: is it on this network?"
    if isinstance(error, OSError) and error.strerror:
        return f"Cannot reach {address}: {error.strerror}."
    from netplay.client import HostRefused
    from netplay.errors import ProtocolError

    if isinstance(error, (HostRefused, ProtocolError)):
        text = str(error)
        # Most refusals name the host already: say its address once.
        return text if str(address) in text else f"{address} refused: {text}"
    return f"Cannot reach {address}: {error}"


@dataclass(frozen=True)
class Ticket:
    """Where a table is and how to sit at it: everything the play screen needs to connect."""

    address: Address
    table: str | None
    spectate: bool = False
    share: str | None = None
    """For a table this app hosts: the HOST:PORT other players can type to join it."""
    code: str | None = None
    """For a table this app hosts for others: its host's table code, as shown (1234-5678)."""
    private: bool = False
    """A table this app hosts for this player alone (bots): its host stops once the game is
    over and the player leaves."""
    host_id: str | None = None
    """The host's identity, which keys the seat this player holds there."""
    game: str = ""
    name: str = ""
    store: str | None = None
    """For a table this app hosts: its host's store, to bring it back after a restart."""


def optional_count(value: Any) -> int | None:
    """A count a host may leave out (an older host), or send as anything (a hostile one)."""
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def changed_options_text(game: str, options: Any) -> str:
    """A table's options that differ from its game's defaults, in the lobby's words; empty for
    none, an unknown game, or what a hostile host sent instead of a map."""
    from engine.catalogue import CATALOGUE
    from tui.commands.game_options import options_text

    info = CATALOGUE.get(game)
    if info is None or not isinstance(options, dict):
        return ""
    defaults = {option.name: option.default for option in info.options}
    return options_text(info, {name: value for name, value in options.items()
                               if name in defaults and value != defaults[name]})


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
    source: str = "lan"
    """"lan" (discovered), "address:HOST:PORT" (typed by the player) or "seats" (held)."""
    host_id: str = ""
    private: bool = False
    """The table asks its host's table code at every join (PROTOCOL.md, "Pairing")."""
    held: bool = False
    """This player holds a seat there: joining takes it back."""
    people: int | None = None
    bots: int | None = None
    """Who is seated, when the host tells people from bots."""
    options: str = ""
    """The table's options that differ from its game's defaults, in words ("Variante: yes"),
    so a joiner sees them before sitting."""

    @classmethod
    def from_message(
        cls, address: Address, entry: dict[str, Any], source: str, host_id: str = ""
    ) -> "TableListing":
        return cls(
            address=address,
            id=str(entry["id"]),
            name=str(entry.get("name") or entry["id"]),
            game=str(entry.get("game", "?")),
            players=int(entry.get("players", 0)),
            seats_free=int(entry.get("seats_free", 0)),
            phase=str(entry.get("phase", "waiting")),
            source=source,
            host_id=host_id,
            people=optional_count(entry.get("people")),
            bots=optional_count(entry.get("bots")),
            private=entry.get("private") is True,
            options=changed_options_text(str(entry.get("game", "")), entry.get("options")),
        )

    @property
    def key(self) -> str:
        """One row per table: a host is known by its identity at any of its addresses
        (`localhost`, `127.0.0.1`, its LAN address)."""
        return f"{self.host_id or self.address}/{self.id}"

    def ticket(self, spectate: bool) -> Ticket:
        return Ticket(self.address, self.id, spectate=spectate, host_id=self.host_id or None,
                      game=self.game, name=self.name)


@dataclass
class Backend:
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
        to that host only."""
        own = self.own_host(address)
        if own is not None:
            return {"code": own.table_code, "known_hosts": None, "fingerprint": expected}
        return {"code": self.codes.get(address), "known_hosts": self.known_hosts,
                "fingerprint": expected}

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
                    reconnect=True, locate=self.locate,
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

    def hosting_for_others(self) -> list["Host"]:
        """The hosts this app runs for the LAN with a table not over: quitting the app asks
        what becomes of their tables."""
        return [host for host in self.hosts
                if host.advertise and any(t.phase != "over" for t in host.tables.values())]

    async def keep_in_background(self, name: str) -> None:
        """Hand each table this app hosts for others to a host of its own, in the background,
        on the same store and port (`gaslight host --resume`): the players' apps reconnect to
        it, and `name`, who hosts, comes back to their seat from the lobby."""
        from netplay.store import data_dir
        from tui import background

        for host in self.hosting_for_others():
            assert host.address is not None
            store, port = host.store.path.stem, host.address[1]
            # The same key goes on in the background: trusted when this player comes back.
            self.known_hosts.pin(host.key.fingerprint, f"{LOCAL}:{port}")
            await self.stop_host(host)  # its store stays: its tables are unfinished
            background.keep_running(data_dir(self.data_dir), store, port, closed_by=name,
                                    interfaces=self.interfaces, bot_delay=self.bot_delay)

    async def close_for_everyone(self, name: str) -> None:
        """Close the tables this app hosts for others: everyone there is told that `name`
        closed them, and nothing is kept to bring them back."""
        for host in self.hosting_for_others():
            self.hosts.remove(host)
            await host.close(name)
            for table_id in host.tables:
                self.seats.forget(host.host_id, table_id)
            await self.discard_store(host.store.path.stem)

    def in_background(self, listing: "TableListing") -> bool:
        """Whether `listing`'s table is one this app hosted, now kept running in the
        background."""
        seat = self.seats.get(listing.host_id, listing.id) if listing.host_id else None
        return seat is not None and self.runs_in_background(seat)

    def runs_in_background(self, seat: HeldSeat) -> bool:
        """Whether the table of `seat` is one this app hosted, now kept running by a host
        in the background: never another host on its store."""
        from netplay.store import data_dir
        from tui import background

        return seat.store is not None and background.running(
            data_dir(self.data_dir), seat.store) is not None

    async def discard_store(self, store: str) -> None:
        """Stop the host this app runs on `store`, if any, and delete the store."""
        from netplay.store import data_dir

        await self.stop_store(store)
        for path in data_dir(self.data_dir).glob(f"{store}.*"):  # its key too
            with contextlib.suppress(OSError):
                path.unlink()

    def forget_seat(self, ticket: Ticket) -> None:
        """The seat at the ticket's table is over (left before the game, or after its end)."""
        self.seats.forget(ticket.host_id, ticket.table)

    async def locate(self, host_id: str) -> tuple[str, int] | None:
        """Where the host with this identity announces its tables now, if discovery is on."""
        if not self.discover:
            return None
        discovery = await asyncio.to_thread(importlib.import_module, "netplay.discovery")
        return await discovery.locator(self.interfaces)(host_id)

    async def held_tables(self, name: str) -> list[TableListing]:
        """The tables where this player holds a seat and whose game is not over. A seat at a
        table that is over or gone is forgotten; one whose host cannot be found now is kept
        (the host may come back) but not listed."""
        found = []
        for seat in self.seats.all():
            if seat.in_use_elsewhere:
                continue
            listing = await self.find_held(seat, name)
            if listing is not None:
                found.append(replace(listing, held=True, source="seats"))
        return found

    async def find_held(self, seat: HeldSeat, name: str) -> TableListing | None:
        tables = await self.tables_of(seat, seat.address, name)
        address = seat.address
        if tables is None and seat.store is not None and not self.runs_in_background(seat):
            # This app hosted that table and was closed: bring its host back from its store.
            resumed = await self.resume_host(seat)
            if resumed is None:
                self.seats.forget(*seat.key)
                return None
            address = resumed
            tables = await self.tables_of(seat, address, name)
        if tables is None:
            moved = await self.locate(seat.host_id)
            if moved is None:
                return None
            address = Address(*moved)
            tables = await self.tables_of(seat, address, name)
            if tables is None:
                return None
        listing = next((t for t in tables if t.id == seat.table), None)
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
        None."""
        try:
            async with asyncio.timeout(LOOKUP_TIMEOUT):
                tables, found = await self.list_tables_of(address, name, seat)
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
        bot_pace: str = "normal",
        start_when_full: bool = False,
    ) -> Ticket:
        """Start a host in this process on a free port and create one table on it. Each such
        host has a store of its own, from which a restarted app brings the table back. A table
        for people starts when its host says so; `start_when_full`, once every seat is taken."""
        store = f"{LAN_STORE if advertise else BOTS_STORE}-{secrets.token_hex(4)}"
        host = await self.start_host(store, 0 if self.hosts else self.port)
        table = host.create_table(
            game, players, options, name=name, bots=bots, seed=self.seed, bot_level=bot_level,
            bot_pace=bot_pace, start_when_full=start_when_full,
        )
        if self.seed is not None:
            # Screenshots and tests replay the same game: the bots' choices must repeat too.
            host.seed_bots(table, self.seed)
        assert host.address is not None
        port = host.address[1]
        share = code = None
        if advertise:
            from netplay.pairing import show_code

            addresses = [a for a in host.advertised_addresses() if not a.startswith("127.")]
            share = str(Address((addresses or [LOCAL])[0], port))
            code = show_code(host.table_code)
        return Ticket(Address(LOCAL, port), table, share=share, code=code, private=not advertise,
                      host_id=host.host_id, game=game, name=name, store=store)

    async def start_host(self, store: str, port: int, resume: bool = False) -> "Host":
        """A host in this process with its own store; with `resume`, its unfinished tables
        come back first (the caller checks `host.tables`)."""
        from netplay.host import Host
        from netplay.limits import HostLimits

        advertise = store.startswith(LAN_STORE)
        host = Host(data_dir=self.data_dir, store=store,
                    limits=HostLimits(bot_delay=self.bot_delay), advertise=advertise,
                    interfaces=self.interfaces)
        if resume:
            host.resume()
        # A table for others listens on every interface; a private bot game, or an app held to
        # loopback (tests, development machines), only on 127.0.0.1.
        bind = "0.0.0.0" if advertise and self.interfaces != [LOCAL] else LOCAL
        try:
            await host.start(bind, port)
        except OSError:
            if not port:
                await asyncio.to_thread(host.store.close)
                raise
            await host.start(bind, 0)  # the last port is taken: the seat book follows
        self.hosts.append(host)
        return host

    async def resume_host(self, seat: HeldSeat) -> Address | None:
        """Bring back the host this app ran for `seat`'s table, from its store, at its last
        port if it is free. None if that table is no longer in the store."""
        assert seat.store is not None
        from netplay.store import data_dir

        if not (data_dir(self.data_dir) / f"{seat.store}.sqlite3").exists():
            return None
        try:
            host = await self.start_host(seat.store, seat.address.port, resume=True)
        except OSError:
            return None
        if seat.table not in host.tables:
            await self.stop_host(host)
            return None
        assert host.address is not None
        return Address(LOCAL, host.address[1])

    async def play_bots(
        self,
        name: str,
        game: str = "timebomb",
        players: int = 5,
        options: dict[str, Any] | None = None,
        bot_level: str | None = None,
        bot_pace: str = "normal",
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
            bot_pace=bot_pace,
            start_when_full=True,
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
                        host_id=t.host_id,
                        people=t.people,
                        bots=t.bots,
                        options=changed_options_text(t.game, t.options),
                    )
                    for t in browser.tables.values()
                ]

    async def release(self, ticket: Ticket) -> None:
        """Stop the private host behind `ticket`, whose game is over: nobody else can be at
        that table, and nothing in its store is worth resuming."""
        if ticket.private and ticket.store is not None:
            await self.stop_store(ticket.store)

    async def stop_store(self, store: str) -> None:
        """Stop the host this app runs on `store`, if it runs one."""
        for host in list(self.hosts):
            if host.store.path.stem == store:
                await self.stop_host(host)

    async def stop_host(self, host: "Host") -> None:
        """Stop a host this app runs; its store goes too unless a game there is unfinished."""
        if host in self.hosts:
            self.hosts.remove(host)
        with contextlib.suppress(Exception):
            await host.stop()
        if all(table.phase == "over" for table in host.tables.values()):
            for path in host.store.path.parent.glob(f"{host.store.path.stem}.*"):  # key too
                with contextlib.suppress(OSError):
                    path.unlink()

    async def close(self, by: str | None = None) -> None:
        """Stop every host this app runs. The players at a LAN table still here (one whose
        game is over: quitting asks about the others) are told that `by` closed it, not left
        reconnecting to a host that is gone."""
        for host in list(self.hosts):
            if host.advertise:
                with contextlib.suppress(Exception):
                    await host.close(by)
            await self.stop_host(host)

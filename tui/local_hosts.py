"""The hosts this app runs in its own process: quick play's private bot games, the tables it
hosts for the LAN, and what becomes of them when the app quits or starts again (`Backend`
mixes this in). Nothing here imports textual; `netplay` is imported on first use."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.address import Address
from tui.listing import TableListing, Ticket
from tui.seat_book import HeldSeat, SeatBook

if TYPE_CHECKING:
    from netplay.host import Host
    from netplay.pins import KnownHosts

LOCAL = "127.0.0.1"
BOTS_STORE, LAN_STORE = "bots", "lan"
"""How the stores of the hosts this app runs begin: a private bot game's, a LAN table's."""
HOST_KEY = "host"
"""The key of every table this person hosts for others (`host.pem` in the data directory,
the one `gaslight host` uses too), in the foreground or in the background: a guest who paired
with one of them joins the next without a code. A private bot game's host keeps a key of its
own, which goes with its store."""


class LocalHosts:
    """Starts, resumes, hands to the background and stops the hosts this app runs."""

    interfaces: list[str] | None
    data_dir: Path | None
    bot_delay: float | None
    seed: int | None
    port: int
    hosts: list["Host"]
    seats: SeatBook
    known_hosts: "KnownHosts"
    guest_networks: tuple | None

    @property
    def may_keep_in_background(self) -> bool:
        """Whether quitting may leave this app's tables running in the background. Not for a
        guest in a browser (`gaslight serve`): a background host is a process of its own that
        outlives its page and the server, on the computer of someone who only lent it for
        the evening, and counted by no limit of the server's. A guest's tables close with
        their page (its players are told so), and a guest who wants a table to outlive them
        hosts it from a terminal."""
        return self.guest_networks is None

    def hosted_words(self) -> list[str]:
        """The tables this app hosts for others, each with what quitting would end: "Baker
        Street: Bob, Cat and 1 spectator playing Time Bomb Évolution"."""
        from engine.catalogue import CATALOGUE

        words = []
        for host in self.hosting_for_others():
            for table in host.tables.values():
                if table.phase == "over":
                    continue
                people = [seat.name for seat in table.seats
                          if seat.kind == "human" and seat.client is not None]
                watching = len(table.spectators)
                if watching:
                    people.append(f"{watching} spectator{'s' * (watching != 1)}")
                who = (", ".join(people[:-1]) + " and " + people[-1] if len(people) > 1
                       else people[0] if people else "nobody yet")
                info = CATALOGUE.get(table.game_id)
                doing = "playing" if table.phase == "playing" else "waiting to play"
                words.append(f"{table.name}: {who} {doing} {info.title if info else ''}".rstrip())
        return words

    def hosting_for_others(self) -> list["Host"]:
        """The hosts this app runs for the LAN with a table not over: quitting the app asks
        what becomes of their tables."""
        return [host for host in self.hosts
                if host.advertise and any(t.phase != "over" for t in host.tables.values())]

    async def keep_in_background(self, name: str) -> None:
        """Hand each table this app hosts for others to a host of its own, in the background,
        on the same store and port (`gaslight host --resume`): the players' apps reconnect to
        it, and `name`, who hosts, comes back to their seat from the lobby. Where that is not
        offered (`may_keep_in_background`), they close for everyone instead."""
        from netplay.store import data_dir
        from tui import background

        if not self.may_keep_in_background:
            await self.close_for_everyone(name)
            return
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
        hints: bool = False,
    ) -> Ticket:
        """Start a host in this process on a free port and create one table on it. Each such
        host has a store of its own, from which a restarted app brings the table back. A table
        for people starts when its host says so; `start_when_full`, once every seat is taken."""
        store = f"{LAN_STORE if advertise else BOTS_STORE}-{secrets.token_hex(4)}"
        host = await self.start_host(store, 0 if self.hosts else self.port)
        table = host.create_table(
            game, players, options, name=name, bots=bots, seed=self.seed, bot_level=bot_level,
            bot_pace=bot_pace, start_when_full=start_when_full, hints=hints,
        )
        if self.seed is not None:
            # Screenshots and tests replay the same game: the bots' choices must repeat too.
            host.seed_bots(table, self.seed)
        assert host.address is not None
        port = host.address[1]
        share = code = None
        if advertise:
            from netplay.pairing import show_code

            share = self.share_address(host.address[0], port)
            code = show_code(host.table_code)
        return Ticket(Address(LOCAL, port), table, share=share, code=code, private=not advertise,
                      host_id=host.host_id, game=game, name=name, store=store)

    def share_address(self, bound: str, port: int) -> str:
        """The HOST:PORT others type to join a host of this player's listening on `bound`."""
        from netplay.announcer import advertised_addresses

        addresses = [a for a in advertised_addresses(bound, self.interfaces)
                     if not a.startswith("127.")]
        return str(Address((addresses or [LOCAL])[0], port))

    def ticket(self, listing: "TableListing", spectate: bool) -> Ticket:
        """The ticket to `listing`'s table. At a table this player hosts for others, run by
        this app or in the background since the app that hosted it closed, it carries the
        table code and the address others join at, which the table shows all game: this
        player is the one latecomers ask."""
        from netplay.pairing import show_code
        from netplay.store import data_dir, kept_by

        ticket = listing.ticket(spectate)
        seat = self.seats.get(listing.host_id, listing.id) if listing.host_id else None
        if seat is None or seat.store is None or not seat.store.startswith(LAN_STORE):
            return ticket
        own = next((h for h in self.hosts if h.store.path.stem == seat.store), None)
        if own is not None:
            code, bound = own.table_code, own.address[0] if own.address else LOCAL
        else:  # the same store and key as the host in the background, owner-only
            code = kept_by(data_dir(self.data_dir) / f"{seat.store}.sqlite3", "table_code")
            single = self.interfaces is not None and len(self.interfaces) == 1
            bound = self.interfaces[0] if single else "0.0.0.0"  # as `gaslight host` binds
        if not code:
            return ticket
        return replace(ticket, code=show_code(str(code)), store=seat.store,
                       share=self.share_address(bound, listing.address.port))

    async def start_host(self, store: str, port: int, resume: bool = False) -> "Host":
        """A host in this process with its own store; with `resume`, its unfinished tables
        come back first (the caller checks `host.tables`)."""
        from netplay.host import Host
        from netplay.limits import HostLimits

        advertise = store.startswith(LAN_STORE)
        host = Host(data_dir=self.data_dir, store=store,
                    limits=HostLimits(bot_delay=self.bot_delay), advertise=advertise,
                    interfaces=self.interfaces, key=HOST_KEY if advertise else None)
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

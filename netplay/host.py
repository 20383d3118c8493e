"""The asyncio host: the server's lifecycle, its clock, and what happens to its tables.

One process serves any number of tables, each seat claimed by a random token. The host starts
and stops everything, wakes for every deadline (silent clients, turn timers, abandoned tables),
and carries out what changes a table: creating and closing it, starting a game, applying a
move and telling everyone. The rooms it directs, one job each (see README.md):

- `netplay.tables`: the tables, seats, tokens and clocks, synchronous; the only writer of the
  store's records;
- `netplay.connection`: each client's connection and the state fan-out;
- `netplay.seating`: each client's `hello`, and where it sits or watches;
- `netplay.dispatch`: each request after the `hello`;
- `netplay.transport`: the host's key, and TLS under every connection;
- `netplay.pairing`: pairing by the table code;
- `netplay.store`: the durable store, and the `CommitGate` every frame passes, so nobody is
  told of an action that a power cut could take back;
- `netplay.bots`: the drivers that play the bot seats;
- `netplay.announcer`: the tables' zeroconf records.

Every message the host sends about a game is built from `game.view(viewer)` and
`game.legal_actions(seat)` plus public lobby facts (names, seat kinds, presence, phase). The
state, the seed and the tokens never leave the process; the store keeps only token hashes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

from netplay.announcer import Announcer, advertised_addresses
from netplay.bots import Bots
from netplay.connection import FLUSH_TIMEOUT, Connections, push_state, tell
from netplay.dispatch import Dispatcher
from netplay.errors import Refusal, Rejection
from netplay.game_record import GameRecord
from netplay.limits import HostLimits
from netplay.pairing import HostPairing, new_code
from netplay.protocol import Closed, TableList
from netplay.replays import Replays
from netplay.seating import Seating
from netplay.store import CommitGate, Store, StoreError
from netplay.journal import DEFAULT_PACE
from netplay.table import DEAL_WAITS, OVER, Table
from netplay.tables import Tables
from netplay.transport import Door, HostKey, Listener


log = logging.getLogger("gaslight.host")

class Host:
    def __init__(self, *, data_dir: Path | None = None, store: str = "host",
                 limits: HostLimits = HostLimits(), advertise: bool = False,
                 interfaces: list[str] | None = None, replay: GameRecord | None = None,
                 key: str | None = None):
        """`store` names the store file in the data directory: a host's port, table code and
        tables live there, so two hosts running at once need two stores. Its key is beside
        it, in `{key}.pem` (by default the store's own name): hosts given one key share it,
        as a person's app does for every table it hosts, and the store remembers which, so
        `--resume` presents the same (PROTOCOL.md, "Transport"). Given `replay` (a replay
        file's record), the host is a replay host: it shows that game to whoever connects,
        and has no tables (RecordError if the record does not replay)."""
        self.data_dir = data_dir
        self.limits = limits
        self.advertise = advertise
        self.interfaces = interfaces
        self.store = Store.open(data_dir, f"{store}.sqlite3")
        key_name = self.store.kept("key", lambda: key or store)
        self.key = HostKey(self.store.path.with_name(f"{key_name}.pem"))
        self.pairing = HostPairing(self.store.kept("table_code", new_code),
                                   self.key.fingerprint, limits.handshake_timeout)
        self.door = Door(self.key, limits.handshake_timeout)
        self.gate = CommitGate(self.store, self._store_failed)
        self.tables = Tables(self.store, limits.max_tables)
        self.bots = Bots(self.apply, limits)
        self.replays = Replays(self.store, self.tables, only=replay)
        self.store_errors: list[StoreError] = []
        self.address: tuple[str, int] | None = None
        self.seating = Seating(self)
        self.dispatcher = Dispatcher(self, self.seating)
        self.connections = Connections(self.gate, limits, self.door, self.pairing,
                                       self.seating.hello, self.dispatcher.dispatch,
                                       self.seating.disconnect)
        self._server: Listener | None = None
        self._clock: asyncio.Task | None = None
        self._clock_changed = asyncio.Event()
        """Set when a turn timer starts, so the clock wakes for it."""
        self._announcer: Announcer | None = None

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def host_id(self) -> str:
        """This host's identity, from its key: the same after a restart, so clients can find
        it again."""
        return self.key.identity

    @property
    def fingerprint(self) -> str:
        """The fingerprint of this host's key: what a person's proof signs."""
        return self.key.fingerprint

    @property
    def table_code(self) -> str:
        """The code a player types once to pair with this host (8 digits)."""
        return self.pairing.code

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self._server = Listener(host, port, self.connections.accept)
        self.address = self._server.address
        self.store.remember_port(self.address[1])
        self._clock = asyncio.get_running_loop().create_task(self._keep_time())
        for table in self.tables.values():
            self.bots.start(table)
            self.arm_turn_timer(table)
        if self.advertise:
            self._announcer = await Announcer.open(self.interfaces, self.address,
                                                   self.key.fingerprint)
            for table in self.tables.values():
                self._announcer.publish(table.summary())
        log.info("hosting on %s:%d", *self.address)
        return self.address

    async def close(self, by: str | None = None) -> None:
        """Stop for good: everyone at a table is told that it closed, and by whom (`by`,
        None for this host's operator), so their apps stop reconnecting."""
        leaving = [client for table in self.tables.values() for client in table.clients()]
        for table in self.tables.values():
            tell(table.clients(), closed_message(table, by))
        for client in leaving:
            client.close_after_flush()
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(FLUSH_TIMEOUT):
                await asyncio.gather(*(client.writer.wait_closed() for client in leaving),
                                     return_exceptions=True)
        await self.stop()

    async def stop(self) -> None:
        """Stop serving; the clients keep trying to reconnect, as the tables may go on from
        the same store (`--resume`, or a host in the background)."""
        if self._server is not None:
            self._server.close()
        if self._clock is not None:
            self._clock.cancel()
        self.bots.stop_all()
        await self.connections.close()
        if self._announcer is not None:
            await self._announcer.close()
            self._announcer = None
        self._server = None
        await asyncio.to_thread(self.store.close)

    def _store_failed(self) -> None:
        """Nothing more can be made durable, so nothing more may be told."""
        self.connections.abort_all()
        if self._server is not None:
            self._server.close()

    def empty_for(self) -> float:
        """Seconds since anyone was at any of this host's tables: 0 while someone is."""
        if any(table.clients() for table in self.tables.values()):
            return 0.0
        now = time.monotonic()
        return min((now - table.empty_since for table in self.tables.values()
                    if table.empty_since is not None), default=float("inf"))

    def advertised_addresses(self) -> list[str]:
        assert self.address is not None
        return advertised_addresses(self.address[0], self.interfaces)

    async def _keep_time(self) -> None:
        """Drop each client once it has been silent for `heartbeat_timeout`, run out turn
        timers, and close the tables nobody came back to, each when it is due: the clock
        sleeps until the next deadline, or a turn timer starts. It looks again at least every
        `heartbeat_timeout`, which finds the deadlines of new clients and newly empty tables
        in time (they are all at least that far away)."""
        limits = self.limits
        while True:
            now = time.monotonic()
            wake = min(d for d in (now + limits.heartbeat_timeout,
                                   self.connections.next_silence_deadline(),
                                   self.tables.next_turn_deadline(),
                                   self.tables.next_claim_deadline(),
                                   self.tables.next_abandon_deadline(limits.abandoned_after))
                       if d is not None)
            self._clock_changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                async with asyncio.timeout(max(wake - now, 0)):
                    await self._clock_changed.wait()
            now = time.monotonic()
            self.connections.drop_silent(now)
            for table in self.tables.run_out_turn_timers(now):
                self.changed(table)
                self.after_move(table)
            for table in self.tables.run_out_cover_pauses(now):
                self.changed(table)  # anyone at the table may cover now: the lobby says so
            for table in self.tables.run_out_claim_waits(now):
                self.changed(table)
                self.bots.wake(table)
            for table in self.tables.abandoned(now, limits.abandoned_after):
                self.close_table(table, f"nobody connected for {limits.abandoned_after:g} s")

    # -- tables ---------------------------------------------------------------------------

    def create_table(self, game: str, players: int, options: dict | None = None, name: str = "",
                     bots: int = 0, seed: int | None = None, *, bot_level: str | None = None,
                     bot_pace: str = DEFAULT_PACE, turn_timer: int = 0,
                     public_replays: bool = False, created_by: str | None = None,
                     private: bool = False, start_when_full: bool = False,
                     hints: bool = False) -> str:
        """A new table with `bots` bots in its last seats. Raises engine.InvalidSetup or
        ValueError with a clear message for a bad setup, having created nothing."""
        if len(self.tables) >= self.tables.max_tables:
            for finished in self.tables.finished_and_empty():
                self.close_table(finished, "finished and empty, to make room")
        table = self.tables.create(game, players, options, name, bots, seed,
                                   bot_level=bot_level, bot_pace=bot_pace,
                                   turn_timer=turn_timer, public_replays=public_replays,
                                   created_by=created_by, private=private,
                                   start_when_full=start_when_full, hints=hints)
        table.empty_since = time.monotonic()
        if self._server is not None:
            self.bots.start(table)
        self.changed(table)
        if bots == players:  # nobody to wait for
            self.start_game(table, seed)
        return table.id

    def close_table(self, table: Table, why: str) -> None:
        self.tables.close(table)
        self.bots.stop(table)
        if self._announcer is not None:
            self._announcer.withdraw(table.id)
        tell(self.connections.lobby_visitors(), self.table_list())
        log.info("closed table %s: %s", table.id, why)

    def resume(self) -> list[str]:
        """Load every unfinished table from the store. A damaged table is reported in
        `store_errors` (and logged, naming it) while the others load."""
        resumed, errors = self.tables.resume(time.monotonic())
        self.store_errors.extend(errors)
        if self._server is not None:
            for table in resumed:
                self.bots.start(table)
        return [table.id for table in resumed]

    def seed_bots(self, table_id: str, seed: int) -> None:
        """Make the bots' choices at a table repeat (screenshots and tests replay a game)."""
        self.bots.seed(table_id, seed)

    def table(self, table_id: str, fatal: bool = False) -> Table:
        """The table `table_id`; a refusal if there is none (`fatal`: one that closes the
        connection, for a `hello`)."""
        try:
            return self.tables.get_table(table_id)
        except Refusal as refusal:
            if fatal:
                raise Rejection(str(refusal)) from None
            raise

    def table_list(self) -> TableList:
        return TableList([t.summary() for t in self.tables.values()])

    def changed(self, table: Table) -> None:
        """Tell everyone at the table about a lobby change, and, when its public facts
        changed, the lobby visitors and the LAN."""
        tell(table.clients(), table.lobby())
        summary = table.summary()
        if summary != table.published:
            table.published = summary
            tell(self.connections.lobby_visitors(), self.table_list())
            if self._announcer is not None:
                self._announcer.publish(summary)

    def start_game(self, table: Table, seed: int | None) -> None:
        table.start_game(seed)
        self.changed(table)
        push_state(table)
        self.after_move(table)

    async def apply(self, table: Table, seat: int, action: dict) -> None:
        """Apply an action and tell everyone; the telling waits for the store to make the
        action durable, and so does the caller, which paces a client (or a bot) by the disk."""
        waiting = set(table.claim_wait)
        table.play(seat, action)
        if table.phase == OVER:
            self.replays.saw_end(table)
        if table.phase == OVER or table.claim_wait != waiting:
            self.changed(table)
        push_state(table)
        self.after_move(table)
        await self.gate.durable()

    def after_move(self, table: Table) -> None:
        """The table changed: a deal pauses its bots for the people's claims, a bot may have
        something to do, and the turn timer may start or stop."""
        if table.open_claims(time.monotonic(), self.deal_wait(table)):
            self.changed(table)
            self._clock_changed.set()
        self.bots.wake(table)
        self.arm_turn_timer(table)

    def deal_wait(self, table: Table) -> float:
        """How long the bots wait at most at a deal for the people's claims."""
        limits = self.limits
        if limits.deal_wait is not None:
            return limits.deal_wait
        return limits.bot_delay if limits.bot_delay is not None else DEAL_WAITS[table.bot_pace]

    def claim_done(self, table: Table, seat: int) -> None:
        """A person claimed or passed at this deal: the bots may not need to wait."""
        if table.claim_done(seat):
            self.changed(table)
            self.bots.wake(table)

    def arm_turn_timer(self, table: Table) -> None:
        if self.tables.arm_turn_timer(table, time.monotonic()):
            self._clock_changed.set()


def closed_message(table: Table, by: str | None) -> Closed:
    """What everyone at a table is told when it closes for good."""
    said = f"{by} closed the table." if by else "The host has stopped: the table is closed."
    return Closed(table=table.id, by=by, message=said)

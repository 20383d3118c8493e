"""The asyncio host: the server, its connections, the handshake and the dispatch of requests.

One process serves any number of tables (`netplay.tables` holds them and the seat rules;
`netplay.bots` plays their bot seats), each seat claimed by a random token.

Every message the host sends about a game is built from `game.view(viewer)` and
`game.legal_actions(seat)` plus public lobby facts (names, seat kinds, presence, phase). The
state, the seed and the tokens never leave the process; the store keeps only token hashes.

Every change is appended to the host's store (`netplay.store`), whose writer commits in groups;
every frame sent after an append is held back until that append is durable, so nobody is ever
told of an action that a power cut could take back.

Each connection has a bounded outbound buffer, so a client that stops reading delays nobody:
when its buffer overflows it is disconnected and its seat waits for a reconnect with the
token. Clients send `ping` as a heartbeat; a connection silent for longer
than `heartbeat_timeout` is dropped.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import socket
import time
from pathlib import Path
from typing import Final

import engine
from netplay.bots import BotDriver
from netplay.ratelimit import RateLimit
from netplay.errors import FatalError, ProtocolError, Refusal, Rejection
from netplay.protocol import (
    MAX_CHAT,
    Act,
    AddBot,
    Chat,
    ChatLine,
    SENT_FRAME,
    ClientMessage,
    CreateTable,
    Error,
    HostMessage,
    Hello,
    Leave,
    ListTables,
    Ping,
    PlayAgain,
    Pong,
    Sit,
    Start,
    State,
    TableList,
    Welcome,
    clean_text,
    encode,
    pack_legal,
    parse_client_message,
    read_message,
)
from netplay.store import OVER as STORED_OVER
from netplay.store import Store, StoreError
from netplay.tables import (
    CHANNELS,
    MAX_TABLES,
    OVER,
    PLAYING,
    WAITING,
    Seat,
    Table,
    Tables,
    restore_table,
)

log = logging.getLogger("gaslight.host")

HANDSHAKE_TIMEOUT: Final = 10.0
"""Seconds a new connection has to send its `hello`."""
HEARTBEAT_TIMEOUT: Final = 30.0
"""Seconds without any frame from a client before the host drops it as dead."""
OUTBOUND_LIMIT: Final = 256 * 1024
"""Bytes waiting for one client beyond its socket's buffers. A client this far behind is not
reading: drop it."""
SOCKET_SEND_BUFFER: Final = 64 * 1024
"""Kernel send buffer per client, kept small so that a stuck reader fills its buffer soon."""
MAX_CONNECTIONS_PER_ADDRESS: Final = 16
TOKEN_FAILURES: Final = 5
"""Wrong tokens one address may send per `TOKEN_FAILURE_WINDOW` before it is refused."""
TOKEN_FAILURE_WINDOW: Final = 60.0
CHAT_BURST: Final = 10
"""Chat messages (and, separately, free actions) a client may send at once before the rate
applies."""
CHAT_PER_SECOND: Final = 2.0
MAX_TABLES_PER_ADDRESS: Final = 8
"""Waiting or running tables created from one address."""
ABANDONED_AFTER: Final = 600.0
"""Seconds a table may have no person connected before it is closed (a started game stays in
the store for `--resume`)."""
EVENT_TAIL: Final = 40
"""Events a client gets when it joins, comes back, or a new game starts."""
FLUSH_TIMEOUT: Final = 2.0
"""Seconds a closing connection gets to take its last frames (a fatal error, say)."""


Told = tuple["engine.Game | None", int, int]
"""What a client has been told of the game: the game it was last sent a state of, how far into
its log (an index of `game.events`), and how many events of its own view that was."""
NOTHING_TOLD: Final[Told] = (None, 0, 0)


def state_frame(told: Told, game: engine.Game, viewer: int,
                legal: list[dict]) -> tuple[bytes, Told]:
    """The `state` frame for a viewer that has been told `told`, and what it has been told
    then. One that already follows this game gets the events since; one that does not (it
    joined, came back, or a new game began) gets a tail. Either is cut to a shorter tail to fit
    `SENT_FRAME`."""
    told_game, through, count = told
    if told_game is game:
        events = game.events_since(viewer, through)
        count += len(events)
    else:
        events = game.visible_events(viewer)
        count = len(events)
        events = events[-EVENT_TAIL:]
    view = game.view(viewer, events=False)
    packed = pack_legal(legal)
    seat = None if viewer == engine.SPECTATOR else viewer
    while True:
        frame = encode(State(view, packed, seat, events, count - len(events)))
        if len(frame) <= SENT_FRAME or not events:
            return frame, (game, len(game.events), count)
        events = events[len(events) // 2 + 1:]


# ---------------------------------------------------------------------------------------------
# Connections


class Client:
    """One connection: who it is, where it sits, what it has been told, and its bounded
    outbound buffer."""

    def __init__(self, host: "Host", reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 address: str, outbound_limit: int):
        self.host = host
        self.reader = reader
        self.writer = writer
        self.address = address
        self.name = ""
        self.table: Table | None = None
        self.seat: int | None = None
        self.spectator = False
        self.last_heard = time.monotonic()
        self.closing = False
        self.welcomed = False
        """Whether the handshake is done: a lobby visitor gets `tables` pushes only after."""
        self.chat_limit = RateLimit(host.chat_burst, host.chat_per_second)
        self.free_action_limit = RateLimit(host.chat_burst, host.chat_per_second)
        self.told: Told = NOTHING_TOLD
        self.outbound_limit = outbound_limit

    def __repr__(self) -> str:
        return f"<Client {self.name!r} from {self.address}>"

    def send(self, msg: HostMessage) -> None:
        self.send_frame(encode(msg))

    def send_frame(self, frame: bytes) -> None:
        if not self.closing:
            self.host.deliver(self, frame)

    def enqueue(self, frame: bytes | None) -> None:
        """Write a frame (None: close once all is written), now that the host may send it.
        The transport writes at once what the socket takes and buffers the rest: no task
        switch per frame, which at ten players is most of what telling them costs."""
        transport = self.writer.transport
        if transport.is_closing():
            return
        if frame is None:
            transport.close()  # after the buffered frames are written
            return
        transport.write(frame)
        waiting = transport.get_write_buffer_size()
        if waiting > self.outbound_limit:
            log.warning("dropped %r: %d bytes waiting, it is not reading", self, waiting)
            self.abort()

    def fail(self, text: str) -> None:
        """Send a fatal error, then close once it is written."""
        if self.closing:
            return
        self.send(Error(text, fatal=True))
        self.close_after_flush()

    def close_after_flush(self) -> None:
        """Close once every frame sent so far is written."""
        if not self.closing:
            self.closing = True
            self.host.deliver(self, None)

    def abort(self) -> None:
        self.closing = True
        self.writer.transport.abort()

    async def finish(self) -> None:
        """Wait a little for the last frames (a fatal error, say) to go, then close."""
        self.close_after_flush()
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(self.writer.wait_closed(), FLUSH_TIMEOUT)
        self.writer.transport.abort()


# ---------------------------------------------------------------------------------------------
# The host


class Host:
    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        bot_delay: float = 0.4,
        advertise: bool = False,
        interfaces: list[str] | None = None,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        outbound_limit: int = OUTBOUND_LIMIT,
        max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        chat_burst: int = CHAT_BURST,
        chat_per_second: float = CHAT_PER_SECOND,
        max_tables: int = MAX_TABLES,
        max_tables_per_address: int = MAX_TABLES_PER_ADDRESS,
        abandoned_after: float = ABANDONED_AFTER,
        store: str = "host",
    ):
        """`store` names the store file in the data directory: a host's identity, port and
        tables live there, so two hosts running at once need two stores."""
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.advertise = advertise
        self.interfaces = interfaces
        self.heartbeat_timeout = heartbeat_timeout
        self.handshake_timeout = handshake_timeout
        self.outbound_limit = outbound_limit
        self.max_connections_per_address = max_connections_per_address
        self.chat_burst = chat_burst
        self.chat_per_second = chat_per_second
        self.max_tables_per_address = max_tables_per_address
        self.abandoned_after = abandoned_after
        self.store = Store.open(data_dir, f"{store}.sqlite3")
        self.store.on_commit = self._release
        self.tables = Tables(self.store, max_tables)
        self.store_errors: list[StoreError] = []
        self.address: tuple[str, int] | None = None
        self._held: collections.deque[tuple[int, Client, bytes | None]] = collections.deque()
        """Frames waiting for the store: each with the appends it must wait for."""
        self._bots: dict[str, BotDriver] = {}
        self._turn_timers: dict[str, asyncio.TimerHandle] = {}
        self._empty_since: dict[str, float] = {}
        """When each table with no person connected was left so."""
        self._clients: set[Client] = set()
        self._serving: set[asyncio.Task] = set()
        self._connections: collections.Counter[str] = collections.Counter()
        self._token_failures: dict[str, collections.deque[float]] = {}
        self._server: asyncio.Server | None = None
        self._reaper: asyncio.Task | None = None
        self._advertiser = None
        self._advert_tasks: set[asyncio.Task] = set()

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def host_id(self) -> str:
        """This host's identity: the same after a restart, so clients can find it again."""
        return self.store.host_id

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self._server = await asyncio.start_server(self._serve, host, port)
        sockname = self._server.sockets[0].getsockname()
        self.address = (sockname[0], sockname[1])
        self.store.remember_port(self.address[1])
        self._reaper = asyncio.get_running_loop().create_task(self._reap())
        now = time.monotonic()
        for table in self.tables.values():
            self._start_bots(table)
            self._empty_since.setdefault(table.id, now)
            self._arm_turn_timer(table)
        if self.advertise:
            from netplay.discovery import Advertiser

            self._advertiser = Advertiser(self.interfaces)
            await self._advertiser.start()
            for table in self.tables.values():
                self._announce(table)
        log.info("hosting on %s:%d", *self.address)
        return self.address

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._reaper is not None:
            self._reaper.cancel()
        for driver in self._bots.values():
            driver.stop()
        for client in list(self._clients):
            client.abort()
        if self._serving:
            await asyncio.wait(list(self._serving), timeout=FLUSH_TIMEOUT + 1)
        for task in list(self._advert_tasks):
            with contextlib.suppress(Exception):
                await task
        if self._advertiser is not None:
            await self._advertiser.close()
            self._advertiser = None
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
            self._server = None
        for timer in self._turn_timers.values():
            timer.cancel()
        await asyncio.to_thread(self.store.close)

    # -- durability -----------------------------------------------------------------------

    def deliver(self, client: Client, frame: bytes | None) -> None:
        """Send `frame` to `client` once every change appended so far is durable; frames
        keep their order."""
        if self._held or self.store.pending:
            self._held.append((self.store.appended, client, frame))
        else:
            client.enqueue(frame)

    def _release(self) -> None:
        """The store committed: send the frames that were waiting for it."""
        if self.store.failure is not None:
            # Nothing more can be made durable, so nothing more may be told.
            self._held.clear()
            for client in list(self._clients):
                client.abort()
            if self._server is not None:
                self._server.close()
            return
        committed = self.store.committed
        while self._held and self._held[0][0] <= committed:
            _, client, frame = self._held.popleft()
            client.enqueue(frame)

    def advertised_addresses(self) -> list[str]:
        assert self.address is not None
        bound = self.address[0]
        if bound not in ("0.0.0.0", "::", ""):
            return [bound]
        if self.interfaces:
            return list(self.interfaces)
        from netplay.discovery import all_ipv4_addresses

        return all_ipv4_addresses()

    # -- tables ---------------------------------------------------------------------------

    def create_table(self, game: str, players: int, options: dict | None = None, name: str = "",
                     bots: int = 0, seed: int | None = None, *, bot_level: str | None = None,
                     turn_timer: int = 0, created_by: str | None = None) -> str:
        """A new table with `bots` bots in its last seats. Raises engine.InvalidSetup or
        ValueError with a clear message for a bad setup, having created nothing."""
        if len(self.tables) >= self.tables.max_tables:
            self._close_finished_tables()
        table = self.tables.create(game, players, options, name, bots, seed,
                                   bot_level=bot_level, turn_timer=turn_timer,
                                   created_by=created_by)
        self._empty_since[table.id] = time.monotonic()
        if self._server is not None:
            self._start_bots(table)
        self._changed(table)
        if bots == players:
            self._start_game(table, seed)
        return table.id

    def close_table(self, table: Table, why: str) -> None:
        self.tables.close(table)
        self._empty_since.pop(table.id, None)
        timer = self._turn_timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        driver = self._bots.pop(table.id, None)
        if driver is not None:
            driver.stop()
        if self._advertiser is not None:
            self._track(self._advertiser.withdraw(table.id))
        tables = encode(self._table_list())
        for client in self._lobby_visitors():
            client.send_frame(tables)
        log.info("closed table %s: %s", table.id, why)

    def _close_finished_tables(self) -> None:
        """Close the finished tables nobody is at any more, to make room for new ones."""
        for table in self.tables.finished_and_empty():
            self.close_table(table, "finished and empty, to make room")

    def resume(self) -> list[str]:
        """Load every unfinished table from the store. A damaged table is reported in
        `store_errors` (and logged, naming it) while the others load."""
        resumed = []
        for table_id in self.store.tables():
            try:
                table = restore_table(table_id, self.store.records(table_id))
            except StoreError as error:
                log.error("%s", error)
                self.store_errors.append(error)
                continue
            if table.phase == OVER:
                self.store.set_status(table.id, STORED_OVER)
                continue
            self.tables.add(table)
            self._empty_since[table.id] = time.monotonic()
            if self._server is not None:
                self._start_bots(table)
            resumed.append(table.id)
            log.info("resumed table %s (%s, phase %s, %d actions)", table.id, table.game_id,
                     table.phase, len(table.game.history) if table.game else 0)
        return resumed

    def _lobby_visitors(self) -> list[Client]:
        return [c for c in self._clients if c.welcomed and c.table is None]

    def _changed(self, table: Table) -> None:
        """Tell everyone at the table about a lobby change, and, when its public facts
        changed, the lobby visitors and the LAN."""
        lobby = encode(table.lobby())
        for client in table.clients():
            client.send_frame(lobby)
        summary = table.summary()
        if summary != table.published:
            table.published = summary
            tables = encode(self._table_list())
            for client in self._lobby_visitors():
                client.send_frame(tables)
            self._announce(table)

    def _announce(self, table: Table) -> None:
        if self._advertiser is None or self.address is None:
            return
        self._track(self._advertiser.publish(table.summary(), self.address[1],
                                             self.advertised_addresses(), self.host_id))

    def _track(self, announcement) -> None:
        task = asyncio.get_running_loop().create_task(announcement)
        self._advert_tasks.add(task)
        task.add_done_callback(self._advert_done)

    def _advert_done(self, task: asyncio.Task) -> None:
        self._advert_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not announce a table: %s", task.exception())

    # -- telling the game -----------------------------------------------------------------

    def _push_state(self, table: Table, only: Client | None = None) -> None:
        """Send each client at the table its own view, legal actions and new events."""
        game = table.game
        if game is None:
            return
        shared: dict[tuple, tuple[bytes, tuple]] = {}  # spectators told alike share a frame
        for client in [only] if only is not None else table.clients():
            if client.spectator:
                key = (client.told[0] is game, client.told[1], client.told[2])
                if key not in shared:
                    shared[key] = state_frame(client.told, game, engine.SPECTATOR, [])
                frame, client.told = shared[key]
            elif client.seat is not None:
                frame, client.told = state_frame(client.told, game, client.seat,
                                                 game.legal_actions(client.seat))
            else:
                continue
            client.send_frame(frame)

    def _start_game(self, table: Table, seed: int | None) -> None:
        table.start_game(seed)
        self._changed(table)
        self._push_state(table)
        self._after_move(table)

    async def _apply(self, table: Table, seat: int, action: dict) -> None:
        """Apply an action and tell everyone; the telling waits for the store to make the
        action durable, and so does the caller, which paces a client (or a bot) by the disk."""
        game = table.game
        if game is None or game.outcome is not None:
            raise engine.IllegalAction("no game is running at this table")
        game.apply(seat, action)
        table.record({"t": "act", "seat": seat, "action": game.history[-1][1]})
        if game.outcome is not None:
            log.info("table %s: game over (%s)", table.id, game.outcome.reason)
            self._changed(table)
        self._push_state(table)
        self._after_move(table)
        await self.store.flush()

    def _after_move(self, table: Table) -> None:
        self._wake_bots(table)
        self._arm_turn_timer(table)

    # -- covering away players --------------------------------------------------------------

    def _arm_turn_timer(self, table: Table) -> None:
        """Run the table's turn timer while the game waits for an away player, and stop it
        otherwise."""
        waiting = table.turn_timer and table.waiting_for_away()
        timer = self._turn_timers.get(table.id)
        if not waiting:
            if timer is not None:
                timer.cancel()
                del self._turn_timers[table.id]
        elif timer is None and self._server is not None:
            self._turn_timers[table.id] = asyncio.get_running_loop().call_later(
                table.turn_timer, self._turn_timer_ran_out, table)

    def _turn_timer_ran_out(self, table: Table) -> None:
        self._turn_timers.pop(table.id, None)
        if self.tables.get(table.id) is not table:
            return
        for seat in table.waiting_for_away():
            table.cover(seat)
        self._changed(table)
        self._after_move(table)

    # -- bots -----------------------------------------------------------------------------

    def _start_bots(self, table: Table) -> None:
        driver = self._bots.get(table.id)
        if driver is None:
            driver = self._bots[table.id] = BotDriver(
                table, self._apply, self.bot_delay,
                lambda: RateLimit(self.chat_burst, self.chat_per_second))
        driver.start()

    def seed_bots(self, table_id: str, seed: int) -> None:
        """Make the bots' choices at a table repeat (screenshots and tests replay a game)."""
        self._bots[table_id].rng.seed(seed)

    def _wake_bots(self, table: Table) -> None:
        driver = self._bots.get(table.id)
        if driver is not None:
            driver.wake()

    # -- connections ----------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)
        peer = writer.get_extra_info("peername")
        address = peer[0] if peer else "?"
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_SEND_BUFFER)
        client = Client(self, reader, writer, address, self.outbound_limit)
        self._clients.add(client)
        self._connections[address] += 1
        try:
            if self._connections[address] > self.max_connections_per_address:
                log.warning("refused a connection from %s: over %d connections", address,
                            self.max_connections_per_address)
                raise Rejection(f"too many connections from {address}; the limit is "
                                f"{self.max_connections_per_address}")
            try:
                first = await asyncio.wait_for(read_message(reader), self.handshake_timeout)
            except asyncio.TimeoutError:
                raise Rejection(f"no hello within {self.handshake_timeout:g} seconds") from None
            hello = parse_client_message(first)
            if not isinstance(hello, Hello):
                raise ProtocolError(f"the first message must be 'hello', not {first['t']!r}")
            self._handshake(client, hello)
            while not client.closing:
                incoming = await read_message(reader)
                client.last_heard = time.monotonic()
                try:
                    await self._dispatch(client, parse_client_message(incoming))
                except Refusal as refusal:
                    client.send(Error(str(refusal), fatal=False))
                # A burst of frames already buffered would otherwise be handled without a
                # pause: let the other connections have their turn between requests.
                await asyncio.sleep(0)
        except FatalError as error:
            client.fail(str(error))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except Exception:
            log.exception("internal error serving %r", client)
            client.fail("internal error at the host; please reconnect")
        finally:
            self._disconnect(client)
            await client.finish()
            self._clients.discard(client)
            self._connections[address] -= 1
            if not self._connections[address]:
                del self._connections[address]

    def _disconnect(self, client: Client) -> None:
        table = client.table
        if table is None:
            return
        self._detach(client)
        self._left(table)

    def _detach(self, client: Client) -> None:
        if client.table is not None:
            client.table.detach(client)
        client.table, client.seat, client.spectator = None, None, False

    def _left(self, table: Table) -> None:
        """Someone left `table` or dropped: close it if nobody is left waiting for a game,
        else tell the others (a play-again vote may now be complete)."""
        if not table.clients():
            self._empty_since[table.id] = time.monotonic()
            if table.phase == WAITING and table.created_by is not None:
                self.close_table(table, "its last person left before the game")
                return
        self._changed(table)
        if table.phase == OVER and table.everyone_asked():
            self._start_game(table, None)
        self._arm_turn_timer(table)

    async def _reap(self) -> None:
        """Drop the clients that went silent, and close the tables nobody came back to."""
        interval = max(self.heartbeat_timeout / 4, 0.05)
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for client in list(self._clients):
                if client.last_heard < now - self.heartbeat_timeout and not client.closing:
                    log.info("dropped %r: silent for %g seconds", client, self.heartbeat_timeout)
                    client.abort()
            for table in list(self.tables.values()):
                since = self._empty_since.get(table.id)
                if (since is not None and now - since > self.abandoned_after
                        and not table.clients() and table.created_by is not None):
                    self.close_table(table, f"nobody connected for {self.abandoned_after:g} s")

    # -- handshake ------------------------------------------------------------------------

    def _handshake(self, client: Client, hello: Hello) -> None:
        client.name = hello.name
        if hello.token is not None:
            self._reclaim_seat(client, hello.token)
        elif hello.table is not None:
            table = self._table(hello.table, fatal=True)
            if hello.spectate:
                self._watch(client, table)
            else:
                try:
                    self._sit(client, table, None)
                except Refusal as refusal:
                    raise Rejection(str(refusal)) from None
        else:
            self._welcome(client)
            client.send(self._table_list())

    def _welcome(self, client: Client, token: str | None = None) -> None:
        """Tell `client` where it now is."""
        client.send(Welcome(table=None if client.table is None else client.table.id,
                            seat=client.seat, token=token, spectator=client.spectator,
                            host=self.host_id))
        client.welcomed = True

    def _reclaim_seat(self, client: Client, token: str) -> None:
        now = time.monotonic()
        failures = self._token_failures.get(client.address, collections.deque())
        while failures and failures[0] < now - TOKEN_FAILURE_WINDOW:
            failures.popleft()
        if len(failures) >= TOKEN_FAILURES:
            wait = int(failures[0] + TOKEN_FAILURE_WINDOW - now) + 1
            log.warning("refused a seat token from %s: rate limited", client.address)
            raise Rejection(f"too many wrong seat tokens from {client.address}; "
                            f"try again in {wait} seconds")
        found = self.tables.find_token(token)
        if found is None:
            failures.append(now)
            self._token_failures[client.address] = failures
            # Never log the token itself: a near miss would help the next guess.
            log.warning("refused an unknown seat token from %s (%d recent failures)",
                        client.address, len(failures))
            raise Rejection("this seat token belongs to no seat at this host; "
                            "a name alone never claims a seat")
        if not failures:
            self._token_failures.pop(client.address, None)  # keep the map small
        table, seat = found
        previous = seat.client
        if previous is not None and previous is not client:
            # The token holder is back on a new connection; the old one is dead or stolen.
            self._detach(previous)
            previous.fail("your seat was taken over by a new connection holding its token")
        table.uncover(seat)
        self._seat_client(client, table, seat, token)
        log.info("table %s: seat %d reconnected", table.id, seat.seat)
        self._joined(table, client)

    def _seat_client(self, client: Client, table: Table, seat: Seat, token: str) -> None:
        client.table, client.seat, client.spectator = table, seat.seat, False
        seat.client = client
        self._welcome(client, token)

    def _watch(self, client: Client, table: Table) -> None:
        client.table, client.seat, client.spectator = table, None, True
        table.spectators.add(client)
        self._welcome(client)
        self._joined(table, client)

    def _joined(self, table: Table, client: Client) -> None:
        """Tell the table who came, and the newcomer the game so far and the recent chat."""
        self._changed(table)
        self._push_state(table, only=client)
        for channel in CHANNELS if client.spectator else ("table",):
            for line in table.chat[channel]:
                client.send(line)
        self._arm_turn_timer(table)

    def _sit(self, client: Client, table: Table, wanted: int | None) -> None:
        if client.table is not None:
            raise Refusal(f"you are already at table {client.table.id}; leave it first")
        seat, token = self.tables.sit(table, client.name, wanted)
        self._seat_client(client, table, seat, token)
        self._joined(table, client)
        if table.seats_taken() == table.players:
            self._start_game(table, table.seed)

    # -- requests -------------------------------------------------------------------------

    def _table(self, table_id: str, fatal: bool = False) -> Table:
        try:
            return self.tables.get_table(table_id)
        except Refusal as refusal:
            if fatal:
                raise Rejection(str(refusal)) from None
            raise

    def _table_list(self) -> TableList:
        return TableList([t.summary() for t in self.tables.values()])

    def _own_table(self, client: Client, what: str) -> Table:
        table = client.table
        if table is None or client.spectator or client.seat is None:
            raise Refusal(f"only a seated player may {what}")
        return table

    def _check_table_owner(self, client: Client, table: Table, what: str) -> None:
        if client.table is not table or client.seat is None or client.seat != table.host_seat:
            raise Refusal(f"only the player who hosts table {table.id} (seat {table.host_seat}) "
                          f"may {what}")

    async def _dispatch(self, client: Client, request: ClientMessage) -> None:
        match request:
            case Ping():
                client.send(Pong())
            case ListTables():
                client.send(self._table_list())
            case CreateTable():
                self._create_and_sit(client, request)
            case Sit(table=table_id, seat=seat):
                self._sit(client, self._table(table_id), seat)
            case AddBot(table=table_id, seat=seat):
                self._add_bot(client, self._table(table_id), seat)
            case Leave():
                self._leave(client)
            case Start():
                table = self._own_table(client, "start the game")
                self._check_table_owner(client, table, "start the game")
                if table.phase != WAITING:
                    raise Refusal("the game has already started")
                self._start_game(table, table.seed)
            case Act(action=action):
                await self._act(client, action)
            case Chat(text=text):
                self._chat(client, text)
            case PlayAgain():
                table = self._own_table(client, "ask to play again")
                if table.ask_play_again(client.seat):
                    self._start_game(table, None)
                else:
                    self._changed(table)
            case Hello():
                raise ProtocolError("'hello' is only for the first message")

    def _create_and_sit(self, client: Client, request: CreateTable) -> None:
        if client.table is not None:
            raise Refusal(f"you are already at table {client.table.id}; leave it first")
        if type(request.bots) is int and request.bots >= request.players:
            raise Refusal(f"a table of {request.players} can hold at most "
                          f"{request.players - 1} bots: one seat is yours")
        if self.tables.open_tables_from(client.address) >= self.max_tables_per_address:
            raise Refusal(f"{client.address} already has {self.max_tables_per_address} tables "
                          "open here, the limit; finish or leave one first")
        try:
            table_id = self.create_table(
                request.game, request.players, request.options, request.name or "",
                request.bots, bot_level=request.bot_level, turn_timer=request.turn_timer,
                created_by=client.address)
        except (engine.InvalidSetup, ValueError) as error:
            raise Refusal(str(error)) from None
        self._sit(client, self.tables[table_id], None)

    async def _act(self, client: Client, action: dict) -> None:
        table = self._own_table(client, "act")
        game = table.game
        if table.phase != PLAYING or game is None:
            raise Refusal("no game is running at this table")
        if action.get("type") in game.FREE_ACTIONS and not client.free_action_limit.take():
            raise Refusal(f"too many claims: at most {self.chat_per_second:g} a second")
        try:
            await self._apply(table, client.seat, action)
        except engine.IllegalAction as error:
            raise Refusal(str(error)) from None

    def _add_bot(self, client: Client, table: Table, wanted: int | None) -> None:
        self._check_table_owner(client, table, "add a bot")
        self.tables.add_bot(table, wanted)
        self._changed(table)
        if table.phase == WAITING and table.seats_taken() == table.players:
            self._start_game(table, table.seed)
        self._after_move(table)

    def _leave(self, client: Client) -> None:
        table = client.table
        if table is None:
            raise Refusal("you are not at a table")
        seat = client.seat
        self._detach(client)
        if seat is not None and table.phase == WAITING:
            # Before the game, leaving frees the seat; during it the token keeps it for a return.
            self.tables.vacate(table, seat)
        self._welcome(client)
        self._left(table)

    def _chat(self, client: Client, text: str) -> None:
        table = client.table
        if table is None:
            raise Refusal("sit at or watch a table to chat")
        if not client.chat_limit.take():
            raise Refusal(f"too much chat: at most {self.chat_per_second:g} messages a second")
        cleaned = clean_text(text)
        if not cleaned:
            raise Refusal("an empty chat message is not sent")
        if len(cleaned) > MAX_CHAT:
            raise Refusal(f"chat message is {len(cleaned)} characters; the limit is {MAX_CHAT}")
        if client.spectator:
            # Spectators may guess aloud at roles; that must not coach the players.
            channel, audience = "spectators", list(table.spectators)
        else:
            channel, audience = "table", table.clients()
        table.chat[channel].append(ChatLine(channel, cleaned, client.seat, client.name,
                                            past=True))
        frame = encode(ChatLine(channel, cleaned, client.seat, client.name))
        for target in audience:
            target.send_frame(frame)

"""The asyncio host: one process, any number of tables, each seat claimed by a random token.

Every message the host sends about a game is built from `game.view(viewer)` and
`game.legal_actions(seat)` plus public lobby facts (names, seat kinds, presence, phase). The
state, the seed and the tokens never leave the process; the journal keeps only token hashes.

Each connection has a bounded outbound queue drained by its own writer task, so a client that
stops reading delays nobody: when its queue overflows it is disconnected and its seat waits for
a reconnect with the token. Clients send `ping` as a heartbeat; a connection silent for longer
than `heartbeat_timeout` is dropped.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import logging
import random
import secrets
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import engine
from netplay import journal as journals
from netplay.protocol import (
    MAX_CHAT,
    Act,
    AddBot,
    Chat,
    ClientMessage,
    CreateTable,
    Hello,
    Leave,
    ListTables,
    Ping,
    PlayAgain,
    ProtocolError,
    Sit,
    Start,
    clean_text,
    encode,
    message,
    parse_client_message,
    read_message,
)

log = logging.getLogger("gaslight.host")

HANDSHAKE_TIMEOUT: Final = 10.0
"""Seconds a new connection has to send its `hello`."""
HEARTBEAT_TIMEOUT: Final = 30.0
"""Seconds without any frame from a client before the host drops it as dead."""
OUTBOUND_QUEUE: Final = 64
"""Frames waiting for one client. A client this far behind is not reading: drop it."""
SOCKET_SEND_BUFFER: Final = 64 * 1024
"""Kernel send buffer per client, kept small so that a stuck reader fills its queue soon."""
MAX_CONNECTIONS_PER_ADDRESS: Final = 16
TOKEN_FAILURES: Final = 5
"""Wrong tokens one address may send per `TOKEN_FAILURE_WINDOW` before it is refused."""
TOKEN_FAILURE_WINDOW: Final = 60.0
CHAT_BURST: Final = 10
"""Chat messages a client may send at once before the rate applies."""
CHAT_PER_SECOND: Final = 2.0
FLUSH_TIMEOUT: Final = 2.0
"""Seconds a closing connection gets to take its last frames (a fatal error, say)."""
MAX_TABLES: Final = 64
"""Tables one host keeps; each has a journal, so a visitor may not create them without end."""
TOKEN_BYTES: Final = 24
"""192 random bits per seat token."""

WAITING, PLAYING, OVER = "waiting", "playing", "over"
HUMAN, BOT, EMPTY = "human", "bot", "empty"


class Refusal(Exception):
    """A request the host turns down with a non-fatal `error`; nothing changes."""


class Rejection(Exception):
    """A request the host turns down with a fatal `error`, then closes the connection."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_bot(game_id: str) -> str:
    bots = engine.GAMES[game_id].BOTS
    return "smart" if "smart" in bots else "random"


# ---------------------------------------------------------------------------------------------
# Tables


@dataclass
class SeatState:
    seat: int
    kind: str = EMPTY
    name: str = ""
    token_hash: str | None = None
    bot: str | None = None
    client: "Client | None" = None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "connected": self.kind == BOT or self.client is not None,
        }

    def journal_record(self) -> dict[str, Any]:
        return {"t": "seat", "seat": self.seat, "kind": self.kind, "name": self.name,
                "token_hash": self.token_hash, "bot": self.bot}


@dataclass
class Table:
    id: str
    name: str
    game_id: str
    players: int
    options: dict[str, Any]
    seats: list[SeatState]
    seed: int | None = None
    game: engine.Game | None = None
    host_seat: int | None = None
    spectators: set["Client"] = field(default_factory=set)
    journal: journals.Journal | None = None
    wake_bots: asyncio.Event = field(default_factory=asyncio.Event)
    bot_rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    bot_task: asyncio.Task | None = None
    published: dict | None = None
    """The public summary last told to the lobby and the LAN."""
    acting: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held from applying an action until everyone is told: one action at a time, in
    journal order, even while its fsync runs in a thread."""

    @property
    def phase(self) -> str:
        if self.game is None:
            return WAITING
        return PLAYING if self.game.outcome is None else OVER

    def seats_taken(self) -> int:
        return sum(1 for s in self.seats if s.kind != EMPTY)

    def summary(self) -> dict[str, Any]:
        """Public facts, for the `tables` message and the zeroconf TXT record."""
        taken = self.seats_taken()
        return {"id": self.id, "name": self.name, "game": self.game_id, "players": self.players,
                "seats_taken": taken, "seats_free": self.players - taken, "phase": self.phase}

    def clients(self) -> list["Client"]:
        seated = [s.client for s in self.seats if s.client is not None]
        return seated + list(self.spectators)

    def lobby(self) -> dict:
        return message(
            "lobby", table=self.id, name=self.name, game=self.game_id, players=self.players,
            options=dict(self.options), seats=[s.public() for s in self.seats],
            phase=self.phase, host_seat=self.host_seat, spectators=len(self.spectators),
        )

    def record(self, record: dict) -> None:
        if self.journal is not None:
            self.journal.append(record)


def restore_table(contents: journals.JournalContents) -> Table:
    """Rebuild a table from its journal records; JournalError if they do not replay."""
    table: Table | None = None
    for index, record in enumerate(contents.records):
        try:
            table = _apply_record(table, record)
        except journals.JournalError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise journals.JournalError(
                contents.table_id, f"record {index} ({record.get('t')!r}) does not replay: {error}"
            ) from None
    if table is None:
        raise journals.JournalError(contents.table_id, "the journal is empty")
    if table.id != contents.table_id:
        raise journals.JournalError(contents.table_id, f"it describes table {table.id!r}")
    return table


def _apply_record(table: Table | None, record: dict) -> Table:
    kind = record["t"]
    if table is None:
        if kind != "table":
            raise ValueError("the first record must describe the table")
        players = record["players"]
        return Table(
            id=record["id"], name=record["name"], game_id=record["game"], players=players,
            options=engine.game_class(record["game"]).validate_options(players, record["options"]),
            seats=[SeatState(i) for i in range(players)],
        )
    match kind:
        case "seat":
            seat = table.seats[record["seat"]]
            seat.kind, seat.name = record["kind"], record["name"]
            seat.token_hash, seat.bot = record["token_hash"], record["bot"]
        case "host_seat":
            table.host_seat = record["seat"]
        case "game":
            table.seed = record["seed"]
            table.game = engine.new_game(table.game_id, table.players, table.options, table.seed)
        case "act":
            if table.game is None:
                raise ValueError("an action before the game started")
            table.game.apply(record["seat"], record["action"])
        case _:
            raise ValueError(f"unknown record type {kind!r}")
    return table


# ---------------------------------------------------------------------------------------------
# Connections


class Client:
    """One connection: who it is, where it sits, and its bounded outbound queue."""

    def __init__(self, host: "Host", reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 address: str, queue_size: int):
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
        self.chat_allowance = float(host.chat_burst)
        self.chat_checked = self.last_heard
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
        self._writer_task = asyncio.get_running_loop().create_task(self._write_loop())

    def __repr__(self) -> str:
        return f"<Client {self.name!r} from {self.address}>"

    def send(self, msg: dict) -> None:
        self.send_frame(encode(msg))

    def send_frame(self, frame: bytes) -> None:
        if self.closing:
            return
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("dropped %r: %d frames waiting, it is not reading", self,
                        self._queue.maxsize)
            self.abort()

    def fail(self, text: str) -> None:
        """Send a fatal error, then close once it is written."""
        if self.closing:
            return
        self.send(message("error", message=text, fatal=True))
        self.close_after_flush()

    def close_after_flush(self) -> None:
        """Close once every queued frame is written."""
        self.closing = True
        try:
            self._queue.put_nowait(None)
        except asyncio.QueueFull:
            self.abort()

    def abort(self) -> None:
        self.closing = True
        self.writer.transport.abort()

    async def _write_loop(self) -> None:
        try:
            while True:
                frame = await self._queue.get()
                if frame is None:
                    break
                self.writer.write(frame)
                await self.writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.writer.close()

    @property
    def writer_done(self) -> asyncio.Task:
        return self._writer_task

    async def finish(self) -> None:
        self._writer_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer_task


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
        outbound_queue: int = OUTBOUND_QUEUE,
        max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        chat_burst: int = CHAT_BURST,
        chat_per_second: float = CHAT_PER_SECOND,
    ):
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.advertise = advertise
        self.interfaces = interfaces
        self.heartbeat_timeout = heartbeat_timeout
        self.handshake_timeout = handshake_timeout
        self.outbound_queue = outbound_queue
        self.max_connections_per_address = max_connections_per_address
        self.chat_burst = chat_burst
        self.chat_per_second = chat_per_second
        self.tables: dict[str, Table] = {}
        self.journal_errors: list[journals.JournalError] = []
        self.address: tuple[str, int] | None = None
        self._journal_dir: Path | None = None
        self._tokens: dict[str, tuple[str, int]] = {}  # token hash -> (table id, seat)
        self._clients: set[Client] = set()
        self._serving: set[asyncio.Task] = set()
        self._connections: collections.Counter[str] = collections.Counter()
        self._token_failures: dict[str, collections.deque[float]] = {}
        self._server: asyncio.Server | None = None
        self._reaper: asyncio.Task | None = None
        self._advertiser = None
        self._advert_tasks: set[asyncio.Task] = set()

    # -- lifecycle ------------------------------------------------------------------------

    def journal_dir(self) -> Path:
        if self._journal_dir is None:
            self._journal_dir = journals.tables_dir(self.data_dir)
        return self._journal_dir

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self._server = await asyncio.start_server(self._serve, host, port)
        sockname = self._server.sockets[0].getsockname()
        self.address = (sockname[0], sockname[1])
        self._reaper = asyncio.get_running_loop().create_task(self._reap_silent_clients())
        for table in self.tables.values():
            self._start_bots(table)
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
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
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
        for table in self.tables.values():
            if table.journal is not None:
                async with table.acting:  # no fsync may still be running on the descriptor
                    table.journal.close()

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
                     bots: int = 0, seed: int | None = None) -> str:
        """A new table with `bots` bots in its last seats. Raises engine.InvalidSetup or
        ValueError with a clear message for a bad setup."""
        if len(self.tables) >= MAX_TABLES:
            self._close_abandoned_tables()
        if len(self.tables) >= MAX_TABLES:
            raise ValueError(f"this host already has {len(self.tables)} tables; "
                             f"the limit is {MAX_TABLES}")
        cls = engine.game_class(game)
        resolved = cls.validate_options(players, options or {})
        if type(bots) is not int or not 0 <= bots <= players:
            raise ValueError(f"bots must be between 0 and {players}, not {bots!r}")
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        name = clean_text(name)[:32] or f"{cls.title} table"
        table = Table(id=table_id, name=name, game_id=game, players=players, options=resolved,
                      seats=[SeatState(i) for i in range(players)], seed=seed)
        table.journal = journals.Journal.create(self.journal_dir(), table_id)
        table.record({"t": "table", "id": table_id, "name": name, "game": game,
                      "players": players, "options": resolved})
        self.tables[table_id] = table
        bot_name = default_bot(game)
        for seat in table.seats[players - bots:]:
            seat.kind, seat.name, seat.bot = BOT, f"Bot {seat.seat + 1}", bot_name
            table.record(seat.journal_record())
        if self._server is not None:
            self._start_bots(table)
        log.info("created table %s (%s, %d players, %d bots)", table_id, game, players, bots)
        self._changed(table)
        if bots == players:
            self._start_game(table, seed)
        return table_id

    def _close_abandoned_tables(self) -> None:
        """Close the finished tables nobody is at any more, to make room for new ones."""
        for table in list(self.tables.values()):
            if table.phase != OVER or table.clients() or table.acting.locked():
                continue
            del self.tables[table.id]
            for seat in table.seats:
                if seat.token_hash is not None:
                    self._tokens.pop(seat.token_hash, None)
            if table.bot_task is not None:
                table.bot_task.cancel()
            if table.journal is not None:
                table.journal.close()
                journals.archive(table.journal.path)
            if self._advertiser is not None:
                self._track(self._advertiser.withdraw(table.id))
            log.info("closed finished table %s to make room", table.id)

    def resume(self) -> list[str]:
        """Load every unfinished table from the journals. A damaged journal is reported in
        `journal_errors` (and logged, naming its table) while the others load."""
        resumed = []
        for path in journals.journal_paths(self.journal_dir()):
            try:
                contents = journals.read_journal(path)
                table = restore_table(contents)
            except journals.JournalError as error:
                log.error("%s", error)
                self.journal_errors.append(error)
                continue
            except OSError as error:
                log.error("table %s: cannot read its journal: %s", path.stem, error)
                self.journal_errors.append(journals.JournalError(path.stem, str(error)))
                continue
            if table.phase == OVER:
                journals.archive(path)
                continue
            table.journal = journals.Journal.reopen(path, table.id, contents.good_length)
            self.tables[table.id] = table
            for seat in table.seats:
                if seat.token_hash is not None:
                    self._tokens[seat.token_hash] = (table.id, seat.seat)
            if self._server is not None:
                self._start_bots(table)
            resumed.append(table.id)
            log.info("resumed table %s (%s, phase %s, %d actions)", table.id, table.game_id,
                     table.phase, len(table.game.history) if table.game else 0)
        return resumed

    def _changed(self, table: Table) -> None:
        """Tell everyone at the table about a lobby change, and, when its public facts
        changed, the lobby visitors and the LAN."""
        lobby = encode(table.lobby())
        for client in table.clients():
            client.send_frame(lobby)
        summary = table.summary()
        if summary != table.published:
            table.published = summary
            tables = encode(self._tables_message())
            for client in self._clients:
                if client.welcomed and client.table is None:
                    client.send_frame(tables)
            self._announce(table)

    def _announce(self, table: Table) -> None:
        if self._advertiser is None or self.address is None:
            return
        self._track(self._advertiser.publish(table.summary(), self.address[1],
                                             self.advertised_addresses()))

    def _track(self, announcement) -> None:
        task = asyncio.get_running_loop().create_task(announcement)
        self._advert_tasks.add(task)
        task.add_done_callback(self._advert_done)

    def _advert_done(self, task: asyncio.Task) -> None:
        self._advert_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not announce a table: %s", task.exception())

    def _push_state(self, table: Table, only: Client | None = None) -> None:
        """Send each client at the table its own view and legal actions."""
        game = table.game
        if game is None:
            return
        targets = [only] if only is not None else table.clients()
        spectator_frame = None
        for client in targets:
            if client.spectator:
                if spectator_frame is None:
                    spectator_frame = encode(message(
                        "state", view=game.view(engine.SPECTATOR), legal=[], seat=None))
                client.send_frame(spectator_frame)
            elif client.seat is not None:
                client.send(message("state", view=game.view(client.seat),
                                    legal=game.legal_actions(client.seat), seat=client.seat))

    def _start_game(self, table: Table, seed: int | None) -> None:
        bot_name = default_bot(table.game_id)
        for seat in table.seats:
            if seat.kind == EMPTY:
                seat.kind, seat.name, seat.bot = BOT, f"Bot {seat.seat + 1}", bot_name
                table.record(seat.journal_record())
        table.seed = secrets.randbits(63) if seed is None else seed
        table.game = engine.new_game(table.game_id, table.players, table.options, table.seed)
        table.record({"t": "game", "seed": table.seed})
        log.info("table %s: game started", table.id)
        self._changed(table)
        self._push_state(table)
        table.wake_bots.set()

    async def _apply(self, table: Table, seat: int, action: dict) -> None:
        """Apply, write to the journal, tell everyone, then fsync. Once written, the action
        survives the host process being killed, so a restarted host knows every action anybody
        saw. The fsync guards against the machine itself going down; it runs in a thread after
        the telling, since waiting for the disk first put its latency (milliseconds, tens of
        them when many tables sync at once) into every move. The lock keeps one action at a
        time in journal order and holds until the action is on disk."""
        async with table.acting:
            game = table.game
            if game is None or game.outcome is not None:
                raise engine.IllegalAction("no game is running at this table")
            game.apply(seat, action)
            if table.journal is not None:
                table.journal.write({"t": "act", "seat": seat, "action": game.history[-1][1]})
            self._tell_applied(table, game)
            if table.journal is not None:
                # Let the writers send the views first: handing the fsync to a thread costs
                # the event loop a GIL switch. The thread lets other tables carry on meanwhile.
                await asyncio.sleep(0)
                await asyncio.to_thread(table.journal.sync)

    def _tell_applied(self, table: Table, game: engine.Game) -> None:
        if game.outcome is not None:
            log.info("table %s: game over (%s)", table.id, game.outcome.reason)
            self._changed(table)
        self._push_state(table)
        table.wake_bots.set()

    # -- bots -----------------------------------------------------------------------------

    def _start_bots(self, table: Table) -> None:
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._run_bots(table))
            table.wake_bots.set()

    async def _run_bots(self, table: Table) -> None:
        while True:
            await table.wake_bots.wait()
            table.wake_bots.clear()
            while (game := table.game) is not None and game.outcome is None:
                due = [s for s in sorted(game.to_act()) if table.seats[s].kind == BOT]
                if not due:
                    break
                await asyncio.sleep(self.bot_delay)
                if table.game is not game or game.outcome is not None:
                    break
                seat = due[0]
                if seat not in game.to_act() or table.seats[seat].kind != BOT:
                    continue
                await self._bot_act(table, game, seat)

    async def _bot_act(self, table: Table, game: engine.Game, seat: int) -> None:
        bots = engine.GAMES[table.game_id].BOTS
        legal = game.legal_actions(seat)
        bot = bots.get(table.seats[seat].bot or "", bots["random"])
        try:
            action = bot(game.view(seat), legal, table.bot_rng)
        except Exception:
            # A bot bug must not stall the table: log it (without the view) and play randomly.
            log.exception("table %s: bot at seat %d failed; playing a random move", table.id, seat)
            action = bots["random"](game.view(seat), legal, table.bot_rng)
        try:
            await self._apply(table, seat, action)
        except engine.IllegalAction as error:
            log.error("table %s: bot at seat %d chose an illegal move (%s); playing a random "
                      "move", table.id, seat, error)
            await self._apply(table, seat, bots["random"](game.view(seat), legal, table.bot_rng))

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
        writer.transport.set_write_buffer_limits(high=SOCKET_SEND_BUFFER)
        client = Client(self, reader, writer, address, self.outbound_queue)
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
                    client.send(message("error", message=str(refusal), fatal=False))
                # A burst of frames already buffered would otherwise be handled without a
                # pause, and the frames it fans out would pile up in every queue at the table
                # before any writer ran: let the writers drain between requests.
                await asyncio.sleep(0)
        except (ProtocolError, Rejection) as error:
            client.fail(str(error))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except Exception:
            log.exception("internal error serving %r", client)
            client.fail("internal error at the host; please reconnect")
        finally:
            self._disconnect(client)
            client.close_after_flush()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(client.writer_done), FLUSH_TIMEOUT)
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
        self._changed(table)

    def _detach(self, client: Client) -> None:
        table = client.table
        if table is not None:
            if client.spectator:
                table.spectators.discard(client)
            elif client.seat is not None and table.seats[client.seat].client is client:
                table.seats[client.seat].client = None
        client.table, client.seat, client.spectator = None, None, False

    async def _reap_silent_clients(self) -> None:
        interval = max(self.heartbeat_timeout / 4, 0.05)
        while True:
            await asyncio.sleep(interval)
            deadline = time.monotonic() - self.heartbeat_timeout
            for client in list(self._clients):
                if client.last_heard < deadline and not client.closing:
                    log.info("dropped %r: silent for %g seconds", client, self.heartbeat_timeout)
                    client.abort()

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
            client.send(message("welcome", table=None, seat=None, token=None, spectator=False))
            client.welcomed = True
            client.send(self._tables_message())

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
        found = self._tokens.get(hash_token(token))
        if found is None or found[0] not in self.tables:
            failures.append(now)
            self._token_failures[client.address] = failures
            # Never log the token itself: a near miss would help the next guess.
            log.warning("refused an unknown seat token from %s (%d recent failures)",
                        client.address, len(failures))
            raise Rejection("this seat token belongs to no seat at this host; "
                            "a name alone never claims a seat")
        if not failures:
            self._token_failures.pop(client.address, None)  # keep the map small
        table = self.tables[found[0]]
        seat = table.seats[found[1]]
        previous = seat.client
        if previous is not None and previous is not client:
            # The token holder is back on a new connection; the old one is dead or stolen.
            self._detach(previous)
            previous.fail("your seat was taken over by a new connection holding its token")
        self._seat_client(client, table, seat.seat, token)
        log.info("table %s: seat %d reconnected", table.id, seat.seat)
        self._changed(table)
        self._push_joiner_state(table, client)

    def _seat_client(self, client: Client, table: Table, seat: int, token: str) -> None:
        client.table, client.seat, client.spectator = table, seat, False
        table.seats[seat].client = client
        client.send(message("welcome", table=table.id, seat=seat, token=token, spectator=False))
        client.welcomed = True

    def _watch(self, client: Client, table: Table) -> None:
        client.table, client.seat, client.spectator = table, None, True
        table.spectators.add(client)
        client.send(message("welcome", table=table.id, seat=None, token=None, spectator=True))
        client.welcomed = True
        self._changed(table)
        self._push_joiner_state(table, client)

    def _push_joiner_state(self, table: Table, client: Client) -> None:
        """The full view for a client that just joined. Each action is told to the table in
        the same step that applies and writes it, so the newcomer sees what the others saw,
        even while that action's fsync runs."""
        self._push_state(table, only=client)

    def _sit(self, client: Client, table: Table, wanted: int | None) -> None:
        if client.table is not None:
            raise Refusal(f"you are already at table {client.table.id}; leave it first")
        if table.phase != WAITING:
            raise Refusal(f"table {table.id} has started; you may watch it as a spectator")
        if wanted is not None:
            if not 0 <= wanted < table.players:
                raise Refusal(f"table {table.id} has no seat {wanted}")
            if table.seats[wanted].kind != EMPTY:
                raise Refusal(f"seat {wanted} at table {table.id} is taken")
            seat = table.seats[wanted]
        else:
            seat = next((s for s in table.seats if s.kind == EMPTY), None)
            if seat is None:
                raise Refusal(f"table {table.id} has no free seat; you may watch it")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        seat.kind, seat.name, seat.token_hash, seat.bot = HUMAN, client.name, hash_token(token), None
        self._tokens[seat.token_hash] = (table.id, seat.seat)
        table.record(seat.journal_record())
        if table.host_seat is None:
            table.host_seat = seat.seat
            table.record({"t": "host_seat", "seat": seat.seat})
        self._seat_client(client, table, seat.seat, token)
        log.info("table %s: %s took seat %d", table.id, client.name, seat.seat)
        self._changed(table)
        if table.seats_taken() == table.players:
            self._start_game(table, table.seed)

    # -- requests -------------------------------------------------------------------------

    def _table(self, table_id: str, fatal: bool = False) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            text = f"no table {table_id!r} at this host"
            raise Rejection(text) if fatal else Refusal(text)
        return table

    def _tables_message(self) -> dict:
        return message("tables", tables=[t.summary() for t in self.tables.values()])

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
                client.send(message("pong"))
            case ListTables():
                client.send(self._tables_message())
            case CreateTable(game=game, players=players, options=options, name=name, bots=bots):
                if client.table is not None:
                    raise Refusal(f"you are already at table {client.table.id}; leave it first")
                try:
                    table_id = self.create_table(game, players, options, name or "", bots)
                except (engine.InvalidSetup, ValueError) as error:
                    raise Refusal(str(error)) from None
                self._sit(client, self.tables[table_id], None)
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
                table = self._own_table(client, "act")
                if table.phase != PLAYING:
                    raise Refusal("no game is running at this table")
                try:
                    await self._apply(table, client.seat, action)
                except engine.IllegalAction as error:
                    raise Refusal(str(error)) from None
            case Chat(text=text):
                self._chat(client, text)
            case PlayAgain():
                table = self._own_table(client, "ask to play again")
                async with table.acting:  # the last action is told before a new game starts
                    if table.phase != OVER:
                        raise Refusal("the game is not over yet")
                    self._start_game(table, None)
            case Hello():
                raise ProtocolError("'hello' is only for the first message")

    def _add_bot(self, client: Client, table: Table, wanted: int | None) -> None:
        self._check_table_owner(client, table, "add a bot")
        if table.phase == WAITING:
            candidates = [s for s in table.seats if s.kind == EMPTY]
        else:
            # Mid-game a bot may take over a seat whose player has gone away.
            candidates = [s for s in table.seats if s.kind == HUMAN and s.client is None]
        if wanted is not None:
            candidates = [s for s in candidates if s.seat == wanted]
        if not candidates:
            raise Refusal("no seat for a bot: only an empty seat, or mid-game the seat of a "
                          "player who is away, can take one")
        seat = candidates[0]
        if seat.token_hash is not None:
            self._tokens.pop(seat.token_hash, None)
        seat.kind, seat.name, seat.token_hash = BOT, f"Bot {seat.seat + 1}", None
        seat.bot = default_bot(table.game_id)
        table.record(seat.journal_record())
        self._changed(table)
        if table.phase == WAITING and table.seats_taken() == table.players:
            self._start_game(table, table.seed)
        table.wake_bots.set()

    def _leave(self, client: Client) -> None:
        table = client.table
        if table is None:
            raise Refusal("you are not at a table")
        seat = client.seat
        self._detach(client)
        if seat is not None and table.phase == WAITING:
            # Before the game, leaving frees the seat; during it the token keeps it for a return.
            state = table.seats[seat]
            if state.token_hash is not None:
                self._tokens.pop(state.token_hash, None)
            state.kind, state.name, state.token_hash, state.bot = EMPTY, "", None, None
            table.record(state.journal_record())
            if table.host_seat == seat:
                table.host_seat = next((s.seat for s in table.seats if s.kind == HUMAN), None)
                table.record({"t": "host_seat", "seat": table.host_seat})
        client.send(message("welcome", table=None, seat=None, token=None, spectator=False))
        self._changed(table)

    def _chat(self, client: Client, text: str) -> None:
        table = client.table
        if table is None:
            raise Refusal("sit at or watch a table to chat")
        now = time.monotonic()
        client.chat_allowance = min(
            float(self.chat_burst),
            client.chat_allowance + (now - client.chat_checked) * self.chat_per_second,
        )
        client.chat_checked = now
        if client.chat_allowance < 1:
            raise Refusal(f"too much chat: at most {self.chat_per_second:g} messages a second")
        client.chat_allowance -= 1
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
        frame = encode(message("chat", channel=channel, text=cleaned, seat=client.seat,
                               **{"from": client.name}))
        for target in audience:
            target.send_frame(frame)


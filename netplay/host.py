"""The asyncio host: the server's lifecycle, the handshake, and the dispatch of requests.

One process serves any number of tables, each seat claimed by a random token. The rooms it
directs, one job each (see README.md):

- `netplay.tables`: the tables, seats, tokens and clocks, synchronous; the only writer of the
  store's records;
- `netplay.connection`: each client's connection and the state fan-out;
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
from typing import Final

import engine
from netplay.announcer import Announcer, advertised_addresses
from netplay.bots import Bots
from netplay.connection import Client, Connections, push_state, tell
from netplay.errors import ProtocolError, Refusal, Rejection
from netplay.limits import HostLimits
from netplay.protocol import (
    Act,
    AddBot,
    Chat,
    ClientMessage,
    CreateTable,
    FetchRecord,
    Hello,
    Leave,
    ListReplays,
    ListTables,
    Ping,
    PlayAgain,
    Paired,
    Pong,
    REPLAY_REQUESTS,
    ShowReplay,
    Sit,
    Start,
    TableList,
    Welcome,
)
from netplay.pairing import HostPairing, new_code
from netplay.ratelimit import Lockout
from netplay.game_record import GameRecord
from netplay.replays import Replays
from netplay.store import CommitGate, Store, StoreError
from netplay.table import DEFAULT_PACE, OVER, PLAYING, WAITING, Seat, Table
from netplay.tables import Tables
from netplay.transport import Door, HostKey, Listener

log = logging.getLogger("gaslight.host")

TOKEN_FAILURES: Final = 5
"""Wrong tokens one address may send per `TOKEN_FAILURE_WINDOW` before it is refused."""
TOKEN_FAILURE_WINDOW: Final = 60.0


class Host:
    def __init__(self, *, data_dir: Path | None = None, store: str = "host",
                 limits: HostLimits = HostLimits(), advertise: bool = False,
                 interfaces: list[str] | None = None, replay: GameRecord | None = None):
        """`store` names the store file in the data directory: a host's port, table code and
        tables live there, and its key beside it, so two hosts running at once need two
        stores. Given `replay` (a replay file's record), the host is a replay host: it shows
        that game to whoever connects, and has no tables (RecordError if the record does not
        replay)."""
        self.data_dir = data_dir
        self.limits = limits
        self.advertise = advertise
        self.interfaces = interfaces
        self.store = Store.open(data_dir, f"{store}.sqlite3")
        self.key = HostKey(self.store.path.with_name(f"{store}.pem"))
        self.pairing = HostPairing(self.store.kept("table_code", new_code),
                                   self.key.fingerprint, limits.handshake_timeout)
        self.door = Door(self.key, limits.handshake_timeout)
        self.gate = CommitGate(self.store, self._store_failed)
        self.tables = Tables(self.store, limits.max_tables)
        self.bots = Bots(self._apply, limits)
        self.replays = Replays(self.store, self.tables, only=replay)
        self.store_errors: list[StoreError] = []
        self.address: tuple[str, int] | None = None
        self.connections = Connections(self.gate, limits, self.door, self.pairing,
                                       self._handshake, self._dispatch, self._disconnect)
        self._token_lockout = Lockout(TOKEN_FAILURES, TOKEN_FAILURE_WINDOW)
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
            self._arm_turn_timer(table)
        if self.advertise:
            self._announcer = await Announcer.open(self.interfaces, self.address, self.host_id)
            for table in self.tables.values():
                self._announcer.publish(table.summary())
        log.info("hosting on %s:%d", *self.address)
        return self.address

    async def stop(self) -> None:
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
                                   self.tables.next_abandon_deadline(limits.abandoned_after))
                       if d is not None)
            self._clock_changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._clock_changed.wait(), max(wake - now, 0))
            now = time.monotonic()
            self.connections.drop_silent(now)
            for table in self.tables.run_out_turn_timers(now):
                self._changed(table)
                self._after_move(table)
            for table in self.tables.abandoned(now, limits.abandoned_after):
                self.close_table(table, f"nobody connected for {limits.abandoned_after:g} s")

    # -- tables ---------------------------------------------------------------------------

    def create_table(self, game: str, players: int, options: dict | None = None, name: str = "",
                     bots: int = 0, seed: int | None = None, *, bot_level: str | None = None,
                     bot_pace: str = DEFAULT_PACE, turn_timer: int = 0,
                     public_replays: bool = False, created_by: str | None = None,
                     private: bool = False) -> str:
        """A new table with `bots` bots in its last seats. Raises engine.InvalidSetup or
        ValueError with a clear message for a bad setup, having created nothing."""
        if len(self.tables) >= self.tables.max_tables:
            for finished in self.tables.finished_and_empty():
                self.close_table(finished, "finished and empty, to make room")
        table = self.tables.create(game, players, options, name, bots, seed,
                                   bot_level=bot_level, bot_pace=bot_pace,
                                   turn_timer=turn_timer, public_replays=public_replays,
                                   created_by=created_by, private=private)
        table.empty_since = time.monotonic()
        if self._server is not None:
            self.bots.start(table)
        self._changed(table)
        if bots == players:
            self._start_game(table, seed)
        return table.id

    def close_table(self, table: Table, why: str) -> None:
        self.tables.close(table)
        self.bots.stop(table)
        if self._announcer is not None:
            self._announcer.withdraw(table.id)
        tell(self.connections.lobby_visitors(), self._table_list())
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

    def _table_list(self) -> TableList:
        return TableList([t.summary() for t in self.tables.values()])

    def _changed(self, table: Table) -> None:
        """Tell everyone at the table about a lobby change, and, when its public facts
        changed, the lobby visitors and the LAN."""
        tell(table.clients(), table.lobby())
        summary = table.summary()
        if summary != table.published:
            table.published = summary
            tell(self.connections.lobby_visitors(), self._table_list())
            if self._announcer is not None:
                self._announcer.publish(summary)

    def _start_game(self, table: Table, seed: int | None) -> None:
        table.start_game(seed)
        self._changed(table)
        push_state(table)
        self._after_move(table)

    async def _apply(self, table: Table, seat: int, action: dict) -> None:
        """Apply an action and tell everyone; the telling waits for the store to make the
        action durable, and so does the caller, which paces a client (or a bot) by the disk."""
        table.play(seat, action)
        if table.phase == OVER:
            self.replays.saw_end(table)
            self._changed(table)
        push_state(table)
        self._after_move(table)
        await self.gate.durable()

    def _after_move(self, table: Table) -> None:
        self.bots.wake(table)
        self._arm_turn_timer(table)

    def _arm_turn_timer(self, table: Table) -> None:
        if self.tables.arm_turn_timer(table, time.monotonic()):
            self._clock_changed.set()

    # -- connections ----------------------------------------------------------------------

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
            table.empty_since = time.monotonic()
            if table.phase == WAITING and table.created_by is not None:
                self.close_table(table, "its last person left before the game")
                return
        self._changed(table)
        if table.phase == OVER and table.everyone_asked():
            self._start_game(table, None)
        self._arm_turn_timer(table)

    # -- handshake ------------------------------------------------------------------------

    def _handshake(self, client: Client, hello: Hello) -> None:
        client.name = hello.name
        if self.replays.only is not None and (hello.token or hello.table):
            raise Rejection("this host only shows a replay; it has no tables")
        if hello.token is not None:
            self._reclaim_seat(client, hello.token)
        elif hello.table is not None:
            table = self._table(hello.table, fatal=True)
            self._check_private(client, table, fatal=True)
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
        wait = self._token_lockout.wait(client.address, now)
        if wait:
            log.warning("refused a seat token from %s: rate limited", client.address)
            raise Rejection(f"too many wrong seat tokens from {client.address}; "
                            f"try again in {wait} seconds")
        found = self.tables.find_token(token)
        if found is None:
            failures = self._token_lockout.failed(client.address, now)
            # Never log the token itself: a near miss would help the next guess.
            log.warning("refused an unknown seat token from %s (%d recent failures)",
                        client.address, failures)
            raise Rejection("this seat token belongs to no seat at this host; "
                            "a name alone never claims a seat")
        table, seat = found
        self._check_private(client, table, fatal=True)
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
        push_state(table, only=client)
        for line in table.recent_chat(client.spectator):
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

    @staticmethod
    def _check_private(client: Client, table: Table, fatal: bool = False) -> None:
        if table.private and not client.paired:
            text = f"table {table.id} is private: its table code is needed"
            raise Rejection(text) if fatal else Refusal(text)

    def _table(self, table_id: str, fatal: bool = False) -> Table:
        try:
            return self.tables.get_table(table_id)
        except Refusal as refusal:
            if fatal:
                raise Rejection(str(refusal)) from None
            raise

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
        if self.replays.only is not None and not isinstance(request, (Ping, ListTables,
                                                                      *REPLAY_REQUESTS)):
            raise Refusal("this host only shows a replay")
        match request:
            case Ping():
                client.send(Pong())
            case ListReplays():
                client.send(self.replays.answer_listing(client, request))
            case ShowReplay():
                client.send_frame(self.replays.answer_step(client, request))
            case FetchRecord():
                client.send(self.replays.answer_record(client, request))
            case ListTables():
                client.send(self._table_list())
            case CreateTable():
                self._create_and_sit(client, request)
            case Sit(table=table_id, seat=seat):
                table = self._table(table_id)
                self._check_private(client, table)
                self._sit(client, table, seat)
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
            case Paired():
                raise ProtocolError("'paired' only answers the host's 'pair'")

    def _create_and_sit(self, client: Client, request: CreateTable) -> None:
        if client.table is not None:
            raise Refusal(f"you are already at table {client.table.id}; leave it first")
        if type(request.bots) is int and request.bots >= request.players:
            raise Refusal(f"a table of {request.players} can hold at most "
                          f"{request.players - 1} bots: one seat is yours")
        if request.private and not client.paired:
            raise Refusal("only a player who gave this host's table code may make a private "
                          "table")
        most = self.limits.max_tables_per_address
        if self.tables.open_tables_from(client.address) >= most:
            raise Refusal(f"{client.address} already has {most} tables open here, the limit; "
                          "finish or leave one first")
        try:
            table_id = self.create_table(
                request.game, request.players, request.options, request.name or "",
                request.bots, bot_level=request.bot_level,
                bot_pace=request.bot_pace or DEFAULT_PACE, turn_timer=request.turn_timer,
                public_replays=request.public_replays, created_by=client.address,
                private=request.private)
        except (engine.InvalidSetup, ValueError) as error:
            raise Refusal(str(error)) from None
        self._sit(client, self.tables[table_id], None)

    async def _act(self, client: Client, action: dict) -> None:
        table = self._own_table(client, "act")
        game = table.game
        if table.phase != PLAYING or game is None:
            raise Refusal("no game is running at this table")
        if action.get("type") in game.FREE_ACTIONS and not client.claim_limit.take():
            raise Refusal(f"too many claims: at most {self.limits.claim_per_second:g} a second")
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
            raise Refusal(f"too much chat: at most {self.limits.chat_per_second:g} messages "
                          "a second")
        name = client.name if client.seat is None else table.seats[client.seat].name
        line, audience = table.say(text, client.seat, name, client.spectator)
        tell(audience, line)

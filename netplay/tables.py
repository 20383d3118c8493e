"""Every table at one host: seat tokens, the rules for taking, leaving and handing over a seat,
the tables' clocks (the turn timer, and how long a table has been empty), and tables brought
back from the store.

Everything here is synchronous and knows nothing of sockets: a seat holds an opaque `client`
(the host's connection object, or None while its player is away), and every rule either changes
the tables and records the change in the host's store, or raises `Refusal` and changes nothing.
The tables are the only writers of the store's records: the host turns the results into
messages, and reads the time for the clocks.

A seat belongs to whoever holds its token: 192 random bits, given once, kept here only as a
SHA-256 hash in the token index (hash -> table and seat) and in the store.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Iterator, Mapping
from typing import Final

import engine
from engine.catalogue import game_info, read_game_id
from netplay.errors import Refusal
from netplay.journal import (
    BY_TIMER,
    DEFAULT_PACE,
    Acted,
    Chatted,
    GameStarted,
    HostSeatSet,
    Record,
    SeatSet,
    TableMade,
    read_record,
)
from netplay.limits import HostLimits
from netplay.protocol import MAX_NAME, ChatLine
from netplay.store import OVER as STORED_OVER
from netplay.store import Store, StoreError
from netplay.table import (
    BOT_PACES,
    COVER_PAUSE,
    EMPTY,
    HUMAN,
    OVER,
    WAITING,
    Seat,
    Table,
)
from netplay.text import clean_text

log = logging.getLogger("gaslight.host")

TURN_TIMERS: Final = (0, 30, 60, 120)
"""Seconds the game may wait for an away player before a bot covers the seat (0: never)."""
TOKEN_BYTES: Final = 24
"""192 random bits per seat token."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()




class Tables(Mapping[str, Table]):
    """Every table at one host, by id, and the index of seat tokens."""

    def __init__(self, store: Store | None,
                 max_tables: int = HostLimits().max_tables) -> None:
        self.store = store
        self.max_tables = max_tables
        self._tables: dict[str, Table] = {}
        self._tokens: dict[str, tuple[str, int]] = {}  # token hash -> (table id, seat)

    def __getitem__(self, table_id: str) -> Table:
        return self._tables[table_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def get_table(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal(f"no table {table_id!r} at this host")
        return table

    # -- tables ---------------------------------------------------------------------------

    def create(self, game: str, players: int, options: dict | None = None, name: str = "",
               bots: int = 0, seed: int | None = None, *, bot_level: str | None = None,
               bot_pace: str = DEFAULT_PACE, turn_timer: int = 0,
               public_replays: bool = False, created_by: str | None = None,
               private: bool = False, start_when_full: bool = False,
               hints: bool = False) -> Table:
        """A new table with `bots` bots in its last seats. Raises engine.InvalidSetup or
        ValueError with a clear message for a bad setup, having changed nothing."""
        if len(self) >= self.max_tables:
            raise ValueError(f"this host already has {len(self)} tables; "
                             f"the limit is {self.max_tables}")
        cls = engine.game_class(game)
        resolved = cls.validate_options(players, options or {})
        if type(bots) is not int or not 0 <= bots <= players:
            raise ValueError(f"bots must be between 0 and {players}, not {bots!r}")
        info = game_info(game)
        bot_level = info.bot_level(bot_level).bot if bot_level else info.default_bot
        if bot_pace not in BOT_PACES:
            raise ValueError(f"the bots' pace is one of {', '.join(BOT_PACES)}, "
                             f"not {bot_pace!r}")
        if turn_timer not in TURN_TIMERS:
            raise ValueError(f"the turn timer is one of {', '.join(map(str, TURN_TIMERS))} "
                             f"seconds, not {turn_timer!r}")
        table_id = secrets.token_hex(4)
        while table_id in self._tables:
            table_id = secrets.token_hex(4)
        name = clean_text(name)[:MAX_NAME] or f"{cls.title} table"
        table = Table(id=table_id, name=name, game_id=game, players=players, options=resolved,
                      seats=[Seat(i) for i in range(players)], bot_level=bot_level,
                      bot_pace=bot_pace,
                      turn_timer=turn_timer, public_replays=public_replays, seed=seed,
                      created_by=created_by, private=private,
                      start_when_full=start_when_full, hints=hints)
        if self.store is not None:
            self.store.add_table(table_id)
            table.store = self.store
        table.record(TableMade(id=table_id, name=name, game=game, players=players,
                               options=resolved, bot_level=bot_level, bot_pace=bot_pace,
                               turn_timer=turn_timer, public_replays=public_replays,
                               private=private, start_when_full=start_when_full,
                               hints=hints))
        self._tables[table_id] = table
        for seat in table.seats[players - bots:]:
            table.seat_bot(seat)
        log.info("created table %s (%s, %d players, %d bots)", table_id, game, players, bots)
        return table

    def add(self, table: Table) -> None:
        """Take in a table restored from the store, with its seats' tokens."""
        table.store = self.store
        # Its last deal was before the restart: nobody is kept waiting for it.
        table.events_seen = len(table.game.events) if table.game is not None else 0
        self._tables[table.id] = table
        for seat in table.seats:
            if seat.token_hash is not None:
                self._tokens[seat.token_hash] = (table.id, seat.seat)

    def close(self, table: Table) -> None:
        """Put a table away. A table that never started is forgotten; a finished game stays
        in the store, set aside from `--resume`; a running one stays live there, so that
        `--resume` brings it back."""
        del self._tables[table.id]
        for seat in table.seats:
            if seat.token_hash is not None:
                self._tokens.pop(seat.token_hash, None)
        if self.store is not None:
            if table.phase == WAITING:
                self.store.delete_table(table.id)
            elif table.phase == OVER:
                self.store.set_status(table.id, STORED_OVER)

    def finished_and_empty(self) -> list[Table]:
        """The finished tables nobody is at any more: closing them makes room for new ones."""
        return [t for t in self._tables.values() if t.phase == OVER and not t.clients()]

    def open_tables_from(self, address: str) -> int:
        """Tables created from `address` that are waiting or playing."""
        return sum(1 for t in self._tables.values()
                   if t.created_by == address and t.phase != OVER)

    # -- seats ----------------------------------------------------------------------------

    def find_token(self, token: str) -> tuple[Table, Seat] | None:
        found = self._tokens.get(hash_token(token))
        if found is None or found[0] not in self._tables:
            return None
        table = self._tables[found[0]]
        return table, table.seats[found[1]]

    def sit(self, table: Table, name: str, wanted: int | None,
            person: str | None = None) -> tuple[Seat, str]:
        """A person (`person`: their id, if their app proved one) takes a free seat before
        the game: the seat and its new token."""
        if table.phase != WAITING:
            raise Refusal(f"table {table.id} has started; you may watch it as a spectator")
        if wanted is not None:
            if not 0 <= wanted < table.players:
                raise Refusal(f"table {table.id} has no seat {wanted}")
            if table.seats[wanted].kind != EMPTY:
                raise Refusal(f"seat {wanted} at table {table.id} is taken")
            seat = table.seats[wanted]
        else:
            found = next((s for s in table.seats if s.kind == EMPTY), None)
            if found is None:
                raise Refusal(f"table {table.id} has no free seat; you may watch it")
            seat = found
        token = secrets.token_urlsafe(TOKEN_BYTES)
        name = table.seat_name(name)
        seat.kind, seat.name, seat.token_hash, seat.bot = HUMAN, name, hash_token(token), None
        seat.person = person
        self._tokens[seat.token_hash] = (table.id, seat.seat)
        table.record(seat.record())
        if table.host_seat is None:
            table.host_seat = seat.seat
            table.record(HostSeatSet(seat=seat.seat))
        log.info("table %s: %s took seat %d", table.id, name, seat.seat)
        return seat, token

    def vacate(self, table: Table, seat_number: int) -> None:
        """Before the game, a player who leaves frees the seat and voids its token; the
        table's host role passes to the next seated person."""
        seat = table.seats[seat_number]
        if seat.token_hash is not None:
            self._tokens.pop(seat.token_hash, None)
        seat.kind, seat.name, seat.token_hash, seat.bot = EMPTY, "", None, None
        seat.person = None
        table.record(seat.record())
        if table.host_seat == seat_number:
            table.host_seat = next((s.seat for s in table.seats if s.kind == HUMAN), None)
            table.record(HostSeatSet(seat=table.host_seat))

    def add_bot(self, table: Table, wanted: int | None) -> Seat:
        """A bot takes an empty seat before the game, or after it has started covers the seat
        of a player who is away (who keeps the seat and its token)."""
        if table.phase == WAITING:
            candidates = [s for s in table.seats if s.kind == EMPTY]
        else:
            candidates = [s for s in table.seats if s.away and not s.covered]
        if wanted is not None:
            candidates = [s for s in candidates if s.seat == wanted]
        if not candidates:
            raise Refusal("no seat for a bot: only an empty seat, or once the game has "
                          "started the seat of a player who is away, can take one")
        seat = candidates[0]
        if table.phase == WAITING:
            table.seat_bot(seat)
        else:
            table.cover(seat)
        return seat


    # -- clocks ---------------------------------------------------------------------------

    def arm_turn_timer(self, table: Table, now: float) -> bool:
        """Run the table's turn timer, and its pause before anyone may cover, while the game
        waits for an away player, and stop them otherwise; whether one has just started."""
        waiting = bool(table.waiting_for_away())
        started = False
        if not waiting:
            table.cover_pause_ends, table.anyone_covers = None, False
        elif table.cover_pause_ends is None and not table.anyone_covers:
            table.cover_pause_ends = now + COVER_PAUSE
            started = True
        if not (table.turn_timer and waiting):
            table.turn_deadline = None
        elif table.turn_deadline is None:
            table.turn_deadline = now + table.turn_timer
            started = True
        return started

    def next_turn_deadline(self) -> float | None:
        deadlines = [d for t in self._tables.values()
                     for d in (t.turn_deadline, t.cover_pause_ends) if d is not None]
        return min(deadlines, default=None)

    def run_out_cover_pauses(self, now: float) -> list[Table]:
        """The tables whose game has waited `COVER_PAUSE` for an away player: anyone seated
        there may let a bot cover them now."""
        ran_out = []
        for table in self._tables.values():
            if table.cover_pause_ends is not None and table.cover_pause_ends <= now:
                table.cover_pause_ends, table.anyone_covers = None, True
                ran_out.append(table)
        return ran_out

    def run_out_turn_timers(self, now: float) -> list[Table]:
        """Bots cover the away players at every table whose turn timer has run out: those
        tables."""
        ran_out = []
        for table in self._tables.values():
            if table.turn_deadline is not None and table.turn_deadline <= now:
                table.turn_deadline = None
                for seat in table.waiting_for_away():
                    table.cover(seat, BY_TIMER)
                ran_out.append(table)
        return ran_out

    def next_claim_deadline(self) -> float | None:
        deadlines = [t.claim_deadline for t in self._tables.values()
                     if t.claim_deadline is not None]
        return min(deadlines, default=None)

    def run_out_claim_waits(self, now: float) -> list[Table]:
        """The tables whose bots have waited long enough at a deal: they wait no longer."""
        ran_out = [t for t in self._tables.values()
                   if t.claim_deadline is not None and t.claim_deadline <= now]
        for table in ran_out:
            table.end_claims()
        return ran_out

    def next_abandon_deadline(self, after: float) -> float | None:
        """When the first table that nobody is at will have been empty for `after` seconds."""
        empty = [t.empty_since for t in self._tables.values()
                 if t.empty_since is not None and t.created_by is not None and not t.clients()]
        return min(empty) + after if empty else None

    def abandoned(self, now: float, after: float) -> list[Table]:
        """The tables a client created that nobody has been connected to for `after`
        seconds."""
        return [t for t in self._tables.values()
                if t.empty_since is not None and now - t.empty_since >= after
                and t.created_by is not None and not t.clients()]

    # -- the store ------------------------------------------------------------------------

    def resume(self, now: float) -> tuple[list[Table], list[StoreError]]:
        """Load every unfinished table from the store: the tables, and the damaged ones'
        errors (logged, naming the table) while the others load."""
        assert self.store is not None
        resumed, errors = [], []
        for table_id in self.store.tables():
            try:
                table = restore_table(table_id, self.store.records(table_id))
            except StoreError as error:
                log.error("%s", error)
                errors.append(error)
                continue
            if table.phase == OVER:
                self.store.set_status(table.id, STORED_OVER)
                continue
            table.empty_since = now
            self.add(table)
            resumed.append(table)
            log.info("resumed table %s (%s, phase %s, %d actions)", table.id, table.game_id,
                     table.phase, len(table.game.history) if table.game else 0)
        return resumed, errors


# ---------------------------------------------------------------------------------------------
# Restoring a table from its records


def restore_table(table_id: str, records: list[dict]) -> Table:
    """Rebuild a table from its stored records; StoreError if they do not replay."""
    table: Table | None = None
    for index, stored in enumerate(records):
        try:
            table = _apply_record(table, read_record(stored))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise StoreError(
                table_id, f"record {index} ({stored.get('t')!r}) does not replay: {error}"
            ) from None
    if table is None:
        raise StoreError(table_id, "it has no records")
    if table.id != table_id:
        raise StoreError(table_id, f"it describes table {table.id!r}")
    return table


def _apply_record(table: Table | None, record: Record) -> Table:
    if table is None:
        if not isinstance(record, TableMade):
            raise ValueError("the first record must describe the table")
        players, game_id = record.players, read_game_id(record.game)
        return Table(
            id=record.id, name=record.name, game_id=game_id, players=players,
            options=engine.game_class(game_id).validate_options(players, record.options),
            seats=[Seat(i) for i in range(players)], bot_level=record.bot_level,
            bot_pace=record.bot_pace, turn_timer=record.turn_timer,
            public_replays=record.public_replays, private=record.private,
            start_when_full=record.start_when_full, hints=record.hints,
        )
    match record:
        case SeatSet():
            seat = table.seats[record.seat]
            seat.kind, seat.name = record.kind, record.name
            seat.token_hash, seat.bot = record.token_hash, record.bot
            seat.covered, seat.cover_by = record.covered, record.cover_by
            seat.person = record.person
        case HostSeatSet():
            table.host_seat = record.seat
        case GameStarted():
            table.seed = record.seed
            table.game = engine.new_game(table.game_id, table.players, table.options, table.seed)
            table.games += 1
            table.hints_asked = [0] * table.players  # hints are told, not kept in the store
        case Chatted():
            table.keep_chat(ChatLine("table", record.text, record.seat, record.name, past=True))
        case Acted():
            if table.game is None:
                raise ValueError("an action before the game started")
            table.game.apply(record.seat, record.action)
            if table.game.outcome is not None:
                table.game_over()
        case TableMade():
            raise ValueError("a table is described once, in its first record")
    return table

"""Tables, seats and seat tokens: who sits where, and the rules for taking, leaving and handing
over a seat.

Everything here is synchronous and knows nothing of sockets: a seat holds an opaque `client`
(the host's connection object, or None while its player is away), and every rule either changes
the tables and journals the change, or raises `Refusal` and changes nothing. The host turns the
results into messages.

A seat belongs to whoever holds its token: 192 random bits, given once, kept here only as a
SHA-256 hash in the token index (hash -> table and seat) and in the journal.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import engine
from engine.catalogue import game_info
from netplay import journal as journals
from netplay.errors import Refusal
from netplay.protocol import MAX_NAME, Lobby, clean_text

log = logging.getLogger("gaslight.host")

WAITING, PLAYING, OVER = "waiting", "playing", "over"
HUMAN, BOT, EMPTY = "human", "bot", "empty"

MAX_TABLES: Final = 64
"""Tables one host keeps; each has a journal, so a visitor may not create them without end."""
TOKEN_BYTES: Final = 24
"""192 random bits per seat token."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bot_name(seat: int) -> str:
    return f"Bot {seat + 1}"


@dataclass
class Seat:
    seat: int
    kind: str = EMPTY
    name: str = ""
    token_hash: str | None = None
    bot: str | None = None
    client: Any = None
    """The connection of the player sitting here now; None while they are away."""

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
    seats: list[Seat]
    seed: int | None = None
    game: engine.Game | None = None
    host_seat: int | None = None
    spectators: set[Any] = field(default_factory=set)
    journal: journals.Journal | None = None
    published: dict | None = None
    """The public summary last told to the lobby and the LAN."""

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

    def clients(self) -> list[Any]:
        seated = [s.client for s in self.seats if s.client is not None]
        return seated + list(self.spectators)

    def lobby(self) -> Lobby:
        return Lobby(
            table=self.id, name=self.name, game=self.game_id, players=self.players,
            options=dict(self.options), seats=[s.public() for s in self.seats],
            phase=self.phase, host_seat=self.host_seat, spectators=len(self.spectators),
        )

    def record(self, record: dict) -> None:
        if self.journal is not None:
            self.journal.append(record)

    def seat_bot(self, seat: Seat, bot: str) -> None:
        seat.kind, seat.name, seat.token_hash, seat.bot = BOT, bot_name(seat.seat), None, bot
        self.record(seat.journal_record())

    def start_game(self, seed: int | None) -> None:
        """Bots fill the empty seats and a new game starts, with `seed` or a fresh one."""
        default = game_info(self.game_id).default_bot
        for seat in self.seats:
            if seat.kind == EMPTY:
                self.seat_bot(seat, default)
        self.seed = secrets.randbits(63) if seed is None else seed
        self.game = engine.new_game(self.game_id, self.players, self.options, self.seed)
        self.record({"t": "game", "seed": self.seed})
        log.info("table %s: game started", self.id)

    def detach(self, client: Any) -> None:
        """`client` is no longer at this table (it left, dropped or moved elsewhere)."""
        self.spectators.discard(client)
        for seat in self.seats:
            if seat.client is client:
                seat.client = None


class Tables(Mapping[str, Table]):
    """Every table at one host, by id, and the index of seat tokens."""

    def __init__(self, data_dir: Path | None, max_tables: int = MAX_TABLES) -> None:
        self.data_dir = data_dir
        self.max_tables = max_tables
        self._journal_dir: Path | None = None
        self._tables: dict[str, Table] = {}
        self._tokens: dict[str, tuple[str, int]] = {}  # token hash -> (table id, seat)

    def __getitem__(self, table_id: str) -> Table:
        return self._tables[table_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def journal_dir(self) -> Path:
        if self._journal_dir is None:
            self._journal_dir = journals.tables_dir(self.data_dir)
        return self._journal_dir

    def get_table(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal(f"no table {table_id!r} at this host")
        return table

    # -- tables ---------------------------------------------------------------------------

    def create(self, game: str, players: int, options: dict | None = None, name: str = "",
               bots: int = 0, seed: int | None = None) -> Table:
        """A new table with `bots` bots in its last seats. Raises engine.InvalidSetup or
        ValueError with a clear message for a bad setup."""
        if len(self) >= self.max_tables:
            raise ValueError(f"this host already has {len(self)} tables; "
                             f"the limit is {self.max_tables}")
        cls = engine.game_class(game)
        resolved = cls.validate_options(players, options or {})
        if type(bots) is not int or not 0 <= bots <= players:
            raise ValueError(f"bots must be between 0 and {players}, not {bots!r}")
        table_id = secrets.token_hex(4)
        while table_id in self._tables:
            table_id = secrets.token_hex(4)
        name = clean_text(name)[:MAX_NAME] or f"{cls.title} table"
        table = Table(id=table_id, name=name, game_id=game, players=players, options=resolved,
                      seats=[Seat(i) for i in range(players)], seed=seed)
        table.journal = journals.Journal.create(self.journal_dir(), table_id)
        table.record({"t": "table", "id": table_id, "name": name, "game": game,
                      "players": players, "options": resolved})
        self._tables[table_id] = table
        default = game_info(game).default_bot
        for seat in table.seats[players - bots:]:
            table.seat_bot(seat, default)
        log.info("created table %s (%s, %d players, %d bots)", table_id, game, players, bots)
        return table

    def add(self, table: Table) -> None:
        """Take in a table restored from its journal, with its seats' tokens."""
        self._tables[table.id] = table
        for seat in table.seats:
            if seat.token_hash is not None:
                self._tokens[seat.token_hash] = (table.id, seat.seat)

    def close(self, table: Table) -> None:
        del self._tables[table.id]
        for seat in table.seats:
            if seat.token_hash is not None:
                self._tokens.pop(seat.token_hash, None)
        if table.journal is not None:
            table.journal.close()
            journals.archive(table.journal.path)

    def finished_and_empty(self) -> list[Table]:
        """The finished tables nobody is at any more: closing them makes room for new ones."""
        return [t for t in self._tables.values() if t.phase == OVER and not t.clients()]

    # -- seats ----------------------------------------------------------------------------

    def find_token(self, token: str) -> tuple[Table, Seat] | None:
        found = self._tokens.get(hash_token(token))
        if found is None or found[0] not in self._tables:
            return None
        table = self._tables[found[0]]
        return table, table.seats[found[1]]

    def sit(self, table: Table, name: str, wanted: int | None) -> tuple[Seat, str]:
        """A person takes a free seat before the game: the seat and its new token."""
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
        seat.kind, seat.name, seat.token_hash, seat.bot = HUMAN, name, hash_token(token), None
        self._tokens[seat.token_hash] = (table.id, seat.seat)
        table.record(seat.journal_record())
        if table.host_seat is None:
            table.host_seat = seat.seat
            table.record({"t": "host_seat", "seat": seat.seat})
        log.info("table %s: %s took seat %d", table.id, name, seat.seat)
        return seat, token

    def vacate(self, table: Table, seat_number: int) -> None:
        """Before the game, a player who leaves frees the seat and voids its token; the
        table's host role passes to the next seated person."""
        seat = table.seats[seat_number]
        if seat.token_hash is not None:
            self._tokens.pop(seat.token_hash, None)
        seat.kind, seat.name, seat.token_hash, seat.bot = EMPTY, "", None, None
        table.record(seat.journal_record())
        if table.host_seat == seat_number:
            table.host_seat = next((s.seat for s in table.seats if s.kind == HUMAN), None)
            table.record({"t": "host_seat", "seat": table.host_seat})

    def add_bot(self, table: Table, wanted: int | None) -> Seat:
        """A bot takes an empty seat before the game, or mid-game the seat of a player who is
        away."""
        if table.phase == WAITING:
            candidates = [s for s in table.seats if s.kind == EMPTY]
        else:
            candidates = [s for s in table.seats if s.kind == HUMAN and s.client is None]
        if wanted is not None:
            candidates = [s for s in candidates if s.seat == wanted]
        if not candidates:
            raise Refusal("no seat for a bot: only an empty seat, or mid-game the seat of a "
                          "player who is away, can take one")
        seat = candidates[0]
        if seat.token_hash is not None:
            self._tokens.pop(seat.token_hash, None)
        table.seat_bot(seat, game_info(table.game_id).default_bot)
        return seat


# ---------------------------------------------------------------------------------------------
# Restoring a table from its journal


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
            seats=[Seat(i) for i in range(players)],
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

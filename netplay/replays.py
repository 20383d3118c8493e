"""Replays: a finished game seen again, step by step, through any seat's eyes.

A finished game is its record (`GameRecord`): the game's id, options and seed, who played each
seat, every cover, every move with its time and who made it, and the table chat with times.
The host reads it back from its store (`table_games`), a replay file holds one
(`netplay.replay_file`). A `Replay` is that record played through the engine: the view of any
eyes after any step is the engine's own view of the rebuilt game, so a replay shows exactly what
a seat saw then, and nothing more.

`Replays` answers the three replay requests of one host: which games a connection may watch,
one step of one game, and a game's record in parts. It never serves a game that has not ended,
to anyone, and it answers every refusal alike, so that a stranger learns nothing, not even
whether a game exists.
"""

from __future__ import annotations

import collections
import logging
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import msgpack

import engine
from netplay.connection import EVENT_TAIL
from netplay.errors import Refusal
from netplay.frames import SENT_FRAME, encode
from netplay.protocol import (
    FetchRecord,
    ListReplays,
    RecordPart,
    ReplayList,
    ReplayStep,
    ShowReplay,
)
from netplay.ratelimit import RateLimit
from netplay.store import Store, StoreError
from netplay.table import BOT, BY_HOST, BY_TIMER, EMPTY, HUMAN, PERSON, Table, game_ref
from netplay.tables import Tables, hash_token

log = logging.getLogger("gaslight.host")

EYES_SPECTATOR: Final = "spectator"
EYES_ALL: Final = "all"
"""Everything, as the referee sees it: every hand and role from the deal on."""
LISTED: Final = 50
"""Games in one `replays` answer, newest first."""
CHAT_SHOWN: Final = 20
"""Chat lines a replay step carries: the latest said by then."""
CACHED: Final = 16
"""Rebuilt games a host keeps at hand, the most recently asked for."""
LISTING_BURST, LISTING_PER_SECOND = 5, 1.0
"""A `replays` request reads the whole store: at most this many, per connection."""


class RecordError(ValueError):
    """A record that does not make a finished game: damaged, hand-edited, or refused by the
    engine. The message says what is wrong, for a person."""


# ---------------------------------------------------------------------------------------------
# The record


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    kind: str
    """`human` or `bot` (a person's seat keeps `human` while a bot covers it)."""


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    action: dict
    time: float | None
    by: str
    """Who made it: `person`, `bot`, or a covering bot set on by the table's `host` or its
    turn `timer`."""


@dataclass(frozen=True, slots=True)
class Cover:
    seat: int
    start: int
    """The step the cover began at (0: before the first move)."""
    end: int
    """The step it ended at (the game's last step if it lasted to the end)."""
    by: str


@dataclass(frozen=True, slots=True)
class Said:
    step: int
    """Said after this many moves."""
    seat: int | None
    name: str
    text: str
    time: float | None


@dataclass
class GameRecord:
    game: str
    table: str
    name: str
    kind: str
    players: int
    options: dict
    seed: int
    bot_level: str
    turn_timer: int
    started: float | None
    seats: list[Player]
    moves: list[Move] = field(default_factory=list)
    covers: list[Cover] = field(default_factory=list)
    chat: list[Said] = field(default_factory=list)
    public: bool = False
    token_hashes: tuple[str | None, ...] = ()
    """Each seat's token hash while this game ran: who may watch it. Never sent or saved."""

    def about(self) -> dict[str, Any]:
        """Who played, the covers, the options, and which steps a turn timer forced."""
        return {
            "table": self.table, "name": self.name, "kind": self.kind,
            "players": self.players, "options": dict(self.options),
            "bot_level": self.bot_level, "turn_timer": self.turn_timer,
            "started": self.started,
            "seats": [{"seat": i, "name": p.name, "kind": p.kind}
                      for i, p in enumerate(self.seats)],
            "covers": [{"seat": c.seat, "from": c.start, "to": c.end, "by": c.by}
                       for c in self.covers],
            "forced": [step for step, move in enumerate(self.moves, 1) if move.by == BY_TIMER],
        }

    # -- entries: the record as the `record` message and a replay file carry it ----------

    def entries(self) -> list[dict]:
        head = {"e": "game", "game": self.game, "table": self.table, "name": self.name,
                "kind": self.kind, "players": self.players, "options": dict(self.options),
                "seed": self.seed, "bot_level": self.bot_level, "turn_timer": self.turn_timer,
                "started": self.started}
        return ([head]
                + [{"e": "seat", "seat": i, "name": p.name, "kind": p.kind}
                   for i, p in enumerate(self.seats)]
                + [{"e": "cover", "seat": c.seat, "from": c.start, "to": c.end, "by": c.by}
                   for c in self.covers]
                + [{"e": "act", "seat": m.seat, "action": dict(m.action), "time": m.time,
                    "by": m.by} for m in self.moves]
                + [{"e": "chat", "step": s.step, "seat": s.seat, "name": s.name,
                    "text": s.text, "time": s.time} for s in self.chat])

    @classmethod
    def from_entries(cls, entries: Any) -> "GameRecord":
        """The record that `entries` make; RecordError, naming the entry, for anything that is
        not exactly what `entries()` writes."""
        if type(entries) is not list or not entries:
            raise RecordError("it holds no entries")
        head = _entry(entries[0], 0, "game", _GAME_FIELDS)
        record = cls(game=head["game"], table=head["table"], name=head["name"],
                     kind=head["kind"], players=head["players"], options=head["options"],
                     seed=head["seed"], bot_level=head["bot_level"],
                     turn_timer=head["turn_timer"], started=head["started"], seats=[])
        for index, raw in enumerate(entries[1:], 1):
            kind = raw.get("e") if type(raw) is dict else None
            fields = _ENTRY_FIELDS.get(kind) if type(kind) is str else None
            if fields is None or kind == "game":
                raise RecordError(f"entry {index} is not a seat, cover, act or chat entry")
            entry = _entry(raw, index, kind, fields)
            seat = entry.get("seat")
            if seat is not None and not 0 <= seat < record.players:
                raise RecordError(f"entry {index} names seat {seat} of {record.players}")
            match kind:
                case "seat":
                    if seat != len(record.seats) or entry["kind"] not in (HUMAN, BOT):
                        raise RecordError(f"entry {index}: seats must come in order, each a "
                                          "human or a bot")
                    record.seats.append(Player(entry["name"], entry["kind"]))
                case "cover":
                    record.covers.append(Cover(seat, entry["from"], entry["to"], entry["by"]))
                case "act":
                    record.moves.append(Move(seat, entry["action"], entry["time"], entry["by"]))
                case "chat":
                    record.chat.append(Said(entry["step"], seat, entry["name"], entry["text"],
                                            entry["time"]))
        if len(record.seats) != record.players:
            raise RecordError(f"it names {len(record.seats)} seats for {record.players} players")
        return record


_NUMBER = (int, float)
_GAME_FIELDS: Final = {"game": (str,), "table": (str,), "name": (str,), "kind": (str,),
                       "players": (int,), "options": (dict,), "seed": (int,),
                       "bot_level": (str,), "turn_timer": (int,),
                       "started": (*_NUMBER, type(None))}
_ENTRY_FIELDS: Final = {
    "game": _GAME_FIELDS,
    "seat": {"seat": (int,), "name": (str,), "kind": (str,)},
    "cover": {"seat": (int,), "from": (int,), "to": (int,), "by": (str,)},
    "act": {"seat": (int,), "action": (dict,), "time": (*_NUMBER, type(None)), "by": (str,)},
    "chat": {"step": (int,), "seat": (int, type(None)), "name": (str,), "text": (str,),
             "time": (*_NUMBER, type(None))},
}


def _entry(raw: Any, index: int, kind: str, fields: dict[str, tuple]) -> dict:
    if type(raw) is not dict or raw.get("e") != kind:
        raise RecordError(f"entry {index} should be a {kind!r} entry")
    if set(raw) != {"e", *fields}:
        raise RecordError(f"entry {index} ({kind}) has the wrong fields")
    for name, types in fields.items():
        if type(raw[name]) not in types:
            raise RecordError(f"entry {index} ({kind}): {name!r} has the wrong type")
    return raw


def table_games(records: list[dict]) -> list[GameRecord]:
    """Every game of one table, from its store records (as `netplay.tables.restore_table`
    reads them), finished or not. KeyError, TypeError, ValueError or IndexError for records
    that do not read."""
    head = records[0]
    if head["t"] != "table":
        raise ValueError("the first record must describe the table")
    players = head["players"]
    seats = [{"kind": EMPTY, "name": "", "token_hash": None, "covered": False,
              "cover_by": None} for _ in range(players)]
    games: list[GameRecord] = []
    current: GameRecord | None = None
    covering: dict[int, tuple[int, str]] = {}  # seat -> (start step, by) of the open covers

    def close_covers(seat_numbers: Iterable[int]) -> None:
        assert current is not None
        for number in list(seat_numbers):
            start, by = covering.pop(number)
            current.covers.append(Cover(number, start, len(current.moves), by))

    for record in records[1:]:
        match record["t"]:
            case "seat":
                seat = seats[record["seat"]]
                was_covered = seat["covered"]
                seat.update(kind=record["kind"], name=record["name"],
                            token_hash=record["token_hash"], covered=record["covered"],
                            cover_by=record.get("cover_by"))
                if current is not None:
                    if seat["covered"] and not was_covered:
                        covering[record["seat"]] = (len(current.moves),
                                                    seat["cover_by"] or BY_HOST)
                    elif was_covered and not seat["covered"] and record["seat"] in covering:
                        close_covers([record["seat"]])
            case "game":
                if current is not None:
                    close_covers(covering)
                number = len(games) + 1
                named = record.get("seats") or [{"name": s["name"], "kind": s["kind"]}
                                                 for s in seats]
                current = GameRecord(
                    game=game_ref(head["id"], number), table=head["id"], name=head["name"],
                    kind=head["game"], players=players, options=dict(head["options"]),
                    seed=record["seed"], bot_level=head["bot_level"],
                    turn_timer=head["turn_timer"], started=record.get("time"),
                    seats=[Player(s["name"], s["kind"]) for s in named],
                    public=bool(head.get("public_replays")),
                    token_hashes=tuple(s["token_hash"] for s in seats))
                games.append(current)
                covering = {i: (0, s["cover_by"] or BY_HOST)
                            for i, s in enumerate(seats) if s["covered"]}
            case "act":
                if current is None:
                    raise ValueError("an action before the game started")
                current.moves.append(Move(record["seat"], record["action"], record.get("time"),
                                          record.get("by", PERSON)))
            case "chat":
                if current is not None:
                    current.chat.append(Said(len(current.moves), record["seat"], record["name"],
                                             record["text"], record.get("time")))
    if current is not None:
        close_covers(covering)
    return games


# ---------------------------------------------------------------------------------------------
# The game rebuilt


def round_of(view: dict) -> int:
    """Which round a view is in: Time Bomb's round, Holmes' day, or for Machinations the
    heists played so far."""
    for key in ("round", "day"):
        if type(view.get(key)) is int:
            return view[key]
    return len(view.get("heists") or ())


class Replay:
    """A record played through the engine once, to check it and to find its rounds; the game
    after any step is rebuilt from the seed when asked for."""

    def __init__(self, record: GameRecord):
        self.record = record
        try:
            game = engine.new_game(record.kind, record.players, record.options, record.seed)
        except (engine.InvalidSetup, KeyError, ValueError, TypeError) as error:
            raise RecordError(f"the engine cannot set up this game: {error}") from None
        self.event_counts = [len(game.events)]
        """How long the game's log was after each step."""
        self.marks = [0]
        """The steps where each round begins."""
        last_round = round_of(game.view(engine.SPECTATOR, events=False))
        for step, move in enumerate(record.moves, 1):
            if game.outcome is not None:
                raise RecordError(f"move {step} comes after the game ended")
            try:
                game.apply(move.seat, dict(move.action))
            except engine.IllegalAction as error:
                raise RecordError(f"the engine refuses move {step}: {error}") from None
            self.event_counts.append(len(game.events))
            now = round_of(game.view(engine.SPECTATOR, events=False))
            if now != last_round:
                self.marks.append(step)
                last_round = now
        self.outcome = game.outcome

    @property
    def steps(self) -> int:
        return len(self.record.moves)

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def ended(self) -> float | None:
        moves = self.record.moves
        return moves[-1].time if moves and moves[-1].time is not None else self.record.started

    def game_at(self, step: int) -> engine.Game:
        record = self.record
        return engine.replay(record.kind, record.players, record.options, record.seed,
                             ((m.seat, m.action) for m in record.moves[:step]))

    def listing(self) -> dict[str, Any]:
        record = self.record
        return {"game": record.game, "table": record.table, "name": record.name,
                "kind": record.kind, "players": record.players,
                "seats": [{"name": p.name, "kind": p.kind} for p in record.seats],
                "ended": self.ended, "result": self.outcome.text if self.outcome else ""}


def viewer_of(eyes: Any, players: int) -> int:
    if eyes == EYES_SPECTATOR:
        return engine.SPECTATOR
    if eyes == EYES_ALL:
        return engine.REFEREE
    if type(eyes) is int and 0 <= eyes < players:
        return eyes
    raise Refusal(f"eyes are a seat from 0 to {players - 1}, {EYES_SPECTATOR!r} or "
                  f"{EYES_ALL!r}")


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a connection is in a replay: what it has been told, for the events' rule."""

    game: str
    eyes: int | str
    step: int
    count: int
    """How many events of these eyes it has been told up to `step`."""


def step_frame(replay: Replay, eyes: int | str, step: int,
               cursor: Cursor | None) -> tuple[bytes, Cursor]:
    """The `replay` frame of `replay` after `step` moves (clamped) through `eyes`, for a
    connection at `cursor`: the next step appends its new events, any jump gets a tail. Cut to
    fit `SENT_FRAME`, events first, then the oldest chat."""
    record = replay.record
    viewer = viewer_of(eyes, record.players)
    step = max(0, min(step, replay.steps))
    game = replay.game_at(step)
    same = cursor is not None and cursor.game == record.game and cursor.eyes == eyes
    if same and cursor.step + 1 == step:
        events = game.events_since(viewer, replay.event_counts[step - 1])
        count = cursor.count + len(events)
    else:
        events = game.visible_events(viewer)
        count = len(events)
        events = events[-EVENT_TAIL:]
    chat = [{"seat": s.seat, "name": s.name, "text": s.text, "time": s.time}
            for s in record.chat if s.step <= step][-CHAT_SHOWN:]
    moved = None
    if step:
        move = record.moves[step - 1]
        moved = {"seat": move.seat, "time": move.time, "by": move.by}
    about = None if same and step else record.about()
    view = game.view(viewer, events=False)
    while True:
        frame = encode(ReplayStep(game=record.game, step=step, steps=replay.steps, eyes=eyes,
                                  view=view, events=events, first=count - len(events),
                                  chat=chat, marks=replay.marks, moved=moved, about=about))
        if len(frame) <= SENT_FRAME or not (events or chat):
            return frame, Cursor(record.game, eyes, step, count)
        if events:
            events = events[len(events) // 2 + 1:]
        else:
            chat = chat[len(chat) // 2 + 1:]


def record_parts(record: GameRecord) -> list[list[dict]]:
    """The record's entries cut into parts that each fit a `record` frame."""
    room = SENT_FRAME - 200  # the frame's own fields
    parts: list[list[dict]] = [[]]
    used = 0
    for entry in record.entries():
        size = len(msgpack.packb(entry, use_bin_type=True))
        if parts[-1] and used + size > room:
            parts.append([])
            used = 0
        parts[-1].append(entry)
        used += size
    return parts


# ---------------------------------------------------------------------------------------------
# The host's side


class Replays:
    """The replay requests of one host. `only` makes it a replay host for one game (a replay
    file): that game, to anyone who connects, and nothing else."""

    def __init__(self, store: Store | None, tables: Tables, only: GameRecord | None = None):
        self.store = store
        self.tables = tables
        self.only = None if only is None else Replay(only)
        if self.only is not None and not self.only.finished:
            raise RecordError("its game does not end: the record stops before the end")
        self._cache: collections.OrderedDict[str, tuple[int, Replay]] = collections.OrderedDict()
        self._tables_read: collections.OrderedDict[str, tuple[int, list[GameRecord]]] = (
            collections.OrderedDict())
        self._cursors: weakref.WeakKeyDictionary[Any, Cursor] = weakref.WeakKeyDictionary()
        self._saw_end: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self._listing_limits: weakref.WeakKeyDictionary[Any, RateLimit] = (
            weakref.WeakKeyDictionary())

    def saw_end(self, table: Table) -> None:
        """The spectators watching `table` as its game ends may watch that game again."""
        game = game_ref(table.id, table.games)
        for client in table.spectators:
            self._saw_end.setdefault(client, set()).add(game)

    # -- the requests ---------------------------------------------------------------------

    def answer_listing(self, client: Any, request: ListReplays) -> ReplayList:
        if self.only is not None:
            return ReplayList([self.only.listing()])
        limit = self._listing_limits.setdefault(
            client, RateLimit(LISTING_BURST, LISTING_PER_SECOND))
        if not limit.take():
            raise Refusal(f"too many replay lists: at most {LISTING_PER_SECOND:g} a second")
        hashes = {hash_token(token) for token in request.tokens}
        mine = self._own_seat_hash(client)
        if mine is not None:
            hashes.add(mine)
        candidates = set()
        if self.store is not None:
            needles = [msgpack.packb(h) for h in hashes]
            needles.append(msgpack.packb("public_replays") + msgpack.packb(True))
            candidates = self.store.tables_holding(needles)
        watched = self._saw_end.get(client, set())
        candidates |= {game.rsplit("-", 1)[0] for game in watched}
        found = []
        for table_id in candidates:
            for record in self._table_games(table_id):
                if not (record.public or record.game in watched
                        or hashes.intersection(record.token_hashes)):
                    continue
                replay = self._replay(record)
                if replay is not None and replay.finished:
                    found.append(replay.listing())
        found.sort(key=lambda g: g["ended"] or 0, reverse=True)
        return ReplayList(found[:LISTED])

    def answer_step(self, client: Any, request: ShowReplay) -> bytes:
        replay = self._finished(client, request.game, request.token)
        frame, self._cursors[client] = step_frame(replay, request.eyes, request.step,
                                                  self._cursors.get(client))
        return frame

    def answer_record(self, client: Any, request: FetchRecord) -> RecordPart:
        replay = self._finished(client, request.game, request.token)
        parts = record_parts(replay.record)
        if not 0 <= request.part < len(parts):
            raise Refusal(f"the record of {request.game} has parts 0 to {len(parts) - 1}")
        return RecordPart(replay.record.game, request.part, len(parts), parts[request.part])

    def finished_records(self, table_id: str) -> list[GameRecord]:
        """The finished games of one table, for this host's own use (an app keeping the games
        it played against bots): no connection asks, so nobody's rights are checked."""
        return [record for record in self._table_games(table_id)
                if (replay := self._replay(record)) is not None and replay.finished]

    # -- who may, and the games ------------------------------------------------------------

    def _finished(self, client: Any, game: str, token: str | None) -> Replay:
        """The finished game `game`, if this client may watch it; the same refusal for
        anything else, which does not say whether the game exists."""
        refusal = Refusal(f"there is no finished game {game!r} here that you may watch")
        if self.only is not None:
            if game != self.only.record.game:
                raise refusal
            return self.only
        table_id, _, number = game.rpartition("-")
        record = next((r for r in self._table_games(table_id) if r.game == game), None)
        if record is None or not self._may_watch(client, record, token):
            raise refusal
        replay = self._replay(record)
        if replay is None or not replay.finished:
            raise refusal
        return replay

    def _may_watch(self, client: Any, record: GameRecord, token: str | None) -> bool:
        if record.public or record.game in self._saw_end.get(client, ()):
            return True
        hashes = {self._own_seat_hash(client)}
        if token is not None:
            hashes.add(hash_token(token))
        hashes.discard(None)
        return bool(hashes.intersection(record.token_hashes))

    def _own_seat_hash(self, client: Any) -> str | None:
        """The token hash of the seat this connection holds now, if any."""
        table, seat = getattr(client, "table", None), getattr(client, "seat", None)
        if table is None or seat is None:
            return None
        return table.seats[seat].token_hash

    def _table_games(self, table_id: str) -> list[GameRecord]:
        """A table's games as its durable records tell them, read again only when they grew."""
        if self.store is None or not table_id:
            return []
        count = self.store.record_count(table_id)
        cached = self._tables_read.get(table_id)
        if cached is not None and cached[0] == count:
            self._tables_read.move_to_end(table_id)
            return cached[1]
        try:
            records = self.store.records(table_id)
            games = table_games(records) if records else []
        except (KeyError, TypeError, ValueError, IndexError, AttributeError,
                StoreError) as error:
            log.error("table %s: its record does not read as games: %s", table_id, error)
            games = []
        self._tables_read[table_id] = (count, games)
        while len(self._tables_read) > CACHED:
            self._tables_read.popitem(last=False)
        return games

    def _replay(self, record: GameRecord) -> Replay | None:
        """The rebuilt game, cached while the record is the same (a finished game's record
        still grows with the chat said after its end)."""
        size = len(record.moves) + len(record.chat)
        cached = self._cache.get(record.game)
        if cached is not None and cached[0] == size:
            self._cache.move_to_end(record.game)
            cached[1].record = record
            return cached[1]
        try:
            replay = Replay(record)
        except RecordError as error:
            log.error("game %s does not replay: %s", record.game, error)
            return None
        self._cache[record.game] = (size, replay)
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return replay

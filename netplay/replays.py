"""Replays: a finished game seen again, step by step, through any seat's eyes.

A `Replay` is a game's record (`netplay.game_record`) played through the engine: the view of
any eyes after any step is the engine's own view of the rebuilt game, so a replay shows exactly
what a seat saw then, and nothing more.

`Replays` answers the three replay requests of one host: which games a connection may watch,
one step of one game, and a game's record in parts. It never serves a game that has not ended,
to anyone, and it answers every refusal alike, so that a stranger learns nothing, not even
whether a game exists.
"""

from __future__ import annotations

import collections
import logging
import weakref
from dataclasses import dataclass
from typing import Any, Final

import msgpack

import engine
from netplay.connection import EVENT_TAIL
from netplay.errors import Refusal
from netplay.frames import SENT_FRAME, encode
from netplay.game_record import GameRecord, RecordError, table_games
from netplay.protocol import (
    EYES_ALL,
    EYES_SPECTATOR,
    FetchRecord,
    ListReplays,
    RecordPart,
    ReplayList,
    ReplayStep,
    ShowReplay,
)
from netplay.ratelimit import RateLimit
from netplay.store import Store, StoreError
from netplay.table import Table, game_ref
from netplay.tables import Tables, hash_token

log = logging.getLogger("gaslight.host")

LISTED: Final = 50
"""Games in one `replays` answer, newest first."""
CHAT_SHOWN: Final = 20
"""Chat lines a replay step carries: the latest said by then."""
CACHED: Final = 16
"""Rebuilt games a host keeps at hand, the most recently asked for."""
LISTING_BURST, LISTING_PER_SECOND = 5, 1.0
"""A `replays` request reads the whole store: at most this many, per connection."""


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


def seat_held(record: GameRecord, hashes: set[str]) -> int | None:
    """The seat of `record` that one of these token hashes held, if any: the asker's own."""
    return next((seat for seat, held in enumerate(record.token_hashes) if held in hashes), None)


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
    """Where a connection is in a replay: the step it was last sent, and the events of these
    eyes it holds, from `held_from` to just before `held_to` (all of them up to that step)."""

    game: str
    eyes: int | str
    step: int
    held_from: int
    held_to: int

    def holds(self, first: int) -> bool:
        """Whether a client at this cursor keeps its events before `first` (see "Replays")."""
        return self.held_from <= first <= self.held_to


def step_frame(replay: Replay, eyes: int | str, step: int,
               cursor: Cursor | None) -> tuple[bytes, Cursor]:
    """The `replay` frame of `replay` after `step` moves (clamped) through `eyes`, for a
    connection at `cursor`: the next step appends its new events, a step back within what the
    client holds only tells it where its events now end, anything else gets a tail. Cut to fit
    `SENT_FRAME`, events first, then the oldest chat."""
    record = replay.record
    viewer = viewer_of(eyes, record.players)
    step = max(0, min(step, replay.steps))
    game = replay.game_at(step)
    same = cursor is not None and cursor.game == record.game and cursor.eyes == eyes
    if same and cursor.step + 1 == step:
        first = cursor.held_to
        events = game.events_since(viewer, replay.event_counts[step - 1])
    else:
        visible = game.visible_events(viewer)
        # Back within what the client holds: no events, only where its list now ends. Forward
        # by a jump: the new events, or a tail when there are more than a tail's worth.
        first = min(len(visible), cursor.held_to) if same else 0
        if not (same and cursor.held_from <= len(visible)) or len(visible) - first > EVENT_TAIL:
            first = max(0, len(visible) - EVENT_TAIL)
        events = visible[first:]
    chat = [{"seat": s.seat, "name": s.name, "text": s.text, "time": s.time}
            for s in record.chat if s.step <= step][-CHAT_SHOWN:]
    moved = None
    if step:
        move = record.moves[step - 1]
        moved = {"seat": move.seat, "time": move.time, "by": move.by}
    about = None if same and step else record.about()
    view = game.view(viewer, events=False)
    held_to = first + len(events)
    while True:
        frame = encode(ReplayStep(game=record.game, step=step, steps=replay.steps, eyes=eyes,
                                  view=view, events=events, first=first,
                                  chat=chat, marks=replay.marks, moved=moved, about=about))
        if len(frame) <= SENT_FRAME or not (events or chat):
            held_from = cursor.held_from if same and cursor.holds(first) else first
            return frame, Cursor(record.game, eyes, step, held_from, held_to)
        if events:
            dropped = len(events) // 2 + 1
            events, first = events[dropped:], first + dropped
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
                    found.append({**replay.listing(), "seat": seat_held(record, hashes)})
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

"""A finished game's record: what a replay shows and a replay file keeps.

A `GameRecord` is the game's id, options and seed, who played each seat, every cover, every
move with its time and who made it, and the table chat with times. The host reads it back from
its store's records (`table_games`); a replay file and the `record` message carry it as a list
of entries (`GameRecord.entries`, `GameRecord.from_entries`), checked whole when read. Playing
a record through the engine is `netplay.replays`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from engine.catalogue import read_game_id
from netplay.journal import (
    BY_HOST,
    BY_TIMER,
    Acted,
    Chatted,
    GameStarted,
    SeatSet,
    TableMade,
    read_record,
)
from netplay.table import BOT, EMPTY, HUMAN, game_ref


class RecordError(ValueError):
    """A record that does not make a finished game: damaged, hand-edited, or refused by the
    engine. The message says what is wrong, for a person."""


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    kind: str
    """`human` or `bot` (a person's seat keeps `human` while a bot covers it)."""
    person: str | None = None
    """The id of the person who played it (`netplay.person`); None for a bot, and for a
    person whose app did not say (an older record)."""


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
                + [{"e": "seat", "seat": i, "name": p.name, "kind": p.kind, "person": p.person}
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
                     kind=read_game_id(head["kind"]), players=head["players"],
                     options=head["options"],
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
                    record.seats.append(Player(entry["name"], entry["kind"],
                                               entry.get("person")))
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
    "seat": {"seat": (int,), "name": (str,), "kind": (str,), "person": (str, type(None))},
    "cover": {"seat": (int,), "from": (int,), "to": (int,), "by": (str,)},
    "act": {"seat": (int,), "action": (dict,), "time": (*_NUMBER, type(None)), "by": (str,)},
    "chat": {"step": (int,), "seat": (int, type(None)), "name": (str,), "text": (str,),
             "time": (*_NUMBER, type(None))},
}
_OPTIONAL_FIELDS: Final = {"person"}
"""Fields a record of an earlier version left out: a seat's person (replay files of version 1,
protocol 4's `record`)."""


def _entry(raw: Any, index: int, kind: str, fields: dict[str, tuple]) -> dict:
    if type(raw) is not dict or raw.get("e") != kind:
        raise RecordError(f"entry {index} should be a {kind!r} entry")
    if not {"e", *fields} - _OPTIONAL_FIELDS <= set(raw) <= {"e", *fields}:
        raise RecordError(f"entry {index} ({kind}) has the wrong fields")
    for name, types in fields.items():
        if name in raw and type(raw[name]) not in types:
            raise RecordError(f"entry {index} ({kind}): {name!r} has the wrong type")
    return raw


def table_games(records: list[dict]) -> list[GameRecord]:
    """Every game of one table, from its stored records (as `netplay.tables.restore_table`
    reads them), finished or not. KeyError, TypeError, ValueError or IndexError for records
    that do not read."""
    head, *changes = map(read_record, records)
    if not isinstance(head, TableMade):
        raise ValueError("the first record must describe the table")
    seats = [SeatSet(seat=i, kind=EMPTY, name="", token_hash=None, bot=None, covered=False)
             for i in range(head.players)]
    games: list[GameRecord] = []
    current: GameRecord | None = None
    covering: dict[int, tuple[int, str]] = {}  # seat -> (start step, by) of the open covers

    def close_covers(seat_numbers: Iterable[int]) -> None:
        assert current is not None
        for number in list(seat_numbers):
            start, by = covering.pop(number)
            current.covers.append(Cover(number, start, len(current.moves), by))

    for record in changes:
        match record:
            case SeatSet(seat=seat):
                was_covered = seats[seat].covered
                seats[seat] = record
                if current is not None:
                    if record.covered and not was_covered:
                        covering[seat] = (len(current.moves), record.cover_by or BY_HOST)
                    elif was_covered and not record.covered and seat in covering:
                        close_covers([seat])
            case GameStarted():
                if current is not None:
                    close_covers(covering)
                number = len(games) + 1
                named = record.seats or [{"name": s.name, "kind": s.kind} for s in seats]
                current = GameRecord(
                    game=game_ref(head.id, number), table=head.id, name=head.name,
                    kind=read_game_id(head.game), players=head.players,
                    options=dict(head.options),
                    seed=record.seed, bot_level=head.bot_level,
                    turn_timer=head.turn_timer, started=record.time,
                    seats=[Player(s["name"], s["kind"], s.get("person", seats[i].person))
                           for i, s in enumerate(named)],
                    public=bool(head.public_replays),
                    token_hashes=tuple(s.token_hash for s in seats))
                games.append(current)
                covering = {s.seat: (0, s.cover_by or BY_HOST) for s in seats if s.covered}
            case Acted():
                if current is None:
                    raise ValueError("an action before the game started")
                current.moves.append(Move(record.seat, record.action, record.time, record.by))
            case Chatted():
                if current is not None:
                    current.chat.append(Said(len(current.moves), record.seat, record.name,
                                             record.text, record.time))
    if current is not None:
        close_covers(covering)
    return games

"""The store's journal: the records of a table's changes, typed like the wire's messages.

A table writes one record for each change it makes to itself (`netplay.table`,
`netplay.tables`), and the store keeps each as a msgpack map with its tag `"t"`. Each record is
a small frozen dataclass with its tag; `read_record` turns a stored map back into its record,
with the defaults for the fields an older store did not write, and both readers use it: the
tables brought back by `--resume` (`netplay.tables.restore_table`) and the finished games'
records (`netplay.game_record.table_games`). The maps written are the same, key for key, as
before the records were typed, so a store of any version reads.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final, get_args

from netplay.maps import record_from_map

DEFAULT_PACE: Final = "normal"
"""A table's bots' pace (a key of `netplay.table.BOT_PACES`) unless it says another: a store
from before paces says none."""
BY_HOST, BY_TIMER = "host", "timer"
"""Who set a bot to cover an away player's seat: the table's host, or its turn timer."""
PERSON, BOT_MOVE = "person", "bot"
"""Who made a move, besides a covering bot (named by its cover's `BY_HOST` or `BY_TIMER`); a
store from before movers were kept says none, and its moves were people's."""


class JournalRecord:
    """A record of a table's change; `to_dict` gives the map the store keeps, tag first."""

    __slots__ = ()
    TAG: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.TAG, **{spec.name: getattr(self, spec.name) for spec in fields(self)}}


# Keyword-only, so that each record's fields keep the order the store has always written them in,
# those with a default for older stores among them.
_record = dataclass(frozen=True, slots=True, kw_only=True)


@_record
class TableMade(JournalRecord):
    """A table's first record: its settings."""

    TAG = "table"
    id: str
    name: str
    game: str
    players: int
    options: dict
    bot_level: str
    bot_pace: str = DEFAULT_PACE
    turn_timer: int
    public_replays: bool = False
    private: bool = False
    start_when_full: bool = False
    hints: bool = False
    """Whether its people may ask for hints; False in older stores."""


@_record
class SeatSet(JournalRecord):
    """A seat as it is now: who holds it, and whether a bot covers it."""

    TAG = "seat"
    seat: int
    kind: str
    name: str
    token_hash: str | None
    bot: str | None
    covered: bool
    cover_by: str | None = None
    person: str | None = None
    """The id of the person who took the seat (`netplay.person`); None for a bot, a person
    whose app did not say, and in older stores."""


@_record
class HostSeatSet(JournalRecord):
    """The seat of the person who hosts the table now (None: nobody)."""

    TAG = "host_seat"
    seat: int | None


@_record
class GameStarted(JournalRecord):
    TAG = "game"
    seed: int
    time: float | None = None
    seats: list[dict] | None = None
    """Each seat's name, kind and person as the game began; None in older stores, whose seat
    records tell them (and older ones still leave the person out)."""


@_record
class Acted(JournalRecord):
    TAG = "act"
    seat: int
    action: dict
    time: float | None = None
    by: str = PERSON


@_record
class Chatted(JournalRecord):
    """A line of the table's chat (spectators' asides are not kept)."""

    TAG = "chat"
    seat: int | None
    name: str
    text: str
    time: float | None = None


Record = TableMade | SeatSet | HostSeatSet | GameStarted | Acted | Chatted
_RECORDS: Final[dict[str, type]] = {cls.TAG: cls for cls in get_args(Record)}


def read_record(stored: dict) -> Record:
    """The record a stored map holds, with its defaults for what an older store left out;
    ValueError for an unknown tag, KeyError (`MissingField`) for a missing field. Keys it
    does not know are left out."""
    tag = stored["t"]
    record = _RECORDS.get(tag)
    if record is None:
        raise ValueError(f"unknown record type {tag!r}")
    return record_from_map(record, stored)


"""Replay files: one finished game's record in a file, and a host on 127.0.0.1 that shows it.

A replay file is one msgpack map (see PROTOCOL.md, "Replay files"): `format`, `version`, the
record's `entries` (what the `record` message's parts make, in order) and `digest`, the SHA-256
of the canonical msgpack of the other three. Reading one checks everything before anything is
shown: a newer version, a damaged or hand-edited file, or actions the engine refuses each give
a `ReplayFileError` with a message for a person, never a traceback and never a wrong replay.

`ReplayHost` opens a file the way quick play opens a game: an in-process host, in replay mode
(it shows that one game and has no tables), so the app never holds a game state itself; and
`folder_listing` lists a folder's files as a host lists its finished games (`replays`), so the
app never plays a record through the engine to list one either.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Final

import msgpack

from netplay.game_record import GameRecord, RecordError
from netplay.replays import Replay
from netplay.store import private_dir
from netplay.table import HUMAN

FORMAT: Final = "gaslight-replay"
VERSION: Final = 2
"""Version 2 says who played each seat (a seat entry's `person`); version 1 files still read."""
MAX_FILE: Final = 16 * 1024 * 1024
"""Bytes in a replay file: a long game's record is a few hundred kilobytes."""
SUFFIX: Final = ".gaslight-replay"
LISTED: Final = 40
"""Files in one `folder_listing`: the newest."""


class ReplayFileError(ValueError):
    """A file that is not a replay this Gaslight can show; the message says why."""


def canonical(value: Any) -> bytes:
    """The msgpack of `value` with every map's keys in order: the bytes the digest covers."""
    return msgpack.packb(_sorted(value), use_bin_type=True)


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def dump(entries: list[dict]) -> bytes:
    """The bytes of a replay file holding `entries`."""
    body = {"format": FORMAT, "version": VERSION, "entries": entries}
    digest = hashlib.sha256(canonical(body)).hexdigest()
    return msgpack.packb({**body, "digest": digest}, use_bin_type=True)


def save(path: Path, entries: list[dict]) -> Path:
    """Write a replay file, owner-only; checks first that `entries` make a finished game."""
    check(entries)
    return _write(Path(path), dump(entries))


def save_in(folder: Path | str, entries: list[dict]) -> Path:
    """Write a replay file named after its game (`file_name`) in `folder`, owner-only; checks
    first that `entries` make a finished game. The path."""
    record = check(entries)
    return _write(private_dir(Path(folder)) / file_name(record), dump(entries))


def _write(path: Path, data: bytes) -> Path:
    """Write `data` at `path`, readable by its owner only, whole or not at all: written under
    another name and renamed, so a crash leaves no half a file to be listed as damaged."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    partial = Path(name)  # made 0600, and no other writer's
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise
    return path


def load(data: bytes) -> GameRecord:
    """The finished game a replay file's bytes hold; ReplayFileError saying what is wrong."""
    return _replayed(_entries(data)).record


def record_in(data: bytes) -> GameRecord:
    """The record a replay file's bytes hold, its version, digest and entries checked, but not
    yet played through the engine (the caller plays it, as `netplay.group_record` does, to
    its end only); ReplayFileError saying what is wrong."""
    try:
        return GameRecord.from_entries(_entries(data))
    except RecordError as error:
        raise ReplayFileError(f"it does not hold a game Gaslight can replay: {error}") from None


def _entries(data: bytes) -> Any:
    """The entries of a replay file's bytes, its version and digest checked."""
    if len(data) > MAX_FILE:
        raise ReplayFileError(f"it is {len(data)} bytes; a replay file is at most {MAX_FILE}")
    try:
        body = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception:  # msgpack raises several kinds for damaged bytes; none may escape
        raise ReplayFileError("it is not a Gaslight replay file (not msgpack), or it is "
                              "damaged") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise ReplayFileError("it is not a Gaslight replay file")
    version = body.get("version")
    if type(version) is not int:
        raise ReplayFileError("it is damaged: its version is missing")
    if version > VERSION:
        raise ReplayFileError(f"it was made by a newer Gaslight (replay file version "
                              f"{version}; this one reads version {VERSION}): update Gaslight")
    if set(body) != {"format", "version", "entries", "digest"}:
        raise ReplayFileError("it is damaged: it does not hold what a replay file holds")
    digest = body.pop("digest")
    if type(digest) is not str or hashlib.sha256(canonical(body)).hexdigest() != digest:
        raise ReplayFileError("it is damaged or was edited: its digest does not match what "
                              "it holds")
    return body["entries"]


def check(entries: Any) -> GameRecord:
    """The finished game that `entries` make, played through the engine to be sure."""
    return _replayed(entries).record


def _replayed(entries: Any) -> Replay:
    try:
        record = GameRecord.from_entries(entries)
        replay = Replay(record)
    except RecordError as error:
        raise ReplayFileError(f"it does not hold a game Gaslight can replay: {error}") from None
    if not replay.finished:
        raise ReplayFileError("it does not hold a finished game: its moves stop before the end")
    return replay


def read(path: Path | str) -> GameRecord:
    return _read(path).record


def _read(path: Path | str) -> Replay:
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE + 1)
    except OSError as error:
        raise ReplayFileError(f"cannot read {path}: {error.strerror or error}") from None
    return _replayed(_entries(data))


def folder_listing(folder: Path | str, limit: int = LISTED,
                   person: str | None = None) -> list[dict[str, Any]]:
    """The replay files of `folder` as a host lists the finished games one may watch there
    (`replays`: `game`, `table`, `name`, `kind`, `players`, `seats`, `ended`, `result`,
    `seat`), each with its `path` besides; the newest `limit` files, ordered as a host orders
    its list, newest game first. `seat` is the seat `person` (an id, `netplay.person`) played,
    so that their replay starts through their own eyes; in a file that names nobody (an older
    one) the seat of its one person, if it has one; else `None`. A damaged file is one entry
    of its own, `{path, damaged, ended}` (`ended`: the file's time), saying what is wrong: it
    costs one line, never the list."""
    files = []
    for path in Path(folder).glob(f"*{SUFFIX}"):
        with contextlib.suppress(OSError):
            files.append((path.stat().st_mtime, str(path)))
    files.sort(reverse=True)
    found: list[tuple[float, dict[str, Any]]] = []
    for mtime, name in files[:limit]:
        try:
            replay = _read(name)
        except ReplayFileError as error:
            found.append((mtime, {"path": name, "damaged": str(error), "ended": mtime}))
            continue
        seats = replay.record.seats
        mine = [seat for seat, player in enumerate(seats)
                if person is not None and player.person == person]
        people = [seat for seat, player in enumerate(seats) if player.kind == HUMAN]
        named = any(player.person for player in seats)
        seat = mine[0] if mine else (people[0] if len(people) == 1 and not named else None)
        entry = {**replay.listing(), "seat": seat, "path": name}
        found.append((entry["ended"] or mtime, entry))
    found.sort(key=lambda item: item[0], reverse=True)
    return [entry for _, entry in found]


def bound_folder(folder: Path | str, most: int, most_bytes: int) -> list[Path]:
    """Remove the oldest replay files of `folder` (by the time each was written: a game is
    kept as it ends) until at most `most` files of at most `most_bytes` in all remain; the
    paths removed."""
    files = []
    for path in Path(folder).glob(f"*{SUFFIX}"):
        with contextlib.suppress(OSError):
            stat = path.stat()
            files.append((stat.st_mtime, stat.st_size, path))
    files.sort(reverse=True)
    removed, total = [], 0
    for count, (_, size, path) in enumerate(files, 1):
        total += size
        if count > most or total > most_bytes:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def file_name(record: GameRecord | dict[str, Any]) -> str:
    """A file name for a record (or a `replays` entry, or a record's `game` entry, of the same
    game): its game, table name and id, safe on every system, and in no other folder than the
    one it is put in, whatever a host calls its games."""
    kind, name, game = (
        (record["kind"], record["name"], record["game"]) if isinstance(record, dict)
        else (record.kind, record.name, record.game))

    def safe(text: str, keep: str = "") -> str:
        return "".join(c if c.isascii() and c.isalnum() or c in keep else "-" for c in text)

    table, _, number = str(game).rpartition("-")
    return (f"{safe(str(kind), '_')}-{safe(str(name)).strip('-') or 'game'}-"
            f"{safe(table) or 'table'}-{safe(number)}{SUFFIX}")


class ReplayHost:
    """A host on 127.0.0.1 that shows one replay file's game to whoever connects (the app,
    in the same process), its store in a directory of its own, removed when it stops."""

    def __init__(self, record: GameRecord):
        self.record = record
        self.host: Any = None
        self._dir: str | None = None

    @property
    def game(self) -> str:
        return self.record.game

    async def start(self) -> tuple[str, int]:
        from netplay.host import Host  # the host and its sockets load only when needed

        self._dir = tempfile.mkdtemp(prefix="gaslight-replay-")
        try:
            self.host = Host(data_dir=Path(self._dir), store="replay", replay=self.record)
            return await self.host.start("127.0.0.1", 0)
        except BaseException:
            await self.stop()  # nothing is left behind: no store, no directory
            raise

    async def stop(self) -> None:
        if self.host is not None:
            await self.host.stop()
            self.host = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


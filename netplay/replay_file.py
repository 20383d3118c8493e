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
import shutil
import tempfile
from pathlib import Path
from typing import Any, Final

import msgpack

from netplay.game_record import GameRecord, RecordError
from netplay.replays import Replay
from netplay.table import HUMAN

FORMAT: Final = "gaslight-replay"
VERSION: Final = 1
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
    """Write a replay file; checks first that `entries` make a finished game."""
    check(entries)
    path = Path(path)
    path.write_bytes(dump(entries))
    return path


def save_in(folder: Path | str, entries: list[dict]) -> Path:
    """Write a replay file named after its game (`file_name`) in `folder`; checks first that
    `entries` make a finished game. The path."""
    record = check(entries)
    path = Path(folder) / file_name(record)
    path.write_bytes(dump(entries))
    return path


def load(data: bytes) -> GameRecord:
    """The finished game a replay file's bytes hold; ReplayFileError saying what is wrong."""
    return _loaded(data).record


def _loaded(data: bytes) -> Replay:
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
    return _replayed(body["entries"])


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
    return _loaded(data)


def folder_listing(folder: Path | str, limit: int = LISTED) -> list[dict[str, Any]]:
    """The replay files of `folder` as a host lists the finished games one may watch there
    (`replays`: `game`, `table`, `name`, `kind`, `players`, `seats`, `ended`, `result`,
    `seat`), each with its `path` besides. The newest `limit` files that read as replays
    (a damaged one is left out: it is refused when opened by name), ordered as a host orders
    its list, newest game first. A file holding one person's game (a game against bots,
    kept as it ended) gives that person's `seat`, to start through their own eyes; any other,
    `None`."""
    files = []
    for path in Path(folder).glob(f"*{SUFFIX}"):
        with contextlib.suppress(OSError):
            files.append((path.stat().st_mtime, str(path)))
    files.sort(reverse=True)
    found: list[dict[str, Any]] = []
    for _, name in files:
        if len(found) >= limit:
            break
        try:
            replay = _read(name)
        except ReplayFileError:
            continue
        people = [seat for seat, player in enumerate(replay.record.seats)
                  if player.kind == HUMAN]
        found.append({**replay.listing(), "seat": people[0] if len(people) == 1 else None,
                      "path": name})
    found.sort(key=lambda g: g["ended"] or 0, reverse=True)
    return found


def file_name(record: GameRecord) -> str:
    """A file name for a record: its game, table name and id, safe on every system."""
    safe = "".join(c if c.isalnum() else "-" for c in record.name).strip("-") or "game"
    return f"{record.kind}-{safe}-{record.game}{SUFFIX}"


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


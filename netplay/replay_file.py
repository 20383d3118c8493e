"""Replay files: one finished game's record in a file, and a host on 127.0.0.1 that shows it.

A replay file is one msgpack map (see PROTOCOL.md, "Replay files"): `format`, `version`, the
record's `entries` (what the `record` message's parts make, in order) and `digest`, the SHA-256
of the canonical msgpack of the other three. Reading one checks everything before anything is
shown: a newer version, a damaged or hand-edited file, or actions the engine refuses each give
a `ReplayFileError` with a message for a person, never a traceback and never a wrong replay.

`ReplayHost` opens a file the way quick play opens a game: an in-process host, in replay mode
(it shows that one game and has no tables), so the app never holds a game state itself.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Any, Final

import msgpack

from netplay.game_record import GameRecord, RecordError
from netplay.replays import Replay

FORMAT: Final = "gaslight-replay"
VERSION: Final = 1
MAX_FILE: Final = 16 * 1024 * 1024
"""Bytes in a replay file: a long game's record is a few hundred kilobytes."""
SUFFIX: Final = ".gaslight-replay"


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


def load(data: bytes) -> GameRecord:
    """The finished game a replay file's bytes hold; ReplayFileError saying what is wrong."""
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
    return check(body["entries"])


def check(entries: Any) -> GameRecord:
    """The finished game that `entries` make, played through the engine to be sure."""
    try:
        record = GameRecord.from_entries(entries)
        replay = Replay(record)
    except RecordError as error:
        raise ReplayFileError(f"it does not hold a game Gaslight can replay: {error}") from None
    if not replay.finished:
        raise ReplayFileError("it does not hold a finished game: its moves stop before the end")
    return record


def read(path: Path | str) -> GameRecord:
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE + 1)
    except OSError as error:
        raise ReplayFileError(f"cannot read {path}: {error.strerror or error}") from None
    return load(data)


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
        self.host = Host(data_dir=Path(self._dir), store="replay", replay=self.record)
        return await self.host.start("127.0.0.1", 0)

    async def stop(self) -> None:
        if self.host is not None:
            await self.host.stop()
            self.host = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


"""Append-only journals, one per table, so that a host killed mid-game can resume every table.

A journal is a sequence of records, each a 4-byte big-endian body length, a 4-byte CRC-32 of the
body, then the msgpack body. Every append is written with one `os.write` and then fsynced, so a
crash leaves at most the last record short: that torn record is dropped with a warning and
everything before it is kept. A complete record whose checksum or body is wrong is not a crash
artefact but damage, and `JournalError` names the table.

Journals hold the seed and each seat's token hash, so they live in the user's data directory,
readable by the owner only (files 0600 in a 0700 directory). The data directory comes from the
`data_dir` argument, else the `GASLIGHT_DATA_DIR` environment variable, else platformdirs.
"""

from __future__ import annotations

import logging
import os
import signal
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import msgpack
import platformdirs

log = logging.getLogger("gaslight.journal")

DATA_DIR_ENV: Final = "GASLIGHT_DATA_DIR"
SUFFIX: Final = ".journal"
RECORD_HEADER: Final = 8
MAX_RECORD: Final = 1024 * 1024
"""Bytes in one record body. A real record is well under 1 KiB; more means damage."""
CRASH_ENV: Final = "GASLIGHT_TEST_CRASH_BEFORE_FSYNC"
"""Tests only: after this many syncs, the process kills itself (SIGKILL) between writing a
record and fsyncing it, so that the crash tests can hit that exact point."""
_crash_after = int(os.environ.get(CRASH_ENV) or 0)
_syncs = 0


class JournalError(Exception):
    """A journal that cannot be read back. The message names the table."""

    def __init__(self, table_id: str, reason: str):
        super().__init__(f"table {table_id}: journal is damaged: {reason}")
        self.table_id = table_id
        self.reason = reason


def data_dir(explicit: Path | str | None = None) -> Path:
    """Gaslight's data directory: `explicit`, else $GASLIGHT_DATA_DIR, else the user's."""
    if explicit is not None:
        return Path(explicit)
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("gaslight", appauthor=False))


def tables_dir(base: Path | str | None = None) -> Path:
    """The owner-only directory holding the table journals, created if need be."""
    path = data_dir(base) / "tables"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    # mkdir's mode is filtered by the umask and ignored for existing directories.
    for directory in (path.parent, path):
        if directory.stat().st_mode & 0o077:
            directory.chmod(0o700)
    return path


def encode_record(record: dict) -> bytes:
    body = msgpack.packb(record, use_bin_type=True)
    return (
        len(body).to_bytes(4, "big") + zlib.crc32(body).to_bytes(4, "big") + body
    )


class Journal:
    """One table's journal, open for appending."""

    def __init__(self, path: Path, table_id: str, fd: int):
        self.path = path
        self.table_id = table_id
        self._fd = fd

    @classmethod
    def create(cls, directory: Path, table_id: str) -> "Journal":
        path = directory / (table_id + SUFFIX)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        _fsync_dir(directory)
        return cls(path, table_id, fd)

    @classmethod
    def reopen(cls, path: Path, table_id: str, good_length: int) -> "Journal":
        """Open an existing journal for appending, cutting off a torn tail first."""
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        if os.fstat(fd).st_size != good_length:
            os.ftruncate(fd, good_length)
            os.fsync(fd)
        os.fchmod(fd, 0o600)
        return cls(path, table_id, fd)

    def append(self, record: dict) -> None:
        """Write one record and fsync it: when this returns, the record survives a crash."""
        self.write(record)
        self.sync()

    def write(self, record: dict) -> None:
        """Write one record with a single write call. It survives the process being killed;
        `sync` makes it survive the machine going down too."""
        data = encode_record(record)
        written = os.write(self._fd, data)
        if written != len(data):  # a full disk: never leave a half record we would misread
            raise OSError(f"table {self.table_id}: journal write was short ({written} bytes)")

    def sync(self) -> None:
        if _crash_after:
            _maybe_crash()
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _maybe_crash() -> None:
    global _syncs
    _syncs += 1
    if _syncs >= _crash_after:
        os.kill(os.getpid(), signal.SIGKILL)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class JournalContents:
    table_id: str
    path: Path
    records: list[dict]
    good_length: int
    """Bytes up to the end of the last whole record: where appends resume."""
    torn_bytes: int
    """Bytes of a torn last record that were dropped (0 if none)."""


def read_journal(path: Path) -> JournalContents:
    table_id = path.name.removesuffix(SUFFIX)
    data = path.read_bytes()
    records = []
    offset = 0
    while offset < len(data):
        if len(data) - offset < RECORD_HEADER:
            break  # torn header
        length = int.from_bytes(data[offset : offset + 4], "big")
        checksum = int.from_bytes(data[offset + 4 : offset + 8], "big")
        if length > MAX_RECORD:
            raise JournalError(
                table_id,
                f"record at byte {offset} claims {length} bytes; the limit is {MAX_RECORD}",
            )
        end = offset + RECORD_HEADER + length
        if end > len(data):
            break  # torn body
        body = data[offset + RECORD_HEADER : end]
        if zlib.crc32(body) != checksum:
            raise JournalError(table_id, f"record at byte {offset} fails its checksum")
        try:
            record = msgpack.unpackb(body, raw=False, strict_map_key=True)
        except ValueError as error:
            raise JournalError(table_id, f"record at byte {offset} is not msgpack: {error}") from None
        if not isinstance(record, dict) or type(record.get("t")) is not str:
            raise JournalError(table_id, f"record at byte {offset} is not a tagged map")
        records.append(record)
        offset = end
    torn = len(data) - offset
    if torn:
        log.warning(
            "table %s: dropped a torn last record (%d bytes) from its journal; "
            "every record before it is kept",
            table_id,
            torn,
        )
    return JournalContents(table_id, path, records, offset, torn)


def journal_paths(directory: Path) -> list[Path]:
    return sorted(directory.glob("*" + SUFFIX))


def archive(path: Path) -> None:
    """Set a finished table's journal aside so that `--resume` no longer loads it."""
    path.rename(path.with_suffix(".done"))

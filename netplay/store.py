"""The host's store: one SQLite database per host, so that a host killed mid-game resumes every
table, with nothing anybody saw lost.

Each table is a sequence of records (the table's facts, its seats, each game's seed, each
action), msgpack maps as the host makes them; `netplay.tables.restore_table` replays them. The
store also keeps the host's table code and its port, so a resumed host is the same host at the
same address.

One writer thread owns the write connection and commits in groups: every record appended while
a commit runs goes into the next one, from every table, with one fsync (WAL mode,
`synchronous=FULL`). `append` returns at once; the `CommitGate` holds back every frame sent
after an append until `committed` has reached it, so that no view shows an action that is not
durable.

The store holds the seeds and each seat's token hash, so it lives in the user's data directory,
readable by the owner only (files 0600 in a 0700 directory). The data directory comes from the
`data_dir` argument, else the `GASLIGHT_DATA_DIR` environment variable, else platformdirs.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Protocol

import msgpack
import platformdirs

log = logging.getLogger("gaslight.store")

DATA_DIR_ENV: Final = "GASLIGHT_DATA_DIR"
STORE_FILE: Final = "host.sqlite3"
SWITCH_INTERVAL: Final = 0.00005
"""Seconds the event loop's thread may keep the GIL while the writer waits for it. A commit
takes the GIL back after each SQLite call (begin, each insert, commit) while the loop builds
the views it holds back; Python's default (5 ms) would add that much to every view, and even
0.2 ms, a few times per commit, doubled a commit's time at ten players. The loop gives the GIL
up only when the writer asks for it, a few times per commit."""
CRASH_ENV: Final = "GASLIGHT_TEST_CRASH_BEFORE_COMMIT"
"""Tests only: at this many commits the process kills itself (SIGKILL) with the commit's
records written but not committed, which SQLite must roll back like a power cut would."""

LIVE, OVER = "live", "over"
"""A table's status in the store: `--resume` brings back the live ones."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, status TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, record BLOB NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """A table whose records cannot be read back. The message names the table."""

    def __init__(self, table_id: str, reason: str):
        super().__init__(f"table {table_id}: its record is damaged: {reason}")
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


def private_dir(path: Path) -> Path:
    """`path`, created if need be, readable by its owner only."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    # mkdir's mode is filtered by the umask and ignored for existing directories.
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path


Statement = tuple[str, tuple]


def kept_by(path: Path, key: str) -> Any:
    """A setting kept in the store at `path` (`Store.kept`) while another process may run
    its host: read-only, with nothing created or changed; None if there is none or no store.
    The app that hosted a table reads its table code there once a host in the background
    has it."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None
    finally:
        db.close()
    return None if row is None else row[0]


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        private_dir(path.parent)
        # SQLite gives its -wal and -shm files the database file's permissions.
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        os.chmod(path, 0o600)
        self._db = self._connect()
        with self._db:
            self._db.executescript(_SCHEMA)
        self._sequences: dict[str, int] = dict(
            self._db.execute("SELECT table_id, max(seq) + 1 FROM records GROUP BY table_id"))
        self.appended = 0
        """Statements handed to the writer so far."""
        self.committed = 0
        """Statements durable so far; `committed == appended` means nothing is in flight. The
        writer thread counts them as soon as each commit returns, so the loop may release the
        frames a commit held back while it is still busy (building the rest of a move's
        views, say)."""
        self.on_commit: Callable[[], None] | None = None
        """Called on the event loop after each commit."""
        self.failure: BaseException | None = None
        self._queue: list[Statement] = []
        self._uncounted = 0
        """Statements in `_queue` appended by `note`: nothing waits for them."""
        self._wake = threading.Condition()
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flushed: list[tuple[int, asyncio.Future]] = []
        self._writer: threading.Thread | None = None
        self._crash_at = int(os.environ.get(CRASH_ENV) or 0)
        self._commits = 0

    @classmethod
    def open(cls, data: Path | str | None = None, name: str = STORE_FILE) -> "Store":
        return cls(private_dir(data_dir(data)) / name)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    # -- reading (before the writer starts, or for tests) ---------------------------------

    def _meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: Any) -> Any:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        return value

    def kept(self, key: str, make: Callable[[], Any]) -> Any:
        """A setting of the host's (its table code, say): made by `make` the first time, the
        same ever after, across `--resume`."""
        return self._meta(key) or self._set_meta(key, make())

    @property
    def port(self) -> int | None:
        """The port this host last listened on, to come back at the same address."""
        return self._meta("port")

    def tables(self, status: str | None = LIVE) -> dict[str, str]:
        """The ids of the stored tables (the live ones by default) and their status."""
        query = "SELECT id, status FROM tables" + (" WHERE status = ?" if status else "")
        return dict(self._db.execute(query, (status,) if status else ()))

    def record_count(self, table_id: str) -> int:
        """The durable records of a table: a reader's cache of them is stale when this grew."""
        row = self._db.execute("SELECT count(*) FROM records WHERE table_id = ?",
                               (table_id,)).fetchone()
        return row[0]

    def tables_holding(self, needles: list[bytes]) -> set[str]:
        """The tables with a record that holds one of `needles` byte for byte: one pass over
        the records, a coarse filter whose finds the caller reads and checks."""
        if not needles:
            return set()
        where = " OR ".join("instr(record, ?) > 0" for _ in needles)
        return {row[0] for row in self._db.execute(
            f"SELECT DISTINCT table_id FROM records WHERE {where}", needles)}

    def records(self, table_id: str) -> list[dict]:
        records = []
        rows = self._db.execute(
            "SELECT seq, record FROM records WHERE table_id = ? ORDER BY seq", (table_id,))
        for seq, body in rows:
            try:
                record = msgpack.unpackb(body, raw=False, strict_map_key=True)
            except (ValueError, TypeError, msgpack.ExtraData) as error:
                raise StoreError(table_id, f"record {seq} is not msgpack: {error}") from None
            if not isinstance(record, dict) or type(record.get("t")) is not str:
                raise StoreError(table_id, f"record {seq} is not a tagged map")
            records.append(record)
        return records

    # -- writing --------------------------------------------------------------------------

    def remember_port(self, port: int) -> None:
        self._submit(("INSERT OR REPLACE INTO meta VALUES ('port', ?)", (port,)))

    def add_table(self, table_id: str) -> None:
        self._sequences[table_id] = 0
        self._submit(("INSERT INTO tables VALUES (?, ?)", (table_id, LIVE)))

    def append(self, table_id: str, record: dict) -> None:
        self._submit(self._insert(table_id, record))

    def note(self, table_id: str, record: dict) -> None:
        """Append a record that nothing told must wait for (a chat line: telling it does not
        depend on keeping it), committed with the next group all the same."""
        self._submit(self._insert(table_id, record), counted=False)

    def _insert(self, table_id: str, record: dict) -> Statement:
        seq = self._sequences[table_id]
        self._sequences[table_id] = seq + 1
        body = msgpack.packb(record, use_bin_type=True)
        return "INSERT INTO records VALUES (?, ?, ?)", (table_id, seq, body)

    def set_status(self, table_id: str, status: str) -> None:
        self._submit(("UPDATE tables SET status = ? WHERE id = ?", (status, table_id)))

    def delete_table(self, table_id: str) -> None:
        """Forget a table that never started: it holds nothing worth resuming."""
        self._sequences.pop(table_id, None)
        self._submit(("DELETE FROM records WHERE table_id = ?", (table_id,)))
        self._submit(("DELETE FROM tables WHERE id = ?", (table_id,)))

    @property
    def pending(self) -> bool:
        """Whether some statement is not durable yet."""
        return self.committed < self.appended

    def _submit(self, statement: Statement, counted: bool = True) -> None:
        if self.failure is not None:
            raise OSError(f"the host's store at {self.path} failed: {self.failure}")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            # No event loop to tell (a script preparing tables): commit here and now.
            self._commit([statement], self._db)
            self.appended += counted
            self.committed = self.appended
            return
        if self._writer is None:
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
            self._loop = loop
            self._writer = threading.Thread(target=self._write_loop, name="gaslight-store",
                                            daemon=True)
            self._writer.start()
        with self._wake:
            self._queue.append(statement)
            if counted:
                self.appended += 1
            else:
                self._uncounted += 1
            self._wake.notify()

    async def flush(self) -> None:
        """Wait until everything appended so far is durable."""
        if not self.pending:
            return
        future = asyncio.get_running_loop().create_future()
        self._flushed.append((self.appended, future))
        await future

    def close(self) -> None:
        """Commit what is queued, stop the writer and close the database."""
        if self._writer is not None:
            with self._wake:
                self._closing = True
                self._wake.notify()
            self._writer.join()
            self._writer = None
        self._db.close()

    def _write_loop(self) -> None:
        db = self._connect()
        try:
            while True:
                with self._wake:
                    while not self._queue and not self._closing:
                        self._wake.wait()
                    batch, self._queue = self._queue, []
                    counted = len(batch) - self._uncounted
                    self._uncounted = 0
                if not batch:
                    return
                try:
                    self._commit(batch, db)
                except BaseException as error:  # the disk is full or gone: nothing more is told
                    log.critical("cannot write the host's store %s: %s", self.path, error)
                    self._report(error)
                    return
                self.committed += counted  # only this thread writes it while it runs
                self._report(None)
        finally:
            db.close()

    def _commit(self, batch: list[Statement], db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in batch:
                db.execute(sql, params)
            self._commits += 1
            if self._commits == self._crash_at:
                os.kill(os.getpid(), signal.SIGKILL)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _report(self, error: BaseException | None) -> None:
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(self._committed_on_loop, error)
        except RuntimeError:
            pass  # the loop is closed: nobody is waiting any more

    def _committed_on_loop(self, error: BaseException | None) -> None:
        if error is not None:
            self.failure = error
            for _, future in self._flushed:
                if not future.done():
                    future.set_exception(OSError(f"the host's store failed: {error}"))
            self._flushed.clear()
        else:
            while self._flushed and self._flushed[0][0] <= self.committed:
                future = self._flushed.pop(0)[1]
                if not future.done():
                    future.set_result(None)
        if self.on_commit is not None:
            self.on_commit()


class Sink(Protocol):
    """Whatever the gate hands a released frame to: a client's connection."""

    def enqueue(self, frame: bytes | None) -> None: ...


class CommitGate:
    """Holds every frame sent after an append until that append is durable, then hands it on;
    frames keep their order. A frame sent while nothing is in flight goes at once.

    If the store fails, nothing more can be made durable, so nothing more may be told: the
    held frames are dropped and `on_failure` runs (the host closes every connection)."""

    def __init__(self, store: Store, on_failure: Callable[[], None]) -> None:
        self.store = store
        self.on_failure = on_failure
        self._held: collections.deque[tuple[int, Sink, bytes | None]] = collections.deque()
        """Frames waiting for the store: each with the appends it must wait for."""
        store.on_commit = self._release

    def send(self, sink: Sink, frame: bytes | None) -> None:
        """`frame` to `sink` once everything appended so far is durable (None: close it)."""
        if self._held:
            self._let_through()  # what a commit that ended meanwhile let through goes first
        if self._held or self.store.pending:
            self._held.append((self.store.appended, sink, frame))
        else:
            sink.enqueue(frame)

    async def durable(self) -> None:
        """Wait until everything appended so far is durable: a client (or a bot) that waits
        here is paced by the disk."""
        await self.store.flush()

    def _release(self) -> None:
        if self.store.failure is not None:
            self._held.clear()
            self.on_failure()
            return
        self._let_through()

    def _let_through(self) -> None:
        """Hand on, in order, the held frames whose appends are durable."""
        committed = self.store.committed
        held = self._held
        while held and held[0][0] <= committed:
            _, sink, frame = held.popleft()
            sink.enqueue(frame)

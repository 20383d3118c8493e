"""The client side of a table: one `Connection` per player, spectator or lobby visitor.

    conn = await Connection.connect("127.0.0.1", 7420, name="Ann", table="3fa2c1d0")
    async for msg in conn:           # every message from the host, in order, as a record
        match msg:
            case State(legal=[first, *_]):
                await conn.act(first)

The host's messages come as the typed records of `netplay.protocol` (`Welcome`, `Lobby`,
`State`, `ChatLine`, `Error`, `TableList`), and requests go as records too
(`await conn.send(Chat("hello"))`). Each `state` the host sends carries only the events its
receiver has not had (protocol version 2); the connection keeps the game's events in its
`EventLog` (`netplay.event_log`) and yields every `State` with a full view, `view["events"]`
holding them all and `view["events_from"]` the index of the first one kept (a client that joins
late gets the last few), and its `legal` unpacked.

Every connection is TLS 1.3, and nothing of the player's (name, table, seat token) is sent
until the host is proven on that connection (protocol 4): given `code`, the client pairs with
the host first (see `netplay.pairing`), saying nothing else until the host's MAC checks out,
and pins the host's key in `known_hosts`; without one, the host's key must be pinned there
already, else `NotPaired` is raised before anything is sent. A host whose key differs from the
one pinned for its address raises `HostKeyChanged`. Given `fingerprint` (the key this client
met where it holds a seat token), or once it has met the host, the connection expects that
key on every way back (a reconnect, an address `locate` found) and no code overrides it.

The connection sends a `ping` every few seconds and treats a host silent for longer than
`dead_after` as gone. When the link drops it reconnects with backoff, using the seat token the
host gave it (or, for a spectator, the table id), unless the host had refused it with a fatal
error, said its table `closed`, or could not be proven (`refused` then says why, in words).
Given `locate`, it also asks where the host with its identity is now, and follows it there (a
host restarted on another port or address). While it reconnects, the iterator yields
`Status("reconnecting")` and then `Status("connected")`: these are made locally, never sent by
the host.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable, Final

from netplay.errors import ProtocolError
from netplay.event_log import EventLog
from netplay.frames import encode, read_frame
from netplay.pairing import ClientPairing, PairingFailed, show_code
from netplay.person import PersonKey
from netplay.pins import KnownHosts
from netplay.protocol import (
    Act,
    ClientMessage,
    Closed,
    Error,
    FetchRecord,
    Hello,
    HostRecord,
    ListReplays,
    Pair,
    Ping,
    Pong,
    RecordPart,
    ReplayList,
    ReplayStep,
    State,
    Welcome,
    parse_host_message,
)
from netplay.transport import identity, open_tls, peer_fingerprint

log = logging.getLogger("gaslight.client")

HEARTBEAT_INTERVAL: Final = 5.0
DEAD_AFTER: Final = 15.0
"""Seconds without any frame from the host before the link counts as dead."""
CONNECT_TIMEOUT: Final = 10.0
FIRST_BACKOFF: Final = 0.1
MAX_BACKOFF: Final = 2.0
GIVE_UP_AFTER: Final = 120.0
"""Seconds of failed reconnects before the connection closes for good."""
ASK_TIMEOUT: Final = 10.0
"""Seconds a host has to answer a request made with `Connection.ask`."""
MAX_RECORD_PARTS: Final = 1000
"""Parts of one record a client fetches at most: 16 MB, a replay file's own bound."""

CONNECTED, RECONNECTING, CLOSED = "connected", "reconnecting", "closed"

Locate = Callable[[str, "str | None"], Awaitable["tuple[str, int] | None"]]
"""Where the host with this identity (and this table: hosts may share an identity) is now, if
anyone knows (discovery, say)."""


@dataclass(frozen=True, slots=True)
class Status:
    """The link's state while it reconnects: made by this library, never sent by the host."""

    status: str


Received = HostRecord | Status
"""What a connection yields."""


class HostRefused(ConnectionError):
    """The host answered with a fatal error (wrong token, full table, wrong version...)."""


class NotPaired(HostRefused):
    """The host's key is not pinned and no table code was given: ask the player for it."""

    def __init__(self, text: str, host_id: str):
        super().__init__(text)
        self.host_id = host_id


class HostKeyChanged(HostRefused):
    """The host at a pinned address presented another key: someone may pretend to be it."""


class WrongCode(HostRefused):
    """Pairing failed: a wrong table code, or a machine in the middle."""


class NotConnected(ConnectionError):
    """A send while the link is down: the connection is reconnecting or closed."""


class Connection:
    seat: int | None
    token: str | None
    table: str | None
    spectator: bool
    status: str

    def __init__(self, host: str, port: int, *, name: str, table: str | None, token: str | None,
                 spectate: bool, reconnect: bool, on_frame: Callable[[bytes], None] | None,
                 heartbeat_interval: float, dead_after: float, locate: Locate | None,
                 code: str | None, known_hosts: KnownHosts | None, fingerprint: str | None,
                 person: PersonKey | None = None):
        self.host, self.port, self.name = host, port, name
        self.person = person
        """Who the player is, proved in each `hello` to the host proven first
        (`netplay.person`); None says nothing."""
        self.code = code
        self.known_hosts = known_hosts if known_hosts is not None else KnownHosts()
        self.fingerprint = fingerprint
        """The key the host must present: the one met before (on this connection, or where
        the caller holds a seat token). Every reconnect and every address followed must find
        it."""
        self.host_id: str | None = None
        """The host's identity, from its welcome: the same after it restarts."""
        self.locate = locate
        self.event_log = EventLog()
        self.table, self.token, self.seat = table, token, None
        self.spectator = spectate
        self.reconnect = reconnect
        self.status = CLOSED
        self.on_frame = on_frame
        self.heartbeat_interval = heartbeat_interval
        self.dead_after = dead_after
        self.refused: HostRefused | None = None
        """Why the connection ended for good, once the host refused it (a fatal error) or
        could not be proven (a changed key, a wrong code)."""
        self._inbox: asyncio.Queue[Received | None] = asyncio.Queue()
        self._asked: list[tuple[Callable[[HostRecord], bool], asyncio.Future]] = []
        """The answers awaited by `ask`, in the order asked: each goes to its asker, not to
        the iterator."""
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._run_task: asyncio.Task | None = None
        self._heartbeat_task: asyncio.Task | None = None
        self._last_heard = time.monotonic()

    @classmethod
    async def connect(cls, host: str, port: int, *, name: str, table: str | None = None,
                      token: str | None = None, spectate: bool = False, reconnect: bool = True,
                      on_frame: Callable[[bytes], None] | None = None,
                      heartbeat_interval: float = HEARTBEAT_INTERVAL,
                      dead_after: float = DEAD_AFTER,
                      locate: Locate | None = None, code: str | None = None,
                      known_hosts: KnownHosts | None = None,
                      fingerprint: str | None = None,
                      person: PersonKey | None = None) -> "Connection":
        """Connect, make sure of the host (the expected `fingerprint`, a pin, or pairing by
        `code`) and finish the handshake. Raises HostRefused if the host says no or cannot be
        trusted (NotPaired, HostKeyChanged, WrongCode), OSError if it cannot be reached.
        `on_frame` sees the raw bytes of every frame received."""
        conn = cls(host, port, name=name, table=table, token=token, spectate=spectate,
                   reconnect=reconnect, on_frame=on_frame,
                   heartbeat_interval=heartbeat_interval, dead_after=dead_after, locate=locate,
                   code=code, known_hosts=known_hosts, fingerprint=fingerprint,
                   person=person)
        conn._inbox.put_nowait(await conn._open())
        conn._run_task = asyncio.get_running_loop().create_task(conn._run())
        conn._heartbeat_task = asyncio.get_running_loop().create_task(conn._heartbeat())
        return conn

    # -- sending --------------------------------------------------------------------------

    async def send(self, request: ClientMessage) -> None:
        """Send one request. Raises NotConnected while the link is down."""
        writer = self._writer
        if self.status != CONNECTED or writer is None:
            raise NotConnected(f"not connected to {self.host}:{self.port} ({self.status})")
        writer.write(encode(request))
        try:
            await writer.drain()
        except (ConnectionError, OSError) as error:
            raise NotConnected(f"the link to {self.host}:{self.port} dropped: {error}") from None

    async def act(self, action: dict) -> None:
        await self.send(Act(action))

    async def ask(self, request: ClientMessage, answers: Callable[[HostRecord], bool],
                  timeout: float = ASK_TIMEOUT) -> HostRecord:
        """Send `request` and return the host's answer: the first message from then on that
        `answers` accepts, which goes to this caller and not to the iterator, so a table's
        connection can fetch a record beside the screen reading it. TimeoutError if none
        comes in `timeout` (a refusal is an `error` like any other, for the iterator);
        NotConnected if the link is down."""
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        waiting = (answers, future)
        self._asked.append(waiting)
        try:
            await self.send(request)
            async with asyncio.timeout(timeout):
                return await future
        finally:
            if waiting in self._asked:
                self._asked.remove(waiting)

    async def list_replays(self, tokens: list[str] | None = None,
                           timeout: float = ASK_TIMEOUT) -> list[dict]:
        """The finished games this connection (and `tokens`) may watch at the host: its
        `replays` answer's entries."""
        answer = await self.ask(ListReplays(list(tokens or [])),
                                lambda m: isinstance(m, ReplayList), timeout)
        assert isinstance(answer, ReplayList)
        return answer.games

    async def fetch_record(self, game: str, token: str | None = None,
                           timeout: float = ASK_TIMEOUT) -> list[dict]:
        """A finished game's record, every part in order: the entries of its replay file.
        ProtocolError if the host's parts do not add up."""
        entries: list[dict] = []
        part, parts = 0, 1
        while part < parts:
            answer = await self.ask(
                FetchRecord(game=game, part=part, token=token),
                lambda m, part=part: isinstance(m, RecordPart) and m.game == game
                and m.part == part, timeout)
            assert isinstance(answer, RecordPart)
            if type(answer.parts) is not int or not part < answer.parts <= MAX_RECORD_PARTS:
                raise ProtocolError(f"the host's record of {game} has {answer.parts!r} parts")
            if type(answer.body) is not list:
                raise ProtocolError(f"part {part} of the record of {game} is not a list")
            entries.extend(answer.body)
            part, parts = part + 1, answer.parts
        return entries

    # -- receiving ------------------------------------------------------------------------

    def __aiter__(self) -> AsyncIterator[Received]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[Received]:
        while True:
            msg = await self._inbox.get()
            if msg is None:
                self._inbox.put_nowait(None)  # later iterators end too
                return
            yield msg

    @property
    def refusal(self) -> str | None:
        """Why the connection ended for good, in words, if it did."""
        return None if self.refused is None else str(self.refused)

    async def next_message(self, timeout: float | None = None) -> Received:
        """The next message; raises ConnectionError once closed, TimeoutError on timeout."""
        async with asyncio.timeout(timeout):
            msg = await self._inbox.get()
        if msg is None:
            self._inbox.put_nowait(None)
            raise ConnectionError(f"connection closed{': ' + self.refusal if self.refusal else ''}")
        return msg

    async def close(self) -> None:
        if self.status == CLOSED and self._run_task is None:
            return
        self.status = CLOSED
        current = asyncio.current_task()
        for task in (self._heartbeat_task, self._run_task):
            if task is not None and task is not current:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._run_task = self._heartbeat_task = None
        self._drop_link()
        self._inbox.put_nowait(None)

    # -- the link -------------------------------------------------------------------------

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    async def _open(self) -> Welcome:
        """Connect, prove the host, and shake hands; the host's welcome. Nothing of the
        player's is written before the host is proven."""
        try:
            reader, writer = await open_tls(self.host, self.port, CONNECT_TIMEOUT)
        except ssl.SSLError as error:
            raise ProtocolError(
                f"{self.address} does not speak TLS: it may run an older Gaslight (protocol 1 "
                f"or 2), which must be updated ({error.reason or error})") from None
        try:
            fingerprint = peer_fingerprint(writer)
            pairing = self._pairing(fingerprint)
            if pairing is not None:
                await self._pair(pairing, fingerprint, reader, writer)
            writer.write(encode(self._hello(fingerprint)))
            await writer.drain()
            first = await self._answer(reader)
        except BaseException:
            writer.close()
            raise
        if not isinstance(first, Welcome):
            writer.close()
            raise ProtocolError(f"the host answered hello with {first.TAG!r}, not 'welcome'")
        if pairing is not None:
            self.known_hosts.pin(fingerprint, self.address)
        else:
            self.known_hosts.seen(fingerprint, self.address)
        self.fingerprint = fingerprint
        self._reader, self._writer = reader, writer
        self._last_heard = time.monotonic()
        self.status = CONNECTED
        self._welcomed(first)
        return first

    def _pairing(self, fingerprint: str) -> ClientPairing | None:
        """How to trust the host that presented `fingerprint`: a pairing to run (a code was
        given), or None (it is the key expected, or a pinned one). Raises HostKeyChanged or
        NotPaired, before anything is sent, when it cannot be trusted. A code never overrides
        the key expected: where a seat token is at stake, that key is the only host."""
        if self.fingerprint is not None and fingerprint != self.fingerprint:
            raise self._key_changed(self.fingerprint, fingerprint)
        if self.code is not None:
            return ClientPairing(self.code)
        if fingerprint == self.fingerprint or self.known_hosts.trusts(fingerprint):
            return None
        pinned_here = self.known_hosts.expected_at(self.address)
        if pinned_here is not None:
            raise self._key_changed(pinned_here, fingerprint)
        raise NotPaired(
            f"the host at {self.address} ({identity(fingerprint)}) is not paired with this "
            f"computer yet: its table code (shown by the host, like {show_code('12345678')}) "
            "is needed once", identity(fingerprint))

    def _key_changed(self, expected: str, fingerprint: str) -> HostKeyChanged:
        return HostKeyChanged(
            f"the host at {self.address} has changed its key (it was {identity(expected)}, "
            f"now {identity(fingerprint)}): someone may be pretending to be it, so nothing was "
            "sent to it. If its player gave it a new key, ask them for the table code and "
            "join with it")

    async def _pair(self, pairing: ClientPairing, fingerprint: str,
                    reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Pair by the code on a connection that has said nothing else, and prove the host
        by its MAC over the fingerprint this client saw. Raises WrongCode if it does not."""
        writer.write(encode(pairing.request))
        await writer.drain()
        answer = await self._answer(reader)
        if not isinstance(answer, Pair):
            # A host that skips the pairing it was asked for is not the host.
            raise WrongCode(f"{self.address} did not pair when asked to: it cannot be trusted")
        try:
            writer.write(encode(pairing.confirm(answer, fingerprint)))
        except PairingFailed as error:
            raise WrongCode(f"{self.address}: {error}") from None
        await writer.drain()

    def _hello(self, fingerprint: str) -> Hello:
        """Where this client goes: its seat again (by its token), a table, or the lobby; and
        who the player is, proved to the host of `fingerprint` (proven by now)."""
        who = {} if self.person is None else self.person.hello_fields(fingerprint)
        if self.token is not None:
            return Hello(self.name, token=self.token, **who)
        if self.table is not None:
            return Hello(self.name, table=self.table, spectate=self.spectator, **who)
        return Hello(self.name, **who)

    async def _answer(self, reader: asyncio.StreamReader) -> HostRecord:
        """The host's answer in the handshake; HostRefused for a fatal error."""
        async with asyncio.timeout(CONNECT_TIMEOUT):
            answer = await self._read(reader)
        if isinstance(answer, Error):
            raise HostRefused(answer.message)
        return answer

    def _welcomed(self, welcome: Welcome) -> None:
        self.host_id = welcome.host
        self.table = welcome.table
        self.seat = welcome.seat
        self.spectator = bool(welcome.spectator)
        if welcome.token is not None or welcome.table is None:
            self.token = welcome.token

    async def _read(self, reader: asyncio.StreamReader) -> HostRecord:
        frame, msg = await read_frame(reader)
        if self.on_frame is not None:
            self.on_frame(frame)
        self._last_heard = time.monotonic()
        return parse_host_message(msg)

    def _answer_asked(self, msg: HostRecord) -> bool:
        """Hand `msg` to the first `ask` that awaits it: whether one took it."""
        for answers, future in self._asked:
            if not future.done() and answers(msg):
                future.set_result(msg)
                return True
        return False

    def _drop_link(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    async def _run(self) -> None:
        fatal = False
        while True:
            try:
                assert self._reader is not None
                while True:
                    msg = await self._read(self._reader)
                    if self._asked and self._answer_asked(msg):
                        continue
                    match msg:
                        case Pong():
                            continue
                        case Welcome():
                            self._welcomed(msg)
                        case State():
                            msg = self.event_log.full_state(msg)
                        case ReplayStep():
                            msg = self.event_log.full_replay_step(msg)
                        case Error(fatal=True) | Closed():
                            # The host turned this client away, or its table is gone for
                            # good: nothing to come back to.
                            fatal = True
                            self.refused = HostRefused(msg.message)
                    self._inbox.put_nowait(msg)
            except (asyncio.IncompleteReadError, ConnectionError, OSError, ProtocolError) as error:
                log.info("link to %s:%d lost: %s", self.host, self.port, error or "closed")
            self._drop_link()
            if fatal or not self.reconnect or self.status == CLOSED:
                break
            if not await self._reconnect():
                break
        self.status = CLOSED
        self._inbox.put_nowait(None)
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()

    async def _reconnect(self) -> bool:
        self.status = RECONNECTING
        self._inbox.put_nowait(Status(RECONNECTING))
        delay, deadline = FIRST_BACKOFF, time.monotonic() + GIVE_UP_AFTER
        while time.monotonic() < deadline:
            await asyncio.sleep(delay)
            try:
                welcome = await self._open()
            except HostRefused as refused:  # said no, or not proven: no more tries
                self.refused = refused
                return False
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ProtocolError):
                delay = min(delay * 2, MAX_BACKOFF)
                await self._follow_host()
                continue
            self._inbox.put_nowait(Status(CONNECTED))
            self._inbox.put_nowait(welcome)
            return True
        return False

    async def _follow_host(self) -> None:
        """Ask `locate` where our host is now, and try there next."""
        if self.locate is None or self.host_id is None:
            return
        with contextlib.suppress(Exception):  # discovery failing must not end the reconnect
            found = await self.locate(self.host_id, self.table)
            if found is not None and tuple(found) != (self.host, self.port):
                log.info("host %s moved to %s:%d", self.host_id, *found)
                self.host, self.port = found

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_interval)
            if self.status != CONNECTED:
                continue
            if time.monotonic() - self._last_heard > self.dead_after:
                log.info("host %s:%d silent for %g s; reconnecting", self.host, self.port,
                         self.dead_after)
                if self._writer is not None:
                    self._writer.transport.abort()
                continue
            with contextlib.suppress(ConnectionError):
                await self.send(Ping())

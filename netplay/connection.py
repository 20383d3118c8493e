"""The host's end of one client: its connection, what it has been told, and the state fan-out.

Every frame to a client goes through the store's `CommitGate`, so nobody is told of an action
that a power cut could take back. Each connection has a bounded outbound buffer, so a client
that stops reading delays nobody: when its buffer overflows it is disconnected and its seat
waits for a reconnect with the token.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import engine
from netplay.errors import FatalError, ProtocolError, Refusal, Rejection, VersionMismatch
from netplay.limits import HostLimits
from netplay.pairing import HostPairing
from netplay.frames import PROTOCOL_VERSION, SENT_FRAME, encode, read_message
from netplay.legal import pack_legal
from netplay.protocol import (
    ClientMessage,
    Error,
    Hello,
    HostMessage,
    PairRequest,
    State,
    parse_client_message,
)
from netplay.ratelimit import RateLimit
from netplay.store import CommitGate
from netplay.transport import Door, waiting_bytes

if TYPE_CHECKING:
    from netplay.tables import Table

log = logging.getLogger("gaslight.host")

EVENT_TAIL: Final = 40
"""Events a client gets when it joins, comes back, or a new game starts."""
FLUSH_TIMEOUT: Final = 2.0
"""Seconds a closing connection gets to take its last frames (a fatal error, say)."""
SOCKET_SEND_BUFFER: Final = 64 * 1024
"""Kernel send buffer per client, kept small so that a stuck reader fills its buffer soon."""


@dataclass(frozen=True, slots=True)
class Told:
    """What a client has been told of the game."""

    game: engine.Game | None
    """The game it was last sent a state of."""
    through: int
    """How far into that game's log it has been told (an index of `game.events`)."""
    count: int
    """How many events of its own view that was."""


NOTHING_TOLD: Final = Told(None, 0, 0)


def state_frame(told: Told, game: engine.Game, view: dict,
                legal: list[dict]) -> tuple[bytes, Told]:
    """The `state` frame of `view` (built without events) for a viewer that has been told
    `told`, and what it has been told then. One that already follows this game gets the
    events since; one that does not (it joined, came back, or a new game began) gets a tail.
    Either is cut to a shorter tail to fit `SENT_FRAME`."""
    viewer = view["viewer"]
    if told.game is game:
        events = game.events_since(viewer, told.through)
        count = told.count + len(events)
    else:
        events = game.visible_events(viewer)
        count = len(events)
        events = events[-EVENT_TAIL:]
    packed = pack_legal(legal)
    seat = None if viewer == engine.SPECTATOR else viewer
    while True:
        frame = encode(State(view, packed, seat, events, count - len(events)))
        if len(frame) <= SENT_FRAME or not events:
            return frame, Told(game, len(game.events), count)
        events = events[len(events) // 2 + 1:]


class Client:
    """One connection: who it is, where it sits, what it has been told, and its bounded
    outbound buffer."""

    def __init__(self, gate: CommitGate, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, address: str, limits: HostLimits):
        self.gate = gate
        self.reader = reader
        self.writer = writer
        self.address = address
        self.name = ""
        self.table: Table | None = None
        self.seat: int | None = None
        self.spectator = False
        self.last_heard = time.monotonic()
        self.closing = False
        self.welcomed = False
        """Whether the handshake is done: a lobby visitor gets `tables` pushes only after."""
        self.paired = False
        """Whether this connection gave the table code (private tables ask it)."""
        self.person: str | None = None
        """The id of the person its `hello` proved (`netplay.person`), if it said."""
        self.chat_limit = RateLimit(limits.chat_burst, limits.chat_per_second)
        self.claim_limit = RateLimit(limits.claim_burst, limits.claim_per_second)
        self.hint_limit = RateLimit(limits.hint_burst, limits.hint_per_second)
        self.told: Told = NOTHING_TOLD
        self.outbound_limit = limits.outbound_limit

    def __repr__(self) -> str:
        return f"<Client {self.name!r} from {self.address}>"

    def send(self, msg: HostMessage) -> None:
        self.send_frame(encode(msg))

    def send_frame(self, frame: bytes) -> None:
        if not self.closing:
            self.gate.send(self, frame)

    def enqueue(self, frame: bytes | None) -> None:
        """Write a frame (None: close once all is written), now that the gate let it through.
        The transport writes at once what the socket takes and buffers the rest: no task
        switch per frame, which at ten players is most of what telling them costs."""
        transport = self.writer.transport
        if transport.is_closing():
            return
        if frame is None:
            transport.close()  # after the buffered frames are written
            return
        transport.write(frame)
        waiting = waiting_bytes(transport)
        if waiting > self.outbound_limit:
            log.warning("dropped %r: %d bytes waiting, it is not reading", self, waiting)
            self.abort()

    def fail(self, text: str) -> None:
        """Send a fatal error, then close once it is written."""
        if self.closing:
            return
        self.send(Error(text, fatal=True))
        self.close_after_flush()

    def close_after_flush(self) -> None:
        """Close once every frame sent so far is written."""
        if not self.closing:
            self.closing = True
            self.gate.send(self, None)

    def abort(self) -> None:
        self.closing = True
        self.writer.transport.abort()

    async def finish(self) -> None:
        """Wait a little for the last frames (a fatal error, say) to go, then close."""
        self.close_after_flush()
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            async with asyncio.timeout(FLUSH_TIMEOUT):
                await self.writer.wait_closed()
        self.writer.transport.abort()


def tell(clients: Iterable[Client], msg: HostMessage) -> None:
    """Send one message to many clients, encoded once."""
    frame = encode(msg)
    for client in clients:
        client.send_frame(frame)


def push_state(table: Table, only: Client | None = None) -> None:
    """Send each client at the table (or `only` that one) its own view, legal actions and new
    events. The views are built together: what all of them show alike is built once."""
    game = table.game
    if game is None:
        return
    told_of = [c for c in ([only] if only is not None else table.clients())
               if c.spectator or c.seat is not None]
    views = game.views({engine.SPECTATOR if c.spectator else c.seat for c in told_of})
    shared: dict[tuple, tuple[bytes, Told]] = {}  # spectators told alike share a frame
    for client in told_of:
        told = client.told
        if client.spectator:
            key = (told.game is game, told.through, told.count)
            if key not in shared:
                shared[key] = state_frame(told, game, views[engine.SPECTATOR], [])
            frame, client.told = shared[key]
        else:
            frame, client.told = state_frame(told, game, views[client.seat],
                                             game.legal_actions(client.seat))
        client.send_frame(frame)


class Connections:
    """Every client connected to one host: each served from its `hello` to its end, with the
    limits on how many, how fast to say hello, and how long to stay silent."""

    def __init__(self, gate: CommitGate, limits: HostLimits, door: Door, pairing: HostPairing,
                 on_hello: Callable[[Client, Hello], None],
                 on_request: Callable[[Client, ClientMessage], Awaitable[None]],
                 on_gone: Callable[[Client], None]) -> None:
        self.gate = gate
        self.limits = limits
        self.door = door
        self.pairing = pairing
        self.on_hello, self.on_request, self.on_gone = on_hello, on_request, on_gone
        self.clients: set[Client] = set()
        self._serving: set[asyncio.Task] = set()
        self._opening: set[asyncio.Task] = set()
        """Connections still at the door: cancelled when the host stops."""
        self._per_address: collections.Counter[str] = collections.Counter()

    def __len__(self) -> int:
        return sum(self._per_address.values())

    def lobby_visitors(self) -> list[Client]:
        return [c for c in self.clients if c.welcomed and c.table is None]

    def next_silence_deadline(self) -> float | None:
        """When the client heard from longest ago will have been silent too long."""
        heard = [c.last_heard for c in self.clients if not c.closing]
        return min(heard) + self.limits.heartbeat_timeout if heard else None

    def drop_silent(self, now: float) -> None:
        timeout = self.limits.heartbeat_timeout
        for client in list(self.clients):
            if client.last_heard <= now - timeout and not client.closing:
                log.info("dropped %r: silent for %g seconds", client, timeout)
                client.abort()

    def abort_all(self) -> None:
        for client in list(self.clients):
            client.abort()

    async def close(self) -> None:
        """Cut every connection, and wait (a little) for each to be put away."""
        self.abort_all()
        for task in self._opening:
            task.cancel()
        if self._serving:
            await asyncio.wait(list(self._serving), timeout=FLUSH_TIMEOUT + 1)

    def accept(self, sock: socket.socket, peer: tuple) -> None:
        """Serve a freshly accepted socket, in a task of its own."""
        task = asyncio.get_running_loop().create_task(self.serve(sock, str(peer[0])))
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    async def serve(self, sock: socket.socket, address: str) -> None:
        """One connection from its first byte to its end: the door (TLS, or a plain refusal),
        then the client's pairing if it asks, its `hello`, and its requests."""
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_SEND_BUFFER)
            # asyncio sets this only on sockets it made itself with IPPROTO_TCP: without it,
            # a frame written right after another waits for the client's delayed ACK (40 ms).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = asyncio.current_task()
        assert task is not None
        self._per_address[address] += 1
        if self._per_address[address] > self.limits.max_connections_per_address:
            # Closed before its handshake: one address may not take every handshake's turn.
            log.warning("refused a connection from %s: over %d connections", address,
                        self.limits.max_connections_per_address)
            sock.close()
            self._gone(address)
            return
        self._opening.add(task)
        try:
            streams = await self.door.open(sock)
        except (asyncio.TimeoutError, ssl.SSLError, ConnectionError, OSError) as error:
            log.info("no TLS with %s: %s", address, error or type(error).__name__)
            streams = None
        except BaseException:
            sock.close()
            self._gone(address)
            raise
        finally:
            self._opening.discard(task)
        if streams is None:
            sock.close()
            self._gone(address)
            return
        client = Client(self.gate, *streams, address, self.limits)
        self.clients.add(client)
        try:
            await self._serve_client(client)
        finally:
            self.clients.discard(client)
            self._gone(address)

    def _gone(self, address: str) -> None:
        self._per_address[address] -= 1
        if not self._per_address[address]:
            del self._per_address[address]

    async def _handshake_message(self, client: Client, what: str) -> ClientMessage:
        """The next message of a client in its handshake, within the handshake timeout."""
        timeout = self.limits.handshake_timeout
        try:
            async with asyncio.timeout(timeout):
                message = parse_client_message(await read_message(client.reader))
        except asyncio.TimeoutError:
            raise Rejection(f"no {what} within {timeout:g} seconds") from None
        client.last_heard = time.monotonic()
        return message

    async def _hello(self, client: Client) -> Hello:
        """The client's `hello`: its first message, or the one right after it paired. A client
        that pairs says nothing else first, so nothing of its player's travels before it has
        proven the host (PROTOCOL.md, "Transport")."""
        match await self._handshake_message(client, "hello"):
            case Hello() as hello:
                return hello
            case PairRequest(msg=msg):
                await self.pairing.run(msg, client.address, client.send,
                                       lambda: read_message(client.reader))
                client.paired = True
            case other:
                raise ProtocolError(f"the first message must be 'pair' or 'hello', not "
                                    f"{other.TAG!r}")
        hello = await self._handshake_message(client, "hello after pairing")
        if not isinstance(hello, Hello):
            raise ProtocolError(f"after pairing comes 'hello', not {hello.TAG!r}")
        return hello

    async def _serve_client(self, client: Client) -> None:
        reader = client.reader
        try:
            self.on_hello(client, await self._hello(client))
            while not client.closing:
                incoming = await read_message(reader)
                client.last_heard = time.monotonic()
                try:
                    await self.on_request(client, parse_client_message(incoming))
                except Refusal as refusal:
                    client.send(Error(str(refusal), fatal=False))
                # A burst of frames already buffered would otherwise be handled without a
                # pause: let the other connections have their turn between requests.
                await asyncio.sleep(0)
        except VersionMismatch as error:
            # In a frame of this version, which an older client decodes enough of to report
            # the mismatch to its player.
            client.fail(f"protocol version {error.version!r} is not supported: this host "
                        f"speaks Gaslight protocol {PROTOCOL_VERSION}: update Gaslight")
        except FatalError as error:
            client.fail(str(error))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except Exception:
            log.exception("internal error serving %r", client)
            client.fail("internal error at the host; please reconnect")
        finally:
            self.on_gone(client)
            await client.finish()

"""Where `gaslight serve` takes its connections: a client that never finishes what a browser
does at once, or holds many connections, costs nothing for long.

aiohttp's own site listens through asyncio's server, which gives a TLS handshake a minute,
waits for a first request without end, and, out of file descriptors, logs every failed accept
with a traceback, over and over (millions of lines in minutes). So the server accepts here:

- **A deadline for the handshake and the first request.** A connection whose first request
  has not arrived `request_deadline` seconds after it was accepted is shut down; aiohttp's
  keep-alive bounds the time between two requests after that.
- **Connections per address, and in all.** One address holds at most
  `connections_per_address` of them and everyone `connections`: the next is closed as soon as
  it is accepted, before any TLS, so that the guests' file descriptors stay free.
- **A failed accept is one line** (`tui.serve.console` prints one of a kind every few seconds
  with a count), and accepting pauses a moment, instead of spinning.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from tui.serve.limits import ServeLimits

log = logging.getLogger("gaslight.serve")

ACCEPT_PAUSE: Final = 0.5
"""Seconds without accepting after an accept failed (out of file descriptors, say)."""
BACKLOG: Final = 128


@dataclass(eq=False)
class Accepted:
    sock: socket.socket
    address: str
    served: bool = False
    """Its first request arrived."""
    deadline: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def open(self) -> bool:
        return self.sock.fileno() != -1


class Listener:
    """Accepts connections for `protocol_factory` (aiohttp's server), over TLS when given a
    context, within the limits."""

    def __init__(self, protocol_factory: Callable[[], asyncio.Protocol], limits: ServeLimits,
                 context: ssl.SSLContext | None) -> None:
        self.protocol_factory = protocol_factory
        self.limits = limits
        self.context = context
        self.accepted: dict[int, Accepted] = {}
        """The connections accepted, by file descriptor (closed ones go at the next accept)."""
        self.port = 0
        self._socket: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._adopting: set[asyncio.Task[None]] = set()

    def start(self, host: str, port: int) -> int:
        """Listen on `host`:`port` (0: a free one); the port."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family, backlog=BACKLOG)
        self._socket.setblocking(False)
        self.port = self._socket.getsockname()[1]
        self._accepting = asyncio.get_running_loop().create_task(self._accept())
        return self.port

    def connections_from(self, address: str) -> int:
        return sum(1 for c in self.accepted.values() if c.address == address and c.open)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._socket is not None
        while True:
            try:
                sock, peer = await loop.sock_accept(self._socket)
            except OSError as error:
                log.warning("cannot accept a connection: %s", error.strerror or error)
                await asyncio.sleep(ACCEPT_PAUSE)
                continue
            self._forget_closed()
            address = peer[0]
            if (len(self.accepted) >= self.limits.connections
                    or self.connections_from(address) >= self.limits.connections_per_address):
                sock.close()
                continue
            connection = Accepted(sock, address)
            self.accepted[sock.fileno()] = connection
            connection.deadline = loop.call_later(self.limits.request_deadline, self._expire,
                                                  connection)
            task = loop.create_task(self._adopt(connection))
            self._adopting.add(task)
            task.add_done_callback(self._adopting.discard)

    def _forget_closed(self) -> None:
        for fd, connection in list(self.accepted.items()):
            if not connection.open:
                del self.accepted[fd]
                if connection.deadline is not None:
                    connection.deadline.cancel()

    async def _adopt(self, connection: Accepted) -> None:
        loop = asyncio.get_running_loop()
        try:
            if self.context is None:
                await loop.connect_accepted_socket(self.protocol_factory, connection.sock)
            else:
                await loop.connect_accepted_socket(
                    self.protocol_factory, connection.sock, ssl=self.context,
                    ssl_handshake_timeout=self.limits.request_deadline)
        except (OSError, ssl.SSLError, EOFError):
            connection.sock.close()  # a broken-off handshake: nothing to say about it

    def _expire(self, connection: Accepted) -> None:
        """The connection's first request is overdue: shut it down (its transport closes
        itself on the end of the stream)."""
        connection.deadline = None
        if not connection.served and connection.open:
            with contextlib.suppress(OSError):
                connection.sock.shutdown(socket.SHUT_RDWR)

    def served(self, transport: asyncio.BaseTransport | None) -> None:
        """A request arrived on `transport`: its connection has made its first."""
        sock = transport.get_extra_info("socket") if transport is not None else None
        connection = self.accepted.get(sock.fileno()) if sock is not None else None
        if connection is not None and not connection.served:
            connection.served = True
            if connection.deadline is not None:
                connection.deadline.cancel()
                connection.deadline = None

    async def close(self) -> None:
        """Stop accepting; shut down the connections that never made a request."""
        if self._accepting is not None:
            self._accepting.cancel()
            await asyncio.wait([self._accepting])
        if self._socket is not None:
            self._socket.close()
        for connection in self.accepted.values():
            if not connection.served:
                self._expire(connection)
        for task in list(self._adopting):
            task.cancel()

"""Machines on the path between a client and a host, on 127.0.0.1: a relay that records what
someone on the LAN would capture, and a machine in the middle that ends the client's TLS with
a key of its own and reads everything the client says to it."""

from __future__ import annotations

import asyncio
import contextlib

from netplay.transport import HostKey, open_tls

from support.hosts import TIMEOUT


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                heard: bytearray) -> None:
    """Copy one direction until it ends, keeping every byte in `heard`."""
    with contextlib.suppress(Exception):
        while data := await reader.read(65536):
            heard += data
            writer.write(data)
            await writer.drain()
    writer.close()


class RecordingRelay:
    """A TCP relay on 127.0.0.1 that forwards each connection to `target_port` and keeps every
    byte it carries, both ways: what someone on the LAN would capture. `cut` drops the links it
    carries, and a new `target_port` sends the next ones elsewhere: a link lost, and the
    reconnect landing on whoever answers there."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.captured = bytearray()
        self.connections = 0
        self.server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> int:
        self.server = await asyncio.start_server(self.relay, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def __aexit__(self, *exc) -> None:
        self.server.close()
        self.cut()

    def cut(self) -> None:
        for writer in self._links:
            writer.transport.abort()

    async def relay(self, client_reader, client_writer) -> None:
        self.connections += 1
        try:
            host_reader, host_writer = await asyncio.open_connection("127.0.0.1",
                                                                     self.target_port)
        except OSError:
            client_writer.transport.abort()
            return
        self._links |= {client_writer, host_writer}
        try:
            await asyncio.gather(_pump(client_reader, host_writer, self.captured),
                                 _pump(host_reader, client_writer, self.captured))
        finally:
            self._links -= {client_writer, host_writer}


class MachineInTheMiddle:
    """An active attacker on the path: it ends the client's TLS with a key of its own, opens
    its own TLS to the real host, and relays what it reads either way. It keeps, in the clear,
    everything the client said to it (`heard`), so a test can look for the player's secrets
    there."""

    def __init__(self, key: HostKey, host_port: int):
        self.key, self.host_port = key, host_port
        self.heard = bytearray()
        self.connections = 0
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> int:
        self.server = await asyncio.start_server(self.relay, "127.0.0.1", 0,
                                                 ssl=self.key.server_context())
        return self.server.sockets[0].getsockname()[1]

    async def __aexit__(self, *exc) -> None:
        self.server.close()

    def heard_any(self, *secrets: str | None) -> list[str]:
        """Those of `secrets` (a token, a name, a table id, a chat line) it read."""
        return [s for s in secrets if s and s.encode() in self.heard]

    async def relay(self, client_reader, client_writer) -> None:
        self.connections += 1
        try:
            host_reader, host_writer = await open_tls("127.0.0.1", self.host_port, TIMEOUT)
        except OSError:  # the host is gone, or the client was quicker to hang up
            client_writer.transport.abort()
            return
        await asyncio.gather(_pump(client_reader, host_writer, self.heard),
                             _pump(host_reader, client_writer, bytearray()))

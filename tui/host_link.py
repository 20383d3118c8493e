"""One connection to a host, read by one worker: how a table, and a replay with a connection of
its own, hear the host.

The screen says how to open the connection (through the backend, the TUI's only door). The link
runs the reading worker on the screen, hands the screen each message the host sends, in order,
and says how the connection stands (`ConnectionStatusChanged`), in words when it ends: a
refusal as the host or the key check worded it, a wrong code as `CodeRefused`.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from textual.screen import Screen

from netplay import protocol as wire
from tui.address import Address
from tui.listing import connect_error_text
from tui.messages import CodeRefused, ConnectionStatusChanged

NET = "net"
"""The screen's worker group that reads the connection."""


class HostLink:
    def __init__(self, screen: Screen, address: Address, *,
                 opened: Callable[[Any], None], received: Callable[[Any], None]) -> None:
        """`opened` is given the connection once it is open, before any message it brings;
        `received`, every message in turn."""
        self.screen = screen
        self.address = address
        self.opened = opened
        self.received = received
        self.connection: Any = None

    def open(self, connect: Callable[[], Awaitable[Any]]) -> None:
        self.screen.run_worker(self.run(connect), group=NET, exclusive=True)

    async def run(self, connect: Callable[[], Awaitable[Any]]) -> None:
        from netplay.client import WrongCode

        post = self.screen.post_message
        try:
            connection = await connect()
        except WrongCode as error:
            post(CodeRefused(connect_error_text(self.address, error)))
            return
        except Exception as error:  # unreachable, or refused: wrong version, full, unknown table
            post(ConnectionStatusChanged("closed", connect_error_text(self.address, error)))
            return
        self.connection = connection
        post(ConnectionStatusChanged(connection.status))
        self.opened(connection)
        try:
            async for message in connection:
                self.received(message)
        except Exception as error:
            post(ConnectionStatusChanged("closed", f"Lost the host: {error}"))
            return
        refused = connection.refused  # the host said no, or its key changed, or a wrong code
        post(ConnectionStatusChanged("closed", connect_error_text(self.address, refused)
                                     if refused else f"The host at {self.address} is gone."))

    async def send(self, message: wire.ClientMessage) -> str | None:
        """Send `message`; what went wrong, in words, if it could not go."""
        if self.connection is None:
            return "Not connected: that was not sent."
        try:
            await self.connection.send(message)
        except (OSError, ConnectionError) as error:
            return f"Could not send: {error}"
        return None

    async def close(self, farewell: wire.ClientMessage | None = None) -> None:
        """Stop reading and close the connection, saying `farewell` first if it is still up.
        Always works, even on a dead connection."""
        self.screen.workers.cancel_group(self.screen, NET)
        connection, self.connection = self.connection, None
        if connection is None:
            return
        try:
            if farewell is not None and connection.status == "connected":
                await connection.send(farewell)
            await connection.close()
        except Exception:
            pass

"""What a guest's page may send its app, and how fast.

textual-serve's page speaks JSON lists over its websocket: `["stdin", keys]`, `["resize",
{"width": w, "height": h}]`, `["ping", text]`, `["focus"]` and `["blur"]`. Each is checked
here before it reaches the app: a message of any other shape closes the page's socket (one
line in the log at most, `tui.serve.console`), a size is held within the limits, and the page
is read no faster than `stdin_per_second` on average (a resize counts as `RESIZE_COST`), so a
flood of keys or of new sizes waits in the page's own socket instead of in the app. A message larger than `stdin_message` is refused by the
websocket itself (close code 1009).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable

from aiohttp import WSMsgType, web

from tui.serve.limits import ServeLimits
from tui.serve.session import GuestSession

log = logging.getLogger("gaslight.serve")

PING_TEXT = 64
"""Characters of a ping's text: the page sends a clock reading."""
RESIZE_COST = 1024
"""Bytes of the allowance a resize takes: the app draws its whole screen again, which costs
it as much as a paste does (a page resizes when its window does, a few times a second at
most)."""


class PageRefused(ValueError):
    """A message no page of ours sends."""


class Allowance:
    """A token bucket of bytes: `burst` at once, `per_second` on average."""

    def __init__(self, per_second: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.left = burst
        self.at = clock()

    def wait_for(self, size: int) -> float:
        """Take `size` bytes: the seconds to wait before they may go on."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.at) * self.per_second)
        self.at = now
        self.left -= size
        return max(0.0, -self.left / self.per_second)


def parse_message(text: str, limits: ServeLimits) -> tuple[str, object]:
    """One message from a page: its kind and what it carries, the size held in the limits."""
    try:
        message = json.loads(text)
    except ValueError:
        raise PageRefused("not JSON") from None
    match message:
        case ["stdin", str(keys)]:
            return "stdin", keys
        case ["resize", {"width": int(width), "height": int(height)}]:
            return "resize", limits.screen(width, height)
        case ["ping", str(clock)] if len(clock) <= PING_TEXT:
            return "ping", clock
        case ["focus"] | ["blur"]:
            return message[0], None
    raise PageRefused("a message of no known shape")


PACED_LOOK = 0.25
"""Seconds between two looks at whether a page that is read slowly has gone meanwhile."""


async def read_page(websocket: web.WebSocketResponse, session: GuestSession,
                    limits: ServeLimits, transport: asyncio.BaseTransport | None) -> None:
    """Pass the page's messages to its app until the page closes, goes quiet for too long,
    or sends what no page sends. `transport` is the page's connection: one that ends while
    its messages wait their turn ends the page at once, not once they are read."""
    allowance = Allowance(limits.stdin_per_second, limits.stdin_message)
    # A real page sends its size and a ping as soon as its socket opens.
    quiet = limits.first_message
    while True:
        try:
            message = await websocket.receive(timeout=quiet)
        except (TimeoutError, asyncio.TimeoutError):
            log.info("a page sent nothing for %.0f s: its app ends", quiet)
            return
        quiet = limits.idle
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED,
                            WSMsgType.ERROR):
            return
        if message.type != WSMsgType.TEXT:
            log.warning("a page sent a message that is not text: closed")
            return
        try:
            kind, value = parse_message(message.data, limits)
        except PageRefused as refused:
            log.warning("a page sent %s: closed", refused)
            return
        paced_until = time.monotonic() + allowance.wait_for(
            RESIZE_COST if kind == "resize" else len(message.data))
        while (left := paced_until - time.monotonic()) > 0:
            if transport is None or transport.is_closing():
                return
            await asyncio.sleep(min(left, PACED_LOOK))
        match kind:
            case "stdin":
                await session.send_input(value.encode("utf-8", "replace"))  # type: ignore[union-attr]
            case "resize":
                width, height = value  # type: ignore[misc]
                await session.send_meta({"type": "resize", "width": width, "height": height})
            case "ping":
                await websocket.send_json(["pong", value])
            case _:
                await session.send_meta({"type": kind})

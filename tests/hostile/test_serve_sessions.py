"""Issue 45, 1: every guest's app ends, and its session is freed, whatever its page does.

Each attack is made on a real `gaslight serve` over real sockets, with no browser: a client
takes a cookie, opens the page's socket and then floods it, stops reading, asks for a huge
screen or just goes. Each test then checks the server's session count, that every app the
attack started is gone (by pid), and that a new guest gets an app.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket
from pathlib import Path

import aiohttp
import pytest
from hostile.serve_attack import (NAME_ASKED, REAPED, SHORT, RawGuest, a_new_guest_gets_an_app,
                                  alive, apps_started, close_code, gone, masked_text_frame,
                                  screen_until, serve, sessions_become)  # noqa: F401
from support.waiting import failing_after

from tui.serve.limits import ServeLimits

pytestmark = pytest.mark.xdist_group("serve")

ENDS_WITHIN = SHORT["exit_grace"] + REAPED
"""Seconds from a page's end to its app's."""


def app_screen(pid: int) -> tuple[int, int]:
    """The screen an app was started at (its COLUMNS and ROWS)."""
    environment = dict(line.split("=", 1) for line in
                       Path(f"/proc/{pid}/environ").read_text().split("\0") if "=" in line)
    return int(environment["COLUMNS"]), int(environment["ROWS"])


async def test_a_flood_of_keys_then_a_closed_or_dropped_page_ends_its_app(serve):
    """Two guests fill a two-session server: one sends a 400 KB paste of Tabs, which the
    socket refuses (1009, too big), the other sends a burst of the largest messages a page
    may send, then drops its connection without a goodbye. Both apps are gone within the
    grace, the server counts no session, and a new guest gets an app."""
    attacked = serve("--max-sessions", "2")
    limit = ServeLimits().stdin_message
    async with RawGuest(attacked.url) as pasting, RawGuest(attacked.url) as flooding:
        for guest in (pasting, flooding):
            assert (await guest.visit())[0] == 200
        pasted = await pasting.socket()
        flooded = await flooding.socket()
        for websocket in (pasted, flooded):
            await screen_until(websocket, NAME_ASKED)
        apps = await apps_started(attacked, 2)
        await sessions_become(attacked, 2)
        async with RawGuest(attacked.url) as third:
            assert (await third.visit())[0] == 503  # full: no page, no app

        await pasted.send_str('["stdin", "' + "\\t" * 400_000 + '"]')
        assert await close_code(pasted) == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        burst = '["stdin", "' + "\\t" * (limit - 20) + '"]'
        for _ in range(20):
            await flooded.send_str(burst)
        # No close frame: the connection just ends, as a phone's does when it leaves the LAN
        # (unless the server ended it first: this page does not read its screen either).
        with contextlib.suppress(OSError):
            flooded.get_extra_info("socket").shutdown(socket.SHUT_RDWR)

        await gone(apps, ENDS_WITHIN + 1, "the flooded apps")
    await sessions_become(attacked, 0)
    assert attacked.apps() == []
    await a_new_guest_gets_an_app(attacked)


async def test_a_huge_screen_that_is_never_read_ends_its_app(serve):
    """A page asks for 10000x10000 cells, by its address and by resizes, and reads nothing:
    its app draws at the largest size the server allows, and ends once a screen update has
    waited `send_deadline` for the page. The single session is free again."""
    attacked = serve("--max-sessions", "1")
    limits = ServeLimits()
    async with RawGuest(attacked.url) as guest:
        await guest.visit()
        stalled = await guest.stalled_socket(10_000, 10_000, [["ping", "0"]])
        (app,) = await apps_started(attacked, 1)
        assert app_screen(app) == (limits.columns, limits.rows)
        # Each new size is a whole new screen, about 100 KB at the largest: soon more than
        # the sockets' buffers hold, when nobody reads them.
        async with failing_after(SHORT["send_deadline"] + ENDS_WITHIN + 20, "the unread app"):
            for step in itertools.count():
                if not alive(app):
                    break
                width = 10_000 if step % 2 else limits.columns - 1
                stalled.write(masked_text_frame(
                    json.dumps(["resize", {"width": width, "height": 10_000}]).encode()))
                await asyncio.sleep(0.1)
        assert "read nothing for" in attacked.log()
        await sessions_become(attacked, 0)
        await a_new_guest_gets_an_app(attacked)
        stalled.close()
    assert attacked.apps() == []


async def test_a_socket_that_never_opens_a_page_ends_its_app(serve):
    """A websocket that says nothing (no page sends nothing: its size and a ping go at once)
    costs an app for `first_message` seconds; the session is free again after."""
    attacked = serve("--max-sessions", "1")
    async with RawGuest(attacked.url) as guest:
        await guest.visit()
        websocket = await guest.socket(greet=False)
        (app,) = await apps_started(attacked, 1)
        await close_code(websocket, SHORT["first_message"] + ENDS_WITHIN)
        await gone([app], ENDS_WITHIN, "the app of a socket that said nothing")
    await sessions_become(attacked, 0)
    await a_new_guest_gets_an_app(attacked)

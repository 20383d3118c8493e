"""Issue 45, 5: the owner's console stays the owner's.

Guests choose what a request's line and headers hold, and what their page's socket sends:
none of it reaches the server's console as it is (a C1 control, U+009B, is a terminal's
command), a malformed request or message costs one line at most, never a traceback, and the
access log, which printed each request's raw User-Agent and Referer, is off.
"""

from __future__ import annotations

import asyncio
import ssl

import pytest
from hostile.serve_attack import (NAME_ASKED, REAPED, SHORT, RawGuest, a_new_guest_gets_an_app,
                                  apps_started, close_code, gone, screen_until,
                                  serve, sessions_become)  # noqa: F401

from tui.serve.console import UNSAFE

pytestmark = pytest.mark.xdist_group("serve")

HOSTILE = "\x9b31m\x1b]0;owned\x07\x1b[2J\u202eevil"
"""Control sequences a terminal would obey (C1 CSI, an OSC title, a clear screen) and a
right-to-left override."""

MALFORMED_REQUESTS = [
    b"GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: " + HOSTILE.encode("utf-8")
    + b"\r\nReferer: " + HOSTILE.encode("utf-8") + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: \x9b31m\x1b[2J\r\n\r\n",  # C1 as latin-1
    b"GET /\x1b[2J HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Bad: \x9b\x1b[31m\x00\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 20_000 + b"\r\n\r\n",
    b"GET / HTTP/9.9\x07\r\n\r\n",
    b"\x16\x03\x01\x00\xff\xff garbage \x9b\r\n\r\n",
]


async def raw_request(port: int, request: bytes) -> None:
    """Send `request` over TLS on a connection of its own, and read until the server closes."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context)
    writer.write(request)
    await writer.drain()
    try:
        async with asyncio.timeout(SHORT["request_deadline"] + 5):
            while await reader.read(4096):
                pass
    except (ConnectionError, ssl.SSLError):
        pass
    writer.close()


async def test_no_guest_text_reaches_the_console_and_each_malformed_thing_costs_a_line(serve):
    """Visits with control sequences in their headers, malformed requests, and pages whose
    socket sends what no page sends (each closed, its app ended): the log holds no control
    character, no traceback, and at most a line for each malformed thing."""
    attacked = serve()
    for request in MALFORMED_REQUESTS:
        await raw_request(attacked.port, request)

    refused_messages = ["\x9bnot JSON\x1b[2J", '["stdin", 7]', f'["{HOSTILE}"]',
                        '["resize", {"width": "wide"}]', b"\x9b binary"]
    apps = []
    for message in refused_messages:
        async with RawGuest(attacked.url) as guest:
            await guest.visit()
            websocket = await guest.socket()
            await screen_until(websocket, NAME_ASKED)
            apps += await apps_started(attacked, 1)
            if isinstance(message, bytes):
                await websocket.send_bytes(message)
            else:
                await websocket.send_str(message)
            assert await close_code(websocket) is not None
    await gone(apps, SHORT["exit_grace"] + REAPED, "the refused pages' apps")

    log = attacked.log()
    assert not UNSAFE.search(log.replace("\n", "")), log
    assert "Traceback" not in log and HOSTILE not in log
    said = [line for line in log.splitlines() if "session" not in line]
    assert len(said) <= len(MALFORMED_REQUESTS) + len(refused_messages), log
    await sessions_become(attacked, 0)
    await a_new_guest_gets_an_app(attacked)


async def test_the_page_is_served_with_no_access_log(serve):
    """The access log is off: a visit is not a line on the owner's console."""
    attacked = serve()
    async with RawGuest(attacked.url) as guest:
        assert (await guest.visit(**{"User-Agent": "a curious phone"}))[0] == 200
        async with guest.session.get(attacked.url + "static/css/xterm.css") as response:
            assert response.status == 200
    assert "a curious phone" not in attacked.log() and "GET" not in attacked.log()
    await sessions_become(attacked, 0)
    assert attacked.apps() == []
    await a_new_guest_gets_an_app(attacked)

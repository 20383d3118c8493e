"""Issue 45, 3: idle and half-open clients cost nothing for long.

One device opens connections and says nothing on them (no TLS handshake, or a handshake and
no request, or half a request), more than a browser ever opens; another device runs out the
server's file descriptors. A real guest gets the page and an app meanwhile or right after,
each kind of failure costs one line of the log, and no session or app is left.
"""

from __future__ import annotations

import asyncio
import resource
import ssl
import time

import pytest
from hostile.serve_attack import (SHORT, a_new_guest_gets_an_app, serve,  # noqa: F401
                                  sessions_become)

pytestmark = pytest.mark.xdist_group("serve")

PER_ADDRESS = 8
HELD_AT_MOST = SHORT["request_deadline"] + 3.0
"""Seconds a silent connection may stay open on a loaded machine."""


async def silent(port: int, source: str, tls: bool = False, then: bytes = b""):
    """A connection from `source` that completes TLS when `tls`, sends `then` and nothing
    more; its reader."""
    context = None
    if tls:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context,
                                                   local_addr=(source, 0))
    if then:
        writer.write(then)
        await writer.drain()
    return reader, writer


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> float | None:
    """Seconds until the server closed the connection, or None if it held it that long."""
    start = time.monotonic()
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(4096):
                pass
    except TimeoutError:
        return None
    except (ConnectionError, ssl.SSLError):
        pass
    return time.monotonic() - start


async def test_silent_connections_are_bounded_per_address_and_closed_by_a_deadline(serve):
    """Twenty raw connections from one address: the server keeps eight and closes the rest
    at once. Those eight, a handshake without a request, and half a request line, are closed
    by the request deadline. A guest from another address gets an app meanwhile."""
    attacked = serve(connections_per_address=PER_ADDRESS)
    raw = [await silent(attacked.port, "127.0.0.2") for _ in range(20)]
    kept, over = raw[:PER_ADDRESS], raw[PER_ADDRESS:]
    closed_at_once = await asyncio.gather(*(closed_within(reader, 1.0) for reader, _ in over))
    assert None not in closed_at_once, "a connection past the bound was kept"
    assert await closed_within(kept[0][0], 0.2) is None, "a connection within it was not"
    handshaken = await silent(attacked.port, "127.0.0.3", tls=True)
    slow = await silent(attacked.port, "127.0.0.4", tls=True, then=b"GET / HT")
    await a_new_guest_gets_an_app(attacked)

    closed_later = await asyncio.gather(*(closed_within(reader, HELD_AT_MOST)
                                          for reader, _ in [*kept, handshaken, slow]))
    assert None not in closed_later, f"held past the request deadline: {closed_later}"
    for _, writer in [*raw, handshaken, slow]:
        writer.close()
    await sessions_become(attacked, 0)
    assert attacked.apps() == []
    assert "Traceback" not in attacked.log()


DESCRIPTORS = 80
"""The server's file descriptors in the next test: a few dozen connections use them up."""


def few_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, DESCRIPTORS))


async def test_out_of_file_descriptors_accepting_fails_in_one_line(serve):
    """Ten addresses hold eight connections each, more than the server has descriptors for:
    accepting fails, and the log says so once (asyncio traced every attempt: millions of
    lines). Once they go, a new guest gets an app."""
    attacked = serve(preexec_fn=few_descriptors, connections_per_address=PER_ADDRESS)
    held = [await silent(attacked.port, f"127.0.0.{host}")
            for host in range(2, 12) for _ in range(PER_ADDRESS)]
    await asyncio.sleep(1.0)
    log = attacked.log()
    assert len([line for line in log.splitlines() if "cannot accept a connection" in line]) == 1
    assert "Traceback" not in log
    for _, writer in held:
        writer.close()
    await asyncio.sleep(SHORT["request_deadline"])
    await a_new_guest_gets_an_app(attacked)
    await sessions_become(attacked, 0)

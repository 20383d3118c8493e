"""Issue 45, 2: nothing a guest started outlives the server.

Ctrl+C, SIGTERM and SIGHUP (the terminal running `gaslight serve` closed) end every guest's
app within the grace, even an app that cannot quit (stopped here with SIGSTOP); a server
killed with SIGKILL, as the OOM killer does, takes its apps with it (Linux: the parent-death
signal). The background tables a guest could keep are checked in the browser
(`tests/browser/test_serve_attacks.py`).
"""

from __future__ import annotations

import os
import signal
import sys

import aiohttp
import pytest
from hostile.serve_attack import (NAME_ASKED, REAPED, SHORT, RawGuest, apps_started, gone,
                                  screen_until, serve)  # noqa: F401

pytestmark = pytest.mark.xdist_group("serve")


async def guests_with_apps(attacked, count: int) -> tuple[list, list[int]]:
    """`count` guests, each with a page whose app asks their name; their sockets and apps."""
    sockets = []
    for index in range(count):
        guest = RawGuest(attacked.url, f"127.0.0.{index + 2}")
        await guest.__aenter__()
        await guest.visit()
        websocket = await guest.socket()
        await screen_until(websocket, NAME_ASKED)
        sockets.append((guest, websocket))
    return sockets, await apps_started(attacked, count)


async def leave(sockets) -> None:
    for guest, _ in sockets:
        await guest.__aexit__(None, None, None)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
async def test_the_server_stopped_ends_every_app_even_one_that_cannot_quit(serve, stop):
    """Three guests' apps, one of them stopped (it can neither quit nor read its `quit`): the
    signal ends all three within the grace (and their reaping), and the server exits, its
    last word that no session is left. Nothing listens after: a new guest gets no page."""
    attacked = serve()
    sockets, apps = await guests_with_apps(attacked, 3)
    os.kill(apps[0], signal.SIGSTOP)
    attacked.served.process.send_signal(stop)
    await gone(apps, SHORT["exit_grace"] + REAPED, f"the apps after {stop.name}")
    assert attacked.served.process.wait(timeout=REAPED + 5) == 0
    assert attacked.sessions() == 0
    async with RawGuest(attacked.url) as guest:
        with pytest.raises(aiohttp.ClientConnectionError):
            await guest.visit()
    await leave(sockets)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
async def test_a_server_killed_outright_takes_its_apps_with_it(serve):
    """SIGKILL leaves the server no moment to end anything: each app is killed by the kernel
    as its parent dies (PR_SET_PDEATHSIG), instead of running on, adopted by init."""
    attacked = serve()
    sockets, apps = await guests_with_apps(attacked, 2)
    attacked.served.process.send_signal(signal.SIGKILL)
    attacked.served.process.wait()
    await gone(apps, REAPED, "the apps of a killed server")
    async with RawGuest(attacked.url) as guest:
        with pytest.raises(aiohttp.ClientConnectionError):
            await guest.visit()
    await leave(sockets)

"""latency.py times a view until it reaches a player's socket, as the kernel stamps it, not
until the benchmark's process gets round to reading it (10 players share that process)."""

from __future__ import annotations

import asyncio
import importlib.util
import socket
import sys
import time
from pathlib import Path

import pytest

from netplay.frames import encode, message

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str):
    """A benchmark script as a module, under its own name (latency.py imports `harness`)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


async def received_after_a_wait(player, host_end, wait: float) -> tuple[int, int, dict]:
    """A `state` the host end sends, read by the player `wait` seconds after it was sent."""
    host_end.sendall(encode(message("state", seat=0)))
    time.sleep(wait)  # the benchmark's process is busy elsewhere meanwhile
    player._readable()
    return await player.timed_message()


async def until_the_kernel_stamps(player, host_end) -> None:
    """Linux turns arrival stamps on for the machine in deferred work when the first socket
    asks, and a segment that comes before that work has run is stamped when it is read: under
    load that work can lag the first message. Wait, a little, until a message shows it ran."""
    for _ in range(100):
        reached, read, _ = await received_after_a_wait(player, host_end, 0.02)
        if read - reached >= 10_000_000:
            return
    raise AssertionError("the kernel never stamped an arrival, though it took the option")


async def test_a_view_is_timed_when_it_reaches_the_socket_not_when_it_is_read():
    load("harness")
    latency = load("latency")
    with socket.create_server(("127.0.0.1", 0)) as server:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        if not latency.kernel_stamps(sock):
            pytest.skip("this kernel does not stamp arrivals (the benchmark says so too)")
        await asyncio.get_running_loop().sock_connect(sock, server.getsockname())
        host_end, _ = server.accept()
        player = latency.Player(sock, tls=False)
        try:
            with host_end:
                await until_the_kernel_stamps(player, host_end)
                reached, read, msg = await received_after_a_wait(player, host_end, 0.05)
        finally:
            sock.close()
    assert msg["t"] == "state"
    assert read - reached >= 40_000_000  # nanoseconds: the wait is not the view's
    assert reached <= time.time_ns()

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
                host_end.sendall(encode(message("state", seat=0)))
                time.sleep(0.05)  # the benchmark's process is busy elsewhere meanwhile
                player._readable()
                reached, read, msg = await player.timed_message()
        finally:
            sock.close()
    assert msg["t"] == "state"
    assert read - reached >= 40_000_000  # nanoseconds: the wait is not the view's
    assert reached <= time.time_ns()

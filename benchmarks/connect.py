"""Connecting to a host on loopback: TCP, TLS 1.3 and the hello, first with pairing by the
table code (a first visit), then with the key pinned (every later visit). Goal: pairing under
100 ms.

    uv run python benchmarks/connect.py [--times 50]

The host runs in its own process (see `harness.HostProcess`), as a player's host would on
another machine; each sample is one `Connection.connect` to its welcome, then closed.
"""

from __future__ import annotations

import argparse
import asyncio
import time

# harness first: it keeps scripts in this folder from shadowing the engine package.
from harness import HostProcess, machine_note, median, percentile

from netplay.client import Connection  # noqa: E402
from netplay.pins import KnownHosts  # noqa: E402


async def sample(host: HostProcess, **trust) -> float:
    started = time.perf_counter()
    conn = await Connection.connect("127.0.0.1", host.port, name="Timer", reconnect=False,
                                    **trust)
    elapsed = time.perf_counter() - started
    await conn.close()
    return elapsed


async def main(times: int) -> None:
    print(f"connect to a host on 127.0.0.1 ({machine_note()})")
    async with HostProcess() as host:
        pins = KnownHosts()
        await sample(host, code=host.code, known_hosts=pins)  # warm both processes up
        paired = [await sample(host, code=host.code, known_hosts=KnownHosts())
                  for _ in range(times)]
        pinned = [await sample(host, known_hosts=pins) for _ in range(times)]
    for what, samples in (("first visit, pairing by code", paired),
                          ("later visit, key pinned", pinned)):
        print(f"  {what}: p50 {median(samples) * 1000:.1f} ms, "
              f"p99 {percentile(samples, 0.99) * 1000:.1f} ms ({times} connections)")
    print(f"  goal: pairing under 100 ms: {'met' if percentile(paired, 0.99) < 0.1 else 'MISSED'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=50)
    asyncio.run(main(parser.parse_args().times))

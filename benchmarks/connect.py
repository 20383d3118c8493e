"""Connecting to a host on loopback: TCP, TLS 1.3, the proof of the host and the hello, first
pairing by the table code and taking a seat (a first visit), then taking that seat back with
its token at the key met before (every reconnect, and every later visit). Goals: pairing and
joining under 100 ms (p50), a reconnect to a proven host under 10 ms (p50).

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

JOIN_GOAL, RECONNECT_GOAL = 0.100, 0.010
"""Seconds, at the median."""


async def sample(host: HostProcess, **hello) -> tuple[float, Connection]:
    """The time to one welcome, and the connection (closed)."""
    started = time.perf_counter()
    conn = await Connection.connect("127.0.0.1", host.port, name="Timer", reconnect=False,
                                    **hello)
    elapsed = time.perf_counter() - started
    await conn.close()
    return elapsed, conn


async def main(times: int) -> None:
    print(f"connect to a host on 127.0.0.1 ({machine_note()})")
    async with HostProcess() as host:
        tables = [await host.create_table("timebomb", 5) for _ in range(times + 1)]
        await sample(host, code=host.code, table=tables.pop())  # warm both processes up
        paired, seats = [], []
        for table in tables:
            elapsed, conn = await sample(host, code=host.code, known_hosts=KnownHosts(),
                                         table=table)
            paired.append(elapsed)
            seats.append(conn)
        back = [(await sample(host, token=seat.token, fingerprint=seat.fingerprint))[0]
                for seat in seats]
    for what, samples, goal in (
            ("first visit, pairing by code and taking a seat", paired, JOIN_GOAL),
            ("reconnect with the token, the key met before", back, RECONNECT_GOAL)):
        p50 = median(samples)
        print(f"  {what}: p50 {p50 * 1000:.1f} ms, p99 {percentile(samples, 0.99) * 1000:.1f} "
              f"ms ({times} connections); goal p50 under {goal * 1000:g} ms: "
              f"{'met' if p50 < goal else 'MISSED'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=50)
    asyncio.run(main(parser.parse_args().times))

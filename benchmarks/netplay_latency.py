"""Move latency and fan-out over loopback: N Time Bomb tables of 5 client players each play
one game at once, every move timed from `act` to the actor's next state.

    uv run python benchmarks/netplay_latency.py [--tables 10]

Prints the median and 95th percentile latency and the host's moves and frames per second.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import State

PLAYERS = 5


async def player(conn: Connection, latencies: list[float], frames: list[int]) -> None:
    sent_at = None
    async for msg in conn:
        frames[0] += 1
        if not isinstance(msg, State):
            continue
        if sent_at is not None:
            latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        view = msg.view
        if view["outcome"] is not None:
            return
        cuts = [a for a in msg.legal if a["type"] == "cut"]
        if cuts and conn.seat in view["to_act"]:
            sent_at = time.perf_counter()
            await conn.act(cuts[0])


async def main(tables: int) -> None:
    with tempfile.TemporaryDirectory() as data:
        host = Host(data_dir=Path(data),
                    limits=HostLimits(bot_delay=0, max_connections_per_address=10**6))
        _, port = await host.start()
        latencies: list[float] = []
        frames = [0]
        conns = []
        for _ in range(tables):
            table_id = host.create_table("timebomb", PLAYERS, start_when_full=True)
            for i in range(PLAYERS):
                conns.append(await Connection.connect("127.0.0.1", port, name=f"P{i}",
                                                      table=table_id, code=host.table_code))
        started = time.perf_counter()
        await asyncio.gather(*(player(c, latencies, frames) for c in conns))
        elapsed = time.perf_counter() - started
        moves = sum(len(t.game.history) for t in host.tables.values())
        for conn in conns:
            await conn.close()
        await host.stop()
    latencies.sort()
    print(f"tables: {tables} x {PLAYERS} client players, {moves} moves in {elapsed:.2f} s")
    print(f"move latency (act -> own state), median: {statistics.median(latencies) * 1000:.2f} ms")
    print(f"move latency, 95th percentile: {latencies[int(len(latencies) * 0.95)] * 1000:.2f} ms")
    print(f"host throughput: {moves / elapsed:.0f} moves/s, {frames[0] / elapsed:.0f} frames/s "
          "delivered (each move durable in the store first)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    asyncio.run(main(parser.parse_args().tables))

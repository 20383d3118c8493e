"""How long a busy host takes to stop: rounds of all-bot Time Bomb tables play out on a host
that announces them on loopback (as `gaslight host` announces on the LAN), then `Host.stop()`
is timed, and every table's record is read back to check that nothing told was lost.

    uv run python benchmarks/host_stop.py                  # 5 rounds of 40 tables
    uv run python benchmarks/host_stop.py --rounds 1 --tables 10

Goal (issue 23): a stop within 2 s after any amount of play. Prints the stop's seconds, the
announcements still waiting when it began, and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

from netplay.host import Host
from netplay.limits import HostLimits
from netplay.store import Store
from netplay.tables import restore_table


async def main(rounds: int, tables: int) -> int:
    with tempfile.TemporaryDirectory(prefix="gaslight-stop-") as data:
        host = Host(data_dir=Path(data), limits=HostLimits(bot_delay=0, max_tables=tables),
                    advertise=True, interfaces=["127.0.0.1"])
        await host.start("127.0.0.1", 0)
        histories: dict[str, list] = {}
        for _ in range(rounds):
            # A full host closes finished, empty tables to make room, as on a long evening.
            ids = [host.create_table("timebomb", 5, name=f"Stop {i}", bots=5)
                   for i in range(tables)]
            while any(host.tables[i].phase != "over" for i in ids):
                await asyncio.sleep(0.02)
            histories.update({i: list(host.tables[i].game.history) for i in ids})
        waiting = host._announcer.waiting if host._announcer else 0
        started = time.monotonic()
        await host.stop()
        stopped = time.monotonic() - started
        lost = 0
        with contextlib.closing(Store.open(Path(data))) as store:
            for table_id, history in histories.items():
                lost += restore_table(table_id, store.records(table_id)).game.history != history
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{rounds} rounds of {tables} all-bot tables, announced on loopback")
    print(f"announcements waiting at stop: {waiting}")
    print(f"Host.stop(): {stopped:.2f} s (goal: under 2 s)")
    print(f"tables whose record differs from what was told: {lost} of {len(histories)}")
    print(f"load average: {load}")
    return 0 if stopped < 2 and not lost else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tables", type=int, default=40)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.rounds, args.tables)))

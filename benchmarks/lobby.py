"""An open lobby while tables come and go on loopback: memory, CPU and how fast rows appear.

    uv run python benchmarks/lobby.py [--rounds 5] [--tables 40]

The real app's lobby runs headless in this process (Textual's `run_test`), with discovery on
127.0.0.1 only. One host runs in a child process and, each round, opens `--tables` tables one
after another, then closes them one after another, announcing each on zeroconf. Printed:

- the lobby's memory (RSS) before the rounds and after each; the goal is at most 10 MB of
  growth over 5 rounds of 40;
- the lobby's CPU over the churn, against the CPU the same lobby needs to draw the same lists
  when they are handed to it again directly, one paint each; the goal is within 2x;
- the lobby's CPU over 10 s of a steady list; the goal is about 0;
- seconds from a table's creation at its host to its row in the open lobby (median, p99, max;
  the goal is under 1 s, p99 under 2 s), and from opening a lobby to its first row;
- the rows left listed 30 s after their table closed (ghosts), counted instead of waited
  for;
- seconds from opening a lobby's discovery afresh (`Backend.browse`, what the lobby lists) to
  the host's first row, `--fresh` times, 1.5 s apart (a responder answers a record at most
  once a second): median, p99, max; the goal is a p99 under 2 s (issue 42: about 14 s on a
  machine where other programs share mDNS's port).

Quote the load average (printed) with the figures; measure when it is under 1.5.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GHOST_WAIT = 30.0
"""Seconds a closed table's row may stay listed before it counts as a ghost."""

HOST_SCRIPT = r"""
import asyncio, sys, time
from netplay.host import Host

async def main():
    host = Host(data_dir=sys.argv[1], advertise=True, interfaces=["127.0.0.1"])
    await host.start("127.0.0.1", 0)
    print("ready", host.host_id, flush=True)
    loop = asyncio.get_running_loop()
    gap = float(sys.argv[2])
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or line.strip() == "quit":
            break
        verb, count = line.split()
        if verb == "up":
            for i in range(int(count)):
                table = host.create_table("timebomb", 5, {}, f"Bench {i:02}", bots=2)
                print("created", table, time.time(), flush=True)
                await asyncio.sleep(gap)
        else:
            for table in list(host.tables.values()):
                host.close_table(table, "benchmark")
                await asyncio.sleep(gap)
        print("done", flush=True)
    await host.stop()

asyncio.run(main())
"""


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def say(text: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Seen:
    """Wraps TableList.set_tables: when each table's row first showed, and every list drawn."""

    def __init__(self) -> None:
        self.first: dict[str, float] = {}
        self.lists: list[list] = []

    def install(self) -> None:
        from tui.widgets.table_list import TableList

        original = TableList.set_tables
        seen = self

        def set_tables(table_list, listings):
            listings = list(listings)
            answer = original(table_list, listings)
            now = time.time()
            seen.lists.append(listings)
            for listing in listings:
                seen.first.setdefault(listing.id, now)
            return answer

        TableList.set_tables = set_tables


async def churn(args, seen: Seen, data: Path) -> dict:
    from tui.app import create_app
    from tui.backend import Backend
    from tui.messages import TablesFound
    from tui.widgets.table_list import TableList

    host = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, str(data / "host"), str(args.gap),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parent.parent,
    )
    say("host starting")
    ready = (await host.stdout.readline()).split()
    host_id = ready[1].decode()
    created: dict[str, float] = {}

    async def command(verb: str) -> None:
        host.stdin.write(f"{verb} {args.tables}\n".encode())
        await host.stdin.drain()
        while True:
            words = (await host.stdout.readline()).decode().split()
            if not words:
                raise RuntimeError("the host stopped")
            if words[0] == "created":
                created[words[1]] = float(words[2])
            if words[0] == "done":
                say(f"host: {verb} done")
                return

    say(f"{args.tables} tables up before the lobby opens")
    await command("up")
    backend = Backend(interfaces=["127.0.0.1"], data_dir=data / "lobby", bot_delay=0)
    figures: dict = {"fresh": []}
    say(f"{args.fresh} lobbies opened afresh")
    for _ in range(args.fresh):
        opened = time.monotonic()
        async with asyncio.timeout(60), contextlib.aclosing(backend.browse()) as browsing:
            async for listed in browsing:
                if any(t.host_id == host_id for t in listed):
                    break
        figures["fresh"].append(time.monotonic() - opened)
        await asyncio.sleep(1.5)
    app = create_app(backend, player_name="Bench")
    opened = time.time()
    async with app.run_test(size=(80, 24)) as pilot:
        tables = app.lobby.query_one(TableList)

        async def until(predicate, timeout=120.0):
            end = time.monotonic() + timeout
            while not predicate():
                if time.monotonic() > end:
                    say(f"timed out: {len(ours())} rows of this host's, "
                        f"{len(tables.listings)} in all")
                    os._exit(1)  # Textual would wait for the app that is stuck
                await asyncio.sleep(0.02)

        def ours():
            return [t for t in tables.listings.values() if t.host_id == host_id]

        def listed(ids):
            return {t.id for t in ours()} & ids

        async def until_gone(ids):
            """This round's tables unlisted. A row still there `GHOST_WAIT` seconds after its
            table closed is a ghost: counted, and the rounds go on without it."""
            end = time.monotonic() + GHOST_WAIT
            while listed(ids) and time.monotonic() < end:
                await asyncio.sleep(0.02)
            ghosts.update(listed(ids))

        ghosts: set[str] = set()
        await until(ours)
        figures["first_row"] = time.time() - opened
        await until(lambda: len(listed(set(created))) == args.tables)
        figures["all_rows"] = time.time() - opened

        say("a steady list")
        await pilot.pause(2.0)
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.sleep(args.steady)
        figures["steady_cpu"] = (time.process_time() - cpu) / (time.monotonic() - wall)
        await command("down")
        await until_gone(set(created))

        created.clear()
        seen.first.clear()
        seen.lists.clear()
        gc.collect()
        figures["rss"] = [rss_mb()]
        cpu = time.process_time()
        for round_ in range(args.rounds):
            say(f"round {round_ + 1}")
            before = set(created)
            await command("up")
            this_round = set(created) - before
            await until(lambda: len(listed(this_round)) == args.tables)
            await command("down")
            await until_gone(this_round)
            gc.collect()
            figures["rss"].append(rss_mb())
        figures["churn_cpu"] = time.process_time() - cpu
        figures["lists"] = len(seen.lists)
        say("drawing the same lists in a lobby without discovery")
        lists = list(seen.lists)
        cpu = time.process_time()
        for listings in lists:
            # The same lists again, handed to the lobby as one source of its own: one paint each.
            app.lobby.post_message(TablesFound(listings, "replay"))
            await pilot.pause()
        figures["draw_cpu"] = time.process_time() - cpu
        host.stdin.write(b"quit\n")
        await host.stdin.drain()
        await host.wait()
        figures["appear"] = [seen.first[t] - at for t, at in created.items()
                             if t in seen.first]
        figures["missed"] = len([t for t in created if t not in seen.first])
        figures["ghosts"] = len(ghosts)
        report(args, figures)
        shutil.rmtree(data, ignore_errors=True)
        # Textual's headless exit after this churn can wait on the app for minutes (not
        # understood yet, see the README); the figures are out, so leave at once.
        os._exit(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--gap", type=float, default=0.05,
                        help="seconds between two tables opening (or closing) at the host")
    parser.add_argument("--steady", type=float, default=10.0,
                        help="seconds to watch a steady list")
    parser.add_argument("--fresh", type=int, default=20,
                        help="lobbies opened afresh, timed to their first row")
    args = parser.parse_args()
    print(f"load average before: {load()}")
    seen = Seen()
    seen.install()
    with tempfile.TemporaryDirectory() as data:
        asyncio.run(churn(args, seen, Path(data)))


def report(args, figures: dict) -> None:
    draw_cpu = figures["draw_cpu"]
    rss = figures["rss"]
    appear = sorted(figures["appear"])
    p99 = appear[min(len(appear) - 1, int(len(appear) * 0.99))]
    print(f"{args.rounds} rounds of {args.tables} tables appearing and vanishing, "
          f"{figures['lists']} lists drawn")
    print("memory (RSS, MB): " + " -> ".join(f"{r:.0f}" for r in rss)
          + f"; growth {rss[-1] - rss[0]:+.1f} MB (goal <= 10)")
    print(f"CPU over the churn: {figures['churn_cpu']:.2f} s; drawing the same lists: "
          f"{draw_cpu:.2f} s; ratio {figures['churn_cpu'] / max(draw_cpu, 1e-9):.2f} (goal <= 2)")
    print(f"CPU of a steady list: {figures['steady_cpu'] * 100:.2f}% of a core "
          f"(goal ~0)")
    print(f"host start to row: median {statistics.median(appear):.2f} s, p99 {p99:.2f} s, "
          f"max {appear[-1]:.2f} s over {len(appear)} tables, {figures['missed']} never shown "
          "(goal < 1 s, p99 < 2 s)")
    print(f"rows left listed {GHOST_WAIT:g} s after their table closed (ghosts): "
          f"{figures['ghosts']}")
    print(f"lobby opened to first row: {figures['first_row']:.2f} s; to all {args.tables}: "
          f"{figures['all_rows']:.2f} s")
    fresh = sorted(figures["fresh"])
    if fresh:
        print(f"discovery opened afresh to the host's first row: median "
              f"{statistics.median(fresh):.2f} s, p99 "
              f"{fresh[min(len(fresh) - 1, int(len(fresh) * 0.99))]:.2f} s, max {fresh[-1]:.2f} s "
              f"over {len(fresh)} (goal: p99 < 2 s)")
    print(f"load average after: {load()}", flush=True)


if __name__ == "__main__":
    main()

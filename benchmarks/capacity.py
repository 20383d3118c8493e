"""Capacity: how many 5-player tables one host serves on one core while the p99 from an action
sent to the last view received stays under 20 ms, and the host's memory per table.

    uv run python benchmarks/capacity.py [--tables 50 100 200 300 400 600] [--think 1.0]
                                         [--runs 3] [--duration 5]

The host runs in its own process pinned to core 0, its store on the real disk, fsynced; this
process holds every bot client (`netplay.client.Connection`s, with their heartbeats) pinned to
core 1. At each step, that many Time Bomb tables of 5 client players play at once: at each
table a random seat that may act waits a think time (uniform, `think` on average), then plays
the random bot's move from its own view, and the sample ends when all 5 clients have that
move's `state`. After a warm-up, `runs` windows of `duration` seconds each give a p99; the
step's figure is their median. The steps stop at the first one over the limit. Memory per
table is the host's resident growth from its empty start to the step's tables in play,
divided by the tables (their connections, queues and records included).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import time
from dataclasses import dataclass, field

# harness first: it keeps scripts in this folder from shadowing the engine package.
from harness import (HostProcess, machine_note, median, percentile, pin_to_cpu,
                     process_cpu_seconds, raise_open_file_limit, within)

import engine  # noqa: E402
from netplay.client import Connection
from netplay.protocol import Error, PlayAgain, State

GAME = "timebomb"
PLAYERS = 5
LIMIT = 0.020
"""The p99 action-to-view a table may see, in seconds."""
TIMEOUT = 30.0
HOST_CPU, CLIENT_CPU = 0, 1


@dataclass
class Samples:
    """(sent at, seconds to the last view) for every action, across all tables."""
    timings: list[tuple[float, float]] = field(default_factory=list)

    def window(self, start: float, end: float) -> list[float]:
        return [took for sent, took in self.timings if start <= sent < end]


async def next_state(conn: Connection) -> tuple[float, State]:
    while True:
        msg = await conn.next_message(TIMEOUT)
        if isinstance(msg, State):
            return time.perf_counter(), msg
        if isinstance(msg, Error):
            raise RuntimeError(f"the host refused a benchmark action: {msg.message}")


async def seat_table(host: HostProcess, index: int) -> list[Connection]:
    table = await host.create_table(GAME, PLAYERS)
    return list(await asyncio.gather(*(
        Connection.connect("127.0.0.1", host.port, name=f"T{index}P{i}", table=table,
                           reconnect=False, code=host.code) for i in range(PLAYERS))))


def slim(msg: State) -> dict:
    """What a bot client keeps of a `state`. The random bot reads only the legal actions, and
    one process holding the full views of hundreds of seats would spend its time in garbage
    collection, which clients on machines of their own never do."""
    view = msg.view
    return {"to_act": view["to_act"], "over": view["outcome"] is not None, "legal": msg.legal}


async def play_table(conns: list[Connection], think: float, rng: random.Random,
                     samples: Samples) -> None:
    """Play games at one table, back to back, until cancelled."""
    bot = engine.GAMES[GAME].BOTS["random"]
    by_seat = {c.seat: c for c in conns}
    states = {c.seat: slim(msg) for c in conns for _, msg in [await next_state(c)]}
    while True:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        public = states[conns[0].seat]
        if public["over"]:
            for conn in conns:  # a new game once everyone has asked
                await conn.send(PlayAgain())
            states = {c.seat: slim(msg) for c in conns for _, msg in [await next_state(c)]}
            continue
        seat = rng.choice(sorted(public["to_act"]))
        action = bot({}, states[seat]["legal"], rng)
        sent = time.perf_counter()
        await by_seat[seat].act(action)
        arrivals = await asyncio.gather(*(next_state(c) for c in conns))
        samples.timings.append((sent, max(at for at, _ in arrivals) - sent))
        states = {c.seat: slim(msg) for c, (_, msg) in zip(conns, arrivals)}


@dataclass
class Step:
    tables: int
    p50: float
    p99s: list[float]
    actions_per_second: float
    host_cpu: float
    client_cpu: float
    memory_per_table: float

    @property
    def p99(self) -> float:
        return median(self.p99s)


async def run_step(tables: int, think: float, warmup: float, runs: int, duration: float,
                   seed: int, store_dir: str | None, pin: bool) -> Step:
    rng = random.Random(seed)
    async with HostProcess(cpu=HOST_CPU if pin else None, data_parent=store_dir) as host:
        empty = await host.memory()
        seated = []
        for start in range(0, tables, 10):  # a few tables at a time: no connection storm
            seated += await asyncio.gather(*(seat_table(host, i)
                                             for i in range(start, min(tables, start + 10))))
        # One process stands in for hundreds of players' machines: its collector's pauses
        # would stall them all at once, which separate machines never do. Its cycles over a
        # step's seconds are few; collect them afterwards.
        gc.collect()
        gc.disable()
        samples = Samples()
        players = [asyncio.create_task(play_table(conns, think, random.Random(rng.random()),
                                                  samples)) for conns in seated]
        try:
            await asyncio.sleep(warmup)
            p99s, everything = [], []
            host_cpu, mine, started = host.cpu_seconds(), process_cpu_seconds(os.getpid()), \
                time.perf_counter()
            for _ in range(runs):
                begin = time.perf_counter()
                await asyncio.sleep(duration)
                window = samples.window(begin, time.perf_counter())
                if not window:
                    raise RuntimeError("no action finished in a whole window")
                p99s.append(percentile(window, 0.99))
                everything += window
            elapsed = time.perf_counter() - started
            host_share = (host.cpu_seconds() - host_cpu) / elapsed
            client_share = (process_cpu_seconds(os.getpid()) - mine) / elapsed
            in_play = await host.memory()
        finally:
            for task in players:
                task.cancel()
            await within(30, asyncio.gather(*players, return_exceptions=True), "stopping play")
            await within(30, asyncio.gather(*(conn.close() for conns in seated for conn in conns)),
                         "closing the clients")
            gc.enable()
    for task in players:
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()
    return Step(tables, percentile(everything, 0.5), p99s, len(everything) / elapsed,
                host_share, client_share, (in_play - empty) / tables)


def report(step: Step) -> None:
    verdict = "ok" if step.p99 < LIMIT else "over the limit"
    print(f"{step.tables:4d} tables: p50 {step.p50 * 1000:6.2f} ms, p99 {step.p99 * 1000:6.2f} ms "
          f"(runs {min(step.p99s) * 1000:.2f}-{max(step.p99s) * 1000:.2f}), "
          f"{step.actions_per_second:5.0f} actions/s, host CPU {step.host_cpu:4.0%}, "
          f"clients CPU {step.client_cpu:4.0%}, host memory {step.memory_per_table / 1024:.0f} KiB"
          f" per table: {verdict}", flush=True)
    if step.client_cpu > 0.9:
        print("      the clients' core is saturated: this step's latency is partly theirs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 100, 200, 300, 400, 600],
                        help="table counts to try, in increasing order")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds between actions at each table (default 1.0)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    parser.add_argument("--runs", type=int, default=3, help="measured windows per step")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per window")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-pin", action="store_true",
                        help="let the host and the clients run on any core (the host, one thread "
                        "of Python, still uses one core at most); on a shared machine pinning "
                        "makes them wait for the other work on their core")
    parser.add_argument("--store-dir", help="where the host keeps its store (default: a temporary "
                        "directory on disk); /dev/shm shows what the disk's fsync adds")
    args = parser.parse_args()
    if not args.no_pin:
        pin_to_cpu(CLIENT_CPU)
    raise_open_file_limit()
    where = "any core" if args.no_pin else f"core {HOST_CPU}, bot clients on core {CLIENT_CPU}"
    print(f"capacity: {PLAYERS}-player {GAME} tables, host on {where}, "
          f"one action per table every {args.think:g} s on average "
          f"({machine_note()}); store in {args.store_dir or 'a temporary directory on disk'}")
    best: Step | None = None
    for tables in args.tables:
        step = asyncio.run(within(
            args.warmup + args.runs * args.duration + 300,
            run_step(tables, args.think, args.warmup, args.runs, args.duration, args.seed,
                     args.store_dir, not args.no_pin),
            f"the step at {tables} tables"))
        report(step)
        if step.p99 >= LIMIT:
            break
        best = step
    if best is None:
        print(f"capacity: under {args.tables[0]} tables (p99 over {LIMIT * 1000:.0f} ms "
              "at the first step)")
    else:
        print(f"capacity: at least {best.tables} tables with p99 {best.p99 * 1000:.2f} ms "
              f"< {LIMIT * 1000:.0f} ms; host memory {best.memory_per_table / 1024:.0f} KiB "
              "per table")


if __name__ == "__main__":
    main()

"""Soak the host: many tables at once, each with 5 bot clients in other processes, over loopback.

    uv run python benchmarks/soak.py                      # 50 tables, 2 minutes
    uv run python benchmarks/soak.py --tables 10 --duration 30

This process runs the host (a real `netplay.host.Host` on 127.0.0.1, its store in a temporary
directory); the clients run in `--client-processes` other processes, each a hand-written raw
msgpack client that plays random legal moves and asks to play again until the time is up.
Each table's clients connect from their own loopback address (127.0.1.N), as players on a LAN
would, so the host's per-address limit stays in force.

It checks that every game completes, that no client gets an error frame or loses its link,
that the host logs no warning or error, and that the host's memory (RSS) is flat after the
warm-up; it prints its figures and exits 1 if any check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import re
import ssl
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

import msgpack

GAME = "timebomb"
SEATS = 5
FREE_ACTIONS = {"claim"}
VERSION = 5
"""`netplay.frames.PROTOCOL_VERSION`: the clients here speak raw frames, importing nothing."""


def client_context() -> ssl.SSLContext:
    """TLS 1.3 trusting any key, as a client of a table that is not private may."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


# -- the clients (in their own processes) --------------------------------------------------------


async def send(writer: asyncio.StreamWriter, message: dict) -> None:
    body = msgpack.packb({"v": VERSION, **message}, use_bin_type=True)
    writer.write(struct.pack(">I", len(body)) + body)
    await writer.drain()


async def receive(reader: asyncio.StreamReader) -> dict:
    header = await reader.readexactly(4)
    return msgpack.unpackb(await reader.readexactly(struct.unpack(">I", header)[0]), raw=False)


SILENCE = 30.0
"""Seconds a client waits for the host's next message before it counts itself stalled."""


async def bot_client(port: int, table_id: str, source: str, name: str, deadline: float,
                     think: float, rng: random.Random, tally: dict,
                     last_games: list[bool]) -> None:
    """Sit at the table and play until a game ends after the deadline, asking for a new game
    after each one. Every error frame, lost link and stall is counted.

    `last_games` is shared by the table's clients: for each game the table has ended, whether
    it was the last. The first client to see a game end decides for all of them, so that none
    asks for a new game that the others, leaving, never start."""
    async with asyncio.timeout(10):
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(source, 0), ssl=client_context(),
            server_hostname="gaslight")
    await send(writer, {"t": "hello", "name": name, "table": table_id})

    async def heartbeat():
        while True:
            await asyncio.sleep(5)
            await send(writer, {"t": "ping"})

    beating = asyncio.create_task(heartbeat())
    seat = None
    ended = 0  # the games this client has seen end
    over = False  # whether the latest state showed an ended game
    try:
        while True:
            try:
                async with asyncio.timeout(SILENCE):
                    message = await receive(reader)
            except TimeoutError:
                tally["stalls"].append(f"{name}: nothing from the host for {SILENCE:g} s")
                return
            kind = message["t"]
            if kind == "welcome":
                seat = message["seat"]
            elif kind == "error":
                tally["errors"].append(message["message"])
            elif kind == "state":
                view = message["view"]
                if view["outcome"] is not None:
                    if not over:  # the host may tell an ended game again
                        over, ended = True, ended + 1
                        if len(last_games) < ended:
                            last_games.append(time.monotonic() >= deadline)
                        if seat == 0:
                            tally["games"] += 1
                    if last_games[ended - 1]:
                        return
                    await send(writer, {"t": "play_again"})  # a new game once all have asked
                    continue
                over = False
                moves = [a for a in message["legal"] if a["type"] not in FREE_ACTIONS]
                if moves and seat in view["to_act"]:
                    if think:
                        await asyncio.sleep(rng.uniform(0, think))
                    await send(writer, {"t": "act", "action": rng.choice(moves)})
                    tally["actions"] += 1
    except (asyncio.IncompleteReadError, ConnectionError) as error:
        tally["lost_links"].append(f"{name}: {error!r}")
    finally:
        beating.cancel()
        writer.close()


async def run_clients(args) -> None:
    tables = args.tables.split(",")
    deadline = time.monotonic() + args.duration
    tally = {"games": 0, "actions": 0, "errors": [], "lost_links": [], "stalls": []}
    clients = []
    for offset, table_id in enumerate(tables):
        source = f"127.0.1.{args.first_index + offset + 1}"
        last_games: list[bool] = []
        for seat in range(SEATS):
            clients.append(bot_client(args.port, table_id, source, f"Bot {table_id}/{seat}",
                                      deadline, args.think,
                                      random.Random(f"{table_id}/{seat}"), tally, last_games))
    await asyncio.gather(*clients)
    print(json.dumps(tally), flush=True)


# -- the host and the figures ------------------------------------------------------------------


def rss() -> int:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1]) * 1024


class Complaints(logging.Handler):
    """Every warning or error the host logs."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


async def run_host(args) -> int:
    from netplay.host import Host
    from netplay.limits import HostLimits

    complaints = Complaints()
    logging.getLogger("gaslight").addHandler(complaints)
    with tempfile.TemporaryDirectory(prefix="gaslight-soak-") as data:
        host = Host(data_dir=Path(data), limits=HostLimits(bot_delay=0))
        _, port = await host.start("127.0.0.1", 0)
        table_ids = [host.create_table(GAME, SEATS, name=f"Soak {i}", start_when_full=True)
                     for i in range(args.tables)]
        per_process = -(-len(table_ids) // args.client_processes)
        started = time.monotonic()
        workers = []
        for first in range(0, len(table_ids), per_process):
            workers.append(await asyncio.create_subprocess_exec(
                sys.executable, __file__, "clients", "--port", str(port),
                "--tables", ",".join(table_ids[first:first + per_process]),
                "--first-index", str(first), "--duration", str(args.duration),
                "--think", str(args.think), stdout=asyncio.subprocess.PIPE))
        samples: list[tuple[float, int]] = []

        async def sample():
            while True:
                samples.append((time.monotonic() - started, rss()))
                await asyncio.sleep(args.sample_every)

        sampler = asyncio.create_task(sample())
        outputs = await asyncio.gather(*(w.communicate() for w in workers))
        elapsed = time.monotonic() - started
        sampler.cancel()
        phases = [t.phase for t in host.tables.values()]
        await host.stop()

    tallies = [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in outputs]
    games = sum(t["games"] for t in tallies)
    actions = sum(t["actions"] for t in tallies)
    errors = [e for t in tallies for e in t["errors"]]
    lost = [e for t in tallies for e in t["lost_links"]]
    stalls = [e for t in tallies for e in t["stalls"]]
    warm = [m for t, m in samples if t >= args.warmup]
    window = max(1, len(warm) // 5)
    early = statistics.median(warm[:window]) if warm else 0
    late = statistics.median(warm[-window:]) if warm else 0
    growth = late - early
    mib = 2**20

    print(f"soak: {args.tables} tables x {SEATS} bot clients in {len(workers)} processes, "
          f"{elapsed:.1f} s")
    print(f"  games completed:   {games} ({games / elapsed:.1f}/s); every table ended "
          f"{'over' if all(p == 'over' for p in phases) else 'NOT over'}")
    print(f"  moves played:      {actions} ({actions / elapsed:.0f}/s)")
    print(f"  error frames:      {len(errors)}; lost links: {len(lost)}; "
          f"host warnings: {len(complaints.records)}; stalled clients: {len(stalls)}")
    print(f"  host RSS:          {early / mib:.1f} MiB after {args.warmup:g} s warm-up, "
          f"{late / mib:.1f} MiB at the end (growth {growth / mib:+.2f} MiB, "
          f"peak {max(m for _, m in samples) / mib:.1f} MiB)")
    failures = []
    if games < args.tables:
        failures.append("fewer games than tables completed")
    if not all(p == "over" for p in phases):
        failures.append("a table's last game did not finish")
    if errors or lost or stalls or complaints.records:
        failures.append("errors: " + "; ".join((errors + lost + stalls + complaints.records)[:5]))
    if growth > args.rss_tolerance * mib:
        failures.append(f"host memory grew by {growth / mib:.1f} MiB after the warm-up")
    for failure in failures:
        print(f"  FAIL: {failure}")
    print("  OK" if not failures else "  FAILED")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="role")
    clients = sub.add_parser("clients", help="(internal) run the bot clients of some tables")
    clients.add_argument("--port", type=int, required=True)
    clients.add_argument("--tables", required=True)
    clients.add_argument("--first-index", type=int, default=0)
    clients.add_argument("--duration", type=float, required=True)
    clients.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--tables", type=int, default=50, help="tables at once (default 50)")
    parser.add_argument("--duration", type=float, default=120.0,
                        help="seconds of play before the last games (default 120)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds before memory is watched (default: a quarter)")
    parser.add_argument("--client-processes", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.02,
                        help="most seconds a bot client waits before its move (default 0.02)")
    parser.add_argument("--sample-every", type=float, default=0.5)
    parser.add_argument("--rss-tolerance", type=float, default=8.0,
                        help="MiB the host's RSS may grow after the warm-up (default 8)")
    args = parser.parse_args(argv)
    if args.role == "clients":
        asyncio.run(run_clients(args))
        return 0
    if args.warmup is None:
        args.warmup = args.duration / 4
    return asyncio.run(run_host(args))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())

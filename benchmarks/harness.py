"""Shared pieces of the network benchmarks: percentiles, a table's frames as the host builds
them, this machine's stalls, and a Gaslight host in its own process.

The benchmarks run the host in a subprocess, as in real play, so that it has a core of its own
and its figures (CPU, memory) are its alone. The parent drives it over a line-based JSON pipe:

    async with HostProcess(cpu=0) as host:
        table = await host.create_table("timebomb", 5)
        conn = await Connection.connect("127.0.0.1", host.port, name="P0", table=table,
                                        code=host.code)

The host listens on 127.0.0.1 only and never advertises. Its store goes to a temporary
directory, by default under the system's temporary directory (on this machine the same disk as
the user's data directory), so that each commit's fsync costs what it costs in play;
`data_parent` moves it, to a RAM disk say, to see what the disk adds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

# Run as a script, a benchmark has this folder first on sys.path, where a script named like a
# package (a benchmarks/engine.py, say) would shadow it. Every benchmark imports this module
# before `engine`, and this module takes the folder off the path once it is itself loaded.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402
from netplay.connection import Told, state_frame  # noqa: E402

PROJECT_ROOT = _HERE.parent
REPLY_TIMEOUT = 60.0


async def within(seconds: float, awaitable: Any, what: str) -> Any:
    """`awaitable`'s result, or, past `seconds`, every task's stack on stderr and an error:
    a benchmark that hangs says where instead of waiting for ever."""
    try:
        async with asyncio.timeout(seconds):
            return await awaitable
    except asyncio.TimeoutError:
        for task in asyncio.all_tasks():
            task.print_stack(limit=8, file=sys.stderr)
        raise RuntimeError(f"{what} took over {seconds:g} s; the tasks' stacks are above") from None


def percentile(values: Iterable[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with at least `fraction` of the values
    at or below it. A p99 of 300 samples is thus their third largest."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no samples")
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def spread(values: Sequence[float], scale: float = 1.0, unit: str = "") -> str:
    """'median (min-max)' of the per-run figures, for a line that shows how steady they were."""
    return (f"{median(values) * scale:.2f}{unit} "
            f"(runs {min(values) * scale:.2f}-{max(values) * scale:.2f})")


def machine_note() -> str:
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores, load average {load:.1f}"


def table_frames(game: engine.Game, told: dict[int, Told]) -> dict[int, tuple[bytes, Told]]:
    """Each viewer's `state` frame after a move, and what it has then been told, built as the
    host's `push_state` builds them: the views together, then each viewer's frame with its
    legal actions."""
    views = game.views(told)
    return {viewer: state_frame(was_told, game, views[viewer],
                                game.legal_actions(viewer) if viewer >= 0 else [])
            for viewer, was_told in told.items()}


def busy_thread_stalls(seconds: float = 2.0, over: float = 0.0002) -> list[float]:
    """The gaps, in seconds, longer than `over` between two clock readings of this thread
    while it does nothing else for `seconds`: the times the machine took the core away (a
    virtual machine's host, another process). Each such stall adds itself to whatever path it
    lands on, so their rate and length bound a p99 from below, whatever the code."""
    stalls = []
    clock = time.perf_counter
    last = clock()
    end = last + seconds
    while last < end:
        now = clock()
        if now - last > over:
            stalls.append(now - last)
        last = now
    return stalls


def stalls_note(seconds: float = 2.0, over: float = 0.0002) -> str:
    """One line on how often and how long this machine stalls a busy thread."""
    stalls = busy_thread_stalls(seconds, over)
    if not stalls:
        return f"a busy thread, {seconds:g} s: no stall over {over * 1000:g} ms"
    return (f"a busy thread, {seconds:g} s: {len(stalls) / seconds:.0f} stalls a second over "
            f"{over * 1000:g} ms, p50 {percentile(stalls, 0.50) * 1000:.2f} ms, "
            f"p90 {percentile(stalls, 0.90) * 1000:.2f} ms, "
            f"{sum(stalls) / seconds:.1%} of its time")


def pin_to_cpu(cpu: int | None) -> None:
    """Keep this process on one core, if the machine has it."""
    if cpu is not None and hasattr(os, "sched_setaffinity") and cpu < (os.cpu_count() or 1):
        os.sched_setaffinity(0, {cpu})


def raise_open_file_limit() -> None:
    """Hundreds of tables need more sockets than a default soft limit may allow."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------------------------
# The host process


class HostProcess:
    """A Gaslight host in a subprocess on 127.0.0.1, driven through its stdin and stdout."""

    def __init__(self, *, cpu: int | None = None, max_tables: int = 10_000,
                 data_parent: str | None = None, plaintext: bool = False):
        """`plaintext`: a host without TLS, for `latency.py` to measure what TLS costs; no
        Gaslight host can be made to run so (this one patches its door)."""
        self.cpu = cpu
        self.data_parent = data_parent
        self.max_tables = max_tables
        self.plaintext = plaintext
        self.port = 0
        self.code = ""
        """The host's table code, for clients that pair."""
        self.pid = 0
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> "HostProcess":
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", "--max-tables", str(self.max_tables),
            *(["--cpu", str(self.cpu)] if self.cpu is not None else []),
            *(["--data-parent", self.data_parent] if self.data_parent else []),
            *(["--plaintext"] if self.plaintext else []),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=PROJECT_ROOT,
        )
        self.pid = self._process.pid
        ready = await self._reply()
        self.port, self.code = ready["port"], ready["code"]
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        process = self._process
        if process is None:
            return
        with contextlib.suppress(Exception):
            async with asyncio.timeout(10):
                await self.request("stop")
        try:
            async with asyncio.timeout(10):
                await process.wait()
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()

    async def _reply(self) -> dict:
        assert self._process is not None and self._process.stdout is not None
        line = await self._process.stdout.readline()
        if not line:
            raise RuntimeError("the benchmark host exited; see its error output above")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"benchmark host: {reply['error']}")
        return reply

    async def request(self, command: str, **fields: Any) -> dict:
        assert self._process is not None and self._process.stdin is not None
        async with self._lock:
            self._process.stdin.write(json.dumps({"command": command, **fields}).encode() + b"\n")
            await self._process.stdin.drain()
            try:
                async with asyncio.timeout(REPLY_TIMEOUT):
                    return await self._reply()
            except asyncio.TimeoutError:
                raise RuntimeError(f"the benchmark host did not answer {command!r} within "
                                   f"{REPLY_TIMEOUT:g} s") from None

    async def create_table(self, game: str, players: int, options: dict | None = None) -> str:
        return (await self.request("create", game=game, players=players,
                                   options=options or {}))["table"]

    async def memory(self) -> int:
        """The host's resident memory in bytes, after a full garbage collection."""
        return (await self.request("memory"))["rss"]

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.pid)


def _resident_bytes() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def _serve(max_tables: int, data_parent: str | None, plaintext: bool) -> None:
    import gc

    import netplay.host
    from netplay.host import Host
    from netplay.limits import HostLimits
    from netplay.transport import Door

    class PlainDoor(Door):
        """Streams over the bare socket: the benchmark's plaintext baseline only."""

        async def open(self, sock):
            return await asyncio.open_connection(sock=sock)

    if plaintext:
        netplay.host.Door = PlainDoor

    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)

    def reply(**fields: Any) -> None:
        sys.stdout.write(json.dumps(fields) + "\n")
        sys.stdout.flush()

    with tempfile.TemporaryDirectory(prefix="gaslight-bench-", dir=data_parent) as data:
        # Lean benchmark clients send no heartbeat: a long run must not count them as dead.
        # The per-host table limit guards a LAN host against visitors; a capacity run needs more.
        host = Host(data_dir=Path(data), limits=HostLimits(
            bot_delay=0, max_connections_per_address=1_000_000, heartbeat_timeout=3600,
            max_tables=max_tables))
        _, port = await host.start("127.0.0.1", 0)
        reply(port=port, code=host.table_code)
        try:
            while line := await stdin.readline():
                request = json.loads(line)
                match request["command"]:
                    case "create":
                        try:
                            # Unattended: the measured players start it by sitting.
                            table = host.create_table(request["game"], request["players"],
                                                      request["options"], start_when_full=True)
                        except (engine.InvalidSetup, ValueError) as error:
                            reply(error=str(error))
                        else:
                            reply(table=table)
                    case "memory":
                        gc.collect()
                        reply(rss=_resident_bytes())
                    case "stop":
                        break
                    case other:
                        reply(error=f"unknown command {other!r}")
        finally:
            await host.stop()
    reply(stopped=True)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="run a benchmark host (used by the benchmarks)")
    parser.add_argument("--serve", action="store_true", required=True)
    parser.add_argument("--cpu", type=int)
    parser.add_argument("--max-tables", type=int, default=10_000)
    parser.add_argument("--data-parent", help="where the store's temporary directory goes")
    parser.add_argument("--plaintext", action="store_true",
                        help="no TLS: the baseline latency.py compares TLS with")
    arguments = parser.parse_args()
    pin_to_cpu(arguments.cpu)
    raise_open_file_limit()
    asyncio.run(_serve(arguments.max_tables, arguments.data_parent, arguments.plaintext))

"""Startup time: from launching `gaslight` to the lobby drawn on a terminal, warm.

    uv run python benchmarks/startup.py [--runs 7] [--command "uv run gaslight"]

Each run starts the command in a pseudo-terminal (80x24), reads what it draws, and stops the
clock when the lobby's table list title appears. One unmeasured run warms the caches first; the
figure is the median. Discovery is held to loopback and the name comes from GASLIGHT_NAME, so
the run never touches the network or the user's config. The warm-up writes the bytecode
caches even where PYTHONDONTWRITEBYTECODE is set. It also prints the CPU time the started
process used until then, which a busy machine inflates much less than the wall-clock time.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shlex
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

LOBBY_TEXT = b"Tables on your network"
TIMEOUT = 20.0


def one_run(command: list[str]) -> tuple[float, float]:
    """Seconds to the lobby on screen, and the CPU seconds the started process used."""
    env = dict(os.environ, GASLIGHT_NAME="Bench", GASLIGHT_INTERFACES="127.0.0.1",
               GASLIGHT_CONFIG_DIR=tempfile.mkdtemp(prefix="gaslight-bench-"),
               TERM="xterm-256color", COLUMNS="80", LINES="24")
    # "Warm" means compiled bytecode on disk, as every player has after a first start; some
    # development shells forbid writing it, which would measure a cold compile every run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        # Size the terminal before the app starts, or it would draw twice (before and after).
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execvpe(command[0], command, env)
    seen = b""
    try:
        while True:
            if time.perf_counter() - start > TIMEOUT:
                raise TimeoutError(f"no lobby within {TIMEOUT} s; last output: {seen[-300:]!r}")
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                raise RuntimeError(f"gaslight exited before the lobby: {seen[-500:]!r}")
            seen = seen[-4096:] + chunk
            if LOBBY_TEXT in seen:
                wall = time.perf_counter() - start
                break
    finally:
        # SIGKILL: the CPU figure must not include a graceful shutdown. The whole process
        # group, since pty.fork made the child a session leader: killing `uv` alone would
        # orphan the app it started, which then spins on its dead terminal.
        os.killpg(pid, signal.SIGKILL)
        _, _, usage = os.wait4(pid, 0)
        os.close(fd)
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--command", default="uv run gaslight")
    args = parser.parse_args()
    command = shlex.split(args.command)
    one_run(command)  # warm-up: bytecode and OS caches
    runs = [one_run(command) for _ in range(args.runs)]
    walls = [wall for wall, _ in runs]
    load = os.getloadavg()[0]
    print(f"command: {args.command}   (load average {load:.1f} on {os.cpu_count()} cores)")
    print("wall to lobby (s): " + " ".join(f"{t:.3f}" for t in walls))
    print(f"median wall to lobby: {statistics.median(walls):.3f} s (target < 1 s)")
    # CPU time suffers far less than wall time when other work shares the cores. Under
    # `uv run` it is uv's own CPU: gaslight runs in a child process of it.
    print(f"median CPU of the started process: {statistics.median(c for _, c in runs):.3f} s")


if __name__ == "__main__":
    sys.exit(main())

"""Tables that go on without the app that hosted them.

When the person who hosts a LAN table from the app quits, the table may keep running: the app
stops its own host and starts `gaslight host --resume` on the same store (the host's key, table
code, tables and port) as a process of its own, which outlives the app and its terminal. The
players' apps reconnect to it by themselves. Its pid is kept beside the store, so that the
lobby can stop it later; the seat book brings the person back to their seat meanwhile.

A pid is not a process for ever: a background host that stopped by itself leaves its pid
file, and the pid may be another program's by the time the lobby looks. So the file keeps the
process's start time beside its pid, and a pid whose process started at another time (or whose
start cannot be read) is never signalled: the file is stale, and goes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

STOP_TIMEOUT: Final = 5.0
"""Seconds a background host has to tell its players the table closed, and stop."""


def pid_file(data_dir: Path, store: str) -> Path:
    return data_dir / f"{store}.pid"


def keep_running(data_dir: Path, store: str, port: int, *, closed_by: str,
                 interfaces: list[str] | None = None, bot_delay: float | None = None) -> int:
    """Start a detached `gaslight host --resume` on `store` at `port`: its pid. `closed_by` is
    the person its players are told closed the table, if it is stopped."""
    # Once nobody has been at its tables for a while it stops, and the seat book brings the
    # table back in the app of whoever returns.
    command = [sys.executable, "-m", "tui.cli", "host", "--resume", "--store", store,
               "--data-dir", str(data_dir), "--port", str(port), "--closed-by", closed_by,
               "--stop-when-empty"]
    if interfaces is not None and len(interfaces) == 1:
        command += ["--interface", interfaces[0]]
    if bot_delay is not None:
        command += ["--bot-delay", str(bot_delay)]
    with open(data_dir / f"{store}.log", "ab") as log:
        # A session of its own: closing the app's terminal (SIGHUP) must not stop it.
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                   start_new_session=True)
    pid_file(data_dir, store).write_text(f"{process.pid} {started(process.pid)}")
    return process.pid


def started(pid: int) -> str | None:
    """When the process `pid` started, as the system tells it (None: no such process, or no
    way to tell): with the pid, it names one process for good."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        if Path("/proc/self/stat").exists():
            return None  # Linux, and no such process
    except OSError:
        return None
    else:
        # The second field is the command's name in parentheses, which may hold anything:
        # the fields are counted after its last ")". The state is the 3rd field (Z: it has
        # ended, and waits for its parent to notice), the start time the 22nd.
        fields = stat[stat.rindex(")") + 2:].split()
        return None if fields[0] == "Z" else fields[19]
    try:
        shown = subprocess.run(["ps", "-o", "lstart=", "-p", str(pid)], capture_output=True,
                               text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return shown.replace(" ", "_") or None


def running(data_dir: Path, store: str) -> int | None:
    """The pid of the background host on `store`, if it still runs; a pid file naming no
    process, or another process than the one started (its pid reused), is removed."""
    path = pid_file(data_dir, store)
    try:
        pid_text, _, start = path.read_text().partition(" ")
        pid = int(pid_text)
    except (OSError, ValueError):
        pid, start = None, ""
    if pid is not None and start and started(pid) == start.strip():
        return pid
    with contextlib.suppress(OSError):
        path.unlink()
    return None


def stop(data_dir: Path, store: str) -> bool:
    """Stop the background host on `store` (its players are told the table closed): whether
    one ran."""
    pid = running(data_dir, store)
    if pid is None:
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while running(data_dir, store) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        pid_file(data_dir, store).unlink()
    return True

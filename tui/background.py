"""Tables that go on without the app that hosted them.

When the person who hosts a LAN table from the app quits, the table may keep running: the app
stops its own host and starts `gaslight host --resume` on the same store (the host's key, table
code, tables and port) as a process of its own, which outlives the app and its terminal. The
players' apps reconnect to it by themselves. Its pid is kept beside the store, so that the
lobby can stop it later; the seat book brings the person back to their seat meanwhile.
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
    pid_file(data_dir, store).write_text(str(process.pid))
    return process.pid


def running(data_dir: Path, store: str) -> int | None:
    """The pid of the background host on `store`, if one runs."""
    path = pid_file(data_dir, store)
    try:
        pid = int(path.read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    return pid


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

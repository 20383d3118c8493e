"""Lines typed fast into a real app at a table: how many arrive other than as typed (issue 41).

    uv run python benchmarks/typing_bursts.py [--lines 200] [--where terminal,browser] [--no-hog]

A host on 127.0.0.1 runs a Time Bomb table of four: the app's player, a listening client that
records every chat line the table hears, and two bots that play on meanwhile (the app's
player is offered a claim at each deal and has a cut to make: dialogs open and close under
the keys). Beside it a process spins one core (the CPU hog), as a busy laptop does.

- **terminal**: `gaslight join` in a pseudo-terminal at 80x24; half the lines and their Enter
  are one write each, as a paste without bracketed paste or a multiplexer's line reach an
  app, half are typed a key every 5 to 40 ms, as a fast typist's keys.
- **browser**: a page of `gaslight serve` in Debian's Chromium; half the lines typed with no
  delay between keys (`keyboard.type`), half inserted at once, as a phone keyboard or an
  input method hands over a word (`keyboard.insert_text`), each then Enter.

The lines are generated, seeded: letters, accents, digits and punctuation, starting with any
of them, 1 to 120 characters. The figure is the number of lines that did not arrive exactly
as typed, in order (goal: 0). Every server listens on 127.0.0.1; the host never announces
itself beyond it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import pty
import random
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from support.chat_table import ARRIVAL, ChatTable, say_in_the_page, sit_in_the_page  # noqa: E402
from support.sentences import sentences  # noqa: E402

NAME = "Tess"

def misses(typed: list[str], heard: list[str]) -> int:
    """Lines that did not arrive exactly as typed, in their place; the first few are shown."""
    wrong = [(a, b) for a, b in zip(typed, heard) if a != b]
    for a, b in wrong[:3]:
        print(f"  typed {a!r}\n  heard {b!r}")
    return len(wrong) + abs(len(typed) - len(heard))


# -- the terminal ---------------------------------------------------------------------------


class Terminal:
    """`gaslight join` in a pseudo-terminal at 80x24, its output drained as it comes (a full
    pseudo-terminal would stop the app)."""

    def __init__(self, port: int, code: str) -> None:
        env = dict(os.environ, GASLIGHT_NAME=NAME, GASLIGHT_INTERFACES="127.0.0.1",
                   GASLIGHT_CONFIG_DIR=tempfile.mkdtemp(prefix="gaslight-typing-config-"),
                   GASLIGHT_DATA_DIR=tempfile.mkdtemp(prefix="gaslight-typing-data-"),
                   TERM="xterm-256color")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.execvpe(sys.executable, [sys.executable, "-m", "tui", "join", "--code", code,
                                        f"127.0.0.1:{port}"], env)
        self.output = bytearray()
        self.reading = threading.Thread(target=self.drain, daemon=True)
        self.reading.start()

    def drain(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self.fd, 65536):
                self.output = self.output[-65536:] + chunk

    def shows(self, text: str) -> bool:
        return text.encode() in self.output

    def write(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


async def in_the_terminal(table: ChatTable, lines: list[str]) -> int:
    terminal = Terminal(table.port, table.code)
    try:
        deadline = time.monotonic() + 60
        while not terminal.shows("Chat") or not terminal.shows("Role"):
            if time.monotonic() > deadline:
                raise RuntimeError("the app never sat at the table")
            await asyncio.sleep(0.2)
        rng = random.Random(len(lines))
        for n, line in enumerate(lines, 1):
            if n % 2:
                terminal.write(line + "\r")  # the line and its Enter, one write
            else:  # a fast typist: a key every 5 to 40 ms
                for key in line + "\r":
                    terminal.write(key)
                    await asyncio.sleep(rng.uniform(0.005, 0.040))
            await table.until_heard(n)
        return misses(lines, table.heard)
    finally:
        terminal.close()


# -- the browser ----------------------------------------------------------------------------


async def in_the_browser(table: ChatTable, lines: list[str]) -> int:
    from playwright.async_api import async_playwright
    from support.browser import Guest, launch, start_serve

    served = start_serve(Path(tempfile.mkdtemp(prefix="gaslight-typing-serve-")) / "data")
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            context = await browser.new_context(viewport={"width": 1000, "height": 700},
                                                ignore_https_errors=True)
            guest = await Guest.open(context, served.url)
            await sit_in_the_page(guest, table, NAME)
            await say_in_the_page(guest, table, lines)
            await browser.close()
        return misses(lines, table.heard)
    finally:
        served.stop()


async def measure(where: str, count: int, seed: int) -> int:
    lines = sentences(seed, count)
    table = ChatTable(Path(tempfile.mkdtemp(prefix="gaslight-typing-host-")), NAME,
                      advertise=where == "browser")
    await table.start()
    try:
        run = in_the_terminal if where == "terminal" else in_the_browser
        async with asyncio.timeout(count * ARRIVAL + 120):
            return await run(table, lines)
    finally:
        await table.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=200)
    parser.add_argument("--where", default="terminal,browser")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--no-hog", action="store_true", help="no process spinning a core")
    args = parser.parse_args()
    hog = None if args.no_hog else subprocess.Popen(
        [sys.executable, "-c", "while True: pass"])
    try:
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
              f"; CPU hog: {'no' if hog is None else 'one core'}")
        for where in args.where.split(","):
            wrong = asyncio.run(measure(where, args.lines, args.seed))
            print(f"{where}: {wrong} of {args.lines} lines arrived other than as typed "
                  f"(load {os.getloadavg()[0]:.2f})")
    finally:
        if hog is not None:
            hog.kill()


if __name__ == "__main__":
    main()

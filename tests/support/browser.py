"""A real `gaslight serve` and Debian's Chromium driven by Playwright: the browser tests' and
the browser benchmark's means of starting a server, opening guests' pages and reading what
xterm.js drew.

The page draws on a canvas, so its text is not in the DOM. The page hands its xterm.js terminal
to the window (`window.gaslightTerminal`, which its own script follows): the screen is that
terminal's buffer, row by row, what the guest sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
"""A phone upright, as Playwright emulates one: its size in CSS pixels, a finger's pointer.
At 1 pixel a CSS pixel: headless Chromium's screenshots of xterm's canvases at a phone's 3 show
only their top-left third, although the page lays out the same (the terminal 383 px wide)."""
PHONE_ON_ITS_SIDE = {**PHONE, "viewport": {"width": 844, "height": 390}}
TIMEOUT = 30.0
"""Seconds a test waits for the page to show something before it fails."""
SETTLED = 0.15
"""Seconds a screen holds still once the app has answered a key."""
SCREEN = """() => { const t = window.gaslightTerminal; const rows = [];
  for (let i = 0; i < t.rows; i++) rows.push(t.buffer.active.getLine(i).translateToString(true));
  return rows.join("\\n"); }"""


@dataclass
class Served:
    """A `gaslight serve` process and the address it printed."""

    process: subprocess.Popen
    url: str
    output: list[str] = field(default_factory=list)

    def app_processes(self) -> list[int]:
        """The pids of the apps this server runs, one per open page (from ps)."""
        listing = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.process.pid)],
                                 capture_output=True, text=True).stdout
        return [int(pid) for pid in listing.split()]

    def stop(self) -> None:
        """Stop the server as Ctrl-C does."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()


def start_serve(data_dir: Path, *arguments: str) -> Served:
    """`gaslight serve` on 127.0.0.1, any free port, its data in `data_dir` and its log (one
    line a request) beside it, in a file: a pipe nobody reads would stop it once full."""
    env = {**os.environ, "GASLIGHT_INTERFACES": "127.0.0.1"}
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(data_dir.with_name(data_dir.name + ".log"), "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "tui", "serve", "--port", "0", "--data-dir", str(data_dir),
             *arguments],
            stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    output = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"gaslight serve stopped; its log is {log.name}")
        output.append(line.rstrip("\n"))
        if line.startswith("at most "):
            break
    address = next(re.search(r"(https?://\S+)", line).group(1) for line in output
                   if line.startswith("Gaslight for browsers at "))
    return Served(process, address + "/", output)


async def launch(playwright):
    """Debian's Chromium, headless; never a browser Playwright downloads."""
    return await playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                            args=["--no-sandbox"])


class Guest:
    """One browser page with the app in it."""

    def __init__(self, page) -> None:
        self.page = page

    @classmethod
    async def open(cls, context, url: str) -> "Guest":
        page = await context.new_page()
        await page.goto(url, wait_until="domcontentloaded")
        guest = cls(page)
        await page.wait_for_function("() => window.gaslightTerminal", timeout=TIMEOUT * 1000)
        # The keys go where a guest's click puts them: the terminal.
        await page.focus(".xterm-helper-textarea")
        return guest

    async def screen(self) -> str:
        return await self.page.evaluate(SCREEN)

    async def wait_for(self, *texts: str, timeout: float = TIMEOUT, poll: float = 0.05) -> str:
        """The screen, once it shows one of `texts` (looked at every `poll` seconds)."""
        screen = ""
        try:
            async with asyncio.timeout(timeout):
                while not any(text in screen for text in texts):
                    await asyncio.sleep(poll)
                    screen = await self.screen()
        except TimeoutError:
            raise AssertionError(f"the page never showed {texts!r}; it shows:\n{screen}") from None
        return screen

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.page.keyboard.press(key)

    async def act(self, *keys: str, timeout: float = 3.0) -> str:
        """Press `keys`, then wait for the app's answer: the screen changes, then holds still
        for SETTLED seconds (one key may take more than one frame). The next look at the
        screen is then not the one the keys were pressed on."""
        before = await self.screen()
        await self.press(*keys)
        return await self.settled(before, timeout)

    async def type(self, text: str) -> None:
        await self.page.keyboard.type(text)

    # -- a phone: taps and its keyboard's text ---------------------------------------------------

    async def size(self) -> tuple[int, int]:
        return tuple(await self.page.evaluate(
            "() => [window.gaslightTerminal.cols, window.gaslightTerminal.rows]"))

    async def tap_cell(self, column: int, row: int) -> None:
        """A finger on the middle of a cell of the terminal."""
        await self.page.touchscreen.tap(*await self.cell_point(column, row))

    async def cell_point(self, column: int, row: int) -> tuple[float, float]:
        """The page's point in the middle of a cell of the terminal."""
        box = await self.page.locator(".xterm-screen").bounding_box()
        columns, rows = await self.size()
        width, height = box["width"] / columns, box["height"] / rows
        return box["x"] + (column + 0.5) * width, box["y"] + (row + 0.5) * height

    async def where(self, text: str, *, last: bool = False) -> tuple[int, int] | None:
        """The cell in the middle of `text` on the screen (its first showing, or its last)."""
        lines = (await self.screen()).splitlines()
        order = range(len(lines) - 1, -1, -1) if last else range(len(lines))
        for row in order:
            if (at := lines[row].find(text)) >= 0:
                return cell_len(lines[row][:at]) + cell_len(text) // 2, row
        return None

    async def tap(self, text: str, *, last: bool = False, timeout: float = TIMEOUT) -> str:
        """Tap `text` once it shows (a button's words, a row's); the screen after the app's
        answer, as `act` waits for it."""
        await self.wait_for(text, timeout=timeout)
        # As a person's eye does: the finger goes where the words have stayed for a moment
        # (a dialog just opened may still be finding its height).
        place, held = await self.where(text, last=last), None
        for _ in range(20):
            await asyncio.sleep(SETTLED)
            place, held = await self.where(text, last=last), place
            if place is not None and place == held:
                break
        column, row = place
        before = await self.screen()
        await self.tap_cell(column, row)
        return await self.settled(before)

    async def tap_for(self, text: str, shows: str, *, last: bool = False) -> str:
        """Tap `text` until the screen shows `shows`, three times at most, as a person taps a
        button again that a screen's change took from under their finger (the bar of buttons
        is made afresh when the keys change)."""
        for _ in range(2):
            await self.tap(text, last=last)
            with contextlib.suppress(AssertionError):
                return await self.wait_for(shows, timeout=5)
        await self.tap(text, last=last)
        return await self.wait_for(shows)

    async def insert(self, text: str) -> None:
        """Text from a phone's keyboard: inserted at once, no key pressed."""
        await self.page.keyboard.insert_text(text)

    async def settled(self, before: str, timeout: float = 3.0) -> str:
        """The screen once it changed from `before` and then held still for SETTLED seconds
        (or as it is after `timeout`)."""
        screen = before
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while screen == before:
                    await asyncio.sleep(0.02)
                    screen = await self.screen()
                while True:
                    await asyncio.sleep(SETTLED)
                    screen, last = await self.screen(), screen
                    if screen == last:
                        break
        return screen

    async def held_still(self, quiet: float = 0.3) -> str:
        """The screen once it has held still for `quiet` seconds (the lobby behind a form
        moves it as its tables come and go)."""
        screen, last = await self.screen(), None
        while screen != last:
            await asyncio.sleep(quiet)
            screen, last = await self.screen(), screen
        return screen

    async def give_name(self, name: str, *, by_phone: bool = False) -> None:
        """The name typed, or as a phone's keyboard gives it: its text at once; then Enter."""
        await self.wait_for("What name should the other players see?")
        await (self.insert(name) if by_phone else self.type(name))
        await self.press("Enter")
        await self.wait_for(f"Playing as {name}")
